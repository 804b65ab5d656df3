/// Turns a stream of timestamped accelerometer readings into a committed device orientation.
///
/// The estimator is a value with no clock and no I/O: time comes in with every reading, and the
/// same readings at the same times always give the same decisions, bit for bit, on every
/// platform (its math is plain Swift, see `CoreMath`). Every constant is in `EstimatorSettings`.
/// It combines its parts, each a small value of its own: `GravityReference` (the
/// self-calibrated 1 g and the magnitude gate), `Vigour`, `GravityFilter`, `CalmRun`,
/// `TurnFollower` and `OrientationDecision`.
///
/// Per reading, in order:
/// 1. Garbage (NaN, infinity) is rejected and blocks commits for `disturbanceHoldTime`.
/// 2. Time going backwards restarts the filter and any pending evidence.
/// 3. A calm reading (little change from the previous one) with a plausible magnitude feeds the
///    1 g reference, so the sensor's absolute scale does not matter. Until the reference is
///    trusted, the mean of the calm readings so far (or the reading itself) stands in for it, so
///    even the first decision does not depend on the scale.
/// 4. The vigour: the swing of |a| around its own mean, low-pass filtered (rejected readings
///    included). The 1 g reference learns only while it is low.
/// 5. The magnitude gate rejects free fall (well under the 1 g reference) and shocks or
///    saturation (well over) and blocks commits for `disturbanceHoldTime`; a calm run it rejects
///    for `referenceRestartTime` restarts the reference from it.
/// 6. The calm run: a run of readings at 1 g close to its first reading; one that ends a sudden
///    turn (a step) is established after `calmSettleTime`, and its mean stands in for the
///    filtered gravity, which still lags the jump by tens of degrees.
/// 7. The low-pass filter (a gap longer than `maximumSampleGap` restarts it). A swing toward
///    flat (the readings' tilt growing faster than `swingTiltSpeed`) holds rotations (commits of
///    an upright orientation other than the last upright one) for `swingHoldTime`; an overhead
///    pose (screen down beyond `overheadTilt`) for `overheadHoldTime`.
/// 8. The turn in progress, followed on the readings: once a turn seen on its way is past
///    `midTurnAngle` toward the adjacent orientation, at 1 g with a steady upright tilt, and has
///    slowed to `midTurnSlowdown` of its top speed, that orientation is `turnTarget`.
/// 9. The turn target proposes itself; else the gravity estimate (the calm mean while such a run
///    is established, else the steady mean of a vibration (`SteadyMean`: held still at 1 g for
///    `vibrationSettleTime` while the readings swing fast around it, the device upright or flat;
///    or lying flat beyond `vibrationFaceEnterTilt` toward one face at 1 g, the readings deviating
///    from it, for `vibrationHeldTime`, however slow their swing: an aliased vibration),
///    else the filtered gravity) proposes an orientation.
/// 10. A changed proposal becomes a candidate; it is committed when nothing was rejected
///    recently, no hold applies (a vigour above `vigourRotationLimit` holds rotations but the
///    first upright one while it lasts, unless the readings rest around a steady mean at 1 g that
///    proposes the candidate, `SteadyMean.rests`), and there is evidence for it. A vibration's steady mean
///    is evidence of its own, past the rejected readings, the swing and vigour holds and the
///    speed gate (a car mount, a train: zero-mean vibration, see `EstimatorSettings`), also for a
///    turn target that is the orientation the mean proposes. A vibration the sampling aliases into a
///    slow wobble (its steady mean holds still at 1 g, but too much of the readings' swing is slow to
///    be evidence of its own) is evidence once the readings have vibrated, with the filtered direction
///    within `vibrationHeldAngle` of the candidate's axis, for `vibrationHeldTime`: past the swing
///    and vigour holds, the speed gate and a half turn's rest. The mid-turn commit: the candidate is the turn
///    target, so a hand's quarter turn is committed as it slows into its end. The calm fast
///    path: the candidate appeared during an established sudden-turn calm run, so a step is
///    committed `calmSettleTime` after the first reading that shows it. Otherwise (slow turns,
///    turns that stop short of `midTurnAngle`, and every disturbed or noisy signal) the
///    candidate must have been proposed continuously for `quarterTurnSettleTime` while the
///    filtered direction turns slower than `steadyAngularSpeed`. A 180 degree change also needs
///    `halfTurnSettleTime` since the device left the committed orientation, and on this path, while
///    the vigour is above `halfTurnRestVigour` (an arm slowing into the top of a raise), the device
///    at rest: with the steady mean within `halfTurnRestMagnitudeBand` of 1 g, its readings held
///    still (`CalmRun.rests`) or the filter slower than `halfTurnRestSpeed` for the settle time;
///    or the proposal standing for `halfTurnHeldTime` with the steady mean gravity (within
///    `vibrationMagnitudeBand`). The first decision
///    after init/reset is fast when the reading is calm (`firstDecisionSettleTime`), otherwise it
///    takes `quarterTurnSettleTime`. A commit made on the turn or the calm mean moves the
///    filtered gravity to the reading or the mean, so the filter does not propose the old
///    orientation again.
public struct OrientationEstimator: Sendable {
    /// The settings in use (the given ones, `clamped()`).
    public let settings: EstimatorSettings

    /// Whether face-up and face-down may be proposed. False for a sensor whose mount matrix
    /// does not tell them apart (`MountMatrix.tellsFaceUpFromFaceDown`): a device lying flat
    /// then proposes nothing and keeps its last orientation. Kept by `reset()`.
    public var facesAvailable: Bool

    /// The self-calibrated 1 g and the magnitude gate.
    public private(set) var reference: GravityReference
    /// How hard the reading's magnitude swings.
    public private(set) var vigourMeter = Vigour()
    /// The low-pass filtered gravity.
    public private(set) var filter = GravityFilter()
    /// The calm run after a sudden turn.
    public private(set) var calmRun = CalmRun()
    /// The turn in progress.
    public private(set) var turn = TurnFollower()
    /// The slow mean of every reading, for a vibration.
    public private(set) var steadyMean = SteadyMean()
    /// The proposal, the candidate and its evidence, the committed orientation.
    public private(set) var decision = OrientationDecision()

    // Time of the last reading with a finite timestamp (for detecting time going backwards).
    private var lastTime: Double?
    // Previous finite reading and its time (for calmness).
    private var previousReading: Vector3?
    private var previousReadingTime = 0.0
    // The last accepted reading, alone, proposes an orientation other than the committed one.
    private var readingPointsElsewhere = false

    /// Creates an estimator with no history. Settings outside their ranges are clamped.
    public init(settings: EstimatorSettings = EstimatorSettings(), facesAvailable: Bool = true) {
        self.settings = settings.clamped()
        self.facesAvailable = facesAvailable
        reference = GravityReference(nominal: self.settings.nominalGravity)
    }

    /// The committed device orientation; `unknown` until the first decision.
    public var orientation: DeviceOrientation { decision.orientation }

    /// The last committed upright orientation, kept through face-up/face-down periods as the
    /// reference for hysteresis; nil before the first upright decision.
    public var lastUprightOrientation: DeviceOrientation? { decision.lastUprightOrientation }

    /// The filtered gravity estimate in m/s^2 (sensor units), nil before the first accepted
    /// reading or after the filter was restarted.
    public var filteredGravity: Vector3? { filter.gravity }

    /// The current 1 g reference: the running magnitude of calm readings, in sensor units
    /// (m/s^2 when the scale is right). Starts at `settings.nominalGravity`.
    public var gravityReference: Double { reference.value }

    /// The adjacent orientation a turn in progress is slowing into, past
    /// `EstimatorSettings.midTurnAngle` (see `TurnFollower`); nil otherwise. It proposes that
    /// orientation, and is evidence enough for a commit.
    public var turnTarget: DeviceOrientation? { turn.target }

    /// The orientation waiting for its evidence time, if any.
    public var candidate: DeviceOrientation? { decision.candidate }

    /// The mean reading (m/s^2) of the calm run after a sudden turn while it is established (the
    /// device jumped to a new pose and rests there, see `EstimatorSettings.calmSettleTime`); it
    /// then proposes orientations instead of `filteredGravity`. Nil otherwise.
    public var calmGravity: Vector3? { calmRun.gravity }

    /// How hard the reading's magnitude swings (`Vigour`), rejected readings included: about
    /// 0.01 at rest or turning in a hand, 0.2 for a phone worn on the waist while walking,
    /// 0.2-0.5 for an arm swung through exercises.
    public var vigour: Double { vigourMeter.value }

    /// True while the estimator sees motion: a candidate is pending, a rejected reading blocks
    /// commits, the filtered direction is turning faster than `steadyAngularSpeed`, it moved
    /// more than `motionStepAngle` at the last reading (the first reading of a turn after a slow,
    /// still-device interval), or the last reading by itself points at another orientation than
    /// the committed one (a half turn in one step: the filtered gravity shrinks toward the new
    /// direction without turning, and only more readings take it there). The adaptive-sampling
    /// policy samples fast while this is true, and a change-only sensor's last report is repeated.
    public var isSettling: Bool {
        guard let lastTime else { return false }
        return decision.candidate != nil || lastTime < decision.blockedUntil || readingPointsElsewhere
            || filter.angularSpeed > settings.steadyAngularSpeed || filter.lastStepAngle > settings.motionStepAngle
    }

    /// True once the 1 g reference rests on enough calm readings (`referenceTrustTime`); before
    /// that the magnitude gate only checks the plausible scale range.
    public var isReferenceTrusted: Bool { reference.isTrusted(settings) }

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

    /// Feed one reading (gravity vector in m/s^2 in the docs/axes.md frame, after mount matrix and
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
            reference.breakOutlierRun()
            reject(at: time)
            return orientation
        }

        // Calmness, the 1 g reference and the vigour.
        var calm = false
        let previousTime = previousReadingTime
        if let previous = previousReading {
            let elapsed = time - previousReadingTime
            if elapsed <= settings.maximumSampleGap {
                calm = (reading - previous).magnitude <= settings.calmChange * previous.magnitude
                reference.learn(magnitude, calm: calm, elapsed: elapsed, vigour: vigourMeter.value, settings)
                vigourMeter.update(magnitude, elapsed: elapsed, settings)
            } else {
                vigourMeter.restart(magnitude)
            }
        } else {
            vigourMeter.restart(magnitude)
        }
        let sincePrevious = previousReading == nil ? 0 : time - previousTime
        reference.hear(magnitude, elapsed: sincePrevious <= settings.maximumSampleGap ? sincePrevious : 0, settings)
        previousReading = reading
        previousReadingTime = time
        steadyMean.update(reading, at: time, oneG: reference.oneGForMean(for: magnitude, settings), settings)

        switch reference.judge(magnitude, calm: calm, previousTime: previousTime, at: time, settings) {
        case .accepted: break
        case .rejected:
            reject(at: time)
            return orientation
        case .restarted:
            // Forget what the run's readings were taken for: the commits they blocked, the filter
            // (in the old scale's proportions), and the vigour (the step to the new size is no
            // motion).
            vigourMeter.restart(magnitude)
            decision.unblock()
            filter.forget()
        }
        let ratio = magnitude / reference.oneG(for: magnitude, settings)
        calmRun.update(reading, ratio: ratio, at: time, settings)

        let tiltOfReading = UprightGeometry.tilt(of: reading)
        switch filter.update(reading, tilt: tiltOfReading, ratio: ratio, at: time, settings) {
        case .restarted: decision.forgetCandidate()
        case .continued(let swing): if swing { decision.holdRotations(until: time + settings.swingHoldTime) }
        }
        let filtered = filter.gravity ?? reading
        let oneG = reference.oneG(for: magnitude, settings)
        let tilt =
            filtered.magnitude >= settings.minimumFilteredMagnitude * oneG ? UprightGeometry.tilt(of: filtered) : nil
        if let tilt, -tilt > settings.overheadTilt { decision.holdOverhead(until: time + settings.overheadHoldTime) }

        // Proposal and evidence: a turn past its switch angle and slowing into the next
        // orientation, else the calm mean after a sudden turn, else the filter.
        turn.follow(
            reading, tilt: tiltOfReading, ratio: ratio, at: time, committed: orientation,
            angularSpeed: filter.angularSpeed, tiltSpeed: filter.readingTiltSpeed, settings)
        // A vibration's steady mean proposes where it stands clearly upright or lies flat; a device
        // in between (lying in a bag or a purse) is left to the filter.
        // The mean's size is measured against the 1 g for the mean (`GravityReference.oneGForMean`),
        // not for the reading, which swings with the vibration.
        let meanOneG = reference.oneGForMean(for: magnitude, settings)
        // A mean lying flat is a vibration's however slow the readings' swing (`SteadyMean.liesFlat`).
        let liesFlat = steadyMean.liesFlat(at: time, oneG: meanOneG, settings)
        let vibrationMean =
            steadyMean.isVibrating(at: time, oneG: meanOneG, settings) || liesFlat ? steadyMean.gravity : nil
        let vibrationTilt = vibrationMean.map { UprightGeometry.tilt(of: $0) }
        let vibrating =
            vibrationTilt.map { abs($0) <= settings.vibrationTiltLimit || abs($0) > settings.faceEnterTilt } ?? false
        let meanProposal =
            vibrating
            ? vibrationMean.flatMap {
                decision.propose(
                    $0, tilt: vibrationTilt, vigour: vigour, faces: facesAvailable, steadyMean: true, settings)
            } : nil
        let proposal: DeviceOrientation?
        if let target = turn.target {
            proposal = target
        } else if let calmGravity = calmRun.gravity {
            proposal = decision.propose(
                calmGravity, tilt: UprightGeometry.tilt(of: calmGravity), vigour: vigour, faces: facesAvailable,
                settings)
        } else if vibrating {
            proposal = meanProposal
        } else {
            proposal = decision.propose(filtered, tilt: tilt, vigour: vigour, faces: facesAvailable, settings)
        }
        decision.offer(proposal, at: time)
        // The readings rest around a steady mean at 1 g that proposes the candidate: the vigour of
        // the turn that brought the device there holds it no longer.
        let restingMean = steadyMean.rests(at: time, oneG: meanOneG, settings) ? steadyMean.gravity : nil
        let meanRests =
            decision.candidate != nil
            && restingMean.flatMap {
                decision.propose(
                    $0, tilt: UprightGeometry.tilt(of: $0), vigour: vigour, faces: facesAvailable, settings)
            } == decision.candidate
        // The filtered in-plane direction while the readings vibrate about the mean and the device
        // stands within `vibrationTiltLimit` of upright (see `vibrationHeldAngle`).
        var vibratingDirection: Double?
        if steadyMean.deviation >= settings.vibrationDeviation, let tilt, abs(tilt) <= settings.vibrationTiltLimit {
            vibratingDirection = UprightGeometry.inPlaneAngle(of: filtered)
        }
        // How far the steady mean's size is from 1 g, for a half turn's rest: against the 1 g for the
        // mean, or the gate's reference once trusted if that is nearer. Until the reference has
        // learned for `vibrationTimeConstant`, the 1 g for the mean is the mean size of every
        // reading, which a vibration and the turn's push inflate by 15-20 percent.
        var meanOffset = steadyMean.sizeOffset(meanOneG)
        if reference.isTrusted(settings), let offset = steadyMean.sizeOffset(reference.value) {
            meanOffset = min(meanOffset ?? offset, offset)
        }
        let evidence = OrientationDecision.Evidence(
            calm: calm, angularSpeed: filter.angularSpeed, vigour: vigour, turnTarget: turn.target,
            calmRunStart: calmRun.gravity == nil ? nil : calmRun.start,
            // A turn slowing into the orientation the vibration's mean proposes (the mean settled
            // before the turn follower let go) has the mean's evidence too.
            vibration: vibrating && calmRun.gravity == nil && (turn.target == nil || turn.target == meanProposal),
            readingsRest: calmRun.rests(at: time, settings),
            vibratingDirection: vibratingDirection,
            meanSteady: steadyMean.isSteady(at: time, oneG: meanOneG, settings), meanRests: meanRests,
            meanOffset: meanOffset)
        if let committed = decision.decide(at: time, evidence, settings) {
            // The filter still lags the turn the readings have shown, and would propose the old
            // orientation again: it continues from the turn's reading or the calm mean instead.
            if turn.target == committed {
                filter.move(to: reading)
            } else if let calmGravity = calmRun.gravity {
                filter.move(to: calmGravity)
            }
            turn.clearTarget()
        }
        let readingProposal = decision.propose(
            reading, tilt: tiltOfReading, vigour: vigour, faces: facesAvailable, settings)
        readingPointsElsewhere = readingProposal.map { $0 != orientation } ?? false
        return orientation
    }

    /// Forgets the time-dependent state (filter, evidence, holds, calm run) but keeps the
    /// committed orientation and the 1 g reference.
    private mutating func restartTimeline() {
        previousReading = nil
        reference.breakOutlierRun()
        filter.restart()
        decision.restart()
        calmRun.restart()
        steadyMean.restart()
    }

    /// A rejected reading: commits wait `disturbanceHoldTime`, and the calm run ends.
    private mutating func reject(at time: Double) {
        decision.block(until: time + settings.disturbanceHoldTime)
        calmRun.end()
    }
}
