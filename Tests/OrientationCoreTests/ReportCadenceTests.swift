import OrientationCore
import Testing

/// How a buffered source reports, learned from what it does (`ReportCadence`).
@Suite("Report cadence")
struct ReportCadenceTests {
    /// The silence that tells a change-only source at the default plans: 3 x 750 ms.
    let silence = ReportCadence.silence(planIntervalMsec: 40, stillIntervalMsec: 750)

    @Test func theSilenceIsMeasuredByTheLongerOfTheStillAndPlanIntervals() {
        #expect(silence == 2.25)
        #expect(ReportCadence.silence(planIntervalMsec: 1500, stillIntervalMsec: 750) == 4.5)
    }

    @Test func aSourceClaimedToStreamThatFallsSilentWhileSettledIsChangeOnly() {
        var cadence = ReportCadence(claimedChangeOnly: false)
        let said1 = cadence.report(at: cadence.deliveryTime(10), settled: true, silence: silence)
        #expect(!said1)
        // Watched for its silence, not repeated: nothing is pending.
        let watch = cadence.nextWake(needed: false, planIntervalMsec: 750, silence: silence)
        #expect(watch?.wake == .judgeSilence)
        #expect(watch?.time == 12.25)
        // Too early: a hub that keeps an old schedule of up to the still interval reports by then.
        let said2 = cadence.silent(at: 12.2, silence: silence)
        #expect(!said2)
        #expect(!cadence.changeOnly)
        let said3 = cadence.silent(at: 12.25, silence: silence)
        #expect(said3)
        #expect(cadence.changeOnly)
        // Believed change-only and nothing pending: no wakeups at all.
        #expect(cadence.nextWake(needed: false, planIntervalMsec: 40, silence: silence) == nil)
    }

    @Test func aSourceClaimedChangeOnlyThatKeepsReportingWhileSettledStreams() {
        var cadence = ReportCadence(claimedChangeOnly: true)
        var changed: [Bool] = []
        for index in 0..<4 {
            changed.append(cadence.report(at: 10 + 0.75 * Double(index), settled: true, silence: silence))
        }
        // The fourth report, 2.25 s after the first: a stream for as long as the silence.
        #expect(changed == [false, false, false, true])
        #expect(!cadence.changeOnly)
    }

    @Test func aBurstOfSmallChangesShorterThanTheSilenceDoesNotMakeItStream() {
        // The start of a slow turn: reports of small changes, 40 ms apart, that leave nothing
        // pending, then the turn's own (each leaving a decision pending).
        var cadence = ReportCadence(claimedChangeOnly: true)
        for index in 0..<10 { _ = cadence.report(at: 10 + 0.04 * Double(index), settled: true, silence: silence) }
        for index in 10..<30 { _ = cadence.report(at: 10 + 0.04 * Double(index), settled: false, silence: silence) }
        #expect(cadence.changeOnly)
    }

    @Test func reportsOfAMotionOrSpacedBySilenceDoNotMakeItStream() {
        var cadence = ReportCadence(claimedChangeOnly: true)
        // A turn's reports: each leaves a decision pending (the first found everything settled).
        for index in 0...20 { _ = cadence.report(at: 10 + 0.04 * Double(index), settled: false, silence: silence) }
        #expect(cadence.changeOnly)
        // Step turns a second apart, each a report of a change the decisions then settle on.
        for index in 0..<6 { _ = cadence.report(at: 12 + Double(index), settled: false, silence: silence) }
        #expect(cadence.changeOnly)
        // A flicker now and then, each after a silence longer than the still intervals.
        for time in [20.0, 23.0, 26.0, 29.0] { _ = cadence.report(at: time, settled: true, silence: silence) }
        #expect(cadence.changeOnly)
    }

    @Test func whileNeededTheLastReportIsRepeatedFromOneAndAHalfIntervalsThenEveryInterval() {
        var cadence = ReportCadence(claimedChangeOnly: false)
        _ = cadence.report(at: cadence.deliveryTime(5), settled: true, silence: silence)
        let first = cadence.nextWake(needed: true, planIntervalMsec: 40, silence: silence)
        #expect(first?.wake == .repeatLastReport)
        #expect(abs((first?.time ?? 0) - 5.06) < 1e-9)
        let said4 = cadence.deliveryTime(5.06)
        #expect(said4 == 5.06)
        let second = cadence.nextWake(needed: true, planIntervalMsec: 40, silence: silence)
        #expect(abs((second?.time ?? 0) - 5.10) < 1e-9)
    }

    @Test func timesHandedOnNeverGoBackwards() {
        var cadence = ReportCadence(claimedChangeOnly: true)
        let said5 = cadence.deliveryTime(3.0)
        #expect(said5 == 3.0)
        // A repeat at 3.06, then a late scan stamped 3.05, then a duplicated stamp.
        let said6 = cadence.deliveryTime(3.06)
        #expect(said6 == 3.06)
        let said7 = cadence.deliveryTime(3.05)
        #expect(said7 == 3.06)
        let said8 = cadence.deliveryTime(3.06)
        #expect(said8 == 3.06)
        let said9 = cadence.deliveryTime(3.1)
        #expect(said9 == 3.1)
        cadence.restart()
        let said10 = cadence.deliveryTime(1.0)
        #expect(said10 == 1.0)
        #expect(cadence.changeOnly)
    }

    @Test func aSourceSilentFromItsStartThatAnswersThroughItsBufferIsChangeOnly() {
        var cadence = ReportCadence(claimedChangeOnly: false)
        _ = cadence.report(at: cadence.deliveryTime(1), settled: true, silence: silence)
        cadence.learnChangeOnly()
        #expect(cadence.changeOnly)
        #expect(cadence.nextWake(needed: false, planIntervalMsec: 40, silence: silence) == nil)
    }

    @Test func noReportNoTimer() {
        let cadence = ReportCadence(claimedChangeOnly: false)
        #expect(cadence.nextWake(needed: true, planIntervalMsec: 40, silence: silence) == nil)
    }

    /// What the repeats are for: one report of a new pose decides as soon as a stream of the
    /// same pose would, within one plan interval.
    @Test(arguments: [
        (DeviceOrientation.landscapeRight, Vector3(9.80665, 0, 0)),
        (.portraitUpsideDown, Vector3(0, 9.80665, 0)),
        (.faceUp, Vector3(0, 0, -9.80665)),
        (.landscapeLeft, Vector3(-9.80665, 0, 0)),
    ])
    func oneReportDecidesAsSoonAsAStream(target: DeviceOrientation, pose: Vector3) {
        let portrait = Vector3(0, -9.80665, 0)
        let interval: UInt32 = 40
        func decided(streaming: Bool) -> Double? {
            var estimator = OrientationEstimator()
            var cadence = ReportCadence(claimedChangeOnly: !streaming)
            var time = 0.0
            while time < 2 {
                estimator.update(portrait, at: cadence.deliveryTime(time))
                time += 0.04
            }
            #expect(estimator.orientation == .portrait)
            // One report of the new pose at t = 2 (a step: the hub reports the end of a turn).
            let turn = 2.0
            _ = cadence.report(at: cadence.deliveryTime(turn), settled: true, silence: silence)
            estimator.update(pose, at: turn)
            var next = turn
            while estimator.orientation != target {
                if streaming {
                    next += Double(interval) / 1000
                } else {
                    guard estimator.isSettling,
                        let wake = cadence.nextWake(needed: true, planIntervalMsec: interval, silence: silence)
                    else { return nil }
                    next = wake.time
                }
                guard next < turn + 5 else { return nil }
                estimator.update(pose, at: cadence.deliveryTime(next))
            }
            return next - turn
        }
        let stream = decided(streaming: true)
        let single = decided(streaming: false)
        #expect(stream != nil)
        #expect(single != nil, "one report of \(target) is never decided")
        if let stream, let single {
            #expect(single <= stream + Double(interval) / 1000, "\(single) s against \(stream) s")
        }
    }
}
