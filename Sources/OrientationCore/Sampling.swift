/// What the daemon's sampling depends on, gathered by the I/O shell.
public struct SamplingInputs: Equatable, Sendable {
    /// Clients holding a claim (`Start()` without `Stop()`).
    public var claims: Int
    /// `ReadOrientation()` calls waiting for a fresh decision.
    public var pendingReads: Int
    /// Whether an accelerometer is there to read.
    public var hasAccelerometer: Bool
    /// Whether the estimator sees motion now (`isSettling`).
    public var moving: Bool
    /// Seconds since `moving` was last true; nil when it never was.
    public var secondsSinceMotion: Double?
    /// Seconds the device was still before the latest motion began (`MotionHistory`); infinity
    /// for the first motion seen, nil when not known (then the motion lingers as a repeat).
    public var stillBeforeMotion: Double?
    /// Whether low energy mode is in effect (`EnergyPolicy.reasons` is not empty).
    public var lowEnergy: Bool
    /// The overall thermal state.
    public var thermalState: ThermalState
    /// Suspended, or the lid is closed with `PauseWhenLidClosed=yes`.
    public var paused: Bool
    /// Whether the virtual tablet-mode switch exists: then both accelerometers are read for the
    /// hinge even with no claim.
    public var virtualSwitch: Bool
    /// Whether the hinge moves now (`HingeEstimator.lastMotionTime` is this reading's time).
    public var hingeMoving: Bool
    /// Seconds since the hinge last moved; nil when it never did.
    public var secondsSinceHingeMotion: Double?
    /// Whether the lid switch says closed: the hinge is then known (0) and not read for the
    /// virtual switch alone, whatever `PauseWhenLidClosed` says.
    public var lidClosed: Bool
    /// Whether the sensor is read through a buffer that delivers only changes (a HID sensor
    /// hub with a change sensitivity): a still device then sends nothing, whatever its rate.
    public var changeOnly: Bool

    public init(
        claims: Int, pendingReads: Int, hasAccelerometer: Bool, moving: Bool = false,
        secondsSinceMotion: Double? = nil, stillBeforeMotion: Double? = nil, lowEnergy: Bool = false,
        thermalState: ThermalState = .nominal, paused: Bool = false, virtualSwitch: Bool = false,
        hingeMoving: Bool = false, secondsSinceHingeMotion: Double? = nil, lidClosed: Bool = false,
        changeOnly: Bool = false
    ) {
        self.claims = claims
        self.pendingReads = pendingReads
        self.hasAccelerometer = hasAccelerometer
        self.moving = moving
        self.secondsSinceMotion = secondsSinceMotion
        self.stillBeforeMotion = stillBeforeMotion
        self.lowEnergy = lowEnergy
        self.thermalState = thermalState
        self.paused = paused
        self.virtualSwitch = virtualSwitch
        self.hingeMoving = hingeMoving
        self.secondsSinceHingeMotion = secondsSinceHingeMotion
        self.lidClosed = lidClosed
        self.changeOnly = changeOnly
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

/// The adaptive sampling policy: inputs in, plan out. Every interval is in milliseconds and
/// configurable in the `[Sampling]` section.
///
/// A still device is read slowly and a moving one fast, so a claim on a still device costs no
/// more reads than iio-sensor-proxy's fixed poll while a turn is still seen within the
/// estimator's settle time. Low energy mode slows both rates, a `critical` thermal state slows
/// them further.
public struct SamplingPolicy: SettingsTable, Equatable {
    /// While the device is still: fewer reads than iio-sensor-proxy's fixed 700 ms poll (1.33
    /// per second against 1.43). The first sample of a turn arrives within this interval and
    /// switches to the moving rate. Not 700: the readings a turn costs at the moving rate come on
    /// top, and over a mixed day (`make bench`: still with a quarter turn a minute, and small
    /// motion with a turn in 5 minutes, 600 s each) 700 ms made 1.03x iio-sensor-proxy's
    /// wakeups and 750 ms 0.97x, with spaced turns still decided at the linger interval
    /// (docs/testing.md, the mixed day).
    public var stillIntervalMsec: UInt32 = 750
    /// While the device moves: the estimator's settle time then spans several samples, so a
    /// turn is committed as soon as the evidence allows.
    public var movingIntervalMsec: UInt32 = 40
    /// How long the lingering rate lasts after the last motion: a user who just turned the device
    /// often turns it again, or is still adjusting it.
    public var motionLingerMsec: UInt32 = 5000
    /// The lingering rate: after the motion, for `motionLingerMsec`. The estimator's own evidence
    /// needs the moving rate only once it sees motion, and the first reading of a new turn does
    /// (`isSettling`), so the wait for it is what this interval sets: 60 ms on average, where
    /// the still interval would make it 375 ms, and a turn soon after another is decided in
    /// about 140 ms, under half of iio-sensor-proxy's time, at 8 reads a second instead of 25
    /// (`make bench`, the mixed day). Never shorter than the mode's moving interval nor longer
    /// than its still one.
    public var lingerIntervalMsec: UInt32 = 120
    /// The linger follows only a motion that repeats one: one that began less than this after the
    /// motion before it. A device turned once a minute is then read at the still rate right
    /// after each turn (a turn costs the few readings it is seen in), one turned again and again
    /// lingers from its second turn on. 0: every motion lingers. A turn a minute then costs
    /// about 5 reads more than the still rate's, not 130 (`make bench`, the mixed day).
    public var repeatWindowMsec: UInt32 = 20000
    /// Still interval in low energy mode.
    public var lowEnergyStillIntervalMsec: UInt32 = 1500
    /// Moving interval in low energy mode.
    public var lowEnergyMovingIntervalMsec: UInt32 = 100
    /// Still interval while the thermal state is `critical` (in any energy mode): every read
    /// is an I2C transaction and a wakeup the hot machine can do without.
    public var criticalStillIntervalMsec: UInt32 = 3000
    /// Moving interval while the thermal state is `critical`.
    public var criticalMovingIntervalMsec: UInt32 = 250
    /// While a `ReadOrientation()` waits: short, so the one-off answer comes within a few
    /// tens of milliseconds.
    public var acquisitionIntervalMsec: UInt32 = 20
    /// Both accelerometers, in one wakeup, while only the virtual tablet-mode switch needs them
    /// (no claim) and the hinge is still (`[Sampling] HingeIntervalMsec=`): a fold is seen
    /// within a second, at one wakeup per second.
    public var hingeIntervalMsec: UInt32 = 1000
    /// ...while the hinge moves, and `motionLingerMsec` after (`HingeMovingIntervalMsec=`):
    /// Chromium reads the lid angle every 100 ms; the tablet-mode evidence (0.3 s) then spans
    /// three or four readings.
    public var hingeMovingIntervalMsec: UInt32 = 100
    /// `hingeIntervalMsec` in low energy mode or a `critical` thermal state
    /// (`LowEnergyHingeIntervalMsec=`): twice the normal interval, a fold still seen within
    /// a few seconds.
    public var lowEnergyHingeIntervalMsec: UInt32 = 2000
    /// How often the thermal zones are read while sampling (not a sensor interval: no
    /// sampling, no thermal reads).
    public var thermalIntervalMsec: UInt32 = 5000

    /// Allowed range of the still and moving intervals (10 ms to 5 s). Five seconds stay
    /// within the estimator's `maximumSampleGap`, so slow samples still continue its filter.
    public static let intervalRange: ClosedRange<UInt32> = 10...5000
    /// Allowed range of `acquisitionIntervalMsec`: a waiting caller wants an answer soon.
    public static let acquisitionIntervalRange: ClosedRange<UInt32> = 10...1000
    /// Allowed range of `motionLingerMsec` (0: back to the still rate at once).
    public static let motionLingerRange: ClosedRange<UInt32> = 0...60000
    /// Allowed range of `thermalIntervalMsec`: zone reads cost little but are not free
    /// (the low end is for tests that cross trip points quickly).
    public static let thermalIntervalRange: ClosedRange<UInt32> = 100...60000

    public init() {}

    /// The plan for the given inputs, by the first rule that applies:
    /// 1. no accelerometer, or paused (suspend, closed lid): off. The daemon keeps the claims,
    ///    and answers a waiting read by its own timeout;
    /// 2. a `ReadOrientation()` waits: `acquisitionIntervalMsec`;
    /// 3. no claim: with the virtual tablet-mode switch and the lid not closed, the hinge
    ///    interval (`hingeMovingIntervalMsec` while the hinge moves or less than
    ///    `motionLingerMsec` after, else `hingeIntervalMsec`, at least `lowEnergyHingeIntervalMsec`
    ///    in low energy mode or a `critical` thermal state); otherwise off;
    /// 4. otherwise the moving interval while `moving`, the lingering interval
    ///    (`lingerIntervalMsec`, within the pair's two) less than `motionLingerMsec` after the
    ///    last motion, else the still interval, from the critical pair when the thermal
    ///    state is `critical`, else the low-energy pair in low energy mode, else the normal
    ///    pair. A slower mode never samples faster than a less frugal one, whatever the config
    ///    says: the low-energy intervals are at least the normal ones, the critical ones at
    ///    least the low-energy ones. With the virtual switch too, the shorter of that interval
    ///    and rule 3's hinge interval (a claim never slows the hinge down). A change-only
    ///    sensor (`changeOnly`) always gets the moving interval of its mode: its silence while
    ///    still costs no wakeups at any rate, and its first report of a turn then comes at
    ///    once instead of a still interval late.
    ///
    /// When the hinge is a tablet-mode source, the daemon reads the base in the same wakeups as
    /// the display.
    public func plan(_ inputs: SamplingInputs) -> SamplingPlan {
        guard inputs.hasAccelerometer, !inputs.paused else { return .off }
        if inputs.pendingReads > 0 { return .every(intervalMsec: acquisitionIntervalMsec) }
        let hinge = hingePlan(inputs)
        guard inputs.claims > 0 else { return hinge }
        let repeated =
            repeatWindowMsec == 0 || inputs.stillBeforeMotion.map { $0 * 1000 < Double(repeatWindowMsec) } ?? true
        let lingering = repeated && isMoving(false, secondsSince: inputs.secondsSinceMotion)
        let moving = inputs.changeOnly || inputs.moving
        var still = stillIntervalMsec
        var fast = movingIntervalMsec
        if inputs.lowEnergy || inputs.thermalState == .critical {
            still = max(still, lowEnergyStillIntervalMsec)
            fast = max(fast, lowEnergyMovingIntervalMsec)
        }
        if inputs.thermalState == .critical {
            still = max(still, criticalStillIntervalMsec)
            fast = max(fast, criticalMovingIntervalMsec)
        }
        let interval = moving ? fast : lingering ? min(max(lingerIntervalMsec, fast), still) : still
        if case .every(let hingeInterval) = hinge, hingeInterval < interval {
            return .every(intervalMsec: hingeInterval)
        }
        return .every(intervalMsec: interval)
    }

    /// The plan of the virtual switch alone (rule 3 of `plan`).
    func hingePlan(_ inputs: SamplingInputs) -> SamplingPlan {
        guard inputs.virtualSwitch, !inputs.lidClosed else { return .off }
        if isMoving(inputs.hingeMoving, secondsSince: inputs.secondsSinceHingeMotion) {
            return .every(intervalMsec: hingeMovingIntervalMsec)
        }
        if inputs.lowEnergy || inputs.thermalState == .critical {
            return .every(intervalMsec: max(hingeIntervalMsec, lowEnergyHingeIntervalMsec))
        }
        return .every(intervalMsec: hingeIntervalMsec)
    }

    /// Moving now, or less than `motionLingerMsec` after the last motion.
    private func isMoving(_ now: Bool, secondsSince: Double?) -> Bool {
        now || secondsSince.map { $0 * 1000 < Double(motionLingerMsec) } ?? false
    }

    /// What is wrong with these intervals, one English sentence each; empty when they are
    /// usable. Checks each interval's range and that each moving interval is at most its
    /// still interval.
    public func problems() -> [String] {
        var problems: [String] = []
        for field in Self.fields where !field.range.contains(self[field]) {
            problems.append(
                "\(field.name) is \(self[field]) ms, expected \(field.range.lowerBound) to "
                    + "\(field.range.upperBound)")
        }
        for (moving, still) in Self.pairs where self[moving] > self[still] {
            problems.append(
                "\(moving.name) (\(self[moving]) ms) is longer than \(still.name) "
                    + "(\(self[still]) ms)")
        }
        return problems
    }

    /// One configurable interval: its `[Sampling]` key, unit (milliseconds) and allowed range.
    public typealias Field = SettingsField<SamplingPolicy, UInt32>

    /// Every configurable interval, in the order of the documentation.
    public static var fields: [Field] {
        [
            Field("StillIntervalMsec", .milliseconds, intervalRange) { $1(&$0.stillIntervalMsec) },
            Field("MovingIntervalMsec", .milliseconds, intervalRange) { $1(&$0.movingIntervalMsec) },
            Field("MotionLingerMsec", .milliseconds, motionLingerRange) { $1(&$0.motionLingerMsec) },
            Field("LingerIntervalMsec", .milliseconds, intervalRange) { $1(&$0.lingerIntervalMsec) },
            Field("RepeatWindowMsec", .milliseconds, motionLingerRange) { $1(&$0.repeatWindowMsec) },
            Field("LowEnergyStillIntervalMsec", .milliseconds, intervalRange) { $1(&$0.lowEnergyStillIntervalMsec) },
            Field("LowEnergyMovingIntervalMsec", .milliseconds, intervalRange) { $1(&$0.lowEnergyMovingIntervalMsec) },
            Field("CriticalStillIntervalMsec", .milliseconds, intervalRange) { $1(&$0.criticalStillIntervalMsec) },
            Field("CriticalMovingIntervalMsec", .milliseconds, intervalRange) { $1(&$0.criticalMovingIntervalMsec) },
            Field("AcquisitionIntervalMsec", .milliseconds, acquisitionIntervalRange) {
                $1(&$0.acquisitionIntervalMsec)
            },
            Field("HingeIntervalMsec", .milliseconds, intervalRange) { $1(&$0.hingeIntervalMsec) },
            Field("HingeMovingIntervalMsec", .milliseconds, intervalRange) { $1(&$0.hingeMovingIntervalMsec) },
            Field("LowEnergyHingeIntervalMsec", .milliseconds, intervalRange) { $1(&$0.lowEnergyHingeIntervalMsec) },
            Field("ThermalIntervalMsec", .milliseconds, thermalIntervalRange) { $1(&$0.thermalIntervalMsec) },
        ]
    }

    /// The (moving, still) pairs whose moving interval must not be longer than the still one.
    static var pairs: [(moving: Field, still: Field)] {
        [
            ("MovingIntervalMsec", "StillIntervalMsec"),
            ("LowEnergyMovingIntervalMsec", "LowEnergyStillIntervalMsec"),
            ("CriticalMovingIntervalMsec", "CriticalStillIntervalMsec"),
            ("HingeMovingIntervalMsec", "HingeIntervalMsec"),
        ].map { (field(named: $0.0)!, field(named: $0.1)!) }
    }
}

/// When the estimator last saw motion, and how long the device was still before that motion
/// began: what `SamplingInputs.secondsSinceMotion` and `stillBeforeMotion` are made of. Readings
/// that see motion less than `episodeGap` apart are one motion (a turn's readings, its settling).
public struct MotionHistory: Equatable, Sendable {
    /// Quiet time that separates two motions, seconds: a turn is read at the moving rate from
    /// its first reading on, so its readings are well under this apart, while the first reading
    /// of the next turn comes a linger or still interval (120 or 750 ms) after the last one.
    public static let episodeGap = 0.5
    /// When a reading last saw motion; nil before the first.
    public private(set) var lastMotion: Double?
    /// Seconds of stillness before the latest motion began; infinity for the first one.
    public private(set) var stillBeforeMotion: Double?

    public init() {}

    /// Notes a reading at `time` (monotonic seconds) and whether it saw motion.
    public mutating func note(moving: Bool, at time: Double) {
        guard moving else { return }
        if let last = lastMotion {
            if time - last > Self.episodeGap { stillBeforeMotion = time - last }
        } else {
            stillBeforeMotion = .infinity
        }
        lastMotion = time
    }
}
