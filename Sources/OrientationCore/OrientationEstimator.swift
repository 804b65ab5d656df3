/// Turns a stream of timestamped accelerometer readings into a committed device orientation.
///
/// The estimator is a value with no clock and no I/O: time comes in with every reading, and the
/// same readings at the same times always give the same decisions, bit for bit, on every
/// platform (its math is plain Swift, see `CoreMath`). Every constant is in `EstimatorSettings`.
///
/// Per reading, in order:
/// 1. Garbage (NaN, infinity) is rejected and blocks commits for `disturbanceHoldTime`.
/// 2. Time going backwards restarts the filter and any pending evidence.
/// 3. A calm reading (little change from the previous one) with a plausible magnitude feeds the
///    self-calibrated 1 g reference, so the sensor's absolute scale does not matter (wrong by
///    orders of magnitude, raw counts with no scale at all): the first calm reading, whatever
///    its size, is taken for 1 g, and later ones are plausible within a range around it. Until
///    the reference is trusted, the mean of the calm readings so far (or the reading itself)
///    stands in for it, so even the first decision does not depend on the scale.
/// 4. The magnitude gate rejects free fall (well under the 1 g reference) and shocks or
///    saturation (well over) and blocks commits for `disturbanceHoldTime`; before the first calm
///    reading there is nothing to judge a magnitude by, and only a zero vector is rejected. A
///    calm run the gate rejects for `referenceRestartTime` restarts the reference from it (it
///    was learned from something that was no 1 g).
/// 5. A low-pass filter with a time constant computed from the real time step (alpha =
///    1 - exp(-dt / tau)), so behaviour is the same at any sample rate; tau grows with the
///    magnitude disturbance. A gap longer than `maximumSampleGap` restarts it.
/// 6. A calm run: accepted readings at 1 g (within `calmMagnitudeBand`) that all stay within
///    `calmSpread` of the run's first reading. A run whose first reading jumped by
///    `calmJumpAngle` or more from the reading before it ends a sudden turn (a step); once it has
///    lasted `calmSettleTime` (two readings at least) it is established, and its mean stands in
///    for the filtered gravity, which still lags the jump by tens of degrees.
/// 7. The turn in progress, followed on the readings (`followTurn`): once a turn seen on its way
///    is past `midTurnAngle` toward the adjacent orientation, at 1 g with a steady upright tilt,
///    and has slowed to `midTurnSlowdown` of its top speed, that orientation is `turnTarget`.
/// 8. The vigour: the swing of |a| around its own mean, low-pass filtered (rejected readings
///    included). The 1 g reference learns only while it is low.
/// 9. The turn target proposes itself; else the gravity estimate (the calm mean while such a run
///    is established, else the filtered gravity) proposes an orientation: face-up/face-down with
///    enter/leave tilt thresholds (the enter tilt rising toward `disturbedFaceEnterTilt` with the
///    vigour); otherwise, if not lying too flat, the upright orientation by the in-plane angle,
///    with hysteresis (keep the current axis up to `switchAngle` away from it). Held overhead
///    (screen down beyond `overheadTilt`), the last upright orientation is kept.
/// 10. A swing toward flat (tilt growing faster than `swingTiltSpeed`) or an overhead pose blocks
///    rotations (commits of an upright orientation other than the last upright one) while it
///    lasts and for a hold time after it; a vigour above `vigourRotationLimit` blocks them while
///    it lasts. Lying flat proposes no upright orientation, and leaves no hold behind.
/// 11. A changed proposal becomes a candidate; it is committed when nothing was rejected
///    recently, no hold applies, and there is evidence for it. The mid-turn commit: the
///    candidate is the turn target, so a hand's quarter turn is committed as it slows into its
///    end. The calm fast path: the candidate appeared during an established sudden-turn calm
///    run, so a step is committed `calmSettleTime` after the first reading that shows it.
///    Otherwise (slow turns, turns that stop short of `midTurnAngle`, and every disturbed or
///    noisy signal) the candidate must have been proposed continuously for
///    `quarterTurnSettleTime` while the filtered direction turns slower than
///    `steadyAngularSpeed`. A 180 degree change also needs `halfTurnSettleTime` since the device
///    left the committed orientation. The first decision after init/reset is fast when the
///    reading is calm (`firstDecisionSettleTime`), otherwise it takes `quarterTurnSettleTime`. A
///    commit made on the turn or the calm mean moves the filtered gravity to the reading or the
///    mean, so the filter does not propose the old orientation again.
public struct OrientationEstimator: Sendable {
    /// The settings in use (the given ones, `clamped()`).
    public let settings: EstimatorSettings

    /// Whether face-up and face-down may be proposed. False for a sensor whose mount matrix
    /// does not tell them apart (`MountMatrix.tellsFaceUpFromFaceDown`): a device lying flat
    /// then proposes nothing and keeps its last orientation. Kept by `reset()`.
    public var facesAvailable: Bool

    /// The committed device orientation; `unknown` until the first decision.
    public private(set) var orientation: DeviceOrientation = .unknown

    /// The last committed upright orientation, kept through face-up/face-down periods as the
    /// reference for hysteresis; nil before the first upright decision.
    public private(set) var lastUprightOrientation: DeviceOrientation?

    /// The filtered gravity estimate in m/s^2 (sensor units), nil before the first accepted
    /// reading or after the filter was restarted.
    public private(set) var filteredGravity: Vector3?

    /// The current 1 g reference: the running magnitude of calm readings, in sensor units
    /// (m/s^2 when the scale is right). Starts at `settings.nominalGravity`.
    public private(set) var gravityReference: Double

    /// The adjacent orientation a turn in progress is slowing into, past
    /// `EstimatorSettings.midTurnAngle` (see `followTurn`); nil otherwise. It proposes that
    /// orientation, and is evidence enough for a commit.
    public private(set) var turnTarget: DeviceOrientation?

    /// The orientation waiting for its evidence time, if any.
    public private(set) var candidate: DeviceOrientation?

    /// The mean reading (m/s^2) of the calm run after a sudden turn while it is established (the
    /// device jumped to a new pose and rests there, see `EstimatorSettings.calmSettleTime`); it
    /// then proposes orientations instead of `filteredGravity`. Nil otherwise.
    public private(set) var calmGravity: Vector3?

    /// How hard the reading's magnitude swings: the deviation of |a| from its own mean (a fraction
    /// of it, at most 1), rejected readings included; mean and deviation low-pass filtered with
    /// `EstimatorSettings.vigourTimeConstant` (a plain mean while younger than that). About 0.01
    /// at rest or turning in a hand, 0.2 for a phone worn on the waist while walking, 0.2-0.5 for
    /// an arm swung through exercises.
    public private(set) var vigour = 0.0

    // Time of the last reading with a finite timestamp (for detecting time going backwards).
    private var lastTime: Double?
    // Previous finite reading and its time (for calmness).
    private var previousReading: Vector3?
    private var previousReadingTime = 0.0
    // Time of the last filter update.
    private var filterTime = 0.0
    // Angular speed of the filtered direction, smoothed with `angularSpeedTimeConstant`, degrees
    // per second.
    private var angularSpeed = 0.0
    // Angle the filtered direction moved at the last update, degrees.
    private var lastStepAngle = 0.0
    // Steady time behind the 1 g reference, capped at referenceTimeConstant.
    private var referenceEvidence = 0.0
    // The magnitude of the first calm reading (or of a calm run that restarted the reference):
    // what the plausible scale range is measured against. Nil before any calm reading.
    private var scaleUnit: Double?
    // Since when consecutive calm readings have been rejected by the magnitude gate; nil when the
    // last reading was accepted, or not calm.
    private var outlierSince: Double?
    // Time behind `vigour`, capped at vigourTimeConstant, and the mean |a| it is measured around.
    private var vigourEvidence = 0.0
    private var magnitudeMean = 0.0
    // When the current candidate was first proposed.
    private var candidateSince = 0.0
    // Since when the proposal has been another orientation than the committed one (an ambiguous
    // proposal neither starts nor ends this); nil while it is the committed one.
    private var departedSince: Double?
    // Commits are blocked before this time (after a rejected reading).
    private var blockedUntil = -Double.infinity
    // Rotations are blocked before this time (swing).
    private var rotationBlockedUntil = -Double.infinity
    // Rotations away from the last upright orientation are blocked before this time (overhead).
    private var overheadUntil = -Double.infinity
    // Low-pass filtered tilt of the readings themselves (degrees), for swing detection; nil after
    // a restart. Not the tilt of the filtered gravity: averaging a fast turn about the screen
    // normal shortens the filtered in-plane part and would fake a tilt change.
    private var readingTilt: Double?
    // How fast `readingTilt` changed at the last filter update, degrees per second.
    private var readingTiltSpeed = 0.0
    // The calm run: its first reading (nil when there is none), when that was, the sum and number
    // of its readings, the time of its last reading, the accepted reading just before it (nil
    // when there was none recently), and whether it began with a sudden turn (worked out once,
    // when the run is established; nil before).
    private var calmAnchor: Vector3?
    private var calmStart = 0.0
    private var calmSum = Vector3.zero
    private var calmCount = 0
    private var calmTime = 0.0
    private var calmJumpedFrom: Vector3?
    private var calmSudden: Bool?
    // The turn in progress, followed on the readings themselves: the in-plane angle of the last
    // accepted reading from the committed upright axis (degrees, signed, clockwise positive) and
    // its time, its speed (degrees per second, signed, smoothed with `angularSpeedTimeConstant`),
    // the fastest the turn went since it began, and whether a reading showed it between the axes.
    private var turnOffset: Double?
    private var turnOffsetTime = 0.0
    private var turnSpeed = 0.0
    private var turnPeakSpeed = 0.0
    private var turnSeenOnItsWay = false
    // The last reading the magnitude gate accepted and its time (what a calm run jumped from).
    private var lastAccepted: Vector3?
    private var lastAcceptedTime = 0.0

    /// Creates an estimator with no history. Settings outside their ranges are clamped.
    public init(settings: EstimatorSettings = EstimatorSettings(), facesAvailable: Bool = true) {
        self.settings = settings.clamped()
        self.facesAvailable = facesAvailable
        gravityReference = self.settings.nominalGravity
    }

    /// True while the estimator sees motion: a candidate is pending, a rejected reading blocks
    /// commits, the filtered direction is turning faster than `steadyAngularSpeed`, or it moved
    /// more than `motionStepAngle` at the last reading (the first reading of a turn after a slow,
    /// still-device interval). The adaptive-sampling policy samples fast while this is true.
    public var isSettling: Bool {
        guard let lastTime else { return false }
        return candidate != nil || lastTime < blockedUntil
            || angularSpeed > settings.steadyAngularSpeed || lastStepAngle > settings.motionStepAngle
    }

    /// True once the 1 g reference rests on enough calm readings (`referenceTrustTime`); before
    /// that the magnitude gate only checks the plausible scale range.
    public var isReferenceTrusted: Bool {
        referenceEvidence >= settings.referenceTrustTime - settings.timingSlack
    }

    /// Forget everything (after suspend, sensor change). Next decision starts from scratch,
    /// including the 1 g reference.
    public mutating func reset() {
        self = OrientationEstimator(settings: settings, facesAvailable: facesAvailable)
    }

    /// The low-pass weight of a new sample after `elapsed` seconds with time constant
    /// `timeConstant`: 1 - exp(-elapsed / timeConstant). Exact for any step, so filtering at
    /// 10 Hz and at 100 Hz converges alike.
    public static func smoothingWeight(elapsed: Double, timeConstant: Double) -> Double {
        guard elapsed > 0 else { return 0 }
        guard timeConstant > 0 else { return 1 }
        return -CoreMath.expMinusOne(-elapsed / timeConstant)
    }

    /// Feed one reading (gravity vector in m/s^2 in the DESIGN.md frame, after mount matrix and
    /// scale) taken at `time` seconds (monotonic). Returns the committed device orientation after
    /// this sample.
    ///
    /// A reading with a non-finite `time` is ignored entirely.
    @discardableResult
    public mutating func update(_ reading: Vector3, at time: Double) -> DeviceOrientation {
        guard time.isFinite else { return orientation }
        if let lastTime, time < lastTime { restartTimeline() }
        lastTime = time

        let magnitude = reading.magnitude
        guard reading.isFinite, magnitude.isFinite else {
            outlierSince = nil
            reject(at: time)
            return orientation
        }

        // Calmness and the 1 g reference.
        var calm = false
        let previousTime = previousReadingTime
        if let previous = previousReading {
            let elapsed = time - previousReadingTime
            if elapsed <= settings.maximumSampleGap {
                calm = (reading - previous).magnitude <= settings.calmChange * previous.magnitude
                learnReference(magnitude, calm: calm, elapsed: elapsed)
                // A plain mean while the evidence is younger than the time constant, so that a
                // device swung from the first reading on is known to be vigorous at once.
                let young = vigourEvidence + elapsed < settings.vigourTimeConstant
                vigourEvidence = min(vigourEvidence + elapsed, settings.vigourTimeConstant)
                // After that the first-order weight elapsed / (tau + elapsed): within a few percent of
                // 1 - exp(-elapsed / tau) at 10-50 Hz, and no exponential per reading for a gate.
                let weight =
                    young ? elapsed / vigourEvidence : elapsed / (settings.vigourTimeConstant + elapsed)
                // The swing of |a| around its own mean: no 1 g reference needed, so a swing from the
                // first reading on (which would mislead the reference) is seen at once.
                magnitudeMean += (magnitude - magnitudeMean) * weight
                let deviation = magnitudeMean > 0 ? min(abs(magnitude - magnitudeMean) / magnitudeMean, 1) : 0
                vigour += (deviation - vigour) * weight
            } else {
                restartVigour(magnitude)
            }
        }
        if previousReading == nil { restartVigour(magnitude) }
        previousReading = reading
        previousReadingTime = time

        // Magnitude gate: against the trusted reference, or only the plausible scale range around
        // the first calm reading; before any calm reading there is nothing to judge a magnitude by.
        let trusted = isReferenceTrusted
        let gate =
            trusted
            ? settings.lowerMagnitudeGate...settings.upperMagnitudeGate
            : settings.minimumPlausibleScale...settings.maximumPlausibleScale
        let judged = trusted || scaleUnit != nil
        if magnitude <= 0 || (judged && !gate.contains(magnitude / (trusted ? gravityReference : scaleUnit!))) {
            // A calm run the gate rejects for `referenceRestartTime` is no free fall or shock but
            // a 1 g the reference got wrong: the reference starts over from it.
            guard magnitude > 0, calm else {
                outlierSince = nil
                reject(at: time)
                return orientation
            }
            let since = outlierSince ?? previousTime
            outlierSince = since
            guard time - since >= settings.referenceRestartTime - settings.timingSlack else {
                reject(at: time)
                return orientation
            }
            restartReference(magnitude, evidence: time - since)
        }
        outlierSince = nil
        // The 1 g the rest is measured against: until the reference is trusted, the mean of the
        // calm readings so far, or this reading before there is any.
        let reference = trusted || referenceEvidence > 0 ? gravityReference : magnitude
        let ratio = magnitude / reference
        updateCalmRun(reading, ratio: ratio, at: time)

        // Low-pass filter.
        let tiltOfReading = Self.tilt(of: reading)
        let elapsed = time - filterTime
        if let previous = filteredGravity, elapsed <= settings.maximumSampleGap {
            let disturbance = min(abs(ratio - 1) / settings.disturbanceFullScale, 1)
            let timeConstant =
                settings.filterTimeConstant
                + (settings.disturbedFilterTimeConstant - settings.filterTimeConstant) * disturbance
            let weight = Self.smoothingWeight(elapsed: elapsed, timeConstant: timeConstant)
            let next = previous + (reading - previous) * weight
            lastStepAngle = previous.angle(to: next)
            if elapsed > 0 {
                // Smoothed over a fixed time, so that the per-step jitter of noise and tremor, larger
                // at high sample rates, does not make the speed gate rate-dependent.
                let speed = lastStepAngle / elapsed
                angularSpeed +=
                    (speed - angularSpeed)
                    * Self.smoothingWeight(elapsed: elapsed, timeConstant: settings.angularSpeedTimeConstant)
            }
            filteredGravity = next
            // Swing: the tilt of the readings, filtered alike, changing fast.
            let previousTilt = readingTilt ?? tiltOfReading
            let nextTilt = previousTilt + (tiltOfReading - previousTilt) * weight
            readingTilt = nextTilt
            if elapsed > 0 { readingTiltSpeed = abs(nextTilt - previousTilt) / elapsed }
            // Only a swing toward flat (face up or face down) counts, as in Android's listener: a
            // device raised to upright (picked up, someone sitting up) shows its new direction
            // once the angular speed gate lets it.
            if elapsed > 0, abs(nextTilt) - abs(previousTilt) > settings.swingTiltSpeed * elapsed {
                rotationBlockedUntil = max(rotationBlockedUntil, time + settings.swingHoldTime)
            }
        } else {
            // First reading, or a gap: start over from this reading; old evidence is stale.
            filteredGravity = reading
            angularSpeed = 0
            lastStepAngle = 0
            candidate = nil
            departedSince = nil
            readingTilt = tiltOfReading
            readingTiltSpeed = 0
        }
        filterTime = time
        let filtered = filteredGravity ?? reading

        // Overhead: blocks rotations while it lasts and for a hold time after.
        let length = filtered.magnitude
        let tilt = length >= settings.minimumFilteredMagnitude * reference ? Self.tilt(of: filtered) : nil
        if let tilt, -tilt > settings.overheadTilt {
            overheadUntil = max(overheadUntil, time + settings.overheadHoldTime)
        }

        // Proposal and evidence: a turn past its switch angle and slowing into the next
        // orientation, else the calm mean after a sudden turn, else the filter.
        followTurn(reading, tilt: tiltOfReading, ratio: ratio, at: time)
        var proposal: DeviceOrientation?
        if let turnTarget {
            proposal = turnTarget
        } else if let calmGravity {
            proposal = propose(calmGravity, tilt: Self.tilt(of: calmGravity))
        } else {
            proposal = propose(filtered, tilt: tilt)
        }
        if proposal == orientation {
            departedSince = nil
        } else if proposal != nil && departedSince == nil {
            departedSince = time
        }
        if proposal == nil || proposal == orientation {
            candidate = nil
        } else if proposal != candidate {
            candidate = proposal
            candidateSince = time
        }
        if let candidate, mayCommit(candidate, at: time, calm: calm) {
            commit(candidate)
            // The filter still lags the turn the readings have shown, and would propose the old
            // orientation again: it continues from the turn's reading or the calm mean instead.
            if turnTarget == candidate {
                filteredGravity = reading
            } else if let calmGravity {
                filteredGravity = calmGravity
            }
            turnTarget = nil
        }
        return orientation
    }

    // MARK: - Steps

    /// Forgets the time-dependent state (filter, evidence, block) but keeps the committed
    /// orientation and the 1 g reference.
    private mutating func restartTimeline() {
        previousReading = nil
        outlierSince = nil
        filteredGravity = nil
        readingTilt = nil
        readingTiltSpeed = 0
        angularSpeed = 0
        lastStepAngle = 0
        vigourEvidence = 0
        candidate = nil
        departedSince = nil
        blockedUntil = -Double.infinity
        rotationBlockedUntil = -Double.infinity
        overheadUntil = -Double.infinity
        endCalmRun()
        lastAccepted = nil
    }

    /// Follows a turn about the screen normal on the readings themselves (the filter lags a hand's
    /// turn by tens of degrees) and sets `turnTarget`, the adjacent upright orientation, when:
    /// - the reading (its tilt `tilt`) is at least `midTurnAngle` from the committed axis and no
    ///   further than that from the adjacent one;
    /// - every reading of the turn was at 1 g within `calmMagnitudeBand`, with a steady upright
    ///   tilt (not beyond `uprightTiltLimit` or `overheadTilt`, changing slower than
    ///   `swingTiltSpeed`);
    /// - the turn was seen on its way (a reading between the two axes since it began);
    /// - it has slowed to `midTurnSlowdown` of its top speed or less.
    /// A turn begins where the readings, short of `midTurnAngle`, last turned slower than
    /// `steadyAngularSpeed`, or last were off 1 g or not upright. A hand turning a tablet a quarter
    /// turn slows down into the new orientation; a flip passing through it is at its top speed
    /// there, a step shows no way in between (the calm fast path takes it). With
    /// `midTurnSlowdown` 0 nothing is followed.
    private mutating func followTurn(_ reading: Vector3, tilt: Double, ratio: Double, at time: Double) {
        turnTarget = nil
        // Followed from where the filtered direction starts to turn fast (no in-plane angle to
        // work out for a device at rest) until the turn is over.
        guard settings.midTurnSlowdown > 0, orientation.isUpright,
            turnOffset != nil || angularSpeed > settings.steadyAngularSpeed
        else {
            turnOffset = nil
            return
        }
        let axis = Self.axisAngle(orientation)
        let offset = Self.signedDifference(CoreMath.atan2Degrees(reading.x, -reading.y), axis)
        if let previous = turnOffset, time > turnOffsetTime, time - turnOffsetTime <= settings.maximumSampleGap {
            let elapsed = time - turnOffsetTime
            let speed = Self.signedDifference(offset, previous) / elapsed
            turnSpeed +=
                (speed - turnSpeed)
                * Self.smoothingWeight(elapsed: elapsed, timeConstant: settings.angularSpeedTimeConstant)
        } else {
            turnSpeed = 0
            turnPeakSpeed = 0
            turnSeenOnItsWay = false
        }
        turnOffset = offset
        turnOffsetTime = time
        // A turn counts from where it began: where the readings, short of the mid-turn angle,
        // turned slowly (at rest on the axis, or held between the axes), or last left 1 g or a
        // steady upright tilt (a shake, a swing); there, start over.
        let distance = abs(offset)
        let steady =
            abs(ratio - 1) <= settings.calmMagnitudeBand && abs(tilt) <= settings.uprightTiltLimit
            && -tilt <= settings.overheadTilt && readingTiltSpeed <= settings.swingTiltSpeed
        if !steady || (distance < settings.midTurnAngle && abs(turnSpeed) <= settings.steadyAngularSpeed) {
            turnPeakSpeed = 0
            turnSeenOnItsWay = false
            // At rest short of the mid-turn angle, the turn is over.
            if steady && angularSpeed <= settings.steadyAngularSpeed { turnOffset = nil }
        }
        turnPeakSpeed = max(turnPeakSpeed, abs(turnSpeed))
        let past = distance >= settings.midTurnAngle && distance <= 180 - settings.midTurnAngle
        if distance >= 90 - settings.switchAngle && distance < settings.midTurnAngle { turnSeenOnItsWay = true }
        guard past, steady, turnSeenOnItsWay, abs(turnSpeed) <= settings.midTurnSlowdown * turnPeakSpeed
        else { return }
        turnTarget = Self.uprightOrientation(quarter: CoreMath.nearestInteger(axis / 90) + (offset > 0 ? 1 : -1))
    }

    /// Starts `vigour` over from a reading of magnitude `magnitude` (first reading, or a gap).
    private mutating func restartVigour(_ magnitude: Double) {
        vigour = 0
        vigourEvidence = 0
        magnitudeMean = magnitude
    }

    /// A rejected reading: commits wait `disturbanceHoldTime`, and the calm run ends.
    private mutating func reject(at time: Double) {
        blockedUntil = max(blockedUntil, time + settings.disturbanceHoldTime)
        endCalmRun()
    }

    /// Extends the calm run with an accepted reading whose magnitude is `ratio` times the 1 g
    /// reference, starts a new run from it, or ends the run (magnitude off 1 g). Then sets
    /// `calmGravity` when a run that began with a sudden turn is established.
    private mutating func updateCalmRun(_ reading: Vector3, ratio: Double, at time: Double) {
        defer {
            lastAccepted = reading
            lastAcceptedTime = time
        }
        guard abs(ratio - 1) <= settings.calmMagnitudeBand else {
            endCalmRun()
            return
        }
        let spread = settings.calmSpread
        if let anchor = calmAnchor, time - calmTime <= settings.maximumSampleGap,
            (reading - anchor).dot(reading - anchor) <= spread * spread * anchor.dot(anchor)
        {
            calmSum = calmSum + reading
            calmCount += 1
        } else {
            calmAnchor = reading
            calmStart = time
            calmSum = reading
            calmCount = 1
            calmSudden = nil
            calmJumpedFrom = time - lastAcceptedTime <= settings.maximumSampleGap ? lastAccepted : nil
        }
        calmTime = time
        guard calmCount >= 2 else {
            calmGravity = nil
            return
        }
        if calmSudden == nil, let anchor = calmAnchor {
            calmSudden = calmJumpedFrom.map { $0.angle(to: anchor) >= settings.calmJumpAngle } ?? false
        }
        let established = calmSudden == true && time - calmStart >= settings.calmSettleTime - settings.timingSlack
        calmGravity = established ? calmSum * (1 / Double(calmCount)) : nil
    }

    /// Starts the 1 g reference over from `magnitude`, the size of a calm run the magnitude gate
    /// rejected for `evidence` seconds, and forgets what the run's readings were taken for: the
    /// commits they blocked, the filter (in the old scale's proportions), and the vigour (the
    /// step to the new size is no motion).
    private mutating func restartReference(_ magnitude: Double, evidence: Double) {
        restartVigour(magnitude)
        scaleUnit = magnitude
        gravityReference = magnitude
        referenceEvidence = min(max(evidence, settings.referenceTrustTime), settings.referenceTimeConstant)
        blockedUntil = -Double.infinity
        filteredGravity = nil
        outlierSince = nil
    }

    private mutating func endCalmRun() {
        calmAnchor = nil
        calmCount = 0
        calmGravity = nil
    }

    /// Feeds a calm, plausible reading magnitude into the 1 g reference: a plain mean while the
    /// evidence is young, an exponential average with `referenceTimeConstant` after. The first
    /// calm reading of any size sets `scaleUnit`, the size later ones must be plausible against.
    private mutating func learnReference(_ magnitude: Double, calm: Bool, elapsed: Double) {
        // While the magnitude swings, a calm step at the top of a swing is no 1 g reading.
        guard calm, elapsed > 0, vigour <= settings.referenceVigourLimit, magnitude > 0 else { return }
        guard let unit = scaleUnit else {
            scaleUnit = magnitude
            referenceEvidence = min(elapsed, settings.referenceTimeConstant)
            gravityReference = magnitude
            return
        }
        guard magnitude >= settings.minimumPlausibleScale * unit, magnitude <= settings.maximumPlausibleScale * unit
        else { return }
        referenceEvidence = min(referenceEvidence + elapsed, settings.referenceTimeConstant)
        gravityReference += (magnitude - gravityReference) * (elapsed / referenceEvidence)
    }

    /// Tilt of the screen plane for gravity `g`, degrees: +90 lying face-up (gravity into the
    /// screen's back), -90 face-down, 0 standing upright.
    private static func tilt(of g: Vector3) -> Double {
        CoreMath.atan2Degrees(-g.z, (g.x * g.x + g.y * g.y).squareRoot())
    }

    /// The orientation the filtered gravity `g` with tilt `tilt` points at, given the committed
    /// state; nil when ambiguous (too short, between tilt limits, or near 45 degrees with no axis
    /// to hold).
    private func propose(_ g: Vector3, tilt: Double?) -> DeviceOrientation? {
        guard let tilt else { return nil }
        if facesAvailable {
            if orientation == .faceUp && tilt > settings.faceLeaveTilt { return .faceUp }
            if orientation == .faceDown && -tilt > settings.faceLeaveTilt { return .faceDown }
            // A disturbed device held near the enter tilt wanders across it: the enter tilt moves
            // toward `disturbedFaceEnterTilt` as the magnitude swings harder.
            if abs(tilt) > settings.faceEnterTilt {
                let disturbance = min(vigour / settings.disturbanceFullScale, 1)
                let enterTilt =
                    settings.faceEnterTilt + (settings.disturbedFaceEnterTilt - settings.faceEnterTilt) * disturbance
                if tilt > enterTilt { return .faceUp }
                if -tilt > enterTilt { return .faceDown }
            }
        }
        guard abs(tilt) <= settings.uprightTiltLimit else { return nil }

        // In-plane angle, clockwise turns positive: portrait 0, landscape-right 90,
        // upside-down 180, landscape-left -90.
        let angle = CoreMath.atan2Degrees(g.x, -g.y)
        let quarter = CoreMath.nearestInteger(angle / 90)
        let nearest = Self.uprightOrientation(quarter: quarter)
        let hold = orientation.isUpright ? orientation : lastUprightOrientation
        if let hold {
            // Held overhead, the in-plane direction does not turn the screen.
            if -tilt > settings.overheadTilt { return hold }
            if Self.distance(angle, Self.axisAngle(hold)) <= settings.switchAngle { return hold }
            return nearest
        }
        let offAxis = Self.distance(angle, Double(quarter) * 90)
        return offAxis <= settings.firstDecisionAxisAngle ? nearest : nil
    }

    /// Whether the pending `candidate` may be committed at `time`.
    private func mayCommit(_ candidate: DeviceOrientation, at time: Double, calm: Bool) -> Bool {
        guard time >= blockedUntil else { return false }
        let slack = settings.timingSlack
        if orientation == .unknown {
            guard angularSpeed <= settings.steadyAngularSpeed else { return false }
            // Fast only when the reading is calm; a shaken device still gets a first decision,
            // at the pace of a quarter turn. Rotation holds do not apply: there is nothing to keep.
            let settle = calm ? settings.firstDecisionSettleTime : settings.quarterTurnSettleTime
            return time - candidateSince >= settle - slack
        }
        if candidate.isUpright && candidate != lastUprightOrientation {
            // A rotation. Overhead, it waits only when there is an upright orientation to keep:
            // leaving face-down for the first upright decision must not wait for the pose to end.
            if time < rotationBlockedUntil { return false }
            // A swinging arm, a bouncing stride: the in-plane direction follows the motion.
            if vigour > settings.vigourRotationLimit { return false }
            if lastUprightOrientation != nil && time < overheadUntil { return false }
        }
        // The evidence: the candidate is the orientation a turn slows into (the mid-turn commit),
        // or it appeared during an established sudden-turn calm run (the calm fast path; the run's
        // spread bounds how fast the device turns), or it has been proposed for the settle time
        // while the filtered direction turns slowly.
        let turnEvidence = candidate == turnTarget
        let calmEvidence = calmGravity != nil && candidateSince >= calmStart
        if !calmEvidence && !turnEvidence {
            guard angularSpeed <= settings.steadyAngularSpeed,
                time - candidateSince >= settings.quarterTurnSettleTime - slack
            else { return false }
        }
        if let from = orientation.gravityDirection, let to = candidate.gravityDirection, from.dot(to) < 0 {
            // A half turn: counted from when the device left the committed orientation.
            let departed = min(departedSince ?? candidateSince, candidateSince)
            return time - departed >= settings.halfTurnSettleTime - slack
        }
        return true
    }

    private mutating func commit(_ next: DeviceOrientation) {
        orientation = next
        if next.isUpright { lastUprightOrientation = next }
        candidate = nil
    }

    // MARK: - Geometry helpers

    /// Upright orientation for a number of clockwise quarter turns from portrait.
    private static func uprightOrientation(quarter: Int) -> DeviceOrientation {
        switch ((quarter % 4) + 4) % 4 {
        case 0: .portrait
        case 1: .landscapeRight
        case 2: .portraitUpsideDown
        default: .landscapeLeft
        }
    }

    /// In-plane angle of an upright orientation's axis, degrees.
    private static func axisAngle(_ orientation: DeviceOrientation) -> Double {
        switch orientation {
        case .landscapeRight: 90
        case .portraitUpsideDown: 180
        case .landscapeLeft: -90
        default: 0
        }
    }

    /// The difference `a - b` of two angles in -180...180 degrees, folded into -180...180.
    private static func signedDifference(_ a: Double, _ b: Double) -> Double {
        let difference = a - b
        return difference > 180 ? difference - 360 : difference < -180 ? difference + 360 : difference
    }

    /// Absolute difference of two angles in -180...180 degrees, folded into 0...180.
    private static func distance(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b)
        return difference > 180 ? 360 - difference : difference
    }
}
