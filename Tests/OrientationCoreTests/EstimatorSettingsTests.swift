import OrientationCore
import Testing

@Suite("Estimator settings")
struct EstimatorSettingsTests {
    @Test func defaultsMatchTheDesign() {
        let settings = EstimatorSettings()
        #expect(settings.problems().isEmpty)
        #expect(settings.clamped() == settings)
        #expect(settings.switchAngle >= 55 && settings.switchAngle <= 65)
        #expect(settings.faceEnterTilt == 70)
        #expect(settings.faceLeaveTilt == 60)
        #expect(settings.quarterTurnSettleTime < settings.halfTurnSettleTime)
        #expect(settings.firstDecisionSettleTime <= 0.1)
        #expect(settings.lowerMagnitudeGate < 1 && settings.upperMagnitudeGate > 1)
        #expect(settings.nominalGravity == 9.80665)
        #expect(settings.calmSettleTime <= 0.1 && settings.calmSettleTime < settings.quarterTurnSettleTime)
        // A step from rest on an axis to past the switch angle always counts as a sudden turn.
        #expect(settings.calmJumpAngle < settings.switchAngle)
        // Disturbed, face-up/down is entered later, never earlier; the 1 g reference stops learning
        // before rotations stop.
        #expect(settings.disturbedFaceEnterTilt > settings.faceEnterTilt && settings.disturbedFaceEnterTilt < 90)
        #expect(settings.referenceVigourLimit < settings.vigourRotationLimit)
        #expect(settings.entries.count == 57)
        // A half turn's rest is slower than the speed gate, and its proposal held longer than the settle time.
        #expect(settings.halfTurnRestSpeed < settings.steadyAngularSpeed)
        #expect(settings.halfTurnHeldTime > settings.quarterTurnSettleTime)
        #expect(settings.halfTurnRestVigour < settings.vigourRotationLimit)
        // A half turn's rest at 1 g takes a bias read the other way, and no more than a mean is gravity.
        #expect(settings.halfTurnRestMagnitudeBand > settings.calmMagnitudeBand)
        #expect(settings.halfTurnRestMagnitudeBand < settings.vibrationMagnitudeBand)
        #expect(settings.midTurnAngle > settings.switchAngle && settings.midTurnAngle < 90)
        // A vibration held about an axis stays well inside the band, as long as a half turn's proposal.
        #expect(settings.vibrationHeldAngle < settings.switchAngle / 2)
        #expect(settings.vibrationHeldTime >= settings.halfTurnSettleTime)
        // A vibration once seen ends below where it began, and above a device at rest (a few hundredths).
        #expect(settings.vibrationLeaveDeviation < settings.vibrationDeviation && settings.vibrationLeaveDeviation > 0.05)
        #expect(Set(settings.entries.map(\.name)).count == settings.entries.count)
    }

    @Test func badValuesAreReportedAndClamped() {
        var settings = EstimatorSettings()
        settings.switchAngle = 80
        settings.quarterTurnSettleTime = .nan
        settings.lowerMagnitudeGate = -1
        let problems = settings.problems()
        #expect(problems.map(\.name) == ["lowerMagnitudeGate", "switchAngle", "quarterTurnSettleTime"])
        #expect(problems[1].description == "switchAngle = 80.0 is outside 55.0...65.0")
        let clamped = settings.clamped()
        #expect(clamped.switchAngle == 65)
        #expect(clamped.quarterTurnSettleTime == EstimatorSettings().quarterTurnSettleTime)
        #expect(clamped.lowerMagnitudeGate == EstimatorSettings.field(named: "lowerMagnitudeGate")!.range.lowerBound)
        #expect(clamped.problems().isEmpty)
        #expect(OrientationEstimator(settings: settings).settings == clamped)
    }

    @Test func longerSettleTimeDelaysTheCommit() {
        var settings = EstimatorSettings()
        settings.quarterTurnSettleTime = 1.0
        // A smooth 0.5 s turn is committed as it slows into its end (the mid-turn commit), whose
        // evidence does not follow the settle time either.
        let turn = samples(rate: 50, duration: 5) { t in gravity(angle: 90 * ramp(t, from: 1, to: 1.5)) }
        let midTurn = Trace.replay(turn, settings: settings)
        #expect(midTurn.map(\.device) == [.portrait, .landscapeRight])
        if midTurn.count == 2 { #expect(midTurn[1].time >= 1.35 && midTurn[1].time <= 1.55) }
        // Without the mid-turn commit it takes the settle-time path: proposed from about 1.35 s,
        // committed a second later.
        var settleOnly = settings
        settleOnly.midTurnSlowdown = 0
        let changes = Trace.replay(turn, settings: settleOnly)
        #expect(changes.map(\.device) == [.portrait, .landscapeRight])
        if changes.count == 2 { #expect(changes[1].time >= 2.3 && changes[1].time < 2.6) }
        // A step takes the calm fast path, whose own evidence time does not follow the settle time.
        let step = samples(rate: 50, duration: 4) { t in t < 1 ? Vector3(0, -g, 0) : Vector3(g, 0, 0) }
        let fast = Trace.replay(step, settings: settings)
        #expect(fast.map(\.device) == [.portrait, .landscapeRight])
        if fast.count == 2 { #expect(fast[1].time >= 1.08 - 1e-9 && fast[1].time <= 1.1) }
        settings.calmSettleTime = 0.3
        let slower = Trace.replay(step, settings: settings)
        #expect(slower.map(\.device) == [.portrait, .landscapeRight])
        if slower.count == 2 { #expect(slower[1].time >= 1.3 - 1e-9 && slower[1].time <= 1.32) }
    }

    /// The `[Orientation]` and `[Sampling]` keys are parsed and refused by one settings field:
    /// whole milliseconds, decimal degrees, the same words for a value outside its range.
    @Test func configKeysAreParsedByTheirFields() {
        func diagnostics(_ text: String) -> [String] {
            DaemonSettings.interpret(ConfigFile.parse(text, file: "test.conf").entries).1.map(\.message)
        }
        let keep = "; keeping the previous value"
        #expect(
            diagnostics("[Orientation]\nSettleTimeMsec=soon\n") == [
                "expected milliseconds between 20 and 1000, found 'soon'" + keep
            ])
        #expect(
            diagnostics("[Orientation]\nSettleTimeMsec=2.5\n") == [
                "expected milliseconds between 20 and 1000, found '2.5'" + keep
            ])
        #expect(
            diagnostics("[Orientation]\nSwitchAngle=70\n") == ["expected degrees between 55 and 65, found '70'" + keep])
        #expect(
            diagnostics("[Sampling]\nStillIntervalMsec=-5\n") == [
                "expected milliseconds between 10 and 5000, found '-5'" + keep
            ])
        let settings = DaemonSettings.interpret(
            ConfigFile.parse(
                "[Orientation]\nSettleTimeMsec=300\nSwitchAngle=57.5\n[Sampling]\nStillIntervalMsec=900\n", file: "t"
            ).entries
        ).0
        #expect(settings.estimator.quarterTurnSettleTime == 0.3)
        #expect(settings.estimator.halfTurnSettleTime == 0.6)
        #expect(settings.estimator.switchAngle == 57.5)
        #expect(settings.sampling.stillIntervalMsec == 900)
    }
}
