import OrientationCore
import Testing

/// The low-pass filtered gravity, on its own.
@Suite("Gravity filter")
struct GravityFilterTests {
    let settings = EstimatorSettings()

    @Test func startsFromItsFirstReadingAndMovesByTheExactWeight() {
        var filter = GravityFilter()
        #expect(filter.update(gravity(angle: 0), tilt: 0, ratio: 1, at: 0, settings) == .restarted)
        #expect(filter.gravity == gravity(angle: 0))
        #expect(filter.update(gravity(angle: 90), tilt: 0, ratio: 1, at: 0.1, settings) == .continued(swing: false))
        let weight = OrientationEstimator.smoothingWeight(elapsed: 0.1, timeConstant: settings.filterTimeConstant)
        let expected = gravity(angle: 0) + (gravity(angle: 90) - gravity(angle: 0)) * weight
        #expect(((filter.gravity ?? .zero) - expected).magnitude < 1e-12)
        #expect(filter.angularSpeed > settings.steadyAngularSpeed)
        #expect(filter.lastStepAngle > settings.motionStepAngle)
    }

    @Test func aGapRestartsIt() {
        var filter = GravityFilter()
        _ = filter.update(gravity(angle: 0), tilt: 0, ratio: 1, at: 0, settings)
        let step = filter.update(gravity(angle: 90), tilt: 0, ratio: 1, at: settings.maximumSampleGap + 1, settings)
        #expect(step == .restarted)
        #expect(filter.gravity == gravity(angle: 90))
        #expect(filter.angularSpeed == 0)
    }

    @Test func aTiltTowardFlatIsASwingAndTowardUprightIsNot() {
        var filter = GravityFilter()
        _ = filter.update(gravity(angle: 0, tilt: 10), tilt: 10, ratio: 1, at: 0, settings)
        #expect(
            filter.update(gravity(angle: 0, tilt: 80), tilt: 80, ratio: 1, at: 0.02, settings)
                == .continued(swing: true))
        filter = GravityFilter()
        _ = filter.update(gravity(angle: 0, tilt: 80), tilt: 80, ratio: 1, at: 0, settings)
        #expect(
            filter.update(gravity(angle: 0, tilt: 10), tilt: 10, ratio: 1, at: 0.02, settings)
                == .continued(swing: false))
        #expect(filter.readingTiltSpeed > settings.swingTiltSpeed)
    }

    @Test func aDisturbedReadingMovesItLess() {
        var calm = GravityFilter()
        var shaken = GravityFilter()
        _ = calm.update(gravity(angle: 0), tilt: 0, ratio: 1, at: 0, settings)
        _ = shaken.update(gravity(angle: 0), tilt: 0, ratio: 1, at: 0, settings)
        _ = calm.update(gravity(angle: 90), tilt: 0, ratio: 1, at: 0.02, settings)
        _ = shaken.update(gravity(angle: 90), tilt: 0, ratio: 1.3, at: 0.02, settings)
        #expect(shaken.lastStepAngle < calm.lastStepAngle / 2)
    }
}
