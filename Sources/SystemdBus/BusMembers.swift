/// An argument of a method or a signal: its name (introspection shows it) and D-Bus type.
public struct BusArgument: Equatable, Sendable {
    public var name: String
    public var signature: String

    public init(_ name: String, _ signature: String) {
        self.name = name
        self.signature = signature
    }
}

/// A method of a bus interface, typed like `BusProperty`: its raw value is the D-Bus name,
/// written once; the declaration order is the order of the object's vtable.
public protocol BusMethod: RawRepresentable<String>, CaseIterable, Sendable {
    var arguments: [BusArgument] { get }
    var results: [BusArgument] { get }
}

/// A signal of a bus interface, typed like `BusProperty`.
public protocol BusSignal: RawRepresentable<String>, CaseIterable, Sendable {
    var arguments: [BusArgument] { get }
}

extension BusMethod {
    public var arguments: [BusArgument] { [] }
    public var results: [BusArgument] { [] }
}

/// The methods of `io.github.MotionOrientation1` (docs/io.github.MotionOrientation1.xml).
public enum OrientationMethod: String, BusMethod {
    case start = "Start"
    case stop = "Stop"
    case readOrientation = "ReadOrientation"
    case setLowEnergyMode = "SetLowEnergyMode"

    public var arguments: [BusArgument] {
        self == .setLowEnergyMode ? [BusArgument("setting", "s")] : []
    }

    public var results: [BusArgument] {
        self == .readOrientation ? [BusArgument("device", "s"), BusArgument("interface", "s")] : []
    }
}

/// The signals of `io.github.MotionOrientation1`.
public enum OrientationSignal: String, BusSignal {
    case deviceOrientationChanged = "DeviceOrientationChanged"
    case interfaceOrientationChanged = "InterfaceOrientationChanged"
    case tabletModeChanged = "TabletModeChanged"

    public var arguments: [BusArgument] {
        switch self {
        case .deviceOrientationChanged, .interfaceOrientationChanged:
            [BusArgument("orientation", "s"), BusArgument("value", "u")]
        case .tabletModeChanged: [BusArgument("tablet_mode", "b")]
        }
    }
}

/// The methods of iio-sensor-proxy's `net.hadess.SensorProxy` (no arguments, no results).
public enum SensorProxyMethod: String, BusMethod {
    case claimAccelerometer = "ClaimAccelerometer"
    case releaseAccelerometer = "ReleaseAccelerometer"
    case claimLight = "ClaimLight"
    case releaseLight = "ReleaseLight"
    case claimProximity = "ClaimProximity"
    case releaseProximity = "ReleaseProximity"
}

/// The methods of `net.hadess.SensorProxy.Compass`.
public enum SensorProxyCompassMethod: String, BusMethod {
    case claimCompass = "ClaimCompass"
    case releaseCompass = "ReleaseCompass"
}
