// The orientations, notification names and userInfo keys of the MotionOrientation library.
// Raw values are Apple's (DESIGN.md section 3), so code ported from iOS maps one to one.
import Foundation
import OrientationCore

/// How the device is held, from the display accelerometer. The raw values are those of
/// `UIDeviceOrientation`.
public enum DeviceOrientation: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// No decision yet, or no accelerometer.
    case unknown = 0
    /// Upright, the top edge of the screen up.
    case portrait = 1
    /// Upside down, the top edge of the screen down.
    case portraitUpsideDown = 2
    /// Turned a quarter counter-clockwise: the top edge of the screen on the left.
    case landscapeLeft = 3
    /// Turned a quarter clockwise: the top edge of the screen on the right.
    case landscapeRight = 4
    /// Lying flat, the screen up.
    case faceUp = 5
    /// Lying flat, the screen down.
    case faceDown = 6

    /// The name the daemon uses on the bus, e.g. "landscape-left" (the daemon's own table).
    public var name: String { OrientationCore.DeviceOrientation(rawValue: UInt32(rawValue))?.name ?? "unknown" }

    /// The orientation the daemon calls `name`, or nil for another word.
    public init?(name: String) {
        guard let core = OrientationCore.DeviceOrientation(name: name) else { return nil }
        self.init(rawValue: Int(core.rawValue))
    }

    /// Whether the device stands upright or upside down.
    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    /// Whether the device lies on one of its long edges.
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
    /// Whether the device lies flat.
    public var isFlat: Bool { self == .faceUp || self == .faceDown }

    public var description: String { name }

    /// The daemon's orientation of the same raw value.
    init(_ core: OrientationCore.DeviceOrientation) {
        self = DeviceOrientation(rawValue: Int(core.rawValue)) ?? .unknown
    }
}

/// Where the user interface would have to turn to stay upright. The raw values are those
/// of `UIInterfaceOrientation`; as on iOS, device landscape-left means interface
/// landscape-right and the reverse.
public enum InterfaceOrientation: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Before the first upright decision.
    case unknown = 0
    /// The interface upright (device portrait).
    case portrait = 1
    /// The interface upside down (device portrait upside down).
    case portraitUpsideDown = 2
    /// The interface turned for device landscape-left.
    case landscapeRight = 3
    /// The interface turned for device landscape-right.
    case landscapeLeft = 4

    /// The name the daemon uses on the bus, e.g. "landscape-right" (the daemon's own table).
    public var name: String { OrientationCore.InterfaceOrientation(rawValue: UInt32(rawValue))?.name ?? "unknown" }

    /// The orientation the daemon calls `name`, or nil for another word.
    public init?(name: String) {
        guard let core = OrientationCore.InterfaceOrientation(name: name) else { return nil }
        self.init(rawValue: Int(core.rawValue))
    }

    /// Whether the interface is upright or upside down.
    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    /// Whether the interface is turned a quarter either way.
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }

    public var description: String { name }

    /// The daemon's orientation of the same raw value.
    init(_ core: OrientationCore.InterfaceOrientation) {
        self = InterfaceOrientation(rawValue: Int(core.rawValue)) ?? .unknown
    }
}

// The notification names are the iOS library's, kept so that ported code reads the same.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Posted when the device orientation changes. `object` is the `MotionOrientation`
/// instance; `userInfo` holds `kMotionOrientationDeviceOrientationKey` (and, for
/// convenience, `kMotionOrientationInterfaceOrientationKey`) as `Int` raw values.
public let MotionOrientationChangedNotification = Notification.Name("MotionOrientationChangedNotification")

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Posted when the interface orientation changes. `object` is the `MotionOrientation`
/// instance; `userInfo` holds `kMotionOrientationInterfaceOrientationKey` (and, for
/// convenience, `kMotionOrientationDeviceOrientationKey`) as `Int` raw values.
public let MotionOrientationInterfaceOrientationChangedNotification = Notification.Name(
    "MotionOrientationInterfaceOrientationChangedNotification")

/// The userInfo key of the device orientation: an `Int`, a `DeviceOrientation` raw value.
public let kMotionOrientationDeviceOrientationKey = "kMotionOrientationDeviceOrientationKey"

/// The userInfo key of the interface orientation: an `Int`, an `InterfaceOrientation`
/// raw value.
public let kMotionOrientationInterfaceOrientationKey = "kMotionOrientationInterfaceOrientationKey"

extension Notification.Name {
    /// `MotionOrientationChangedNotification`, for Swift call sites.
    public static let motionOrientationChanged = MotionOrientationChangedNotification
    /// `MotionOrientationInterfaceOrientationChangedNotification`, for Swift call sites.
    public static let motionOrientationInterfaceOrientationChanged =
        MotionOrientationInterfaceOrientationChangedNotification
}

/// A failed request to the daemon: the D-Bus error name (for example
/// `org.freedesktop.DBus.Error.AccessDenied`) and its message.
public struct MotionOrientationError: Error, Sendable, CustomStringConvertible {
    /// The D-Bus error name, or `errno` text when the call did not reach the daemon.
    public var name: String
    /// What went wrong, in words.
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }
}
