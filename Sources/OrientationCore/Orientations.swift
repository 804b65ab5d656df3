/// How the device is held, in the seven states of docs/dbus-api.md (Orientations).
///
/// The raw values are Apple's (`UIDeviceOrientation`), so an iOS client maps one to one.
public enum DeviceOrientation: UInt32, Sendable, PublicName, CustomStringConvertible {
    /// No decision yet, or no sensor.
    case unknown = 0
    /// Standing (`isUpright`), gravity reading (0, -g, 0) upright, top edge up; (0, +g, 0) upside
    /// down; (-g, 0, 0) turned a quarter counter-clockwise, top edge to the left; (+g, 0, 0) turned
    /// a quarter clockwise, top edge to the right.
    case portrait, portraitUpsideDown, landscapeLeft, landscapeRight
    /// Lying (`isFlat`), gravity reading (0, 0, -g) screen up, (0, 0, +g) screen down.
    case faceUp, faceDown

    /// The public names used on the bus and in the command-line client, in the order of the cases.
    public static let names = [
        "unknown", "portrait", "portrait-upside-down", "landscape-left", "landscape-right", "face-up", "face-down",
    ]

    /// True for the four orientations in which the screen stands upright (portrait,
    /// portrait-upside-down, landscape-left, landscape-right).
    public var isUpright: Bool {
        switch self {
        case .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight: true
        case .unknown, .faceUp, .faceDown: false
        }
    }

    /// True for face-up and face-down.
    public var isFlat: Bool {
        self == .faceUp || self == .faceDown
    }

    /// The unit gravity direction of this orientation held exactly (docs/axes.md),
    /// or nil for `unknown`.
    public var gravityDirection: Vector3? {
        switch self {
        case .unknown: nil
        case .portrait: Vector3(0, -1, 0)
        case .portraitUpsideDown: Vector3(0, 1, 0)
        case .landscapeLeft: Vector3(-1, 0, 0)
        case .landscapeRight: Vector3(1, 0, 0)
        case .faceUp: Vector3(0, 0, -1)
        case .faceDown: Vector3(0, 0, 1)
        }
    }
}

/// Where the user interface would have to turn to stay upright (docs/dbus-api.md, Orientations).
///
/// The raw values are Apple's (`UIInterfaceOrientation`). As on iOS, device landscape-left means
/// interface landscape-right and the reverse.
public enum InterfaceOrientation: UInt32, Sendable, PublicName, CustomStringConvertible {
    /// Before the first upright decision.
    case unknown = 0
    /// Following device portrait and portrait-upside-down.
    case portrait, portraitUpsideDown
    /// Following device landscape-left and landscape-right, in that order (as on iOS).
    case landscapeRight, landscapeLeft

    /// The public names used on the bus and in the command-line client, in the order of the cases.
    public static let names = [
        "unknown", "portrait", "portrait-upside-down", "landscape-right", "landscape-left",
    ]

    /// The interface orientation that follows an upright device orientation: device landscape-left
    /// gives interface landscape-right and vice versa. Nil for face-up, face-down and unknown,
    /// which say nothing about where the interface should point.
    public init?(following device: DeviceOrientation) {
        switch device {
        case .portrait: self = .portrait
        case .portraitUpsideDown: self = .portraitUpsideDown
        case .landscapeLeft: self = .landscapeRight
        case .landscapeRight: self = .landscapeLeft
        case .unknown, .faceUp, .faceDown: return nil
        }
    }
}

/// A closed set of states with one public name each, the name the bus, the client and the
/// configuration use (`DeviceOrientation`, `InterfaceOrientation`, `HingeState`).
public protocol PublicName: CaseIterable, Equatable {
    /// The public names of `allCases`, in their order.
    static var names: [String] { get }
}

extension PublicName {
    /// The public name, e.g. "landscape-left".
    public var name: String {
        let cases = Self.allCases
        // Every value of a CaseIterable type is one of its cases.
        return Self.names[cases.distance(from: cases.startIndex, to: cases.firstIndex(of: self)!)]
    }

    /// The state with the given public name (exact, case-sensitive match), or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}

extension PublicName where Self: CustomStringConvertible {
    /// The public name.
    public var description: String { name }
}
