// What the daemon's announcements mean to a client: pure, no bus and no clock.
import OrientationCore
import SystemdBus

/// The streams of news the daemon announces that a client follows: the two orientations,
/// tablet mode and the hinge state.
public enum OrientationStream: String, CaseIterable, Sendable {
    case device
    case interface
    case tabletMode = "tablet-mode"
    case hingeState = "hinge-state"

    /// The stream a property of the daemon's interface is part of; nil for one that is part of
    /// none.
    public init?(property: OrientationProperty) {
        switch property {
        case .deviceOrientation: self = .device
        case .interfaceOrientation: self = .interface
        case .tabletMode, .tabletModeSource: self = .tabletMode
        case .hingeState, .hingeAngle: self = .hingeState
        default: return nil
        }
    }
}

/// A property's value as the bus carried it.
public enum PropertyValue: Equatable, Sendable {
    case string(String)
    case bool(Bool)
    case uint32(UInt32)
    case double(Double)
    case strings([String])
    /// A type a client does not read, by its signature.
    case other(signature: String)

    /// The value as `motion-orientation status` shows it: `yes`/`no` for booleans, an angle
    /// to a tenth, space-separated arrays, another type as its signature in parentheses.
    public var text: String {
        switch self {
        case .string(let value): value
        case .bool(let value): value ? "yes" : "no"
        case .uint32(let value): String(value)
        case .double(let value): degreesText(value)
        case .strings(let items): items.joined(separator: " ")
        case .other(let signature): "(\(signature))"
        }
    }
}

/// An angle in degrees as the client shows it: to a tenth of a degree, a whole number without
/// a fraction (`HingeAngle`'s unknown is "-1", a flat hinge "180" or "179.6").
public func degreesText(_ degrees: Double) -> String {
    guard degrees.isFinite else { return String(degrees) }
    let tenths = (degrees * 10).rounded()
    if tenths.truncatingRemainder(dividingBy: 10) == 0 { return String(Int64(tenths / 10)) }
    return String(tenths / 10)
}

/// The daemon's state as a client last heard it.
public struct OrientationState: Equatable, Sendable {
    public var device: DeviceOrientation = .unknown
    public var interface: InterfaceOrientation = .unknown
    /// `TabletMode`, `TabletModeSource` (`none`: no tablet mode to follow), `HingeState` and
    /// `HingeAngle` (-1: unknown); a daemon without them leaves these as they start.
    public var tabletMode = false
    public var tabletModeSource = TabletModeSource.none.name
    public var hingeState = HingeState.unknown.name
    public var hingeAngle = -1.0

    public init() {}

    /// The public name of one stream's state: an orientation, `tablet` or `laptop` (`unknown`
    /// while there is no tablet-mode source), a hinge state.
    public func name(_ stream: OrientationStream) -> String {
        switch stream {
        case .device: device.name
        case .interface: interface.name
        case .tabletMode: tabletModeSource == TabletModeSource.none.name ? "unknown" : tabletMode ? "tablet" : "laptop"
        case .hingeState: hingeState
        }
    }

    /// The number scripts get with a stream's name: an orientation's raw value (Apple's); for
    /// tablet mode 1 tablet, 0 laptop; for the hinge state its index in `unknown, closed,
    /// concave, flat, convex, full`.
    public func value(_ stream: OrientationStream) -> UInt32 {
        switch stream {
        case .device: device.rawValue
        case .interface: interface.rawValue
        case .tabletMode: tabletMode ? 1 : 0
        case .hingeState: HingeState(name: hingeState)?.rawValue ?? 0
        }
    }

    /// Whether the stream has something to say: not `unknown`.
    public func isKnown(_ stream: OrientationStream) -> Bool { name(stream) != "unknown" }

    /// Takes the value of a property of the daemon's interface and returns the stream it is
    /// part of; nil for a property a client does not follow, or a value of another type than
    /// the property's (nothing taken). An orientation name a client does not know reads as
    /// `unknown`.
    public mutating func take(_ name: String, _ value: PropertyValue) -> OrientationStream? {
        guard let property = OrientationProperty(rawValue: name), let stream = OrientationStream(property: property)
        else { return nil }
        switch (property, value) {
        case (.deviceOrientation, .string(let name)): device = DeviceOrientation(name: name) ?? .unknown
        case (.interfaceOrientation, .string(let name)): interface = InterfaceOrientation(name: name) ?? .unknown
        case (.tabletMode, .bool(let on)): tabletMode = on
        case (.tabletModeSource, .string(let source)): tabletModeSource = source
        case (.hingeState, .string(let state)): hingeState = state
        case (.hingeAngle, .double(let angle)): hingeAngle = angle
        default: return nil
        }
        return stream
    }

    /// What a `PropertiesChanged` of the daemon's interface means: every property it names
    /// taken, in its order.
    public func taking(_ changes: [PropertyEntry]) -> OrientationNews {
        var next = self
        var heard: [OrientationStream] = []
        for change in changes {
            if let stream = next.take(change.name, change.value), !heard.contains(stream) { heard.append(stream) }
        }
        return OrientationNews(before: self, state: next, heard: heard)
    }

    /// What a `GetAll` reply of the daemon's interface means: tablet mode and the hinge only.
    /// Without a claim the orientation properties are what the daemon announced last, maybe
    /// long ago; the fresh ones come from `ReadOrientation()`.
    public func takingTabletMode(fromAll properties: [PropertyEntry]) -> OrientationNews {
        let orientations = [OrientationProperty.deviceOrientation, .interfaceOrientation].map(\.rawValue)
        return taking(properties.filter { !orientations.contains($0.name) })
    }

    /// What a `ReadOrientation()` reply of a device and an interface orientation name means.
    public func taking(device: String, interface: String) -> OrientationNews {
        taking([
            (OrientationProperty.deviceOrientation.rawValue, .string(device)),
            (OrientationProperty.interfaceOrientation.rawValue, .string(interface)),
        ])
    }

    /// The streams whose public name differs from `before`'s, in `OrientationStream` order. A
    /// value that repeats the state is no change: the daemon's own first decision can arrive
    /// after a reading, or again after a restart.
    public func changes(since before: OrientationState) -> [OrientationStream] {
        OrientationStream.allCases.filter { before.name($0) != name($0) }
    }
}

/// One property of a `GetAll` reply or of a `PropertiesChanged`: its name and value.
public typealias PropertyEntry = (name: String, value: PropertyValue)

/// What one signal or reply of the daemon told a client.
public struct OrientationNews: Equatable, Sendable {
    /// The state before it and after it.
    public var before: OrientationState
    public var state: OrientationState
    /// The streams it spoke of, changed or not, in the order it named them.
    public var heard: [OrientationStream]

    /// The streams whose public name changed, in `OrientationStream` order.
    public var changed: [OrientationStream] { state.changes(since: before) }
}
