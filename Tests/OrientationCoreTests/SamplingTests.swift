import OrientationCore
import Testing

@Suite struct SamplingPolicyTests {
    let policy = SamplingPolicy()

    func plan(
        claims: Int = 1, pendingReads: Int = 0, hasAccelerometer: Bool = true, moving: Bool = false,
        secondsSinceMotion: Double? = nil, lowEnergy: Bool = false, thermalState: ThermalState = .nominal,
        paused: Bool = false
    ) -> SamplingPlan {
        policy.plan(
            SamplingInputs(
                claims: claims, pendingReads: pendingReads, hasAccelerometer: hasAccelerometer, moving: moving,
                secondsSinceMotion: secondsSinceMotion, lowEnergy: lowEnergy, thermalState: thermalState,
                paused: paused))
    }

    @Test func defaultsMatchTheDocumentedFigures() {
        // A little slower than iio-sensor-proxy's 700 ms poll: a mixed day's turns come on top
        // (make bench, docs/testing.md).
        #expect(policy.stillIntervalMsec == 750)
        #expect(policy.movingIntervalMsec == 40)
        #expect(policy.motionLingerMsec == 5000)
        #expect(policy.lingerIntervalMsec == 120)  // a turn soon after another: under half theirs
        #expect(policy.repeatWindowMsec == 20000)  // a turn a minute: no linger
        #expect(policy.lowEnergyStillIntervalMsec == 1500)
        #expect(policy.lowEnergyMovingIntervalMsec == 100)
        #expect(policy.criticalStillIntervalMsec == 3000)
        #expect(policy.criticalMovingIntervalMsec == 250)
        #expect(policy.acquisitionIntervalMsec == 20)
        #expect(policy.thermalIntervalMsec == 5000)
        #expect(policy.problems().isEmpty)
    }

    @Test func noClaimNoReadMeansOff() {
        #expect(plan(claims: 0) == .off)
        #expect(plan(claims: 0, moving: true, lowEnergy: true, thermalState: .critical) == .off)
        #expect(SamplingPlan.off.intervalMsec == 0)
        #expect(SamplingPlan.every(intervalMsec: 700).intervalMsec == 700)
    }

    @Test func noAccelerometerMeansOffWhateverIsAsked() {
        #expect(plan(claims: 2, pendingReads: 1, hasAccelerometer: false, moving: true) == .off)
    }

    @Test func pausedMeansOffEvenWithClaimsAndWaitingReads() {
        #expect(plan(claims: 3, paused: true) == .off)
        #expect(plan(claims: 1, pendingReads: 2, moving: true, paused: true) == .off)
    }

    @Test func aWaitingReadSamplesAtTheAcquisitionInterval() {
        #expect(plan(claims: 0, pendingReads: 1) == .every(intervalMsec: 20))
        #expect(plan(claims: 1, pendingReads: 1) == .every(intervalMsec: 20))
        // Even in low energy mode and when hot: the caller waits for this answer.
        #expect(plan(claims: 1, pendingReads: 1, lowEnergy: true, thermalState: .critical) == .every(intervalMsec: 20))
    }

    @Test func stillAndMovingRates() {
        #expect(plan() == .every(intervalMsec: 750))
        #expect(plan(claims: 5) == .every(intervalMsec: 750))
        #expect(plan(moving: true) == .every(intervalMsec: 40))
        #expect(plan(moving: true, secondsSinceMotion: 60) == .every(intervalMsec: 40))
    }

    @Test func movingRateLingersAfterMotion() {
        // With no history of the motion before (stillBeforeMotion nil): the linger's rate.
        #expect(plan(secondsSinceMotion: 0) == .every(intervalMsec: 120))
        #expect(plan(secondsSinceMotion: 4.999) == .every(intervalMsec: 120))
        #expect(plan(secondsSinceMotion: 5) == .every(intervalMsec: 750))
        #expect(plan(secondsSinceMotion: 5.001) == .every(intervalMsec: 750))
        #expect(plan(secondsSinceMotion: nil) == .every(intervalMsec: 750))
    }

    @Test func theLingerHasARateOfItsOwnWithinThePairOfItsMode() {
        var policy = SamplingPolicy()
        policy.lingerIntervalMsec = 150
        func plan(moving: Bool = false, since: Double?, lowEnergy: Bool = false, critical: Bool = false) -> UInt32 {
            policy.plan(
                SamplingInputs(
                    claims: 1, pendingReads: 0, hasAccelerometer: true, moving: moving, secondsSinceMotion: since,
                    lowEnergy: lowEnergy, thermalState: critical ? .critical : .nominal)
            ).intervalMsec
        }
        // Moving now: the moving rate, however recent the motion.
        #expect(plan(moving: true, since: 0) == 40)
        // After it, for the linger: the linger's rate; then the still one.
        #expect(plan(since: 0) == 150)
        #expect(plan(since: 4.999) == 150)
        #expect(plan(since: 5) == 750)
        #expect(plan(since: nil) == 750)
        // Never faster than the mode's moving interval, never slower than its still one.
        #expect(plan(since: 1, lowEnergy: true) == 150)
        #expect(plan(since: 1, critical: true) == 250)
        policy.lingerIntervalMsec = 10
        #expect(plan(since: 1) == 40)
        #expect(plan(since: 1, lowEnergy: true) == 100)
        policy.lingerIntervalMsec = 5000
        #expect(plan(since: 1) == 750)
        #expect(plan(since: 1, lowEnergy: true) == 1500)
        // A change-only sensor keeps the moving interval: its silence costs nothing.
        #expect(
            policy.plan(
                SamplingInputs(
                    claims: 1, pendingReads: 0, hasAccelerometer: true, secondsSinceMotion: 1, changeOnly: true))
                == .every(intervalMsec: 40))
    }

    @Test func theLingerFollowsOnlyAMotionThatRepeatsOne() {
        var policy = SamplingPolicy()
        policy.lingerIntervalMsec = 150
        policy.motionLingerMsec = 3500
        policy.repeatWindowMsec = 20000
        func plan(still: Double?, since: Double = 1) -> UInt32 {
            policy.plan(
                SamplingInputs(
                    claims: 1, pendingReads: 0, hasAccelerometer: true, secondsSinceMotion: since,
                    stillBeforeMotion: still)
            ).intervalMsec
        }
        // A turn after a minute still: back to the still rate once it is over.
        #expect(plan(still: 60) == 750)
        #expect(plan(still: .infinity) == 750)  // the first motion seen
        #expect(plan(still: 20) == 750)
        // A turn 2 s after the one before: the linger, for its time.
        #expect(plan(still: 2) == 150)
        #expect(plan(still: 19.999) == 150)
        #expect(plan(still: 2, since: 3.5) == 750)
        // Not known (a caller with no history): the linger, as before the window.
        #expect(plan(still: nil) == 150)
        // Moving now: the moving rate, repeated or not.
        #expect(
            policy.plan(
                SamplingInputs(
                    claims: 1, pendingReads: 0, hasAccelerometer: true, moving: true, secondsSinceMotion: 0,
                    stillBeforeMotion: 60)) == .every(intervalMsec: 40))
        // A window of 0: every motion lingers.
        policy.repeatWindowMsec = 0
        #expect(plan(still: 60) == 150)
    }

    @Test func motionHistoryTellsOneMotionFromTheNext() {
        var history = MotionHistory()
        #expect(history.lastMotion == nil && history.stillBeforeMotion == nil)
        history.note(moving: false, at: 5)
        #expect(history.lastMotion == nil && history.stillBeforeMotion == nil)
        history.note(moving: true, at: 10)
        #expect(history.lastMotion == 10 && history.stillBeforeMotion == .infinity)
        // The turn's own readings at the moving rate, a settling pause among them: one motion.
        history.note(moving: true, at: 10.04)
        history.note(moving: false, at: 10.08)
        history.note(moving: true, at: 10.4)
        #expect(history.lastMotion == 10.4 && history.stillBeforeMotion == .infinity)
        history.note(moving: false, at: 10.8)
        #expect(history.lastMotion == 10.4)
        // The next turn's first reading, a still interval after the last motion: a new motion,
        // and the stillness before it.
        history.note(moving: true, at: 11.1)
        #expect(history.lastMotion == 11.1)
        #expect(abs(history.stillBeforeMotion! - 0.7) < 1e-9)
        history.note(moving: true, at: 11.14)
        #expect(abs(history.stillBeforeMotion! - 0.7) < 1e-9)
        history.note(moving: true, at: 13.64)
        #expect(abs(history.stillBeforeMotion! - 2.5) < 1e-9)
    }

    @Test func lowEnergySlowsBothRates() {
        #expect(plan(lowEnergy: true) == .every(intervalMsec: 1500))
        #expect(plan(moving: true, lowEnergy: true) == .every(intervalMsec: 100))
        #expect(plan(secondsSinceMotion: 1, lowEnergy: true) == .every(intervalMsec: 120))  // the linger, within 100...1500
        // Fair and serious alone change nothing (serious acts through low energy mode).
        #expect(plan(thermalState: .fair) == .every(intervalMsec: 750))
        #expect(plan(thermalState: .serious) == .every(intervalMsec: 750))
        #expect(plan(lowEnergy: true, thermalState: .serious) == .every(intervalMsec: 1500))
    }

    @Test func criticalSlowsFurtherWithOrWithoutLowEnergy() {
        for lowEnergy in [false, true] {
            #expect(plan(lowEnergy: lowEnergy, thermalState: .critical) == .every(intervalMsec: 3000))
            #expect(plan(moving: true, lowEnergy: lowEnergy, thermalState: .critical) == .every(intervalMsec: 250))
        }
    }

    @Test func configuredIntervalsAreUsed() {
        var policy = SamplingPolicy()
        policy.stillIntervalMsec = 1000
        policy.movingIntervalMsec = 50
        policy.motionLingerMsec = 0
        policy.lowEnergyStillIntervalMsec = 2000
        policy.lowEnergyMovingIntervalMsec = 200
        policy.criticalStillIntervalMsec = 4000
        policy.criticalMovingIntervalMsec = 400
        policy.acquisitionIntervalMsec = 30
        func plan(_ inputs: SamplingInputs) -> UInt32 { policy.plan(inputs).intervalMsec }
        #expect(plan(SamplingInputs(claims: 1, pendingReads: 0, hasAccelerometer: true)) == 1000)
        #expect(plan(SamplingInputs(claims: 1, pendingReads: 0, hasAccelerometer: true, moving: true)) == 50)
        // No linger: the still rate right after the motion.
        #expect(plan(SamplingInputs(claims: 1, pendingReads: 0, hasAccelerometer: true, secondsSinceMotion: 0)) == 1000)
        #expect(plan(SamplingInputs(claims: 1, pendingReads: 0, hasAccelerometer: true, lowEnergy: true)) == 2000)
        #expect(
            plan(SamplingInputs(claims: 1, pendingReads: 0, hasAccelerometer: true, moving: true, lowEnergy: true))
                == 200)
        #expect(
            plan(SamplingInputs(claims: 1, pendingReads: 0, hasAccelerometer: true, thermalState: .critical)) == 4000)
        #expect(plan(SamplingInputs(claims: 0, pendingReads: 1, hasAccelerometer: true)) == 30)
    }

    @Test func aChangeOnlySensorGetsTheMovingIntervalOfItsModeEvenWhenStill() {
        let policy = SamplingPolicy()
        let still = SamplingInputs(claims: 1, pendingReads: 0, hasAccelerometer: true, changeOnly: true)
        #expect(policy.plan(still) == .every(intervalMsec: policy.movingIntervalMsec))
        var low = still
        low.lowEnergy = true
        #expect(policy.plan(low) == .every(intervalMsec: policy.lowEnergyMovingIntervalMsec))
        // No claim, no sampling, change-only or not.
        #expect(
            policy.plan(SamplingInputs(claims: 0, pendingReads: 0, hasAccelerometer: true, changeOnly: true)) == .off)
    }

    @Test func aFrugalModeNeverSamplesFasterThanANormalOne() {
        var policy = SamplingPolicy()
        policy.stillIntervalMsec = 2000  // slower than the low-energy default of 1500
        policy.movingIntervalMsec = 300  // slower than the critical default of 250
        let still = SamplingInputs(claims: 1, pendingReads: 0, hasAccelerometer: true, lowEnergy: true)
        let moving = SamplingInputs(
            claims: 1, pendingReads: 0, hasAccelerometer: true, moving: true, thermalState: .critical)
        #expect(policy.plan(still) == .every(intervalMsec: 2000))
        #expect(policy.plan(moving) == .every(intervalMsec: 300))
    }

    @Test func problemsNameTheBadIntervals() {
        var policy = SamplingPolicy()
        policy.movingIntervalMsec = 800  // longer than still (750)
        policy.criticalStillIntervalMsec = 5  // below 10
        policy.thermalIntervalMsec = 99  // below 100
        let problems = policy.problems()
        #expect(problems.count == 4, "\(problems)")  // critical pair is now inverted too
        #expect(problems.contains { $0.hasPrefix("CriticalStillIntervalMsec is 5 ms") })
        #expect(problems.contains { $0.hasPrefix("ThermalIntervalMsec is 99 ms") })
        #expect(problems.contains { $0.hasPrefix("MovingIntervalMsec (800 ms) is longer than StillIntervalMsec") })
        #expect(problems.contains { $0.hasPrefix("CriticalMovingIntervalMsec (250 ms) is longer") })
    }
}
