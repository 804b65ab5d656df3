/// When a client claims the sensor, lets it go and claims it again: pure, so that the rules
/// are tested without a daemon.
///
/// A claim belongs to one daemon: one that leaves the bus takes its claims along, and one that
/// comes (back) starts with none. Each claim is preceded by a reading: with no claim the
/// daemon answers `ReadOrientation()` from new samples, while right after a claim it would
/// answer with whatever it announced last, which may be from long ago.
public struct ClaimPlan: Equatable, Sendable {
    /// What the follower does next.
    public enum Step: Equatable, Sendable {
        /// Read the daemon's state (`GetAll`, then `ReadOrientation()`), then `Start()`.
        case readAndClaim
        /// `Stop()`.
        case release
    }

    /// Whether the caller wants a claim.
    public private(set) var wanted = false
    /// Whether a claim was sent to the daemon that owns the name now.
    public private(set) var held = false

    public init() {}

    /// The caller wants a claim, or no longer does.
    public mutating func want(_ wanted: Bool) -> Step? {
        self.wanted = wanted
        if wanted && !held {
            held = true
            return .readAndClaim
        }
        if !wanted && held {
            held = false
            return .release
        }
        return nil
    }

    /// The daemon's bus name changed owner: `present` when it has one now (the daemon came
    /// or came back), false when the daemon left.
    public mutating func ownerChanged(present: Bool) -> Step? {
        held = false
        return present ? want(wanted) : nil
    }
}
