import OrientationCore
import Testing

/// Any absolute scale: the direction of a reading decides, and the self-calibrated 1 g reference
/// says what free fall and shock are (a driver's scale wrong by orders of magnitude, raw counts
/// read with no scale, iio-sensor-proxy's 25 g and 100 g test devices).
@Suite("Estimator at any absolute scale")
struct EstimatorScaleTests {
    static let scales = [1e-3, 0.01, 0.1, 0.3, 3, 10, 26.1, 100, 1e3]

    @Test(arguments: scales)
    func everyReferenceVectorIsDecidedFast(scale: Double) {
        for (reading, expected) in referenceVectors {
            var estimator = OrientationEstimator()
            let changes = feed(samples(rate: 20, duration: 1) { _ in reading * scale }, into: &estimator)
            #expect(changes.map(\.orientation) == [expected], "x\(scale)")
            // As fast as at the right scale: within 3 samples (what ReadOrientation waits for).
            #expect((changes.first?.time ?? 99) <= 0.1, "x\(scale)")
            #expect(abs(estimator.gravityReference / (g * scale) - 1) < 1e-9, "x\(scale)")
            #expect(estimator.isReferenceTrusted)
        }
    }

    @Test(arguments: scales)
    func sameDecisionsAtTheSameTimesAsAtTheRightScale(scale: Double) {
        // A noisy turn there and back, a knock and a short free fall: what happens at 1 g happens at
        // any scale, sample for sample.
        func trace(_ scale: Double) -> [TraceSample] {
            var random = SplitMix64(seed: 21)
            return samples(rate: 50, duration: 10) { t in
                var reading = gravity(angle: 90 * ramp(t, from: 2, to: 3) - 90 * ramp(t, from: 6, to: 7))
                reading = reading + random.noise(sigma: 0.05)
                if t >= 4 && t < 4.06 { reading = Vector3(0, 3 * g, 0) }
                if t >= 8 && t < 8.3 { reading = Vector3(0.1, 0.2, -0.3) + random.noise(sigma: 0.2) }
                return reading * scale
            }
        }
        var right = OrientationEstimator()
        let expected = feed(trace(1), into: &right)
        #expect(expected.map(\.orientation) == [.portrait, .landscapeRight, .portrait])
        var scaled = OrientationEstimator()
        let changes = feed(trace(scale), into: &scaled)
        #expect(changes.map(\.orientation) == expected.map(\.orientation), "x\(scale)")
        #expect(changes.map(\.time) == expected.map(\.time), "x\(scale)")
    }

    @Test(arguments: [0.01, 26.1, 100])
    func freeFallAndShockAreJudgedAgainstTheLearnedReference(scale: Double) {
        // Landscape-right at rest, then a steady free fall (0.1 g, 0.5 s) and a steady shock
        // (3 g, 0.2 s) in the portrait direction: both rejected at any scale, no change.
        var estimator = OrientationEstimator()
        let trace = samples(rate: 50, duration: 4) { t in
            if t >= 1 && t < 1.5 { return Vector3(0, -0.1 * g, 0) * scale }
            if t >= 2.5 && t < 2.7 { return Vector3(0, -3 * g, 0) * scale }
            return Vector3(g, 0, 0) * scale
        }
        var blockedByFall = false
        for sample in trace {
            estimator.update(sample.reading, at: sample.time)
            if sample.time >= 1.02 && sample.time < 1.5 { blockedByFall = blockedByFall || estimator.isSettling }
            #expect(estimator.orientation == .landscapeRight || sample.time < 0.1, "x\(scale) at \(sample.time)")
        }
        #expect(blockedByFall, "a free fall blocks commits")
        #expect(abs(estimator.gravityReference / (g * scale) - 1) < 1e-6, "x\(scale)")
    }

    @Test func aReferenceLearnedFromASteadyFreeFallStartsOverFromTheRealOneG() {
        // The device is dropped as sampling starts: 0.4 s of a steady 0.1 g (synthetic: a real fall
        // reads noise, which is not calm), taken for 1 g and face-down, then it rests in portrait.
        // The rest is rejected as a shock until it has lasted `referenceRestartTime`, then it is
        // decided as any quarter turn.
        let settings = EstimatorSettings()
        var estimator = OrientationEstimator()
        let trace = samples(rate: 50, duration: 3) { t in
            t < 0.4 ? Vector3(0, 0, 0.1 * g) : Vector3(0, -g, 0)
        }
        var changes: [(time: Double, orientation: DeviceOrientation)] = []
        for sample in trace {
            let before = estimator.orientation
            let now = estimator.update(sample.reading, at: sample.time)
            if now != before { changes.append((sample.time, now)) }
        }
        #expect(changes.map(\.orientation) == [.faceDown, .portrait])
        if let portrait = changes.last {
            let restart = 0.4 + settings.referenceRestartTime
            #expect(portrait.time >= restart - 0.03)
            #expect(portrait.time <= restart + settings.quarterTurnSettleTime + 0.05)
        }
        #expect(abs(estimator.gravityReference / g - 1) < 1e-6)
    }

    @Test func aFreeFallShorterThanTheRestartTimeKeepsTheReference() {
        // A steady 0.05 g for 0.9 s (a long fall, synthetic: no noise, so every reading is calm)
        // never becomes the 1 g reference.
        var estimator = OrientationEstimator()
        let trace = samples(rate: 50, duration: 4) { t in
            t >= 1 && t < 1.9 ? Vector3(0, -0.05 * g, 0) : Vector3(-g, 0, 0)
        }
        let changes = feed(trace, into: &estimator)
        #expect(changes.map(\.orientation) == [.landscapeLeft])
        #expect(abs(estimator.gravityReference / g - 1) < 1e-6)
    }

    @Test func aZeroVectorIsNeverOneG() {
        // A dead sensor reads zero: nothing is decided and nothing is learned; its first real
        // reading decides as fast as ever.
        var estimator = OrientationEstimator()
        for sample in samples(rate: 20, duration: 2, { _ in .zero }) {
            #expect(estimator.update(sample.reading, at: sample.time) == .unknown)
        }
        #expect(!estimator.isReferenceTrusted)
        let changes = feed(samples(rate: 20, duration: 1, start: 2) { _ in Vector3(0, 250, 0) }, into: &estimator)
        #expect(changes.map(\.orientation) == [.portraitUpsideDown])
        #expect((changes.first?.time ?? 99) <= 2.4)
    }
}
