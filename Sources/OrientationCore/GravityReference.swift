/// The estimator's self-calibrated 1 g, and the magnitude gate measured against it.
///
/// Calm readings with a plausible magnitude feed it, so the sensor's absolute scale does not
/// matter (wrong by orders of magnitude, raw counts with no scale at all): the first calm
/// reading, whatever its size, is taken for 1 g (`scaleUnit`), and later ones are plausible
/// within `minimumPlausibleScale...maximumPlausibleScale` of it. Once it rests on
/// `referenceTrustTime` of calm readings it is trusted, and the gate rejects readings off it by
/// more than the magnitude gates; before that the gate checks only the plausible range, and
/// before any calm reading only a zero vector is rejected. A calm run the gate rejects for
/// `referenceRestartTime` restarts the reference from it (it was learned from something that
/// was no 1 g).
///
/// Not the hinge's per-sensor reference (`HingeEstimator.Reference`): that one judges a
/// plausible magnitude against the nominal 1 g and feeds on a steady magnitude alone, because a
/// tablet-mode decision may wait for a trustworthy sensor; the estimator must decide on a
/// sensor of any scale from its second reading, and so measures plausibility against the first
/// calm reading and restarts when it was wrong.
public struct GravityReference: Sendable, Equatable {
    /// The running 1 g in sensor units (m/s^2 when the scale is right).
    public private(set) var value: Double
    /// Calm time behind `value`, capped at `referenceTimeConstant`.
    public private(set) var evidence = 0.0
    /// The magnitude of the first calm reading (or of a calm run that restarted the reference):
    /// what the plausible range is measured against. Nil before any calm reading.
    public private(set) var scaleUnit: Double?
    /// The mean size of every finite reading, calm or not (a plain mean while younger than
    /// `referenceTimeConstant`, an exponential average after); nil before the first. A vibration's
    /// readings average to about 1 g in size, so this is the 1 g of a device that has never been
    /// calm enough to teach the reference (`oneGForMean`).
    public private(set) var everyReading: Double?
    // Since when consecutive calm readings have been rejected by the gate; nil when the last
    // reading was accepted, or not calm.
    private var outlierSince: Double?
    // Time behind `everyReading`, capped at `referenceTimeConstant`.
    private var everyReadingEvidence = 0.0

    /// What the magnitude gate made of a reading.
    public enum Verdict: Sendable, Equatable {
        /// Within the gate.
        case accepted
        /// Free fall, a shock, saturation, or a zero vector.
        case rejected
        /// A calm run rejected for `referenceRestartTime`: the reference started over from it,
        /// and the reading is accepted.
        case restarted
    }

    /// A reference with no evidence, at `nominal` (the settings' `nominalGravity`).
    public init(nominal: Double) {
        value = nominal
    }

    /// True once the reference rests on `referenceTrustTime` of calm readings.
    public func isTrusted(_ settings: EstimatorSettings) -> Bool {
        evidence >= settings.referenceTrustTime - settings.timingSlack
    }

    /// The 1 g a reading of size `magnitude` is measured against: the reference once it has any
    /// evidence (or is trusted), else the reading itself.
    public func oneG(for magnitude: Double, _ settings: EstimatorSettings) -> Double {
        isTrusted(settings) || evidence > 0 ? value : magnitude
    }

    /// The 1 g the steady mean of a vibration (`SteadyMean`) is measured against: the reference once
    /// it is trusted, else the mean size of every reading (`magnitude`, the reading's, before the
    /// first). Not a reference with a little evidence but no trust: under a vibration the only
    /// calm readings are two in a row at a peak or a trough of it, a few tenths of a g off. Not the
    /// mean's own size either, which would make any steady mean 1 g: the end of an arm's swing
    /// holds one of 1.5 g and more. Nor a trusted reference that rests on less than the mean's own
    /// time constant (`vibrationTimeConstant`) of calm readings: a single calm pair 0.1 s apart
    /// (the adaptive plan's moving interval), which a vibration aliased by so slow a sampling
    /// gives at a peak or a trough, is trusted by the gate but is a few tenths of a g off.
    public func oneGForMean(for magnitude: Double, _ settings: EstimatorSettings) -> Double {
        let enough = max(settings.referenceTrustTime, settings.vibrationTimeConstant) - settings.timingSlack
        return evidence >= enough ? value : everyReading ?? magnitude
    }

    /// Feeds the size of every finite reading, `elapsed` seconds after the previous one (0 for the
    /// first, or after a gap), to `everyReading`.
    public mutating func hear(_ magnitude: Double, elapsed: Double, _ settings: EstimatorSettings) {
        guard let mean = everyReading else {
            everyReading = magnitude
            return
        }
        guard elapsed > 0 else { return }
        // The first reading counts for as long as the second.
        let before = everyReadingEvidence > 0 ? everyReadingEvidence : elapsed
        everyReadingEvidence = min(before + elapsed, settings.referenceTimeConstant)
        everyReading = mean + (magnitude - mean) * (elapsed / everyReadingEvidence)
    }

    /// Feeds a reading's magnitude, `elapsed` seconds after the previous reading: learned only
    /// when the reading is calm and the `vigour` low (two readings in a row at the top of a
    /// swing are calm too). A plain mean while the evidence is young, an exponential average
    /// with `referenceTimeConstant` after.
    public mutating func learn(
        _ magnitude: Double, calm: Bool, elapsed: Double, vigour: Double, _ settings: EstimatorSettings
    ) {
        guard calm, elapsed > 0, vigour <= settings.referenceVigourLimit, magnitude > 0 else { return }
        guard let unit = scaleUnit else {
            scaleUnit = magnitude
            evidence = min(elapsed, settings.referenceTimeConstant)
            value = magnitude
            return
        }
        guard magnitude >= settings.minimumPlausibleScale * unit, magnitude <= settings.maximumPlausibleScale * unit
        else { return }
        evidence = min(evidence + elapsed, settings.referenceTimeConstant)
        value += (magnitude - value) * (elapsed / evidence)
    }

    /// The magnitude gate for a reading of size `magnitude` at `time` (`calm`: little change
    /// from the previous reading, taken at `previousTime`).
    public mutating func judge(
        _ magnitude: Double, calm: Bool, previousTime: Double, at time: Double, _ settings: EstimatorSettings
    ) -> Verdict {
        let trusted = isTrusted(settings)
        let gate =
            trusted
            ? settings.lowerMagnitudeGate...settings.upperMagnitudeGate
            : settings.minimumPlausibleScale...settings.maximumPlausibleScale
        let judged = trusted || scaleUnit != nil
        let unit = trusted ? value : scaleUnit ?? value
        guard magnitude <= 0 || (judged && !gate.contains(magnitude / unit)) else {
            outlierSince = nil
            return .accepted
        }
        // A calm run the gate rejects for `referenceRestartTime` is no free fall or shock but a
        // 1 g the reference got wrong: the reference starts over from it.
        guard magnitude > 0, calm else {
            outlierSince = nil
            return .rejected
        }
        let since = outlierSince ?? previousTime
        outlierSince = since
        guard time - since >= settings.referenceRestartTime - settings.timingSlack else { return .rejected }
        restart(magnitude, evidence: time - since, settings)
        return .restarted
    }

    /// Ends a run of rejected calm readings (a reading that is no reading, a new timeline).
    public mutating func breakOutlierRun() {
        outlierSince = nil
    }

    /// Starts over from `magnitude`, with `evidence` seconds behind it (at least enough to be
    /// trusted).
    mutating func restart(_ magnitude: Double, evidence: Double, _ settings: EstimatorSettings) {
        scaleUnit = magnitude
        value = magnitude
        self.evidence = min(max(evidence, settings.referenceTrustTime), settings.referenceTimeConstant)
        outlierSince = nil
        everyReading = magnitude
        everyReadingEvidence = 0
    }
}
