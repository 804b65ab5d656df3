// The orientations, notification names and userInfo keys of the MotionOrientation library.
// Raw values are Apple's (docs/dbus-api.md, Orientations), so code ported from iOS maps one to one.
import Foundation
import OrientationCore

/// How the device is held, from the display accelerometer: the daemon's device orientations
/// (the same cases, in the same order) with the raw values of `UIDeviceOrientation`:
/// `unknown` 0 (no decision yet, or no accelerometer), `portrait` 1 (upright, the top edge of
/// the screen up), `portraitUpsideDown` 2, `landscapeLeft` 3 (turned a quarter
/// counter-clockwise: the top edge of the screen on the left), `landscapeRight` 4 (a quarter
/// clockwise), `faceUp` 5 (lying flat, the screen up), `faceDown` 6.
public enum DeviceOrientation: Int, Sendable, CaseIterable, CustomStringConvertible, DaemonOrientation {
    case unknown, portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown
    typealias Daemon = OrientationCore.DeviceOrientation

    /// The name the daemon uses on the bus, e.g. "landscape-left" (the daemon's own table).
    public var name: String { daemonName }
    /// The orientation the daemon calls `name`, or nil for another word.
    public init?(name: String) { self.init(Daemon(name: name)) }

    /// Whether the device stands upright or upside down.
    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    /// Whether the device lies on one of its long edges.
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
    /// Whether the device lies flat.
    public var isFlat: Bool { self == .faceUp || self == .faceDown }

    public var description: String { name }
}

/// Where the user interface would have to turn to stay upright: the daemon's interface
/// orientations (the same cases, in the same order) with the raw values of
/// `UIInterfaceOrientation`: `unknown` 0 (before the first upright decision), `portrait` 1,
/// `portraitUpsideDown` 2, `landscapeRight` 3, `landscapeLeft` 4. As on iOS, device
/// landscape-left means interface landscape-right and the reverse.
public enum InterfaceOrientation: Int, Sendable, CaseIterable, CustomStringConvertible, DaemonOrientation {
    case unknown, portrait, portraitUpsideDown, landscapeRight, landscapeLeft
    typealias Daemon = OrientationCore.InterfaceOrientation

    /// The name the daemon uses on the bus, e.g. "landscape-right" (the daemon's own table).
    public var name: String { daemonName }
    /// The orientation the daemon calls `name`, or nil for another word.
    public init?(name: String) { self.init(Daemon(name: name)) }

    /// Whether the interface is upright or upside down.
    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    /// Whether the interface is turned a quarter either way.
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }

    public var description: String { name }
}

/// A library orientation type: one of the daemon's (OrientationCore's, with `UInt32` raw
/// values for the bus) under the `Int` raw values of the iOS library, case for case.
protocol DaemonOrientation: RawRepresentable<Int> {
    associatedtype Daemon: RawRepresentable<UInt32>, PublicName
}

extension DaemonOrientation {
    /// The orientation of the daemon's of the same raw value; nil for nil.
    init?(_ daemon: Daemon?) {
        guard let daemon else { return nil }
        self.init(rawValue: Int(daemon.rawValue))
    }

    /// The daemon's name of the orientation of the same raw value.
    var daemonName: String { Daemon(rawValue: UInt32(rawValue))?.name ?? "unknown" }
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
