import OrientationCore
import Testing

/// The turn follower, on its own: fed with a filter for the angular speeds it starts from.
@Suite("Turn follower")
struct TurnFollowerTests {
    /// The targets named while the device, committed in portrait, turns from 0 to `to` degrees
    /// in `duration` seconds (smoothstep) at 50 Hz, from t = 1; with the first time each was
    /// named.
    static func targets(
        to angle: Double, duration: Double, settings: EstimatorSettings = EstimatorSettings()
    ) -> [(time: Double, target: DeviceOrientation)] {
        var filter = GravityFilter()
        var follower = TurnFollower()
        var named: [(time: Double, target: DeviceOrientation)] = []
        for sample in samples(
            rate: 50, duration: 3, { t in gravity(angle: angle * ramp(t, from: 1, to: 1 + duration)) })
        {
            _ = filter.update(sample.reading, tilt: 0, ratio: 1, at: sample.time, settings)
            follower.follow(
                sample.reading, tilt: 0, ratio: 1, at: sample.time, committed: .portrait,
                angularSpeed: filter.angularSpeed, tiltSpeed: filter.readingTiltSpeed, settings)
            if let target = follower.target, named.last?.target != target { named.append((sample.time, target)) }
        }
        return named
    }

    @Test func aQuarterTurnIsNamedAsItSlowsIntoItsEnd() {
        let right = Self.targets(to: 90, duration: 0.4)
        #expect(right.map(\.target) == [.landscapeRight])
        #expect((right.first?.time ?? 0) > 1.2 && (right.first?.time ?? 99) < 1.45)
        #expect(Self.targets(to: -90, duration: 0.4).map(\.target) == [.landscapeLeft])
    }

    @Test func aFlipPassesThroughTheQuarterAtItsTopSpeed() {
        #expect(Self.targets(to: 180, duration: 0.5).isEmpty)
    }

    @Test func aTurnThatStopsShortIsNotNamed() {
        #expect(Self.targets(to: 60, duration: 0.4).isEmpty)
    }

    @Test func withNoSlowdownNothingIsFollowed() {
        var settings = EstimatorSettings()
        settings.midTurnSlowdown = 0
        #expect(Self.targets(to: 90, duration: 0.4, settings: settings).isEmpty)
    }

    @Test func aTurnOffOneGIsNotSteady() {
        var filter = GravityFilter()
        var follower = TurnFollower()
        let settings = EstimatorSettings()
        for sample in samples(rate: 50, duration: 3, { t in gravity(angle: 90 * ramp(t, from: 1, to: 1.4)) }) {
            _ = filter.update(sample.reading, tilt: 0, ratio: 1.2, at: sample.time, settings)
            follower.follow(
                sample.reading, tilt: 0, ratio: 1.2, at: sample.time, committed: .portrait,
                angularSpeed: filter.angularSpeed, tiltSpeed: filter.readingTiltSpeed, settings)
            #expect(follower.target == nil)
        }
    }
}
