/// The slow mean of every finite reading (rejected ones included), whether its direction holds
/// still, and how far the readings swing around it: what tells a vibration from a swinging arm.
///
/// A tablet in a car mount, on a train or on a running machine vibrates at 5-25 Hz by up to
/// half a g; its readings leave 1 g and the magnitude gate, its filtered direction wobbles
/// faster than `steadyAngularSpeed`, and its vigour is that of a swung arm. But a vibration is
/// zero-mean: the mean of the readings is gravity, in a direction that holds still. An arm's
/// mean moves with the arm. The mean is two first-order low-passes in a row with
/// `vibrationTimeConstant` (a plain mean while younger than that), so a 5 Hz vibration of 0.5 g
/// leaves about 1 degree of wobble. The mean is steady while it stays within `vibrationSpread`
/// of where its steady run began; the run is established once it has lasted
/// `vibrationSettleTime`; it is gravity only at 1 g (`vibrationMagnitudeBand`: an arm's swing
/// averages to well over). The readings' `deviation` from the mean (|a - mean| / |mean|, filtered
/// alike) says whether there is a vibration at all: a device at rest or in a hand reads a few
/// hundredths, a vibrating one a tenth or more. How much of that deviation is slow (left after
/// the first low-pass, `slowDeviation`) tells a vibration at 5 Hz or more (a fifth) from a
/// stride or a swinging bag at 1-2 Hz (a half and more). A turn, where the first low-pass leads
/// the mean by `vibrationRestartAngle` at a reading the magnitude gate would take, starts the mean
/// over from that reading (one the gate rejects, the end of a hand's turn pushing 2 g or a bump
/// reading 0.4 g in a direction of its own, starts nothing: the mean takes it in, and the next
/// reading the gate takes judges the lead). That start is still on the turn's way (the lead
/// passes the angle mid-turn), and the plain mean would carry its last tens of degrees for half a
/// second: once the mean has come of age (`vibrationTimeConstant` after the start), it starts over
/// once more, from the first reading the gate would take within another time constant, by when a
/// hand's turn has mostly ended. A reading still off 1 g that long (an arm still swinging) starts
/// nothing. The gate takes up to 1.4 g, and the hand's stop can push 1.6-1.7 g (or, under a
/// vibration, down to 0.4 g) for a tenth of a second after such a start: a reading the gate rejects
/// within a time constant of it is left out, and the next reading the gate takes starts the mean
/// over again. The stop may still be on there (its readings tens of degrees off): once of age,
/// if its first low-pass leads it by more than `vibrationSpread`, the mean starts over a last time.
public struct SteadyMean: Sendable, Equatable {
    /// The mean reading, nil before the first reading or after a restart.
    public private(set) var gravity: Vector3?
    /// How far the readings are from the mean, a fraction of its size (filtered).
    public private(set) var deviation = 0.0
    /// The slow part of `deviation`: how far the first low-pass is from the mean (filtered alike).
    public private(set) var slowDeviation = 0.0
    /// When the mean's current steady run began (meaningful while `gravity` is set).
    public private(set) var since = 0.0
    /// Since when the readings have deviated from the mean by `vibrationDeviation` or more (then
    /// down to `vibrationLeaveDeviation`), mostly fast (`vibrationSlowShare`), without a break; nil
    /// while they do not.
    public private(set) var fastSince: Double?
    // The face the mean has lain toward (see `liesFlat`) and since when; nil while it does not.
    private var flatFace: DeviceOrientation?
    private var flatSince = 0.0
    // The first of the two low-passes, the time behind them (capped at the time constant), the
    // time of the last reading, and the mean where the steady run began.
    private var first = Vector3.zero
    private var evidence = 0.0
    private var time = 0.0
    private var anchor: Vector3?
    // Where the mean stands after a turn started it over (nil: no turn, or its stop is behind it).
    private var turn: TurnPhase?

    /// The mean's restarts at a turn, each from a reading the gate would take at `since`.
    private enum TurnPhase: Equatable, Sendable {
        /// Started over on the turn's way: starts over once more when it comes of age.
        case midTurn(since: Double)
        /// Started over past the turn's tail, for a time constant: `pushed` once a reading the gate
        /// rejects came (left out), and then the next reading it takes starts the mean over again
        /// (`stopped`, the hand's stop pushed).
        case tail(since: Double, pushed: Bool, stopped: Bool)
        /// That time constant is over, and the hand's stop pushed in it: once of age, the mean
        /// starts over again if the readings have moved on since (the stop was still on).
        case stop(since: Double)
    }

    /// No mean yet.
    public init() {}

    /// Whether the mean, within `vibrationMagnitudeBand` of `oneG` (the 1 g reference), has held
    /// still for `vibrationSettleTime` while the readings have deviated from it by
    /// `vibrationDeviation` or more (a vibration once seen lasts down to `vibrationLeaveDeviation`),
    /// mostly fast (`vibrationSlowShare`), for as long without a break: a vibration around a steady
    /// gravity (the end of an arm's swing shows that for a moment).
    public func isVibrating(at time: Double, oneG: Double, _ settings: EstimatorSettings) -> Bool {
        guard let fastSince, time - fastSince >= settings.vibrationSettleTime - settings.timingSlack else {
            return false
        }
        return isSteady(at: time, oneG: oneG, settings)
    }

    /// Whether the mean, within `vibrationMagnitudeBand` of `oneG`, has held still for
    /// `vibrationSettleTime`, whatever the readings do around it.
    public func isSteady(at time: Double, oneG: Double, _ settings: EstimatorSettings) -> Bool {
        guard let offset = sizeOffset(oneG), anchor != nil,
            time - since >= settings.vibrationSettleTime - settings.timingSlack
        else { return false }
        return offset <= settings.vibrationMagnitudeBand
    }

    /// How far the mean's size is from `oneG`, a fraction of it; nil without a mean.
    func sizeOffset(_ oneG: Double) -> Double? {
        gravity.map { abs($0.magnitude / oneG - 1) }
    }

    /// Whether the mean has held still for `vibrationSettleTime`, at 1 g as a device at rest reads
    /// it (within `calmMagnitudeBand` of `oneG`), with the readings' deviation from it under
    /// `vibrationDeviation`: the device rests there, whatever it did before (the vigour remembers a
    /// hard turn for a second; the deviation, started over with the mean, does not). A mean further
    /// off 1 g, within `vibrationMagnitudeBand`, rests once it has held still for
    /// `vibrationHeldTime`: a sensor's bias learned into `oneG` in one orientation reads the other
    /// way after a half turn (twice the bias off), an aliased vibration folds to a slow offset of
    /// the size, and under vibration no calm reading teaches the reference again; an arm pausing
    /// at the top of a raise (0.9 g) moves on sooner.
    public func rests(at time: Double, oneG: Double, _ settings: EstimatorSettings) -> Bool {
        // Steady, the mean is within `vibrationMagnitudeBand` already.
        guard isSteady(at: time, oneG: oneG, settings), let offset = sizeOffset(oneG) else { return false }
        let held = time - since >= settings.vibrationHeldTime - settings.timingSlack
        return deviation < settings.vibrationDeviation && (offset <= settings.calmMagnitudeBand || held)
    }

    /// Follows where the mean lies at `time`, and whether it has lain toward one face (beyond
    /// `vibrationFaceEnterTilt`, within `vibrationMagnitudeBand` of `oneG`, the readings deviating
    /// from it by `vibrationDeviation` or more) for `vibrationHeldTime`: a vibration's mean however
    /// slow the readings' swing, and wherever its in-plane direction circles (a vibration that the
    /// sampling aliases into a slow wobble, see `vibrationFaceEnterTilt`). Called once per reading.
    public mutating func liesFlat(at time: Double, oneG: Double, _ settings: EstimatorSettings) -> Bool {
        let face = gravity.flatMap { mean -> DeviceOrientation? in
            let tilt = UprightGeometry.tilt(of: mean)
            guard let offset = sizeOffset(oneG), offset <= settings.vibrationMagnitudeBand,
                deviation >= settings.vibrationDeviation, abs(tilt) > settings.vibrationFaceEnterTilt
            else { return nil }
            return tilt > 0 ? .faceUp : .faceDown
        }
        if face == nil || face != flatFace {
            flatFace = face
            flatSince = time
        }
        return flatFace != nil && time - flatSince >= settings.vibrationHeldTime - settings.timingSlack
    }

    /// Feeds a finite reading taken at `time`; `oneG`, the 1 g the gate measures it against (nil:
    /// a restart takes any reading).
    public mutating func update(
        _ reading: Vector3, at time: Double, oneG: Double? = nil, _ settings: EstimatorSettings
    ) {
        defer { self.time = time }
        let elapsed = time - self.time
        guard let mean = gravity, elapsed > 0, elapsed <= settings.maximumSampleGap else {
            if gravity == nil || elapsed != 0 { restart(from: reading, at: time) }
            return
        }
        let tau = settings.vibrationTimeConstant
        let young = evidence + elapsed < tau
        let plausible = Self.isPlausible(reading, oneG: oneG, settings)
        switch turn {
        case .midTurn(let since)?, .stop(let since)?:
            guard !young else { break }
            guard plausible else {
                if time - since > 2 * tau { turn = nil }
                break
            }
            // Past the turn's tail, what the mean took in of it only delays the pose it ends in;
            // past the hand's stop too, if the readings have moved on since (the stop was still on).
            let pastStop = turn == .stop(since: since)
            turn = pastStop ? nil : .tail(since: time, pushed: false, stopped: false)
            if pastStop && first.angle(to: mean) <= settings.vibrationSpread { break }
            restart(from: reading, at: time)
            return
        case .tail(let since, let pushed, let stopped)?:
            // That start came early if a reading the gate rejects follows within a time constant
            // (the hand's stop still pushes): the next reading it takes starts the mean over again.
            if time - since > tau {
                turn = stopped ? .stop(since: time) : nil
            } else if !plausible {
                turn = .tail(since: since, pushed: true, stopped: stopped)
                return
            } else if pushed {
                restart(from: reading, at: time)
                turn = .tail(since: since, pushed: false, stopped: true)
                return
            }
        case nil:
            break
        }
        evidence = min(evidence + elapsed, tau)
        // A plain mean while young; then the first-order weight elapsed / (tau + elapsed), as the
        // vigour's (no exponential per reading).
        let weight = young ? elapsed / evidence : elapsed / (tau + elapsed)
        first = first + (reading - first) * weight
        let next = mean + (first - mean) * weight
        // A turn: the first low-pass leads the mean by `vibrationRestartAngle`. What the mean remembers
        // of the pose before only delays the new one, by half a second at the end of a quarter turn:
        // it starts over from the reading, one the gate takes (a 2 g push, or a bump's 0.4 g in a
        // direction of its own, would stay the mean's for long).
        if plausible, first.angle(to: next) > settings.vibrationRestartAngle {
            restart(from: reading, at: time)
            turn = .midTurn(since: time)
            return
        }
        gravity = next
        let size = next.magnitude
        let offset = size > 0 ? min((reading - next).magnitude / size, 1) : 1
        deviation += (offset - deviation) * weight
        let slow = size > 0 ? min((first - next).magnitude / size, 1) : 1
        slowDeviation += (slow - slowDeviation) * weight
        // A vibration seen goes on until the deviation falls under `vibrationLeaveDeviation`.
        let least = fastSince == nil ? settings.vibrationDeviation : settings.vibrationLeaveDeviation
        if deviation >= least && slowDeviation <= settings.vibrationSlowShare * deviation {
            fastSince = fastSince ?? time
        } else {
            fastSince = nil
        }
        if let anchor, anchor.angle(to: next) <= settings.vibrationSpread { return }
        anchor = next
        since = time
    }

    /// Whether the magnitude gate would take `reading` against `oneG` (any reading without one).
    static func isPlausible(_ reading: Vector3, oneG: Double?, _ settings: EstimatorSettings) -> Bool {
        guard let oneG, oneG > 0 else { return true }
        let ratio = reading.magnitude / oneG
        return ratio >= settings.lowerMagnitudeGate && ratio <= settings.upperMagnitudeGate
    }

    /// Forgets the mean (a new timeline).
    public mutating func restart() {
        flatFace = nil
        turn = nil
        gravity = nil
        anchor = nil
        deviation = 0
        slowDeviation = 0
        fastSince = nil
    }

    private mutating func restart(from reading: Vector3, at time: Double) {
        gravity = reading
        first = reading
        evidence = 0
        deviation = 0
        slowDeviation = 0
        fastSince = nil
        anchor = reading
        since = time
    }
}
