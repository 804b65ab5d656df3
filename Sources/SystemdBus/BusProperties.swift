/// A property of a bus interface: its raw value is the D-Bus name, written once; the
/// declaration order of the cases is the order of the object's vtable, so of its
/// introspection and of `GetAll`.
public protocol BusProperty: RawRepresentable<String>, CaseIterable, Sendable {
    /// The D-Bus type signature of the value ("s", "b", "as", ...).
    var signature: String { get }
}

/// The properties of `io.github.MotionOrientation1` (docs/dbus-api.md,
/// docs/io.github.MotionOrientation1.xml). Every one emits `PropertiesChanged`.
public enum OrientationProperty: String, BusProperty {
    case deviceOrientation = "DeviceOrientation"
    case interfaceOrientation = "InterfaceOrientation"
    case hasAccelerometer = "HasAccelerometer"
    case sensor = "Sensor"
    case sensorChoice = "SensorChoice"
    case active = "Active"
    case lowEnergyMode = "LowEnergyMode"
    case lowEnergyModeSetting = "LowEnergyModeSetting"
    case lowEnergyReasons = "LowEnergyReasons"
    case thermalState = "ThermalState"
    case sampleIntervalMsec = "SampleIntervalMsec"
    case tabletMode = "TabletMode"
    case tabletModeSource = "TabletModeSource"
    case hingeAngle = "HingeAngle"
    case hingeState = "HingeState"

    public var signature: String {
        switch self {
        case .hasAccelerometer, .active, .lowEnergyMode, .tabletMode: "b"
        case .lowEnergyReasons: "as"
        case .sampleIntervalMsec: "u"
        case .hingeAngle: "d"
        case .deviceOrientation, .interfaceOrientation, .sensor, .sensorChoice, .lowEnergyModeSetting,
            .thermalState, .tabletModeSource, .hingeState:
            "s"
        }
    }
}

/// The properties of iio-sensor-proxy's `net.hadess.SensorProxy`, as compatibility mode
/// serves them.
public enum SensorProxyProperty: String, BusProperty {
    case hasAccelerometer = "HasAccelerometer"
    case accelerometerOrientation = "AccelerometerOrientation"
    case accelerometerTilt = "AccelerometerTilt"
    case hasAmbientLight = "HasAmbientLight"
    case lightLevelUnit = "LightLevelUnit"
    case lightLevel = "LightLevel"
    case hasProximity = "HasProximity"
    case proximityNear = "ProximityNear"

    public var signature: String {
        switch self {
        case .hasAccelerometer, .hasAmbientLight, .hasProximity, .proximityNear: "b"
        case .accelerometerOrientation, .accelerometerTilt, .lightLevelUnit: "s"
        case .lightLevel: "d"
        }
    }
}

/// The properties of `net.hadess.SensorProxy.Compass`.
public enum SensorProxyCompassProperty: String, BusProperty {
    case hasCompass = "HasCompass"
    case compassHeading = "CompassHeading"

    public var signature: String {
        switch self {
        case .hasCompass: "b"
        case .compassHeading: "d"
        }
    }
}
