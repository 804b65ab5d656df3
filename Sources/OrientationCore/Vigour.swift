/// How hard a reading's magnitude swings: the deviation of |a| from its own mean (a fraction of
/// it, at most 1), mean and deviation low-pass filtered with `vigourTimeConstant` (a plain mean
/// while younger than that). About 0.01 at rest or turning in a hand, 0.2 for a phone worn on
/// the waist while walking, 0.2-0.5 for an arm swung through exercises. No 1 g reference is
/// needed, so a swing from the first reading on (which would mislead the reference) is seen at
/// once.
public struct Vigour: Sendable, Equatable {
    /// The filtered deviation, 0...1.
    public private(set) var value = 0.0
    // Time behind `value`, capped at vigourTimeConstant, and the mean |a| it is measured around.
    private var evidence = 0.0
    private var mean = 0.0

    /// No vigour yet.
    public init() {}

    /// Starts over from a reading of size `magnitude` (first reading, a gap, a new scale).
    public mutating func restart(_ magnitude: Double) {
        value = 0
        evidence = 0
        mean = magnitude
    }

    /// Feeds a reading of size `magnitude`, `elapsed` seconds after the previous one.
    public mutating func update(_ magnitude: Double, elapsed: Double, _ settings: EstimatorSettings) {
        // A plain mean while the evidence is younger than the time constant, so that a device
        // swung from the first reading on is known to be vigorous at once.
        let young = evidence + elapsed < settings.vigourTimeConstant
        evidence = min(evidence + elapsed, settings.vigourTimeConstant)
        // After that the first-order weight elapsed / (tau + elapsed): within a few percent of
        // 1 - exp(-elapsed / tau) at 10-50 Hz, and no exponential per reading for a gate.
        let weight = young ? elapsed / evidence : elapsed / (settings.vigourTimeConstant + elapsed)
        mean += (magnitude - mean) * weight
        let deviation = mean > 0 ? min(abs(magnitude - mean) / mean, 1) : 0
        value += (deviation - value) * weight
    }
}
