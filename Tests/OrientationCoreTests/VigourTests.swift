import OrientationCore
import Testing

/// The swing of |a| around its own mean, on its own.
@Suite("Vigour")
struct VigourTests {
    let settings = EstimatorSettings()

    @Test func aSteadyMagnitudeHasNone() {
        var vigour = Vigour()
        vigour.restart(g)
        for _ in 0..<100 { vigour.update(g, elapsed: 0.02, settings) }
        #expect(vigour.value == 0)
    }

    @Test func aSwingingMagnitudeIsVigorousFromItsFirstReadings() {
        var vigour = Vigour()
        vigour.restart(g)
        // |a| between 0.4 and 1.6 g at 50 Hz, as an arm swung through exercises.
        for index in 1...10 { vigour.update(index % 2 == 0 ? 1.6 * g : 0.4 * g, elapsed: 0.02, settings) }
        #expect(vigour.value > settings.vigourRotationLimit)
        vigour.restart(g)
        #expect(vigour.value == 0)
    }

    /// One jolt (3 g for 0.1 s: a quick flip's pull on a sensor away from the hand's axis), then
    /// rest: the jolt pulls the mean by at most `disturbanceFullScale` a reading, so the rest is no
    /// swing within 0.3 s. A mean dragged to the jolt read the rest as a swing for 0.7 s.
    @Test func aJoltThenRestIsNoSwing() {
        var vigour = Vigour()
        vigour.restart(g)
        for _ in 0..<50 { vigour.update(g, elapsed: 0.02, settings) }
        for _ in 0..<5 { vigour.update(3 * g, elapsed: 0.02, settings) }
        #expect(vigour.value > settings.vigourRotationLimit)
        for _ in 0..<15 { vigour.update(g, elapsed: 0.02, settings) }
        #expect(vigour.value <= settings.vigourRotationLimit)
    }

    @Test func itDecaysWithItsTimeConstantOnceTheSwingStops() {
        var vigour = Vigour()
        vigour.restart(g)
        for index in 1...50 { vigour.update(index % 2 == 0 ? 1.5 * g : 0.5 * g, elapsed: 0.02, settings) }
        let swung = vigour.value
        for _ in 0..<25 { vigour.update(g, elapsed: 0.02, settings) }  // 0.5 s: about 1/e
        #expect(vigour.value < 0.5 * swung)
        for _ in 0..<100 { vigour.update(g, elapsed: 0.02, settings) }
        #expect(vigour.value < 0.05)
    }
}
