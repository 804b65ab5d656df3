/// What the daemon's sampling depends on, gathered by the I/O shell.
public struct SamplingInputs: Equatable, Sendable {
    /// Clients holding a claim (`Start()` without `Stop()`).
    public var claims: Int
    /// `ReadOrientation()` calls waiting for a fresh decision.
    public var pendingReads: Int
    /// Whether an accelerometer is there to read.
    public var hasAccelerometer: Bool

    public init(claims: Int, pendingReads: Int, hasAccelerometer: Bool) {
        self.claims = claims
        self.pendingReads = pendingReads
        self.hasAccelerometer = hasAccelerometer
    }
}

/// How often to read the accelerometer, or not at all.
public enum SamplingPlan: Equatable, Sendable {
    /// No reads, no timers, no wakeups.
    case off
    /// Read every `intervalMsec` milliseconds.
    case every(intervalMsec: UInt32)

    /// The interval, 0 when off (the bus property `SampleIntervalMsec`).
    public var intervalMsec: UInt32 {
        switch self {
        case .off: return 0
        case .every(let interval): return interval
        }
    }
}

/// The sampling policy: inputs in, plan out.
public struct SamplingPolicy: Equatable, Sendable {
    /// Interval while clients hold claims, in milliseconds. Fast enough that the
    /// estimator's settle time is a few samples long.
    public var claimedIntervalMsec: UInt32 = 100
    /// Interval while only a `ReadOrientation()` is waiting, in milliseconds: short,
    /// so the one-off answer comes within a few tens of milliseconds.
    public var acquisitionIntervalMsec: UInt32 = 20

    public init() {}

    /// The plan for the given inputs.
    public func plan(_ inputs: SamplingInputs) -> SamplingPlan {
        guard inputs.hasAccelerometer else { return .off }
        if inputs.pendingReads > 0 { return .every(intervalMsec: acquisitionIntervalMsec) }
        if inputs.claims > 0 { return .every(intervalMsec: claimedIntervalMsec) }
        return .off
    }
}
