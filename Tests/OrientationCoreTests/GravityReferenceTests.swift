import OrientationCore
import Testing

/// The estimator's self-calibrated 1 g and its magnitude gate, on their own.
@Suite("Gravity reference")
struct GravityReferenceTests {
    let settings = EstimatorSettings()

    @Test func theFirstCalmReadingOfAnySizeIsOneG() {
        for size in [0.01, 9.81, 4096.0] {
            var reference = GravityReference(nominal: settings.nominalGravity)
            #expect(reference.scaleUnit == nil)
            // Before any calm reading only a zero vector is rejected.
            #expect(reference.judge(size, calm: false, previousTime: 0, at: 0.02, settings) == .accepted)
            #expect(reference.judge(0, calm: true, previousTime: 0, at: 0.02, settings) == .rejected)
            reference.learn(size, calm: true, elapsed: 0.05, vigour: 0, settings)
            #expect(reference.scaleUnit == size)
            #expect(reference.value == size)
            #expect(reference.isTrusted(settings))
            #expect(reference.oneG(for: 2 * size, settings) == size)
        }
    }

    /// Under a vibration the only calm readings are two in a row at a peak (here 1.3 g, 0.01 s
    /// behind the reference: not trusted). The steady mean is measured against the mean size of
    /// every reading, about 1 g, until the reference is trusted; `oneG` stays the peak.
    @Test func aVibrationsMeanIsMeasuredAgainstEveryReadingUntilTrusted() {
        var reference = GravityReference(nominal: settings.nominalGravity)
        #expect(reference.oneGForMean(for: 7, settings) == 7)
        reference.learn(1.3 * g, calm: true, elapsed: 0.01, vigour: 0, settings)
        reference.hear(1.3 * g, elapsed: 0, settings)
        for index in 1...200 { reference.hear(index % 2 == 0 ? 1.3 * g : 0.7 * g, elapsed: 0.01, settings) }
        #expect(!reference.isTrusted(settings))
        #expect(reference.oneG(for: g, settings) == 1.3 * g)
        #expect(abs(reference.oneGForMean(for: 1.3 * g, settings) / g - 1) < 0.01)
        reference.learn(1.3 * g, calm: true, elapsed: 0.05, vigour: 0, settings)
        #expect(reference.isTrusted(settings))
        // Trusted, but on less than the mean's own time constant of calm readings: see the next test.
        #expect(abs(reference.oneGForMean(for: g, settings) / g - 1) < 0.01)
        reference.learn(1.3 * g, calm: true, elapsed: 0.1, vigour: 0, settings)
        #expect(reference.oneGForMean(for: g, settings) == reference.value)
    }

    /// The adaptive plan's first two readings, 0.1 s apart, at a trough of a vibration its slow
    /// sampling aliases (held-still-decided seed 4330: 0.73 g, two in a row): the pair is calm and
    /// the gate trusts it, and the vigour then rises and nothing more is learned. The steady mean
    /// measured against it was 1.4 g and more and never proposed; a reference on less than
    /// `vibrationTimeConstant` of calm readings is no 1 g for the mean, every reading's size is.
    @Test func aSingleCalmPairIsNoOneGForAVibrationsMean() {
        var reference = GravityReference(nominal: settings.nominalGravity)
        reference.hear(0.74 * g, elapsed: 0, settings)
        reference.learn(0.73 * g, calm: true, elapsed: 0.1, vigour: 0, settings)
        reference.hear(0.73 * g, elapsed: 0.1, settings)
        for index in 1...20 { reference.hear(index % 2 == 0 ? 1.35 * g : 0.75 * g, elapsed: 0.1, settings) }
        #expect(reference.isTrusted(settings))
        #expect(abs(reference.value / g - 0.73) < 0.01)
        #expect(abs(reference.oneGForMean(for: g, settings) / g - 1) < 0.05)
    }

    @Test func learnsOnlyFromCalmPlausibleReadingsWhileTheVigourIsLow() {
        var reference = GravityReference(nominal: settings.nominalGravity)
        #expect(reference.oneG(for: 3, settings) == 3)
        reference.learn(10, calm: true, elapsed: 0.02, vigour: 0, settings)
        let learned = reference
        reference.learn(11, calm: false, elapsed: 0.02, vigour: 0, settings)
        reference.learn(11, calm: true, elapsed: 0.02, vigour: settings.referenceVigourLimit * 2, settings)
        reference.learn(30, calm: true, elapsed: 0.02, vigour: 0, settings)  // beyond 2.5x the unit
        #expect(reference == learned)
        // A plain mean while young: 0.02 s at 10 and 0.02 s at 11.
        reference.learn(11, calm: true, elapsed: 0.02, vigour: 0, settings)
        #expect(abs(reference.value - 10.5) < 1e-12)
        #expect(!reference.isTrusted(settings))
        reference.learn(11, calm: true, elapsed: 0.02, vigour: 0, settings)
        #expect(reference.isTrusted(settings))
    }

    @Test func theTrustedGateRejectsFreeFallAndShocks() {
        var reference = GravityReference(nominal: settings.nominalGravity)
        reference.learn(g, calm: true, elapsed: 0.1, vigour: 0, settings)
        #expect(reference.judge(g, calm: true, previousTime: 0, at: 0.1, settings) == .accepted)
        #expect(reference.judge(0.5 * g, calm: false, previousTime: 0.1, at: 0.2, settings) == .rejected)
        #expect(reference.judge(1.5 * g, calm: false, previousTime: 0.2, at: 0.3, settings) == .rejected)
        #expect(reference.judge(1.3 * g, calm: false, previousTime: 0.3, at: 0.4, settings) == .accepted)
    }

    @Test func aCalmRunRejectedForTheRestartTimeRestartsIt() {
        var reference = GravityReference(nominal: settings.nominalGravity)
        reference.learn(g, calm: true, elapsed: 0.1, vigour: 0, settings)
        // Calm readings at 2 g every 0.1 s from t = 1: rejected until 1 s has passed since the
        // reading before the first of them.
        var time = 1.0
        while time < 1.85 {
            #expect(reference.judge(2 * g, calm: true, previousTime: time - 0.1, at: time, settings) == .rejected)
            time += 0.1
        }
        #expect(reference.judge(2 * g, calm: true, previousTime: time - 0.1, at: time, settings) == .restarted)
        #expect(reference.value == 2 * g)
        #expect(reference.scaleUnit == 2 * g)
        #expect(reference.isTrusted(settings))
        // A reading that is not calm, or a broken run, starts the count over.
        reference = GravityReference(nominal: settings.nominalGravity)
        reference.learn(g, calm: true, elapsed: 0.1, vigour: 0, settings)
        _ = reference.judge(2 * g, calm: true, previousTime: 0.9, at: 1.0, settings)
        reference.breakOutlierRun()
        #expect(reference.judge(2 * g, calm: true, previousTime: 1.9, at: 2.0, settings) == .rejected)
    }
}
