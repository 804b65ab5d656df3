/// Every constant of `OrientationEstimator`, named, with its unit, default and reason.
///
/// Units: times in seconds, angles in degrees, magnitudes as fractions of the (self-calibrated)
/// 1 g reference unless stated otherwise. Each setting has an allowed range (a `...Range` static);
/// `problems()` lists the settings outside it and `clamped()` brings them back. The estimator
/// always works with `clamped()` settings, so a bad configuration cannot make it misbehave.
public struct EstimatorSettings: Sendable, Equatable {
    // MARK: Low-pass gravity filter

    /// Time constant of the gravity low-pass filter while the reading's magnitude is close to
    /// the 1 g reference (the device turns or rests, nothing shakes it). Seconds, default 0.1.
    /// Short enough that a deliberate turn shows within a few tenths of a second, long enough to
    /// smooth hand tremor (8-12 Hz).
    public var filterTimeConstant = 0.1
    /// Allowed range of `filterTimeConstant`.
    public static let filterTimeConstantRange = 0.01...1.0

    /// Time constant used while the signal is disturbed (the reading's magnitude is off the
    /// 1 g reference by `disturbanceFullScale` or more). Seconds, default 0.3. Linear
    /// acceleration (walking, shaking) then gets averaged out harder. Between the two levels the
    /// time constant is interpolated linearly.
    public var disturbedFilterTimeConstant = 0.3
    /// Allowed range of `disturbedFilterTimeConstant`.
    public static let disturbedFilterTimeConstantRange = 0.01...3.0

    /// Magnitude deviation from the 1 g reference at which the filter fully uses
    /// `disturbedFilterTimeConstant`. Fraction of 1 g, default 0.2: a turning device keeps
    /// |a| = 1 g, shaking and walking change it by tenths of a g.
    public var disturbanceFullScale = 0.2
    /// Allowed range of `disturbanceFullScale`.
    public static let disturbanceFullScaleRange = 0.01...1.0

    /// Longest time between two samples that still continues the filter. Seconds, default 6.
    /// A longer gap (or time going backwards) restarts the filter from the new sample and
    /// restarts any pending evidence, because the old state says nothing about the device now.
    /// Six seconds leave room for the daemon's slowest sampling interval (5 s, see
    /// `SamplingPolicy.intervalRange`) with a late wakeup; samples further apart than this can
    /// still give a first decision but never change a committed one.
    public var maximumSampleGap = 6.0
    /// Allowed range of `maximumSampleGap`.
    public static let maximumSampleGapRange = 0.1...60.0

    // MARK: 1 g reference and magnitude gate

    /// Starting value of the 1 g reference. m/s^2, default 9.80665 (standard gravity).
    public var nominalGravity = 9.80665
    /// Allowed range of `nominalGravity`.
    public static let nominalGravityRange = 1.0...100.0

    /// Time constant of the running 1 g reference estimate once it has this much steady
    /// evidence; before that it is a plain mean of all steady samples. Seconds, default 5. Slow,
    /// so that a brief steady non-1 g condition (an elevator, a car braking) barely moves it.
    public var referenceTimeConstant = 5.0
    /// Allowed range of `referenceTimeConstant`.
    public static let referenceTimeConstantRange = 0.1...600.0

    /// Steady evidence needed before the 1 g reference is trusted. Seconds, default 0.05 (two
    /// samples at 20 Hz). Until then the magnitude gate only checks the plausible scale range,
    /// so that a sensor with a wrong absolute scale still gives a fast first decision.
    public var referenceTrustTime = 0.05
    /// Allowed range of `referenceTrustTime`.
    public static let referenceTrustTimeRange = 0.0...10.0

    /// Smallest |a| that may count as 1 g at all, as a fraction of `nominalGravity`; default 0.4.
    /// Below it a reading is free fall (or a dead sensor) and never calibrates the reference.
    /// Sensor scale errors down to x0.4 are supported.
    public var minimumPlausibleScale = 0.4
    /// Allowed range of `minimumPlausibleScale`.
    public static let minimumPlausibleScaleRange = 0.05...0.95

    /// Largest |a| that may count as 1 g, as a fraction of `nominalGravity`; default 2.5. Scale
    /// errors up to x2.5 are supported; above it a reading is a shock or saturation.
    public var maximumPlausibleScale = 2.5
    /// Allowed range of `maximumPlausibleScale`.
    public static let maximumPlausibleScaleRange = 1.05...20.0

    /// Largest change between consecutive raw readings for them to count as steady ("calm"), as
    /// a fraction of the previous reading's magnitude; default 0.05. Sensor noise and tremor stay
    /// well under it, a shake does not. Calm readings calibrate the 1 g reference, and the very
    /// first decision waits for one.
    public var calmChange = 0.05
    /// Allowed range of `calmChange`.
    public static let calmChangeRange = 0.001...0.5

    /// Lower magnitude gate: readings with |a| below this fraction of the 1 g reference are free
    /// fall or throw and are rejected. Default 0.6 (Android rejects beyond about 0.4 g off 1 g).
    public var lowerMagnitudeGate = 0.6
    /// Allowed range of `lowerMagnitudeGate`.
    public static let lowerMagnitudeGateRange = 0.1...0.95

    /// Upper magnitude gate: readings with |a| above this fraction of the 1 g reference are
    /// shocks, taps or saturation and are rejected. Default 1.4.
    public var upperMagnitudeGate = 1.4
    /// Allowed range of `upperMagnitudeGate`.
    public static let upperMagnitudeGateRange = 1.05...5.0

    /// How long commits stay blocked after a rejected reading (garbage, free fall, shock).
    /// Seconds, default 0.3: the moments right after a bump are not trustworthy either.
    public var disturbanceHoldTime = 0.3
    /// Allowed range of `disturbanceHoldTime`.
    public static let disturbanceHoldTimeRange = 0.0...5.0

    /// Smallest magnitude of the filtered gravity estimate, as a fraction of the 1 g reference,
    /// for it to propose anything; default 0.5. A fast swing averages opposite readings into a
    /// short vector whose direction means little.
    public var minimumFilteredMagnitude = 0.5
    /// Allowed range of `minimumFilteredMagnitude`.
    public static let minimumFilteredMagnitudeRange = 0.1...0.95

    // MARK: Angles

    /// Hysteresis: an upright orientation is kept until the in-plane gravity direction is more
    /// than this many degrees away from its axis. Degrees, default 60, so a switch to the
    /// adjacent orientation happens 15 degrees past the 45 degree boundary (Android's listener
    /// uses a similar gap), and a device held at 45 degrees never chatters.
    public var switchAngle = 60.0
    /// Allowed range of `switchAngle`.
    public static let switchAngleRange = 55.0...65.0

    /// With no upright orientation to hold on to (first decision, or leaving face-up/down that
    /// was entered first), the in-plane direction must be within this many degrees of an axis to
    /// propose it. Degrees, default 40: a 5 degree margin from the ambiguous 45.
    public var firstDecisionAxisAngle = 40.0
    /// Allowed range of `firstDecisionAxisAngle`.
    public static let firstDecisionAxisAngleRange = 20.0...44.0

    /// Tilt (angle between gravity and the screen plane) above which no upright orientation is
    /// proposed: the device lies too flat for its in-plane direction to mean anything. Degrees,
    /// default 70.
    public var uprightTiltLimit = 70.0
    /// Allowed range of `uprightTiltLimit`.
    public static let uprightTiltLimitRange = 60.0...85.0

    /// Tilt beyond which face-up (screen toward the sky) or face-down is entered. Degrees,
    /// default 70.
    public var faceEnterTilt = 70.0
    /// Allowed range of `faceEnterTilt`.
    public static let faceEnterTiltRange = 65.0...85.0

    /// Tilt below which face-up or face-down is left again. Degrees, default 60: 10 degrees of
    /// hysteresis so a device propped at 65 degrees does not flip between face-up and upright.
    public var faceLeaveTilt = 60.0
    /// Allowed range of `faceLeaveTilt`.
    public static let faceLeaveTiltRange = 40.0...64.0

    /// Commits happen only while the filtered gravity direction turns slower than this. Degrees
    /// per second, default 45. A fast flip (hundreds of degrees per second) therefore never
    /// commits the landscape it passes through; a slow deliberate tilt (a few degrees per second)
    /// still commits.
    public var steadyAngularSpeed = 45.0
    /// Allowed range of `steadyAngularSpeed`.
    public static let steadyAngularSpeedRange = 5.0...720.0

    /// Time constant over which the angular speed compared with `steadyAngularSpeed` is averaged.
    /// Seconds, default 0.05. The speed from one sample to the next jitters with sensor noise and
    /// tremor, more at high sample rates (short steps); averaging over a fixed time makes the gate
    /// open at the same moment at 10, 25 or 50 Hz. Short, so that it adds little delay.
    public var angularSpeedTimeConstant = 0.05
    /// Allowed range of `angularSpeedTimeConstant`.
    public static let angularSpeedTimeConstantRange = 0.0...1.0

    /// A move of the filtered direction by more than this between two readings makes
    /// `isSettling` true (motion), whatever the time between them. Degrees, default 10. An
    /// adaptive sampler reads a still device slowly (e.g. every 0.7 s), so the first reading of a
    /// turn shows a jump rather than a speed above `steadyAngularSpeed`; this lets it switch to its
    /// fast rate at once. Noise and tremor move it by a few degrees at most, even between readings
    /// seconds apart. Does not affect decisions.
    public var motionStepAngle = 10.0
    /// Allowed range of `motionStepAngle`.
    public static let motionStepAngleRange = 1.0...45.0

    // MARK: Rotation holds (flat, swing, overhead)
    //
    // A rotation is a commit of an upright orientation other than the last committed upright one
    // (after the first decision). While a flat period, a swing or an overhead pose lasts, and for a
    // short hold time after it, rotations wait; face-up, face-down and the return to the last
    // upright orientation do not. The in-plane direction of a device being picked up, put down or
    // held above one's face says little about how the user wants the screen (Android's listener
    // has the same three rules).

    /// Hold after a flat period: rotations wait this long after the filtered tilt was last beyond
    /// `uprightTiltLimit` (face up or face down). Seconds, default 0.5: picking a device up from a
    /// table takes about that long, and its in-plane direction swings meanwhile.
    public var flatHoldTime = 0.5
    /// Allowed range of `flatHoldTime`.
    public static let flatHoldTimeRange = 0.0...5.0

    /// Tilt speed of the filtered gravity above which the device is swinging (being put down,
    /// picked up, swung toward or away from the face). Degrees per second, default 60 (Android:
    /// 20 degrees within 0.3 s). A turn about the screen normal keeps the tilt constant and never
    /// counts; hand tremor, filtered, stays under 20 degrees per second.
    public var swingTiltSpeed = 60.0
    /// Allowed range of `swingTiltSpeed`.
    public static let swingTiltSpeedRange = 10.0...720.0

    /// Hold after a swing: rotations wait this long after the tilt last changed faster than
    /// `swingTiltSpeed`. Seconds, default 0.3, enough for the hand to come to rest.
    public var swingHoldTime = 0.3
    /// Allowed range of `swingHoldTime`.
    public static let swingHoldTimeRange = 0.0...5.0

    /// Screen-down tilt beyond which the device is held overhead (someone lying on their back,
    /// reading with the screen facing down at them). Degrees, default 40 (Android's listener uses
    /// the same). While overhead, the in-plane direction keeps the last upright orientation instead
    /// of proposing another (a first decision is still made); face-down still applies beyond
    /// `faceEnterTilt`.
    public var overheadTilt = 40.0
    /// Allowed range of `overheadTilt`.
    public static let overheadTiltRange = 20.0...65.0

    /// Hold after an overhead pose: rotations wait this long after the screen last faced down by
    /// more than `overheadTilt`. Seconds, default 0.5: sitting up again is a swing of its own.
    /// With no upright orientation committed yet (e.g. lifted from face-down into an overhead
    /// pose) there is nothing to keep, and the overhead pose blocks nothing.
    public var overheadHoldTime = 0.5
    /// Allowed range of `overheadHoldTime`.
    public static let overheadHoldTimeRange = 0.0...5.0

    // MARK: Evidence timers

    /// Evidence time for the first decision after init or reset: the same unambiguous proposal,
    /// a calm reading and a steady direction for this long. Seconds, default 0.05, so a still
    /// device is decided on its second sample at 20 Hz (the daemon's ReadOrientation waits for
    /// a fresh decision). Without a calm reading (a shaken device) the first decision takes
    /// `quarterTurnSettleTime` instead.
    public var firstDecisionSettleTime = 0.05
    /// Allowed range of `firstDecisionSettleTime`.
    public static let firstDecisionSettleTimeRange = 0.0...2.0

    /// Evidence time before committing a 90 degree change (e.g. portrait to landscape, or upright
    /// to face-up). Seconds, default 0.2: short enough to feel immediate, long enough to ride out
    /// a wobble past the switch angle.
    public var quarterTurnSettleTime = 0.2
    /// Allowed range of `quarterTurnSettleTime`.
    public static let quarterTurnSettleTimeRange = 0.0...5.0

    /// Evidence time before committing a 180 degree change (portrait to upside-down, landscape
    /// to landscape, face-up to face-down). Seconds, default 0.4: a half turn is rarely wanted
    /// briefly, and a wrong one is the most annoying. It is counted from the moment another
    /// orientation was first proposed, since a half turn passes through a quarter turn on its way;
    /// the final proposal must also have lasted `quarterTurnSettleTime`. A 0.5 s flip is thus
    /// committed about 0.2 s after it ends, a sudden one (a step) about 0.5 s after it.
    public var halfTurnSettleTime = 0.4
    /// Allowed range of `halfTurnSettleTime`.
    public static let halfTurnSettleTimeRange = 0.0...10.0

    // MARK: Calm fast path
    //
    // A device that jumps to a new pose and rests there (a brisk quarter turn sampled slowly, a
    // device set down, a fake device in a test rig) needs neither the low-pass filter nor the
    // settle time to be believed: a short run of steady readings at 1 g is evidence enough, and
    // the filter would lag the jump by tens of degrees for a tenth of a second. A calm run is a
    // sequence of accepted readings, each with a magnitude within `calmMagnitudeBand` of the
    // 1 g reference and within `calmSpread` of the run's first reading; any other reading (or a
    // rejected one, or a gap) ends it. A run whose first reading jumped `calmJumpAngle` or more
    // from the reading before it is the end of a sudden turn; once it has lasted
    // `calmSettleTime` (and has at least two readings), its mean proposes orientations instead of
    // the filtered gravity, and a candidate that appears meanwhile commits at once: the run
    // replaces `quarterTurnSettleTime` and the angular speed gate. Half turns still wait
    // `halfTurnSettleTime` since the device left the committed orientation, and the rotation
    // holds (flat, swing, overhead) and `disturbanceHoldTime` still apply. Smooth turns, slow
    // sweeps, shaking, walking, a drop, tremor near 45 degrees and heavy noise take the
    // filtered, settle-time path as before.

    /// Evidence time of the calm fast path: how long a calm run after a sudden turn must last
    /// before it may commit. Seconds, default 0.08: three readings at 25 Hz, five at 50 Hz, two at
    /// 10 Hz (0.1 s apart), so a step is committed 80-100 ms after the first reading that shows
    /// it, against about 0.3 s through the filter (time constant 0.1 s to carry the estimate past
    /// `switchAngle`) and `quarterTurnSettleTime`. Long enough that one stray reading, or two
    /// that happen to agree, never commit, and that a device still turning faster than about
    /// `calmSpread` (2.9 degrees) per `calmSettleTime` (36 degrees per second, under
    /// `steadyAngularSpeed`) cannot keep a run going. Independent of `quarterTurnSettleTime`
    /// (`SettleTimeMsec=` in the configuration), which stays the evidence time of every other
    /// change.
    public var calmSettleTime = 0.08
    /// Allowed range of `calmSettleTime`.
    public static let calmSettleTimeRange = 0.02...1.0

    /// Largest distance of a reading from the first reading of its calm run, as a fraction of that
    /// reading's magnitude; default 0.05 (about 2.9 degrees). Sensor noise of a resting device
    /// (0.01 g) and light tremor stay within it; a moving device, 0.03 g noise or 3 degrees of
    /// tremor leave it within a reading or two.
    public var calmSpread = 0.05
    /// Allowed range of `calmSpread`.
    public static let calmSpreadRange = 0.005...0.3

    /// Largest deviation of a calm reading's magnitude from the 1 g reference, as a fraction of
    /// it; default 0.05. Linear acceleration (walking, shaking, a bump) changes |a| by tenths of
    /// a g; a device at rest reads 1 g.
    public var calmMagnitudeBand = 0.05
    /// Allowed range of `calmMagnitudeBand`.
    public static let calmMagnitudeBandRange = 0.005...0.3

    /// Smallest change of direction, from the last accepted reading to the first reading of a
    /// calm run, for the run to count as the end of a sudden turn. Degrees, default 30 (half the
    /// switch angle). Only such runs take the calm fast path: a jump of this size between two
    /// readings is a step (a device set down in a new pose, a fake device in a test rig) or a turn
    /// faster than the sampling, and the low-pass filter lags it by tens of degrees. A smooth
    /// turn sampled at 10-50 Hz ends with small changes between readings (about 14 degrees for a
    /// 0.4 s turn at 10 Hz) and keeps the filtered, settle-time path at every rate, so its
    /// decisions stay the same within a sample period whatever the rate.
    public var calmJumpAngle = 30.0
    /// Allowed range of `calmJumpAngle`.
    public static let calmJumpAngleRange = 10.0...90.0

    /// Tolerance when comparing elapsed times with settle times. Seconds, default 0.001: sample
    /// timestamps jitter, and 0.05 s of evidence measured as 0.0499999 must still count.
    public var timingSlack = 0.001
    /// Allowed range of `timingSlack`.
    public static let timingSlackRange = 0.0...0.01

    /// Creates the default settings.
    public init() {}

    /// One setting outside its allowed range.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// The setting's property name, e.g. "switchAngle".
        public var name: String
        /// The value given.
        public var value: Double
        /// The allowed range.
        public var allowed: ClosedRange<Double>

        /// E.g. "switchAngle = 80.0 is outside 55.0...65.0".
        public var description: String {
            "\(name) = \(value) is outside \(allowed.lowerBound)...\(allowed.upperBound)"
        }
    }

    /// Every setting with its value and allowed range, in declaration order.
    public var entries: [(name: String, value: Double, allowed: ClosedRange<Double>)] {
        [
            ("filterTimeConstant", filterTimeConstant, Self.filterTimeConstantRange),
            (
                "disturbedFilterTimeConstant", disturbedFilterTimeConstant,
                Self.disturbedFilterTimeConstantRange
            ),
            ("disturbanceFullScale", disturbanceFullScale, Self.disturbanceFullScaleRange),
            ("maximumSampleGap", maximumSampleGap, Self.maximumSampleGapRange),
            ("nominalGravity", nominalGravity, Self.nominalGravityRange),
            ("referenceTimeConstant", referenceTimeConstant, Self.referenceTimeConstantRange),
            ("referenceTrustTime", referenceTrustTime, Self.referenceTrustTimeRange),
            ("minimumPlausibleScale", minimumPlausibleScale, Self.minimumPlausibleScaleRange),
            ("maximumPlausibleScale", maximumPlausibleScale, Self.maximumPlausibleScaleRange),
            ("calmChange", calmChange, Self.calmChangeRange),
            ("lowerMagnitudeGate", lowerMagnitudeGate, Self.lowerMagnitudeGateRange),
            ("upperMagnitudeGate", upperMagnitudeGate, Self.upperMagnitudeGateRange),
            ("disturbanceHoldTime", disturbanceHoldTime, Self.disturbanceHoldTimeRange),
            ("minimumFilteredMagnitude", minimumFilteredMagnitude, Self.minimumFilteredMagnitudeRange),
            ("switchAngle", switchAngle, Self.switchAngleRange),
            ("firstDecisionAxisAngle", firstDecisionAxisAngle, Self.firstDecisionAxisAngleRange),
            ("uprightTiltLimit", uprightTiltLimit, Self.uprightTiltLimitRange),
            ("faceEnterTilt", faceEnterTilt, Self.faceEnterTiltRange),
            ("faceLeaveTilt", faceLeaveTilt, Self.faceLeaveTiltRange),
            ("steadyAngularSpeed", steadyAngularSpeed, Self.steadyAngularSpeedRange),
            ("angularSpeedTimeConstant", angularSpeedTimeConstant, Self.angularSpeedTimeConstantRange),
            ("motionStepAngle", motionStepAngle, Self.motionStepAngleRange),
            ("flatHoldTime", flatHoldTime, Self.flatHoldTimeRange),
            ("swingTiltSpeed", swingTiltSpeed, Self.swingTiltSpeedRange),
            ("swingHoldTime", swingHoldTime, Self.swingHoldTimeRange),
            ("overheadTilt", overheadTilt, Self.overheadTiltRange),
            ("overheadHoldTime", overheadHoldTime, Self.overheadHoldTimeRange),
            ("firstDecisionSettleTime", firstDecisionSettleTime, Self.firstDecisionSettleTimeRange),
            ("quarterTurnSettleTime", quarterTurnSettleTime, Self.quarterTurnSettleTimeRange),
            ("halfTurnSettleTime", halfTurnSettleTime, Self.halfTurnSettleTimeRange),
            ("calmSettleTime", calmSettleTime, Self.calmSettleTimeRange),
            ("calmSpread", calmSpread, Self.calmSpreadRange),
            ("calmMagnitudeBand", calmMagnitudeBand, Self.calmMagnitudeBandRange),
            ("calmJumpAngle", calmJumpAngle, Self.calmJumpAngleRange),
            ("timingSlack", timingSlack, Self.timingSlackRange),
        ]
    }

    /// The settings outside their allowed range (NaN is always outside); empty when all are fine.
    public func problems() -> [Problem] {
        entries.compactMap { entry in
            entry.allowed.contains(entry.value)
                ? nil : Problem(name: entry.name, value: entry.value, allowed: entry.allowed)
        }
    }

    /// A copy with every setting brought into its allowed range (NaN becomes the default).
    public func clamped() -> EstimatorSettings {
        let defaults = EstimatorSettings()
        func fix(_ value: Double, _ range: ClosedRange<Double>, _ fallback: Double) -> Double {
            value.isNaN ? fallback : min(max(value, range.lowerBound), range.upperBound)
        }
        var s = self
        s.filterTimeConstant = fix(
            filterTimeConstant, Self.filterTimeConstantRange, defaults.filterTimeConstant)
        s.disturbedFilterTimeConstant = fix(
            disturbedFilterTimeConstant, Self.disturbedFilterTimeConstantRange,
            defaults.disturbedFilterTimeConstant)
        s.disturbanceFullScale = fix(
            disturbanceFullScale, Self.disturbanceFullScaleRange, defaults.disturbanceFullScale)
        s.maximumSampleGap = fix(
            maximumSampleGap, Self.maximumSampleGapRange, defaults.maximumSampleGap)
        s.nominalGravity = fix(nominalGravity, Self.nominalGravityRange, defaults.nominalGravity)
        s.referenceTimeConstant = fix(
            referenceTimeConstant, Self.referenceTimeConstantRange, defaults.referenceTimeConstant)
        s.referenceTrustTime = fix(
            referenceTrustTime, Self.referenceTrustTimeRange, defaults.referenceTrustTime)
        s.minimumPlausibleScale = fix(
            minimumPlausibleScale, Self.minimumPlausibleScaleRange, defaults.minimumPlausibleScale)
        s.maximumPlausibleScale = fix(
            maximumPlausibleScale, Self.maximumPlausibleScaleRange, defaults.maximumPlausibleScale)
        s.calmChange = fix(calmChange, Self.calmChangeRange, defaults.calmChange)
        s.lowerMagnitudeGate = fix(
            lowerMagnitudeGate, Self.lowerMagnitudeGateRange, defaults.lowerMagnitudeGate)
        s.upperMagnitudeGate = fix(
            upperMagnitudeGate, Self.upperMagnitudeGateRange, defaults.upperMagnitudeGate)
        s.disturbanceHoldTime = fix(
            disturbanceHoldTime, Self.disturbanceHoldTimeRange, defaults.disturbanceHoldTime)
        s.minimumFilteredMagnitude = fix(
            minimumFilteredMagnitude, Self.minimumFilteredMagnitudeRange,
            defaults.minimumFilteredMagnitude)
        s.switchAngle = fix(switchAngle, Self.switchAngleRange, defaults.switchAngle)
        s.firstDecisionAxisAngle = fix(
            firstDecisionAxisAngle, Self.firstDecisionAxisAngleRange, defaults.firstDecisionAxisAngle)
        s.uprightTiltLimit = fix(
            uprightTiltLimit, Self.uprightTiltLimitRange, defaults.uprightTiltLimit)
        s.faceEnterTilt = fix(faceEnterTilt, Self.faceEnterTiltRange, defaults.faceEnterTilt)
        s.faceLeaveTilt = fix(faceLeaveTilt, Self.faceLeaveTiltRange, defaults.faceLeaveTilt)
        s.steadyAngularSpeed = fix(
            steadyAngularSpeed, Self.steadyAngularSpeedRange, defaults.steadyAngularSpeed)
        s.angularSpeedTimeConstant = fix(
            angularSpeedTimeConstant, Self.angularSpeedTimeConstantRange, defaults.angularSpeedTimeConstant)
        s.motionStepAngle = fix(motionStepAngle, Self.motionStepAngleRange, defaults.motionStepAngle)
        s.flatHoldTime = fix(flatHoldTime, Self.flatHoldTimeRange, defaults.flatHoldTime)
        s.swingTiltSpeed = fix(swingTiltSpeed, Self.swingTiltSpeedRange, defaults.swingTiltSpeed)
        s.swingHoldTime = fix(swingHoldTime, Self.swingHoldTimeRange, defaults.swingHoldTime)
        s.overheadTilt = fix(overheadTilt, Self.overheadTiltRange, defaults.overheadTilt)
        s.overheadHoldTime = fix(
            overheadHoldTime, Self.overheadHoldTimeRange, defaults.overheadHoldTime)
        s.firstDecisionSettleTime = fix(
            firstDecisionSettleTime, Self.firstDecisionSettleTimeRange, defaults.firstDecisionSettleTime)
        s.quarterTurnSettleTime = fix(
            quarterTurnSettleTime, Self.quarterTurnSettleTimeRange, defaults.quarterTurnSettleTime)
        s.halfTurnSettleTime = fix(
            halfTurnSettleTime, Self.halfTurnSettleTimeRange, defaults.halfTurnSettleTime)
        s.calmSettleTime = fix(calmSettleTime, Self.calmSettleTimeRange, defaults.calmSettleTime)
        s.calmSpread = fix(calmSpread, Self.calmSpreadRange, defaults.calmSpread)
        s.calmMagnitudeBand = fix(calmMagnitudeBand, Self.calmMagnitudeBandRange, defaults.calmMagnitudeBand)
        s.calmJumpAngle = fix(calmJumpAngle, Self.calmJumpAngleRange, defaults.calmJumpAngle)
        s.timingSlack = fix(timingSlack, Self.timingSlackRange, defaults.timingSlack)
        return s
    }
}
