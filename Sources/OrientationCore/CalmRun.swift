/// The calm run: accepted readings at 1 g (within `calmMagnitudeBand`) that all stay within
/// `calmSpread` of the run's first reading. A run whose first reading jumped by `calmJumpAngle`
/// or more from the accepted reading before it ends a sudden turn (a step); once it has lasted
/// `calmSettleTime` (two readings at least) it is established, and its mean (`gravity`) stands in
/// for the filtered gravity, which still lags the jump by tens of degrees. Any run says how long
/// the readings have held still (`rests`), what a half turn on the filter's evidence waits for.
public struct CalmRun: Sendable, Equatable {
    /// The mean reading of the run while it is established after a sudden turn; nil otherwise.
    public private(set) var gravity: Vector3?
    /// When the run's first reading was taken (meaningful while `gravity` is set).
    public private(set) var start = 0.0
    // The run's first reading (nil when there is none), the sum and number of its readings, the
    // time of its last reading, the accepted reading just before it (nil when there was none
    // recently), and whether it began with a sudden turn (worked out once, when the run has two
    // readings; nil before).
    private var anchor: Vector3?
    private var sum = Vector3.zero
    private var count = 0
    private var time = 0.0
    private var jumpedFrom: Vector3?
    private var sudden: Bool?
    // The last accepted reading and its time (what a run jumped from).
    private var lastAccepted: Vector3?
    private var lastAcceptedTime = 0.0

    /// No run.
    public init() {}

    /// Extends the run with an accepted reading whose magnitude is `ratio` times the 1 g
    /// reference, starts a new run from it, or ends the run (magnitude off 1 g).
    public mutating func update(_ reading: Vector3, ratio: Double, at time: Double, _ settings: EstimatorSettings) {
        defer {
            lastAccepted = reading
            lastAcceptedTime = time
        }
        guard abs(ratio - 1) <= settings.calmMagnitudeBand else {
            end()
            return
        }
        let spread = settings.calmSpread
        if let anchor, time - self.time <= settings.maximumSampleGap,
            (reading - anchor).dot(reading - anchor) <= spread * spread * anchor.dot(anchor)
        {
            sum = sum + reading
            count += 1
        } else {
            anchor = reading
            start = time
            sum = reading
            count = 1
            sudden = nil
            jumpedFrom = time - lastAcceptedTime <= settings.maximumSampleGap ? lastAccepted : nil
        }
        self.time = time
        guard count >= 2 else {
            gravity = nil
            return
        }
        if sudden == nil, let anchor {
            sudden = jumpedFrom.map { $0.angle(to: anchor) >= settings.calmJumpAngle } ?? false
        }
        let established = sudden == true && time - start >= settings.calmSettleTime - settings.timingSlack
        gravity = established ? sum * (1 / Double(count)) : nil
    }

    /// Whether the readings have held still by `time`: a run (sudden or not) of three readings or
    /// more that began `calmSettleTime` ago or more. Three: two readings 0.1 s apart (10 Hz) agree
    /// as well at the slow end of an arm's raise, its last degrees turned in a tenth of a second.
    public func rests(at time: Double, _ settings: EstimatorSettings) -> Bool {
        anchor != nil && count >= 3 && time - start >= settings.calmSettleTime - settings.timingSlack
    }

    /// Ends the run (a rejected reading).
    public mutating func end() {
        anchor = nil
        count = 0
        gravity = nil
    }

    /// Ends the run and forgets the last accepted reading (a new timeline).
    public mutating func restart() {
        end()
        lastAccepted = nil
    }
}
