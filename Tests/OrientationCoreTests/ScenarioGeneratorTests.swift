import OrientationCore
import Testing

/// The scenario generator is physically right: a property that fails must be the estimator's
/// fault, not the generator's.
@Suite("Scenario generator physics")
struct ScenarioGeneratorTests {
    @Test func attitudeRotationReadsItsGravityDirection() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let attitude = Attitude(
                turn: random.uniform(-180...180), lean: random.uniform(-90...90), roll: random.uniform(-90...90))
            let down = attitude.rotation.transposed * worldDown
            #expect((down - attitude.gravityDirection).magnitude < 1e-12, "\(attitude)")
            // A rotation: orthonormal.
            let m = attitude.rotation.transposed * attitude.rotation
            // (The angle from the trace loses precision near 0: 1e-5 degrees.)
            #expect(Matrix3.identity.angle(to: m) < 1e-5)
        }
        // docs/axes.md: portrait reads (0, -g, 0), landscape-right (+g, 0, 0), face-up (0, 0, -g).
        #expect((Attitude().rotation.transposed * worldDown - Vector3(0, -1, 0)).magnitude < 1e-12)
        #expect((Attitude(turn: 90).rotation.transposed * worldDown - Vector3(1, 0, 0)).magnitude < 1e-12)
        #expect((Attitude(lean: 90).rotation.transposed * worldDown - Vector3(0, 0, -1)).magnitude < 1e-12)
    }

    @Test func axisAngleRoundTrips() {
        var random = SplitMix64(seed: 8)
        for _ in 0..<100 {
            let axis = Vector3(random.uniform(-1...1), random.uniform(-1...1), random.uniform(-1...1))
            let unit = axis * (1 / axis.magnitude)
            let degrees = random.uniform(1...179)
            let (found, angle) = Matrix3.rotation(about: unit, degrees: degrees).axisAngle
            #expect(abs(angle - degrees) < 1e-6)
            #expect((found - unit).magnitude < 1e-6)
        }
    }

    /// A device held still reads gravity and nothing else; under vibration, the mean of its true
    /// readings over each hold is gravity (the vibration has zero mean), within 0.01 g.
    @Test func stillReadingsAverageToGravity() {
        for seed in UInt64(1)...40 {
            let scenario = ScenarioGenerator.heldStill(seed: seed, bumps: seed % 2 == 0)
            for hold in scenario.holds {
                // Away from the turns' ends, 1 kHz, a whole number of bump periods when there are bumps.
                let start = hold.start + 0.05
                var end = hold.end - 0.05
                if let bumps = scenario.vibration.bumps {
                    let periods = ((end - start) / bumps.period).rounded(.down)
                    guard periods >= 1 else { continue }
                    end = start + periods * bumps.period
                }
                var sum = Vector3.zero
                var count = 0.0
                for t in stride(from: start, to: end, by: 0.001) {
                    sum = sum + scenario.trueReading(at: t)
                    count += 1
                }
                let mean = sum * (1 / count)
                let down = scenario.down(at: (start + end) / 2)
                #expect(scenario.motionAcceleration(at: (start + end) / 2).magnitude < 1e-3, "seed \(seed)")
                #expect((mean - down * g).magnitude < 0.01 * g, "seed \(seed): \(mean) against \(down * g)")
                #expect(hold.orientation != .unknown, "seed \(seed)")
            }
        }
    }

    /// Turned about the grip at a steady rate, the sensor r away from it feels the centripetal
    /// acceleration omega^2 r toward the grip, and nothing tangential.
    @Test func gripTurnGivesCentripetalAcceleration() {
        let offset = Vector3(0.1, 0, 0)
        let rate = 180.0
        let scenario = DeviceScenario(duration: 1, noiseSeed: 1, summary: "steady turn") { t in
            let rotation = Attitude(turn: rate * t).rotation
            return Placement(rotation: rotation, position: Vector3(0, 1, 0) + rotation * offset)
        }
        let omega = rate * Double.pi / 180
        for t in [0.1, 0.37, 0.8] {
            let a = scenario.motionAcceleration(at: t)
            let toGrip = Vector3(0, 1, 0) - scenario.motion(t).position
            #expect(abs(a.magnitude - omega * omega * 0.1) < 1e-4)
            #expect(a.angle(to: toGrip) < 0.1)
            #expect(abs(scenario.angularSpeed(at: t) - rate) < 0.5)
        }
        // The minimum-jerk profile is half way at half time.
        #expect(SpeedProfile.minimumJerk.progress(0.15, from: 0, to: 0.3) == 0.5)
    }

    /// Bumps are whole cycles under a window: no change of velocity; the vibration's peak bounds it.
    @Test func vibrationHasZeroMeanAndItsPeak() {
        var random = SplitMix64(seed: 3)
        for _ in 0..<20 {
            var v = Vibration.road(amplitude: 0.4 * g, band: 5...25, random: &random)
            #expect(abs(v.peak - 0.4 * g) < 1e-9)
            v.bumps = Vibration.Bumps(
                amplitude: 2 * g, frequency: random.uniform(6...15), cycles: 1 + random.index(3), period: 3, start: 0.5,
                direction: Vector3(0, 1, 0))
            var velocity = Vector3.zero
            var largest = 0.0
            for t in stride(from: 0.5, to: 3.5, by: 1e-4) {
                let a = v.acceleration(at: t)
                velocity = velocity + a * 1e-4
                largest = max(largest, a.magnitude)
            }
            #expect(largest <= 2.4 * g + 1e-9)
            // Over 3 s the sinusoids leave at most A / (2 pi f) of velocity; the bump none.
            #expect(velocity.magnitude < 0.4 * g / (2 * Double.pi * 5) * 2 + 0.01)
        }
    }

    /// Walking, running and exercises accelerate the hand as much as real ones do, not more.
    @Test func handAccelerationIsHumanSized() {
        for seed in UInt64(1)...30 {
            let scenario = ScenarioGenerator.swinging(seed: seed)
            let magnitudes = stride(from: 1.0, to: 3.0, by: 0.005).map { scenario.motionAcceleration(at: $0).magnitude }
            // A hand swung while running reaches 3-4 g, less walking or raising an arm.
            #expect(magnitudes.max()! < 4.5 * g, "seed \(seed): \(scenario.summary)")
            if scenario.summary.hasPrefix("walking") {
                #expect(magnitudes.max()! < 2 * g, "seed \(seed): \(scenario.summary)")
            }
        }
    }

    @Test func sensorModelScalesClipsAndQuantizes() {
        var random = SplitMix64(seed: 1)
        var sensor = SensorModel()
        sensor.scale = 1024 / 9.80665
        sensor.step = 1
        sensor.range = 2 * 9.80665
        let reading = sensor.read(Vector3(0, -9.80665, 30), random: &random)
        #expect(reading == Vector3(0, -1024, 2048))
        sensor.bias = Vector3(0.5, 0, 0)
        #expect(sensor.read(Vector3(0, 0, 0), random: &random).x == (0.5 * 1024 / 9.80665).rounded())
    }

    @Test func scenariosAreReproducible() {
        let a = ScenarioGenerator.heldStill(seed: 42).run()
        let b = ScenarioGenerator.heldStill(seed: 42).run()
        #expect(a.samples == b.samples)
        #expect(a.samples != ScenarioGenerator.heldStill(seed: 43).run().samples)
        let p = ScenarioGenerator.posture(seed: 5).0.run()
        #expect(p.samples == ScenarioGenerator.posture(seed: 5).0.run().samples)
        #expect(
            HingeScenario.draw(seed: 9, ambiguousB: nil, thenTo: true, lid: nil).run().map(\.sample)
                == HingeScenario.draw(seed: 9, ambiguousB: nil, thenTo: true, lid: nil).run().map(\.sample))
    }

    /// The posture generator's poses before and after are clear, and its changes end at `end`.
    @Test func posturesAreClearAndStill() {
        for seed in UInt64(1)...60 {
            let (scenario, end) = ScenarioGenerator.posture(seed: seed)
            #expect(scenario.holds.count == 2)
            #expect(scenario.holds.allSatisfy { $0.orientation != .unknown })
            #expect(scenario.holds[1].start == end)
            // After the end: only breathing or tremor (under 0.15 g, slow turning).
            for t in stride(from: end + 0.05, to: scenario.duration, by: 0.1) {
                #expect(scenario.motionAcceleration(at: t).magnitude < 0.15 * g, "seed \(seed) at \(t)")
            }
        }
    }

    /// The hinge scenarios' readings give their true angle (HingeGeometry, noise aside).
    @Test func hingeReadingsGiveTheTrueAngle() {
        for seed in UInt64(1)...50 {
            let scenario = HingeScenario.draw(seed: seed, ambiguousB: nil, thenTo: true, lid: nil)
            for step in scenario.steps {
                let pose = HingePose(angle: step.angle, sideways: scenario.sideways, forward: scenario.forward)
                let b = pose.baseDown * g
                let sample = HingeGeometry.angle(display: pose.display(from: b), base: b)!
                let difference = abs((sample.degrees - step.angle).remainder(dividingBy: 360))
                #expect(difference < 1e-6, "seed \(seed): \(sample.degrees) against \(step.angle)")
                // The hinge axis at least 45 degrees from vertical.
                #expect(sample.projected >= 0.7, "seed \(seed)")
            }
            // On its side: 20-45 degrees.
            let side = HingeScenario.draw(seed: seed, ambiguousB: nil, thenTo: false, lid: nil, onSide: true)
            let b = HingePose(angle: 100, sideways: side.sideways, forward: side.forward).baseDown
            let fromVertical = 90 - Vector3(1, 0, 0).angle(to: b).distance(to: 90).magnitude
            #expect(fromVertical >= 20 - 1e-9 && fromVertical <= 45 + 1e-9, "seed \(seed): \(fromVertical)")
        }
    }
}
