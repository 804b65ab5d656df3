import OrientationCore
import Testing

/// The calm run after a sudden turn, on its own.
@Suite("Calm run")
struct CalmRunTests {
    let settings = EstimatorSettings()

    @Test func aRunAfterAJumpIsEstablishedAfterItsSettleTime() {
        var run = CalmRun()
        run.update(gravity(angle: 0), ratio: 1, at: 0, settings)
        run.update(gravity(angle: 0), ratio: 1, at: 0.02, settings)
        #expect(run.gravity == nil)  // no jump before it
        // A step to landscape-right at t = 0.04, then at rest.
        var time = 0.04
        while time < 0.115 {
            run.update(gravity(angle: 90), ratio: 1, at: time, settings)
            #expect(run.gravity == nil, "\(time)")
            time += 0.02
        }
        run.update(gravity(angle: 90), ratio: 1, at: 0.12, settings)
        #expect(run.start == 0.04)
        #expect(((run.gravity ?? .zero) - gravity(angle: 90)).magnitude < 1e-9)
    }

    @Test func aReadingOffOneGOrOutsideTheSpreadEndsOrRestartsIt() {
        func established() -> CalmRun {
            var run = CalmRun()
            run.update(gravity(angle: 0), ratio: 1, at: 0, settings)
            for index in 1...6 { run.update(gravity(angle: 90), ratio: 1, at: Double(index) * 0.02, settings) }
            return run
        }
        var run = established()
        #expect(run.gravity != nil)
        run.update(gravity(angle: 90), ratio: 1.2, at: 0.14, settings)
        #expect(run.gravity == nil)
        run = established()
        run.update(gravity(angle: 95), ratio: 1, at: 0.14, settings)  // 5 degrees: a new run
        #expect(run.gravity == nil)
        #expect(run.start == 0.14)
        run = established()
        run.end()
        #expect(run.gravity == nil)
    }

    @Test func aSlowTurnIsNoSuddenOne() {
        var run = CalmRun()
        var angle = 0.0
        var time = 0.0
        while time < 1 {
            run.update(gravity(angle: angle), ratio: 1, at: time, settings)
            #expect(run.gravity == nil)
            angle += 1
            time += 0.02
        }
    }
}
