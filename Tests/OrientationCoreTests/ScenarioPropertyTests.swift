import OrientationCore
import Testing

/// The scenario generator's properties (TraceCorpus, ScenarioProperties) at a bounded number of
/// seeds; `estimator-bench --properties` runs 10,000 each. A failure prints the property, the
/// seed shrunk and the scenario in one line; rerun one with
/// `swift run estimator-bench --property NAME --seed SEED`.
///
/// The properties the estimators do not meet yet are wrapped in `withKnownIssue` naming the
/// helper fixing them; the wrapper goes when the fix merges (a known issue that stops occurring
/// fails the test).
@Suite("Scenario properties")
struct ScenarioPropertyTests {
    static let seeds: ClosedRange<UInt64> = 1...200

    /// Runs `name` over `seeds`; the failures (described and shrunk, the first three).
    static func failures(_ name: String, seeds: ClosedRange<UInt64> = seeds) -> [String] {
        guard let property = ScenarioProperties.all.first(where: { $0.name == name }) else {
            return ["no property \(name)"]
        }
        let failing = property.run(seeds)
        return failing.prefix(3).map { property.describe($0) }
            + (failing.count > 3 ? ["... \(failing.count) of \(seeds.count) seeds fail"] : [])
    }

    static func expectHolds(_ name: String, seeds: ClosedRange<UInt64> = seeds) {
        let failures = failures(name, seeds: seeds)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func everyPropertyIsTested() {
        #expect(
            Set(ScenarioProperties.all.map(\.name)) == [
                "held-still-decided", "bumpy-still-decided", "no-direct-half-turn", "posture-decided", "hinge-step",
                "hinge-side-step", "hinge-closed-agree", "hinge-guess-corrected",
            ])
    }

    @Test func heldStillDecided() {
        Self.expectHolds("held-still-decided")
    }

    /// Seeds of 1...10,000 that a vibration under a mount left undecided or decided late, most of
    /// them when the generator read the low-energy plan's sensor at 50 Hz every 0.1 s, aliasing the
    /// vibration into a slow wobble (the readings vibrating about a steady mean with the filtered
    /// direction near the new axis are evidence now, `EstimatorSettings.vibrationHeldAngle`; the
    /// aliased readings are kept as the generated traces naming `part-rate 50`). Their scenarios
    /// read the part at the rate the daemon sets now, and stay decided.
    @Test func stillDecidedAtTheSeedsOfAVibration() {
        let held: [UInt64] = [
            199, 793, 1093, 2097, 3071, 3200, 3322, 3848, 4318, 4330, 5715, 6541, 7469, 7566, 8992, 9083, 9641,
            9780, 9868,
        ]
        let bumpy: [UInt64] = [
            1076, 1081, 1339, 1662, 2204, 2584, 2712, 2875, 3304, 3582, 3970, 5408, 6365, 6636, 7413, 8043, 8183,
            8337, 8488, 8990, 8992, 9021, 9440,
        ]
        for (name, seeds) in [("held-still-decided", held), ("bumpy-still-decided", bumpy)] {
            let property = ScenarioProperties.all.first { $0.name == name }
            let failing = property.map { $0.run(seeds) } ?? seeds
            #expect(failing.isEmpty, "\(failing.prefix(3).compactMap { property?.describe($0) })")
        }
    }

    /// Seeds of 1...10,000 decided a reading or two late under a vibration whose deviation from the
    /// mean hovers about `vibrationDeviation` (beating, or aliased near half the rate): each dip under
    /// it started the vibration's run over, and the readings never rested long enough either.
    /// A vibration once seen lasts down to `vibrationLeaveDeviation` now.
    @Test func stillDecidedUnderAVibrationAtTheThreshold() {
        for (name, seeds) in [("held-still-decided", [3293 as UInt64]), ("bumpy-still-decided", [3353, 7900])] {
            let property = ScenarioProperties.all.first { $0.name == name }
            let failing = property.map { $0.run(seeds) } ?? seeds
            #expect(failing.isEmpty, "\(failing.compactMap { property?.describe($0) })")
        }
    }

    /// Seeds of 1...10,000 decided a reading or two late after a restart of the steady mean took a
    /// poor reading: held 8031, the hand's stop still on when the push after the tail's start ended
    /// (the mean started over once more when it came of age, its readings having moved on); bumpy
    /// 3312, a bump's 2 g starting the young mean over and so putting off its coming of age (a
    /// reading the gate rejects starts nothing now).
    @Test func stillDecidedAfterARestartAtAPoorReading() {
        for (name, seeds) in [("held-still-decided", [8031 as UInt64]), ("bumpy-still-decided", [3312])] {
            let property = ScenarioProperties.all.first { $0.name == name }
            let failing = property.map { $0.run(seeds) } ?? seeds
            #expect(failing.isEmpty, "\(failing.compactMap { property?.describe($0) })")
        }
    }

    @Test func bumpyStillDecided() {
        Self.expectHolds("bumpy-still-decided")
    }

    @Test func noDirectHalfTurn() {
        Self.expectHolds("no-direct-half-turn")
    }

    /// Seeds of 1...10,000 that flipped the screen as an arm slowed into the top (or the bottom) of
    /// a raise, or as a hand swung while walking: a half turn on the filter's evidence now waits for
    /// the device to rest (`EstimatorSettings.halfTurnRestSpeed`), or for its proposal to stand
    /// longer than a raise's slow end (`halfTurnHeldTime`: 892, 7000, 8021) with the steady mean
    /// gravity (1737, 9074), and a decelerating hand, read off 1 g, does not rest
    /// (`halfTurnRestMagnitudeBand`: 7414, 9325).
    @Test func noDirectHalfTurnAtTheSeedsThatFlippedMidSwing() {
        let seeds: [UInt64] = [
            222, 599, 892, 1266, 1576, 1690, 1737, 1821, 3041, 3098, 3614, 3755, 3770, 4167, 4304, 4525, 4753, 5650,
            5744, 6110, 6477, 6506, 6521, 6940, 7000, 7238, 7414, 8005, 8021, 8137, 8644, 9074, 9325,
        ]
        let property = ScenarioProperties.all.first { $0.name == "no-direct-half-turn" }
        let failing = property.map { $0.run(seeds) } ?? seeds
        #expect(failing.isEmpty, "\(failing.prefix(3).compactMap { property?.describe($0) })")
    }

    @Test func postureDecided() {
        Self.expectHolds("posture-decided")
    }

    @Test func hingeStep() {
        Self.expectHolds("hinge-step", seeds: 1...500)
    }

    @Test func hingeSideStep() {
        Self.expectHolds("hinge-side-step", seeds: 1...500)
    }

    @Test func hingeClosedAgree() {
        Self.expectHolds("hinge-closed-agree", seeds: 1...500)
    }

    @Test func hingeGuessCorrected() {
        Self.expectHolds("hinge-guess-corrected", seeds: 1...500)
    }
}
