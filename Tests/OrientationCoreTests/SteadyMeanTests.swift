import OrientationCore
import Testing

/// The slow mean of the readings, on its own.
@Suite("Steady mean")
struct SteadyMeanTests {
    let settings = EstimatorSettings()

    /// Feeds `motion` at 50 Hz for `duration` s and returns the mean.
    func mean(duration: Double, _ motion: (Double) -> Vector3) -> (SteadyMean, Double) {
        var mean = SteadyMean()
        var last = 0.0
        for sample in samples(rate: 50, duration: duration, motion) {
            mean.update(sample.reading, at: sample.time, settings)
            last = sample.time
        }
        return (mean, last)
    }

    @Test func aDeviceAtRestIsNoVibration() {
        var random = SplitMix64(seed: 1)
        let (rest, time) = mean(duration: 2) { _ in gravity(angle: 90) + random.noise(sigma: 0.03 * g) }
        #expect(((rest.gravity ?? .zero) - gravity(angle: 90)).magnitude < 0.05 * g)
        #expect(rest.deviation < settings.vibrationDeviation)
        #expect(!rest.isVibrating(at: time, oneG: g, settings))
    }

    /// The mean rests where the readings hold still around it at 1 g, a weak vibration included
    /// (0.1 g, deviating by about 0.06); not under a vibration the mean has evidence of its own for,
    /// nor off 1 g by more than `calmMagnitudeBand` while it has held still for less than
    /// `vibrationHeldTime` (an arm pausing at the top of a raise reads 0.9 g for a few tenths of a second).
    @Test func aMeanRestsAtOneGWhereTheReadingsHardlyDeviate() {
        var random = SplitMix64(seed: 2)
        let (weak, time) = mean(duration: 2) { t in
            gravity(angle: 90) + Vector3(0, 0, 0.1 * g) * TestMath.sinCos(degrees: 360 * 12 * t).sin
                + random.noise(sigma: 0.01 * g)
        }
        #expect(weak.rests(at: time, oneG: g, settings))
        let (shaken, _) = mean(duration: 2) { t in
            gravity(angle: 90) + Vector3(0, 0, 0.5 * g) * TestMath.sinCos(degrees: 360 * 7 * t).sin
        }
        #expect(!shaken.rests(at: time, oneG: g, settings))
        let (light, pause) = mean(duration: 0.45) { _ in gravity(angle: 90, magnitude: 0.9 * g) }
        #expect(light.isSteady(at: pause, oneG: g, settings))
        #expect(!light.rests(at: pause, oneG: g, settings))
    }

    /// A sensor's bias, learned into the 1 g reference in one orientation, reads the other way
    /// after a half turn (up to twice the bias off 1 g: 0.93 g at 0.035 g), and under vibration no
    /// reading is calm enough to learn it again; an aliased vibration folds to a slow offset of the
    /// mean's size too. Held still for `vibrationHeldTime` (past an arm's pause) within
    /// `vibrationMagnitudeBand`, such a mean rests, and not while it has held still for less (steady
    /// already); further off 1 g it does not.
    @Test func aMeanOffOneGByABiasRestsOnceHeldForTheHeldTime() {
        let vibration = { (t: Double, size: Double) in
            gravity(angle: 90, magnitude: size * g) + Vector3(0, 0, 0.1 * g) * TestMath.sinCos(degrees: 360 * 12 * t).sin
        }
        var biased = SteadyMean()
        var steadyNotHeld = 0
        var last = 0.0
        for sample in samples(rate: 50, duration: 1, { vibration($0, 0.93) }) {
            biased.update(sample.reading, at: sample.time, settings)
            last = sample.time
            let held = sample.time - biased.since >= settings.vibrationHeldTime - settings.timingSlack
            if biased.isSteady(at: sample.time, oneG: g, settings) {
                #expect(biased.rests(at: sample.time, oneG: g, settings) == held, "\(sample.time)")
                if !held { steadyNotHeld += 1 }
            }
        }
        #expect(steadyNotHeld >= 5)
        #expect(biased.rests(at: last, oneG: g, settings))
        let (light, held) = mean(duration: 1) { vibration($0, 0.75) }
        #expect(!light.rests(at: held, oneG: g, settings))
    }

    /// Lying flat under a vibration read 10 times a second (8.7 Hz folds to a 1.3 Hz wobble of the
    /// readings): the mean lies flat once it has lain beyond `vibrationFaceEnterTilt` toward one face
    /// for `vibrationHeldTime`, not before; a device at rest lying so is no vibration's mean.
    @Test func aMeanLiesFlatUnderAnAliasedVibrationOnceItHasLainThereLongEnough() {
        let flat = Vector3(0, 0.02 * g, -0.9998 * g)
        func follow(_ shake: Double) -> [(time: Double, flat: Bool)] {
            var mean = SteadyMean()
            var answers: [(Double, Bool)] = []
            for index in 0..<20 {
                let time = Double(index) / 10
                let wobble = TestMath.sinCos(degrees: 360 * 8.7 * time).sin
                mean.update(flat + Vector3(0.3 * shake, 0.2 * shake, 0.45 * shake) * (g * wobble), at: time, settings)
                answers.append((time, mean.liesFlat(at: time, oneG: g, settings)))
            }
            return answers
        }
        let shaken = follow(1)
        let first = shaken.first { $0.flat }?.time
        #expect(first != nil)
        #expect((first ?? 0) >= settings.vibrationHeldTime)
        #expect((first ?? 9) <= 1.0)
        #expect(!follow(0).contains { $0.flat })
    }

    /// A vibration near `vibrationDeviation` beats (0.2 g whose strength swings by a third once a
    /// second, as two close frequencies or one aliased near half the rate do): its deviation dips
    /// under the threshold for a moment each beat. Once seen, it stays a vibration down to
    /// `vibrationLeaveDeviation`; without that hysteresis each dip started its run over. When the
    /// vibration stops, it ends within a few tenths of a second.
    @Test func aBeatingVibrationStaysOneThroughItsDips() {
        func vibrating(leave: Double) -> (dipped: Bool, lost: Bool, endedBy: Double?) {
            var settings = settings
            settings.vibrationLeaveDeviation = leave
            var random = SplitMix64(seed: 4)
            var mean = SteadyMean()
            var (dipped, lost, endedBy) = (false, false, Double?.none)
            for sample in samples(rate: 50, duration: 4, { t in
                let strength = t < 3 ? 0.2 * g * (1 + TestMath.sinCos(degrees: 360 * t).sin / 3) : 0
                return gravity(angle: 90) + Vector3(0, 0, strength) * TestMath.sinCos(degrees: 360 * 12 * t).sin
                    + random.noise(sigma: 0.01 * g)
            }) {
                mean.update(sample.reading, at: sample.time, settings)
                let isVibrating = mean.isVibrating(at: sample.time, oneG: g, settings)
                if sample.time >= 1 && sample.time < 3 {
                    dipped = dipped || mean.deviation < settings.vibrationDeviation
                    lost = lost || !isVibrating
                } else if sample.time >= 3 && !isVibrating && endedBy == nil {
                    endedBy = sample.time
                }
            }
            return (dipped, lost, endedBy)
        }
        let kept = vibrating(leave: settings.vibrationLeaveDeviation)
        #expect(kept.dipped)
        #expect(!kept.lost)
        #expect((kept.endedBy ?? 9) <= 3.3)
        #expect(vibrating(leave: settings.vibrationDeviation).lost)
    }

    @Test func aVibrationAveragesToGravityInASteadyDirection() {
        let (shaken, time) = mean(duration: 2) { t in
            gravity(angle: 90) + Vector3(0, 0, 0.5 * g) * TestMath.sinCos(degrees: 360 * 7 * t).sin
        }
        #expect((shaken.gravity ?? .zero).angle(to: gravity(angle: 90)) < 2)
        #expect(shaken.deviation >= settings.vibrationDeviation)
        #expect(time - shaken.since >= settings.vibrationSettleTime)
        #expect(shaken.isVibrating(at: time, oneG: g, settings))
    }

    /// A vibration of 0.2 g at 12 Hz deviates from its mean by about 0.13 (the mean |sin| is 0.64):
    /// a vibration (the former `vibrationDeviation` of 0.15 left it to the filter, which wobbles
    /// with it).
    @Test func aVibrationOfAFifthOfAGIsOne() {
        var random = SplitMix64(seed: 3)
        let (shaken, time) = mean(duration: 2) { t in
            gravity(angle: 90) + Vector3(0, 0, 0.2 * g) * TestMath.sinCos(degrees: 360 * 12 * t).sin
                + random.noise(sigma: 0.01 * g)
        }
        #expect(shaken.deviation >= settings.vibrationDeviation && shaken.deviation < 0.15)
        #expect(shaken.isVibrating(at: time, oneG: g, settings))
    }

    @Test func aMovingMeanStartsItsRunOver() {
        // Vibrating while it turns at 30 degrees per second: the run never lasts.
        var vibrating = false
        var mean = SteadyMean()
        for sample in samples(
            rate: 50, duration: 3,
            { t in
                gravity(angle: 30 * t) + Vector3(0, 0, 0.5 * g) * TestMath.sinCos(degrees: 360 * 7 * t).sin
            })
        {
            mean.update(sample.reading, at: sample.time, settings)
            vibrating = vibrating || mean.isVibrating(at: sample.time, oneG: g, settings)
        }
        #expect(!vibrating)
    }

    /// A quarter turn in 0.5 s under a 12 Hz vibration of 0.4 g: the first low-pass leads the mean
    /// past `vibrationRestartAngle`, the mean starts over, and it holds still at the new pose within
    /// 0.6 s of the turn's end; dragging the pose before the turn behind it, it took a second.
    @Test func aTurnStartsTheMeanOver() {
        func settled(restartAngle: Double) -> Double? {
            var settings = EstimatorSettings()
            settings.vibrationRestartAngle = restartAngle
            var mean = SteadyMean()
            let shaken = samples(rate: 50, duration: 4) { t in
                gravity(angle: 90 - 90 * ramp(t, from: 2, to: 2.5))
                    + Vector3(0.15, 0.25, 1) * (0.4 * g * TestMath.sinCos(degrees: 360 * 12 * t).sin)
            }
            for sample in shaken {
                mean.update(sample.reading, at: sample.time, settings)
                if sample.time > 2.5, mean.isVibrating(at: sample.time, oneG: g, settings),
                    let gravity = mean.gravity, gravity.angle(to: OrientationCoreTests.gravity(angle: 0)) < 5
                {
                    return sample.time
                }
            }
            return nil
        }
        #expect((settled(restartAngle: settings.vibrationRestartAngle) ?? 99) <= 2.5 + 0.6)
        #expect((settled(restartAngle: 1000) ?? 99) > 2.5 + 0.9)
    }

    /// The end of a hand's turn pushes 2 g (its speed turning round the grip): a mean started over
    /// at such a reading would carry it for long. Given the 1 g it is measured against, the mean
    /// starts over at the first reading the magnitude gate would take instead. (Looked at before
    /// the mean comes of age, at 1.15 s: then it starts over once more, see the next test.)
    @Test func aTurnStartsTheMeanOverAtAPlausibleReading() {
        func afterTurn(oneG: Double?) -> Vector3? {
            var mean = SteadyMean()
            let readings = samples(rate: 50, duration: 1.15) { t in
                t < 1 ? gravity(angle: 0) : t < 1.12 ? gravity(angle: 90, magnitude: 2 * g) : gravity(angle: 90)
            }
            for sample in readings { mean.update(sample.reading, at: sample.time, oneG: oneG, settings) }
            return mean.gravity
        }
        let plausible = try? #require(afterTurn(oneG: g))
        #expect(abs((plausible?.magnitude ?? 0) / g - 1) < 0.01)
        #expect((plausible?.angle(to: gravity(angle: 90)) ?? 99) < 1)
        // Without the 1 g, the mean starts over at the turn's 2 g reading.
        let pushed = try? #require(afterTurn(oneG: nil))
        #expect((pushed?.magnitude ?? 0) / g > 1.1)
    }

    /// A turn starts the mean over on its way, here at the 2 g the hand's stop pushes (no 1 g to
    /// measure it against): once the mean comes of age (`vibrationTimeConstant` later) it starts
    /// over once more, from the pose the turn ended in, and no longer carries the turn's tail.
    @Test func aMeanStartedOverMidTurnStartsOverPastTheTail() {
        var mean = SteadyMean()
        let readings = samples(rate: 50, duration: 1.5) { t in
            t < 1 ? gravity(angle: 0) : t < 1.12 ? gravity(angle: 90, magnitude: 2 * g) : gravity(angle: 90)
        }
        for sample in readings { mean.update(sample.reading, at: sample.time, settings) }
        #expect(abs((mean.gravity?.magnitude ?? 0) / g - 1) < 0.01)
        #expect((mean.gravity?.angle(to: gravity(angle: 90)) ?? 99) < 1)
        // An arm still swinging (off 1 g for longer than another time constant) starts nothing: a
        // reading the gate rejects starts no turn either, and the mean keeps the 2 g it takes in.
        var swung = SteadyMean()
        let swing = samples(rate: 50, duration: 1.5) { t in
            t < 1 ? gravity(angle: 0) : t < 1.5 ? gravity(angle: 90, magnitude: 2 * g) : gravity(angle: 90)
        }
        for sample in swing { swung.update(sample.reading, at: sample.time, oneG: g, settings) }
        #expect(swung.gravity.map { $0.magnitude / g > 1.5 } ?? false)
    }

    /// A mean started over past a turn's tail may still be early: the hand's stop pushes 1.5-1.7 g
    /// for a few more readings. A reading the gate rejects within a time constant after that start
    /// starts the mean over again from the next reading it takes, so the mean holds 1 g, not the
    /// push (here the turn starts it over at 1.04 s, its tail at 1.20 s, the push is 1.28-1.32 s).
    @Test func aPushAfterTheTailsStartStartsTheMeanOverAgain() {
        var mean = SteadyMean()
        let readings = samples(rate: 50, duration: 1.5) { t in
            t < 1 ? gravity(angle: 0) : gravity(angle: 90, magnitude: t >= 1.27 && t < 1.33 ? 1.6 * g : g)
        }
        for sample in readings { mean.update(sample.reading, at: sample.time, oneG: g, settings) }
        #expect(abs((mean.gravity?.magnitude ?? 0) / g - 1) < 0.005, "\(String(describing: mean.gravity))")
        #expect(mean.since >= 1.33)
    }

    /// The hand's stop can still be on when the push after the tail's start ends: here the turn
    /// starts the mean over at 1.10 s, its tail at 1.26 s, the stop pushes 0.4 g (under the gate)
    /// at 1.30-1.32 s and then reads 40 degrees past the pose, at 1 g, until 1.42 s. The mean
    /// started over again from that reading would carry it for a second (road vibration, held seed
    /// 8031); once of age, its first low-pass leading it by more than `vibrationSpread`, it starts
    /// over a last time. A stop over by then (the readings holding the pose) leaves it be.
    @Test func aMeanStartedOverMidStopStartsOverOnceMoreWhenItComesOfAge() {
        func mean(stopEnd: Double) -> SteadyMean {
            var mean = SteadyMean()
            let readings = samples(rate: 50, duration: 1.8) { t in
                t < 1 ? gravity(angle: 0)
                    : t >= 1.29 && t < 1.33 ? gravity(angle: 60, magnitude: 0.4 * g)
                    : t >= 1.33 && t < stopEnd ? gravity(angle: 100) : gravity(angle: 60)
            }
            for sample in readings { mean.update(sample.reading, at: sample.time, oneG: g, settings) }
            return mean
        }
        let stopped = mean(stopEnd: 1.43)
        #expect((stopped.gravity?.angle(to: gravity(angle: 60)) ?? 99) < 1)
        let over = mean(stopEnd: 1.33)
        #expect((over.gravity?.angle(to: gravity(angle: 60)) ?? 99) < 1)
        #expect(over.since < 1.35)
    }

    /// A reading the gate rejects starts nothing, however far it pushes the first low-pass ahead
    /// (a bump's 2-3 g, or its 0.4 g in a direction of its own): the mean takes it in, and the next
    /// reading the gate takes judges the lead. Started over from a bump's reading, and again from
    /// the next one the gate took, a young mean came of age a bump later (bumpy seed 3312).
    @Test func aReadingTheGateRejectsStartsNothing() {
        var mean = SteadyMean()
        for sample in samples(rate: 50, duration: 0.1, { _ in gravity(angle: 0) }) {
            mean.update(sample.reading, at: sample.time, oneG: g, settings)
        }
        mean.update(gravity(angle: 90, magnitude: 3 * g), at: 0.1, oneG: g, settings)
        #expect(abs((mean.gravity?.magnitude ?? 0) / g - 1) < 0.1)
        #expect((mean.gravity?.angle(to: gravity(angle: 0)) ?? 99) < 10)
    }

    @Test func aGapOrARestartForgetsIt() {
        var mean = SteadyMean()
        mean.update(gravity(angle: 0), at: 0, settings)
        mean.update(gravity(angle: 0), at: 0.02, settings)
        mean.update(gravity(angle: 90), at: 0.02 + settings.maximumSampleGap + 1, settings)
        #expect(mean.gravity == gravity(angle: 90))
        mean.restart()
        #expect(mean.gravity == nil)
    }
}
