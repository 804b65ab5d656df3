/// How the device is held, in the seven states of DESIGN.md section 3.
///
/// The raw values are Apple's (`UIDeviceOrientation`), so an iOS client maps one to one.
public enum DeviceOrientation: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// No decision yet, or no sensor.
    case unknown = 0
    /// Upright, top edge up: gravity reads (0, -g, 0).
    case portrait = 1
    /// Upside down, top edge down: gravity reads (0, +g, 0).
    case portraitUpsideDown = 2
    /// Turned a quarter counter-clockwise, top edge to the left: gravity reads (-g, 0, 0).
    case landscapeLeft = 3
    /// Turned a quarter clockwise, top edge to the right: gravity reads (+g, 0, 0).
    case landscapeRight = 4
    /// Lying screen up: gravity reads (0, 0, -g).
    case faceUp = 5
    /// Lying screen down: gravity reads (0, 0, +g).
    case faceDown = 6

    /// The public name used on the bus and in the command-line client, e.g. "landscape-left".
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .portrait: "portrait"
        case .portraitUpsideDown: "portrait-upside-down"
        case .landscapeLeft: "landscape-left"
        case .landscapeRight: "landscape-right"
        case .faceUp: "face-up"
        case .faceDown: "face-down"
        }
    }

    /// The orientation with the given public name (exact, case-sensitive match), or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

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

    /// The unit gravity direction of this orientation held exactly (DESIGN.md section 3),
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

    /// The public name.
    public var description: String { name }
}

/// Where the user interface would have to turn to stay upright (DESIGN.md section 3).
///
/// The raw values are Apple's (`UIInterfaceOrientation`). As on iOS, device landscape-left means
/// interface landscape-right and the reverse.
public enum InterfaceOrientation: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// Before the first upright decision.
    case unknown = 0
    /// Follows device portrait.
    case portrait = 1
    /// Follows device portrait-upside-down.
    case portraitUpsideDown = 2
    /// Follows device landscape-left.
    case landscapeRight = 3
    /// Follows device landscape-right.
    case landscapeLeft = 4

    /// The public name used on the bus and in the command-line client, e.g. "landscape-right".
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .portrait: "portrait"
        case .portraitUpsideDown: "portrait-upside-down"
        case .landscapeRight: "landscape-right"
        case .landscapeLeft: "landscape-left"
        }
    }

    /// The orientation with the given public name (exact, case-sensitive match), or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

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

    /// The public name.
    public var description: String { name }
}
