/// The estimator's decision: what a gravity estimate proposes, the candidate and its evidence
/// timers, the holds, and the committed orientation.
///
/// Face-up and face-down are proposed with enter and leave tilts (the enter tilt rising toward
/// `disturbedFaceEnterTilt` with the vigour, for a vibration's steady mean no further than
/// `vibrationFaceEnterTilt`); otherwise, if not lying too flat, the upright
/// orientation by the in-plane angle, with hysteresis (the current axis is kept up to
/// `switchAngle` away from it). Held overhead (screen down beyond `overheadTilt`), the last
/// upright orientation is kept. A changed proposal becomes the candidate; it is committed when
/// nothing was rejected recently (`block`), no rotation hold applies (`holdRotations`,
/// `holdOverhead`, the vigour), and there is evidence for it (see `mayCommit`).
public struct OrientationDecision: Sendable, Equatable {
    /// The committed device orientation; `unknown` until the first decision.
    public private(set) var orientation: DeviceOrientation = .unknown
    /// The last committed upright orientation, kept through face-up/face-down periods as the
    /// reference for hysteresis; nil before the first upright decision.
    public private(set) var lastUprightOrientation: DeviceOrientation?
    /// The orientation waiting for its evidence time, if any.
    public private(set) var candidate: DeviceOrientation?
    /// Commits are blocked before this time (after a rejected reading).
    public private(set) var blockedUntil = -Double.infinity
    // When the current candidate was first proposed.
    private var candidateSince = 0.0
    // Since when the filtered direction has turned slower than `halfTurnRestSpeed`; nil while it
    // turns faster.
    private var restSince: Double?
    // Since when the proposal has been another orientation than the committed one (an ambiguous
    // proposal neither starts nor ends this); nil while it is the committed one.
    private var departedSince: Double?
    // Since when the candidate has been proposed with the readings vibrating and the filtered
    // in-plane direction within `vibrationHeldAngle` of its axis, without a break; nil while not.
    private var heldSince: Double?
    // Rotations are blocked before this time (swing).
    private var rotationBlockedUntil = -Double.infinity
    // Rotations away from the last upright orientation are blocked before this time (overhead).
    private var overheadUntil = -Double.infinity

    /// What, besides the candidate's age, speaks for or against a commit at one reading.
    public struct Evidence: Sendable {
        /// The reading is calm (little change from the previous one).
        public var calm: Bool
        /// The filtered direction's angular speed, degrees per second.
        public var angularSpeed: Double
        /// The vigour (`Vigour.value`).
        public var vigour: Double
        /// The orientation a turn slows into (`TurnFollower.target`).
        public var turnTarget: DeviceOrientation?
        /// The start of an established sudden-turn calm run (`CalmRun.start` while
        /// `CalmRun.gravity` is set); nil when there is none.
        public var calmRunStart: Double?
        /// The steady mean of a vibration proposes (`SteadyMean.isVibrating`).
        public var vibration: Bool
        /// The readings have held still (`CalmRun.rests`: a calm run, sudden or not, of three
        /// readings over `calmSettleTime`): the device rests, however far the filter still lags.
        public var readingsRest: Bool
        /// While the readings deviate from the steady mean as a vibration's do (`SteadyMean.deviation`
        /// at least `vibrationDeviation`), the filtered gravity's in-plane angle
        /// (`UprightGeometry.inPlaneAngle`) where it stands within `vibrationTiltLimit` of upright;
        /// nil otherwise.
        public var vibratingDirection: Double?
        /// The steady mean holds still at 1 g (`SteadyMean.isSteady`), however slow the readings'
        /// swing around it.
        public var meanSteady: Bool
        /// The steady mean rests (`SteadyMean.rests`: held still at 1 g, the readings hardly
        /// deviating from it) and proposes the candidate: the vigour is the past's (a hard turn's
        /// push, remembered for a second), and holds no rotation.
        public var meanRests: Bool
        /// How far the steady mean's size is from 1 g (`SteadyMean.sizeOffset`, against the 1 g for
        /// the mean, or the gate's reference once trusted if that is nearer), a fraction; nil
        /// without a mean.
        public var meanOffset: Double?

        /// Evidence from the parts' values.
        public init(
            calm: Bool, angularSpeed: Double, vigour: Double, turnTarget: DeviceOrientation?, calmRunStart: Double?,
            vibration: Bool = false, readingsRest: Bool = false, vibratingDirection: Double? = nil,
            meanSteady: Bool = false, meanRests: Bool = false, meanOffset: Double? = nil
        ) {
            self.calm = calm
            self.angularSpeed = angularSpeed
            self.vigour = vigour
            self.turnTarget = turnTarget
            self.calmRunStart = calmRunStart
            self.vibration = vibration
            self.readingsRest = readingsRest
            self.vibratingDirection = vibratingDirection
            self.meanSteady = meanSteady
            self.meanRests = meanRests
            self.meanOffset = meanOffset
        }
    }

    /// Nothing decided.
    public init() {}

    /// The orientation gravity `g` with tilt `tilt` (nil: too short to mean anything) points at,
    /// given the committed state; nil when ambiguous (too short, between tilt limits, or near 45
    /// degrees with no axis to hold). `faces`: face-up and face-down may be proposed.
    /// `steadyMean`: `g` is a vibration's steady mean, whose enter tilt rises no further than
    /// `vibrationFaceEnterTilt`.
    public func propose(
        _ g: Vector3, tilt: Double?, vigour: Double, faces: Bool, steadyMean: Bool = false,
        _ settings: EstimatorSettings
    ) -> DeviceOrientation? {
        guard let tilt else { return nil }
        if faces {
            if orientation == .faceUp && tilt > settings.faceLeaveTilt { return .faceUp }
            if orientation == .faceDown && -tilt > settings.faceLeaveTilt { return .faceDown }
            // A disturbed device held near the enter tilt wanders across it: the enter tilt moves
            // toward `disturbedFaceEnterTilt` as the magnitude swings harder.
            if abs(tilt) > settings.faceEnterTilt {
                let disturbance = min(vigour / settings.disturbanceFullScale, 1)
                let raised =
                    settings.faceEnterTilt + (settings.disturbedFaceEnterTilt - settings.faceEnterTilt) * disturbance
                // A vibration's mean holds still: it wanders across no enter tilt.
                let enterTilt =
                    steadyMean ? min(raised, max(settings.vibrationFaceEnterTilt, settings.faceEnterTilt)) : raised
                if tilt > enterTilt { return .faceUp }
                if -tilt > enterTilt { return .faceDown }
            }
        }
        guard abs(tilt) <= settings.uprightTiltLimit else { return nil }
        let angle = UprightGeometry.inPlaneAngle(of: g)
        let quarter = CoreMath.nearestInteger(angle / 90)
        let nearest = UprightGeometry.uprightOrientation(quarter: quarter)
        let hold = orientation.isUpright ? orientation : lastUprightOrientation
        if let hold {
            // Held overhead, the in-plane direction does not turn the screen.
            if -tilt > settings.overheadTilt { return hold }
            if UprightGeometry.distance(angle, UprightGeometry.axisAngle(hold)) <= settings.switchAngle { return hold }
            return nearest
        }
        let offAxis = UprightGeometry.distance(angle, Double(quarter) * 90)
        return offAxis <= settings.firstDecisionAxisAngle ? nearest : nil
    }

    /// Takes the proposal at `time`: a changed one becomes the candidate, the committed one (or
    /// none) clears it.
    public mutating func offer(_ proposal: DeviceOrientation?, at time: Double) {
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
            heldSince = nil
        }
    }

    /// Commits the candidate if it may be committed at `time`; returns what was committed.
    public mutating func decide(at time: Double, _ evidence: Evidence, _ settings: EstimatorSettings)
        -> DeviceOrientation?
    {
        if evidence.angularSpeed > settings.halfTurnRestSpeed {
            restSince = nil
        } else if restSince == nil {
            restSince = time
        }
        if let candidate, candidate.isUpright, let angle = evidence.vibratingDirection,
            UprightGeometry.distance(angle, UprightGeometry.axisAngle(candidate)) <= settings.vibrationHeldAngle
        {
            heldSince = heldSince ?? time
        } else {
            heldSince = nil
        }
        guard let candidate, mayCommit(candidate, at: time, evidence, settings) else { return nil }
        orientation = candidate
        if candidate.isUpright { lastUprightOrientation = candidate }
        self.candidate = nil
        return candidate
    }

    /// Whether `candidate` may be committed at `time`.
    func mayCommit(
        _ candidate: DeviceOrientation, at time: Double, _ evidence: Evidence, _ settings: EstimatorSettings
    ) -> Bool {
        let slack = settings.timingSlack
        // A vibration held about the candidate's axis (see `EstimatorSettings.vibrationHeldAngle`).
        let held = evidence.meanSteady && (heldSince.map { time - $0 >= settings.vibrationHeldTime - slack } ?? false)
        if evidence.vibration {
            // The steady mean of a vibration: its run is the evidence, and the readings the gate
            // rejects, the swing of their tilt and their vigour are the vibration's own.
            let rotation = candidate.isUpright && candidate != lastUprightOrientation
            if orientation != .unknown && rotation && lastUprightOrientation != nil && time < overheadUntil {
                return false
            }
            return halfTurnDone(candidate, at: time, settings)
        }
        guard time >= blockedUntil else { return false }
        if orientation == .unknown {
            guard evidence.angularSpeed <= settings.steadyAngularSpeed else { return false }
            // Fast only when the reading is calm; a shaken device still gets a first decision,
            // at the pace of a quarter turn. Rotation holds do not apply: there is nothing to keep.
            let settle = evidence.calm ? settings.firstDecisionSettleTime : settings.quarterTurnSettleTime
            return time - candidateSince >= settle - slack
        }
        if candidate.isUpright && candidate != lastUprightOrientation {
            // A rotation. Overhead, it waits only when there is an upright orientation to keep:
            // leaving face-down for the first upright decision must not wait for the pose to end.
            // After a swing likewise: picked up from a table, the first upright one has none to flip
            // from, and one odd reading at the end of the lift (its tilt across the screen plane)
            // made the readings' filtered tilt swing back toward flat and held it for 0.3 s.
            if lastUprightOrientation != nil && time < rotationBlockedUntil && !held { return false }
            // A swinging arm, a bouncing stride: the in-plane direction follows the motion, from one
            // upright orientation to another. The first upright one (picked up from a table, still
            // shaking from the lift) has none to flip from, and a device whose readings rest around
            // a steady mean that proposes the candidate is no longer in motion.
            if lastUprightOrientation != nil && evidence.vigour > settings.vigourRotationLimit && !held
                && !evidence.meanRests
            {
                return false
            }
            if lastUprightOrientation != nil && time < overheadUntil { return false }
        }
        // The evidence: the candidate is the orientation a turn slows into (the mid-turn commit),
        // or it appeared during an established sudden-turn calm run (the calm fast path; the run's
        // spread bounds how fast the device turns), or it has been proposed for the settle time
        // while the filtered direction turns slowly; a half turn so, once the device rests.
        let turnEvidence = candidate == evidence.turnTarget
        let calmEvidence = evidence.calmRunStart.map { candidateSince >= $0 } ?? false
        if !calmEvidence && !turnEvidence && !held {
            guard evidence.angularSpeed <= settings.steadyAngularSpeed,
                time - candidateSince >= settings.quarterTurnSettleTime - slack
            else { return false }
            if isHalfTurn(candidate) && evidence.vigour > settings.halfTurnRestVigour
                && !restsAfterHalfTurn(at: time, evidence, settings)
            {
                return false
            }
        }
        return halfTurnDone(candidate, at: time, settings)
    }

    /// Whether the device rests in a half turn's new pose, for a commit on the filter's evidence:
    /// with the steady mean within `halfTurnRestMagnitudeBand` of 1 g, the readings have held still
    /// (`Evidence.readingsRest`) or the filtered direction has turned slower than
    /// `halfTurnRestSpeed` for the whole `quarterTurnSettleTime` of the final proposal; or that
    /// proposal has stood for `halfTurnHeldTime` with the steady mean gravity (within
    /// `vibrationMagnitudeBand` of 1 g, as a vibrating mount's is). The end of an arm's raise turns
    /// its last degrees slowly, under the speed gate, while the hand still moves: without this the
    /// screen flipped as the hand slowed into the top of the raise. A decelerating hand reads off
    /// 1 g, where the lagging filter slows as much (an arm turning back at the top), readings at
    /// 0.9 g agree within the calm spread as the hand stops (a calm run measures them against their
    /// own size until the 1 g reference is learned), and the proposal outlasts a slow raise's end.
    func restsAfterHalfTurn(at time: Double, _ evidence: Evidence, _ settings: EstimatorSettings) -> Bool {
        let slack = settings.timingSlack
        let offset = evidence.meanOffset ?? 0
        if time - candidateSince >= settings.halfTurnHeldTime - slack && offset <= settings.vibrationMagnitudeBand {
            return true
        }
        guard offset <= settings.halfTurnRestMagnitudeBand else { return false }
        if evidence.readingsRest { return true }
        guard let restSince else { return false }
        return time - max(candidateSince, restSince) >= settings.quarterTurnSettleTime - slack
    }

    /// Whether `candidate` is a half turn from the committed orientation (opposite gravity directions).
    func isHalfTurn(_ candidate: DeviceOrientation) -> Bool {
        guard let from = orientation.gravityDirection, let to = candidate.gravityDirection else { return false }
        return from.dot(to) < 0
    }

    /// True unless `candidate` is a half turn from the committed orientation and the device left
    /// that less than `halfTurnSettleTime` ago.
    func halfTurnDone(_ candidate: DeviceOrientation, at time: Double, _ settings: EstimatorSettings) -> Bool {
        guard isHalfTurn(candidate) else { return true }
        // Counted from when the device left the committed orientation.
        let departed = min(departedSince ?? candidateSince, candidateSince)
        return time - departed >= settings.halfTurnSettleTime - settings.timingSlack
    }

    /// Blocks commits until `time` (a rejected reading).
    public mutating func block(until time: Double) {
        blockedUntil = max(blockedUntil, time)
    }

    /// Lifts the block of rejected readings (they were 1 g at a scale the reference got wrong).
    public mutating func unblock() {
        blockedUntil = -Double.infinity
    }

    /// Blocks rotations until `time` (a swing toward flat).
    public mutating func holdRotations(until time: Double) {
        rotationBlockedUntil = max(rotationBlockedUntil, time)
    }

    /// Blocks rotations away from the last upright orientation until `time` (overhead).
    public mutating func holdOverhead(until time: Double) {
        overheadUntil = max(overheadUntil, time)
    }

    /// Forgets the candidate and since when the device left the committed orientation (the
    /// filter started over: old evidence is stale).
    public mutating func forgetCandidate() {
        candidate = nil
        heldSince = nil
        departedSince = nil
    }

    /// Forgets the candidate and every hold, keeping the committed orientation (a new timeline).
    public mutating func restart() {
        forgetCandidate()
        restSince = nil
        blockedUntil = -Double.infinity
        rotationBlockedUntil = -Double.infinity
        overheadUntil = -Double.infinity
    }
}
