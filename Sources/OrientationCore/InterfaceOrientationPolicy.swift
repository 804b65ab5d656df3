/// Turns device orientations into the interface orientation (docs/dbus-api.md, Orientations).
///
/// It ignores face-up, face-down and unknown (keeping its last value) and every orientation that
/// is not in the allowed set, so a landscape-only kiosk never reports portrait.
public struct InterfaceOrientationPolicy: Sendable, Equatable {
    /// The four upright interface orientations: the default allowed set.
    public static let allUpright: Set<InterfaceOrientation> = [
        .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight,
    ]

    /// The interface orientations this policy may report (`unknown` is never part of it).
    public let allowed: Set<InterfaceOrientation>

    /// The current interface orientation; `unknown` before the first allowed upright decision.
    public private(set) var orientation: InterfaceOrientation = .unknown

    /// Creates a policy reporting only orientations in `allowed` (`unknown` in the set is ignored;
    /// an empty set means the policy stays `unknown` forever).
    public init(allowed: Set<InterfaceOrientation> = InterfaceOrientationPolicy.allUpright) {
        self.allowed = allowed.subtracting([.unknown])
    }

    /// Follows the device orientation: ignores faceUp/faceDown/unknown (keeps the last value) and
    /// orientations not in `allowed`. Returns the interface orientation after this update.
    @discardableResult
    public mutating func update(device: DeviceOrientation) -> InterfaceOrientation {
        if let next = InterfaceOrientation(following: device), allowed.contains(next) {
            orientation = next
        }
        return orientation
    }

    /// The interface orientation of a convertible used as a laptop: `portrait`, the display's
    /// natural orientation. The display's mount matrix makes its frame the panel's as the maker
    /// meant it to be seen (systemd's hwdb), which on a laptop is the lid upright above the
    /// keyboard: the top edge up, device `portrait` (iio-sensor-proxy's `normal`), whatever the
    /// panel's aspect. So a laptop lying on its side in bed, or the whole machine carried on its
    /// side, keeps this interface orientation.
    public static let laptopUpright = InterfaceOrientation.portrait

    /// Follows the device orientation as `update(device:)`, except while `laptopLock` is on
    /// (`LockInLaptopMode` in effect and `TabletMode` false): the interface orientation is then
    /// `laptopUpright` whatever the device does (kept at its last value instead when the allowed
    /// set excludes it). A tent or a folded tablet is in tablet mode and rotates as before. The
    /// device orientation itself is never locked: only this policy's output is. When the lock
    /// ends, call this with the current device orientation so the interface follows at once.
    @discardableResult
    public mutating func update(device: DeviceOrientation, laptopLock: Bool) -> InterfaceOrientation {
        guard laptopLock else { return update(device: device) }
        if allowed.contains(Self.laptopUpright) { orientation = Self.laptopUpright }
        return orientation
    }

    /// Forgets the current value (back to `unknown`), keeping the allowed set.
    public mutating func reset() {
        orientation = .unknown
    }
}
