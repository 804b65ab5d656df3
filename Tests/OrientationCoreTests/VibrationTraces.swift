import Foundation
import OrientationCore
import Testing

/// A device held still in a vibrating mount (a car, a train, a running machine): the traces of
/// issue 19's vibration case, written by this file into `Tests/traces` (with
/// MOTION_ORIENTATION_WRITE_TRACES=1) and checked against it.
struct VibrationScenario: Sendable {
    var name: String
    var summary: String
    /// In-plane angle of the mount, degrees clockwise from portrait (90: landscape-right).
    var angle = 90.0
    /// Tilt of the mount, degrees back from upright.
    var tilt = 0.0
    /// Peak vibration along the screen's normal, in g; 0.3 and 0.5 of it on x and y.
    var amplitude = 0.4
    /// Vibration frequency, Hz.
    var frequency = 12.0
    /// Peak of the bump (a half sine of 0.1 s along gravity) every `bumpInterval` s, in g; 0: none.
    var bump = 1.5
    var bumpInterval = 3.0
    /// Sensor noise per axis, in g (standard deviation).
    var noise = 0.03
    var rate = 50.0
    var duration = 10.0
    /// The mount turned a quarter clockwise over 0.5 s from this time, if any.
    var turnAt: Double?
    var seed: UInt64 = 1

    func readings() -> [TraceSample] {
        var random = SplitMix64(seed: seed)
        return samples(rate: rate, duration: duration) { t in
            let turned = angle + (turnAt.map { 90 * ramp(t, from: $0, to: $0 + 0.5) } ?? 0)
            let down = gravity(angle: turned, tilt: tilt)
            let phase = 2 * Double.pi * frequency * t
            let wave = { (offset: Double) in TestMath.sinCos(degrees: (phase + offset) * 180 / Double.pi).sin }
            var reading =
                down
                + Vector3(0.3 * wave(1.1), 0.5 * wave(2.3), wave(0)) * (amplitude * g)
                + random.noise(sigma: noise * g)
            let sinceBump = (t - bumpInterval / 2).truncatingRemainder(dividingBy: bumpInterval)
            if bump > 0, t >= bumpInterval / 2, sinceBump < 0.1 {
                reading = reading + down * (bump * TestMath.sinCos(degrees: 180 * sinceBump / 0.1).sin)
            }
            return reading
        }
    }

    var fileText: String {
        "# \(name): \(summary)\n"
            + "# synthetic, generated from Tests/OrientationCoreTests/VibrationTraces.swift (seed \(seed), "
            + "\(rate) Hz); expected outcome in expected.txt\n" + Trace.format(readings())
    }

    static let corpus: [VibrationScenario] = [
        VibrationScenario(
            name: "car-mount-0.4g-12hz-bumps",
            summary: "held still in landscape in a car mount, 12 Hz vibration of 0.4 g along the screen normal, "
                + "a 1.5 g bump every 3 s (issue 19)"),
        VibrationScenario(
            name: "car-mount-0.3g-12hz-bumps", summary: "as car-mount-0.4g-12hz-bumps at 0.3 g", amplitude: 0.3,
            seed: 2),
        VibrationScenario(
            name: "car-mount-0.5g-12hz-bumps", summary: "as car-mount-0.4g-12hz-bumps at 0.5 g", amplitude: 0.5,
            seed: 3),
        VibrationScenario(
            name: "car-mount-0.5g-5hz-bumps", summary: "as car-mount-0.4g-12hz-bumps at 0.5 g and 5 Hz",
            amplitude: 0.5, frequency: 5, seed: 4),
        VibrationScenario(
            name: "car-mount-0.4g-3hz-bumps", summary: "as car-mount-0.4g-12hz-bumps at 3 Hz", frequency: 3, seed: 5),
        VibrationScenario(
            name: "car-mount-turn-0.4g-12hz",
            summary: "in a car mount vibrating at 12 Hz, 0.4 g, turned from landscape-left to portrait at 4 s "
                + "(0.5 s)", angle: -90, turnAt: 4, seed: 6),
    ]
}

@Suite("Vibration traces")
struct VibrationTraceTests {
    @Test(.enabled(if: CorpusTests.writing)) func writeTraces() throws {
        for scenario in VibrationScenario.corpus {
            try scenario.fileText.write(
                toFile: CorpusFiles.directory + "/\(scenario.name).csv", atomically: true, encoding: .utf8)
        }
    }

    @Test(.disabled(if: CorpusTests.writing), arguments: VibrationScenario.corpus.map(\.name))
    func fileMatchesItsScenario(name: String) throws {
        let scenario = try #require(VibrationScenario.corpus.first { $0.name == name })
        #expect(try CorpusFiles.read(name + ".csv") == scenario.fileText, "regenerate: see VibrationTraces.swift")
        #expect(CorpusFiles.outcome(name) != nil)
    }
}

/// The estimator on a vibrating mount: a vibration's mean is gravity in a steady direction.
@Suite("Estimator under vibration")
struct EstimatorVibrationTests {
    /// Held still in landscape at 0.3-0.5 g, 5-25 Hz, with 1.5 g bumps: landscape-right within
    /// 1 s, nothing else for 10 s (several seeds each).
    @Test(arguments: [0.3, 0.4, 0.5])
    func aVibratingMountIsDecidedWithinASecond(amplitude: Double) {
        for frequency in [5.0, 8.0, 12.0, 17.0, 22.0] {
            for seed in UInt64(1)...3 {
                let scenario = VibrationScenario(
                    name: "", summary: "", amplitude: amplitude, frequency: frequency, seed: seed)
                var estimator = OrientationEstimator()
                let changes = feed(scenario.readings(), into: &estimator)
                let label = "\(amplitude) g, \(frequency) Hz, seed \(seed)"
                #expect(changes.map(\.orientation) == [.landscapeRight], "\(label): \(changes)")
                #expect((changes.first?.time ?? 99) <= 1.0, "\(label): \(changes.map(\.time))")
            }
        }
    }

    /// At 3 Hz (car-mount-0.4g-3hz-bumps) the mean wobbles by 2 degrees and takes longer to hold
    /// still: with `vibrationSettleTime` 0.25 s it is decided within 0.8 s (0.98 s with 0.3 s).
    @Test func aMountVibratingAtThreeHertzIsDecidedWithinASecond() throws {
        let scenario = try #require(VibrationScenario.corpus.first { $0.name == "car-mount-0.4g-3hz-bumps" })
        var estimator = OrientationEstimator()
        let changes = feed(scenario.readings(), into: &estimator)
        #expect(changes.map(\.orientation) == [.landscapeRight], "\(changes)")
        #expect((changes.first?.time ?? 99) <= 0.8, "\(changes)")
    }

    @Test func aTurnInAVibratingMountIsFollowed() {
        let scenario = VibrationScenario(name: "", summary: "", angle: -90, bump: 0, turnAt: 4)
        var estimator = OrientationEstimator()
        let changes = feed(scenario.readings(), into: &estimator)
        #expect(changes.map(\.orientation) == [.landscapeLeft, .portrait])
        #expect((changes.last?.time ?? 99) <= 4.5 + 1.0, "\(changes)")
    }

    /// A tablet lying flat on a train table, read every 0.1 s as the low-energy plan reads it: an
    /// 8.7 Hz vibration of 0.45 g aliases into a 1.3 Hz wobble, which the steady mean's fast share
    /// takes for a stride, and the vigour raises the face-up enter tilt toward
    /// `disturbedFaceEnterTilt`, which the wobbling filter crosses now and then. The steady mean's
    /// tilt stays beyond `vibrationFaceEnterTilt` (its in-plane direction wanders, which says
    /// nothing lying flat): face-up within 1 s, nothing else.
    @Test(arguments: [85.0, 88.0])
    func aDeviceLyingFlatUnderAnAliasedVibrationIsFaceUpWithinASecond(tilt: Double) {
        for seed in UInt64(1)...3 {
            let scenario = VibrationScenario(
                name: "", summary: "", tilt: tilt, amplitude: 0.45, frequency: 8.7, bump: 0, rate: 10, duration: 5,
                seed: seed)
            var estimator = OrientationEstimator()
            let changes = feed(scenario.readings(), into: &estimator)
            #expect(changes.map(\.orientation) == [.faceUp], "seed \(seed): \(changes)")
            #expect((changes.first?.time ?? 99) <= 1.0, "seed \(seed): \(changes)")
        }
    }

    /// Face-up and face-down holds under rail vibration read every 0.1 s (held-still-decided seed
    /// 8708; bumpy-still-decided seeds 3509, 4515, 5133, 8708): decided within 1 s now that a steady
    /// mean lying flat while the readings deviate from it is a vibration's, whatever its fast share.
    @Test func faceHoldsUnderAnAliasedVibrationAreDecided() {
        #expect(Self.check("held-still-decided", seed: 8708) == nil)
        for seed: UInt64 in [3509, 4515, 5133, 8708] {
            #expect(Self.check("bumpy-still-decided", seed: seed) == nil, "seed \(seed)")
        }
    }

    /// A scenario generator's property on a seed (nil: it holds).
    static func check(_ name: String, seed: UInt64) -> String? {
        guard let property = ScenarioProperties.orientation.first(where: { $0.name == name }) else {
            return "no property"
        }
        return property.check(seed, 1)
    }

    /// Half turns under rail vibration (held-still-decided seeds 590 at 25 Hz and 597 on the adaptive
    /// plan; bumpy-still-decided seed 730 with bumps): the turn starts the steady mean over mid-turn,
    /// and its tail (the readings of the last tens of degrees, and the 0.6-0.8 g of the hand stopping)
    /// kept the mean settling, and the readings' deviation from it slow, for most of a second. The
    /// mean now starts over once more when it comes of age, past the tail, and holds still in time.
    @Test func theMeanStartsOverPastATurnsTail() {
        #expect(Self.check("held-still-decided", seed: 590) == nil)
        #expect(Self.check("held-still-decided", seed: 597) == nil)
        #expect(Self.check("bumpy-still-decided", seed: 730) == nil)
    }

    /// Half turns under rail or road vibration (held-still-decided seeds 199, 793, 2097, 9868;
    /// bumpy-still-decided seeds 1081, 3970, 8043, 9021, 9629; 25-100 Hz and the adaptive plan): the
    /// mean started over past the turn's tail at a reading the gate took (1.39 g on seed 9868) while
    /// the hand's stop still pushed 1.6-1.7 g for another 0.1 s; the mean carried 1.5 g and more,
    /// its deviation's slow part measured its own convergence, and it held still 1.02-1.18 s into
    /// the hold. A reading the gate rejects within a time constant after that start now starts the
    /// mean over again from the next one it takes.
    @Test func aPushAfterTheTailsStartStartsTheMeanOverAgain() {
        for seed: UInt64 in [199, 793, 2097, 9868] { #expect(Self.check("held-still-decided", seed: seed) == nil) }
        for seed: UInt64 in [1081, 3970, 8043, 9021, 9629] {
            #expect(Self.check("bumpy-still-decided", seed: seed) == nil)
        }
    }

    /// Hard half turns (0.3-0.4 s, 2-4 g at the sensor) into a weak or aliased vibration
    /// (held-still-decided seeds 6636 and 7285; bumpy-still-decided seeds 454, 7285 and 9177; 12.5 and
    /// 25 Hz and the adaptive plan): the readings deviate from their steady mean by 0.08-0.12, too
    /// little for the mean's own evidence, and the vigour, 0.5 after the turn, held the filter's
    /// commit until it decayed under `vigourRotationLimit` 1.05-1.16 s into the hold. A mean that
    /// rests (`SteadyMean.rests`) and proposes the candidate lifts the vigour hold.
    @Test func aRestingMeanLiftsTheVigourOfTheTurnBefore() {
        for seed: UInt64 in [6636, 7285] { #expect(Self.check("held-still-decided", seed: seed) == nil) }
        for seed: UInt64 in [454, 7285, 9177] { #expect(Self.check("bumpy-still-decided", seed: seed) == nil) }
    }

    /// Half turns under rail or road vibration whose steady mean, at rest in the new hold, reads
    /// 0.83-0.94 or 1.06 of the 1 g reference (a sensor bias of 0.02-0.035 g read the other way,
    /// or a 24 Hz harmonic folded near 0 Hz at 25 Hz sampling): off `calmMagnitudeBand`, the mean
    /// did not rest and the turn's vigour held the commit past 1 s. Held still for
    /// `vibrationHeldTime` within `vibrationMagnitudeBand`, it rests.
    @Test func aMeanOffOneGAfterAHalfTurnRestsOnceHeld() {
        for seed: UInt64 in [4318, 9641] { #expect(Self.check("held-still-decided", seed: seed) == nil) }
        for seed: UInt64 in [2584, 6636, 7413] { #expect(Self.check("bumpy-still-decided", seed: seed) == nil) }
    }

    /// A turn under rail vibration and bumps (bumpy-still-decided seed 57): while the 1 g reference
    /// is not trusted (no reading calm enough), the steady mean's size is measured against the mean
    /// size of every reading (`GravityReference.oneGForMean`), not the reading's (which swings with
    /// the vibration and held the mean off 1 g).
    @Test func aVibratingMeanIsMeasuredAgainstItsOwnOneG() {
        #expect(Self.check("bumpy-still-decided", seed: 57) == nil)
    }

    /// A turn under vibration: the steady mean still closes in on the new direction after the turn
    /// ends, and its run is established `vibrationSettleTime` (0.25 s) after it holds still, within
    /// 1 s of the hold's start (0.38 s missed it: seed 186 decided 1.11 s after).
    @Test func aTurnUnderVibrationIsDecidedWithinASecondOfItsEnd() {
        #expect(Self.check("held-still-decided", seed: 186) == nil)
    }

    /// A turn under vibration whose turn follower still names the new orientation when the steady
    /// mean has settled there (held-still-decided seed 6537, 0.37 g at 9 Hz): the vigour of the
    /// vibration holds the turn's own commit, and the mean's evidence, which used to apply only
    /// without a turn target, now covers the target the mean proposes too (landscape-right was
    /// never decided).
    @Test func aTurnTargetTheVibrationsMeanProposesHasTheMeansEvidence() {
        #expect(Self.check("held-still-decided", seed: 6537) == nil)
    }

    /// A half turn under rail vibration on the adaptive plan (held-still-decided seed 4656, 0.39 g
    /// at 5.3/10.6 Hz read every 0.1 s): the reference rested on the first calm pair of readings,
    /// which a vibration aliased by so slow a sampling gives at a peak or a trough, and the steady
    /// mean measured against it was outside the band. The mean is measured against every
    /// reading's size until the reference rests on `vibrationTimeConstant` of calm readings
    /// (`aSingleCalmPairIsNoOneGForAVibrationsMean`, after seed 4330).
    @Test func aVibrationsMeanIsNotMeasuredAgainstOneAliasedCalmPair() {
        #expect(Self.check("held-still-decided", seed: 4656) == nil)
    }

    /// Quarter turns of about 0.6 s under rail vibration (held-still-decided seeds 1189 at 50 Hz and
    /// 6939 at 100 Hz, bumpy-still-decided seed 2323 with bumps): the first low-pass led the
    /// steady mean by 20-25 degrees, short of the former `vibrationRestartAngle` of 25, so the mean
    /// was never started over and lagged the whole turn; 40-50 degrees behind at the turn's end, it
    /// held still only 0.8 s into the hold. With 20 it starts over on the turn's way.
    @Test func aQuarterTurnStartsTheMeanOver() {
        #expect(Self.check("held-still-decided", seed: 1189) == nil)
        #expect(Self.check("held-still-decided", seed: 6939) == nil)
        #expect(Self.check("bumpy-still-decided", seed: 2323) == nil)
    }

    /// Mounts leaning back 45-47 degrees under rail vibration and bumps (bumpy-still-decided seeds
    /// 972 and 564, 50 Hz, 2 g range): the steady mean's tilt wandered to 50-55 degrees with the
    /// bumps, past the former `vibrationTiltLimit` of 50, and the wobbling filter was left to
    /// decide, too late. An upright pose is clear up to 55 degrees.
    @Test func aMountLeaningBackToTheTiltLimitIsDecided() {
        #expect(Self.check("bumpy-still-decided", seed: 972) == nil)
        #expect(Self.check("bumpy-still-decided", seed: 564) == nil)
    }

    /// A device lying between upright and flat (in a bag, a purse; 60 degrees, beyond the
    /// `vibrationTiltLimit` of 55) under a vibration: its in-plane direction means little, and the
    /// steady mean does not propose it; a looser limit would.
    @Test func aDeviceLyingHalfFlatIsLeftToTheFilter() {
        let scenario = VibrationScenario(name: "", summary: "", tilt: 60, bump: 0, duration: 3)
        var loose = EstimatorSettings()
        loose.vibrationTiltLimit = 65
        var looseEstimator = OrientationEstimator(settings: loose)
        let looseChanges = feed(scenario.readings(), into: &looseEstimator)
        #expect((looseChanges.first?.time ?? 99) <= 1.0, "\(looseChanges)")
        var estimator = OrientationEstimator()
        let changes = feed(scenario.readings(), into: &estimator)
        #expect((changes.first?.time ?? 99) > 1.0, "\(changes)")
    }

    /// A mount leaning back 45 degrees (a dashboard mount, a stand) under a vibration: the steady
    /// mean proposes it, within a second; with the former `vibrationTiltLimit` of 40 the filter,
    /// wobbling with the vibration, took longer.
    @Test func aMountLeaningBackIsDecidedWithinASecond() {
        let scenario = VibrationScenario(name: "", summary: "", tilt: 45, bump: 0, duration: 3)
        var estimator = OrientationEstimator()
        let changes = feed(scenario.readings(), into: &estimator)
        #expect(changes.map(\.orientation) == [.landscapeRight], "\(changes)")
        #expect((changes.first?.time ?? 99) <= 1.0, "\(changes)")
        var former = EstimatorSettings()
        former.vibrationTiltLimit = 40
        var formerEstimator = OrientationEstimator(settings: former)
        let formerChanges = feed(scenario.readings(), into: &formerEstimator)
        #expect((formerChanges.first?.time ?? 99) > 1.0, "\(formerChanges)")
    }

    /// A stride or a swinging bag (1.5 Hz): the readings' deviation from a steady mean is mostly
    /// slow, and no vibration.
    @Test func aStrideIsNoVibration() {
        let settings = EstimatorSettings()
        var mean = SteadyMean()
        var time = 0.0
        while time < 3 {
            let reading = gravity(angle: 90) + Vector3(0, 0, 0.4 * g) * TestMath.sinCos(degrees: 540 * time).sin
            mean.update(reading, at: time, settings)
            time += 0.02
        }
        #expect(mean.deviation >= settings.vibrationDeviation)
        #expect(mean.slowDeviation > settings.vibrationSlowShare * mean.deviation)
        #expect(!mean.isVibrating(at: time, oneG: g, settings))
    }

    /// The end of an arm's swing looks like a vibration for a moment (a steady mean, a fast
    /// deviation): the abduction recording, resampled at the daemon's rates too, keeps its one
    /// decision.
    @Test(arguments: [10.0, 25.0, 50.0])
    func anArmsSwingIsNoVibrationAtAnyRate(rate: Double) throws {
        let samples = try Trace.parse(CorpusFiles.read("watch_070_abduction.csv"))
        let changes = Trace.replay(Trace.resample(samples, rate: rate))
        #expect(changes.map(\.device) == [.portraitUpsideDown], "\(changes)")
    }

    /// The same readings with the vibration gone from the mean: an arm swung around a point whose
    /// mean is 1.5 g is no vibration, and the rotation holds keep it from turning the screen.
    @Test func aSwingWhoseMeanIsOffOneGIsNoVibration() {
        var mean = SteadyMean()
        let settings = EstimatorSettings()
        var random = SplitMix64(seed: 9)
        var time = 0.0
        while time < 3 {
            let reading = gravity(angle: 90) * 1.5 + Vector3(0, 0, 0.5 * g) * TestMath.sinCos(degrees: 4320 * time).sin
            mean.update(reading + random.noise(sigma: 0.3), at: time, settings)
            time += 0.02
        }
        #expect(mean.isVibrating(at: time, oneG: g * 1.5, settings))
        #expect(!mean.isVibrating(at: time, oneG: g, settings))
    }
}
