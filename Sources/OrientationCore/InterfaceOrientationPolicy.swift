/// Turns device orientations into the interface orientation (DESIGN.md section 3).
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

    /// Forgets the current value (back to `unknown`), keeping the allowed set.
    public mutating func reset() {
        orientation = .unknown
    }
}
