/// How hard a reading's magnitude swings: the deviation of |a| from its own mean (a fraction of
/// it, at most 1), mean and deviation low-pass filtered with `vigourTimeConstant` (a plain mean
/// while younger than that; a reading pulls the mean by at most `disturbanceFullScale` of it). About 0.01 at rest or turning in a hand, 0.2 for a phone worn on
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
        // A reading moves the mean by at most `disturbanceFullScale` of it: one hard jolt (a quick
        // flip's pull on a sensor away from the hand's axis, 2-4 g for a tenth of a second) would drag
        // the mean off the resting size, and the rest after it would read as a swing for a second,
        // until the mean came back. A swinging arm's readings straddle the mean and keep it.
        let pull = settings.disturbanceFullScale * mean
        mean += min(max(magnitude - mean, -pull), pull) * weight
        let deviation = mean > 0 ? min(abs(magnitude - mean) / mean, 1) : 0
        value += (deviation - value) * weight
    }
}
