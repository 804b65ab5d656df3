import OrientationCore
import Testing

/// One step of a hinge run: the true pose, the estimate and the decision after the sample.
struct HingeStep {
    var time: Double
    var truth: HingePose
    var estimate: HingeEstimate
    var tabletMode: Bool
}

/// Runs `samples` through a fresh estimator and decision (source hinge), the lid from `lid`.
func runHinge(
    _ samples: [TraceSample], motion: HingeMotion, settings: TabletModeSettings = TabletModeSettings(),
    lid: (Double, HingePose) -> LidState = { _, _ in .open }
) -> [HingeStep] {
    var estimator = HingeEstimator(settings: settings)
    var decision = TabletModeDecision(settings: settings)
    return samples.map { sample in
        let truth = motion.pose(at: sample.time)
        let lidState = lid(sample.time, truth)
        let estimate = estimator.update(display: sample.reading, base: sample.base!, lid: lidState, at: sample.time)
        let tablet = decision.update(source: .hinge, switchState: nil, hinge: estimate, lid: lidState, at: sample.time)
        return HingeStep(time: sample.time, truth: truth, estimate: estimate, tabletMode: tablet)
    }
}

/// The sequence of distinct values of `key` over the steps, with the time of each change.
func changes<T: Equatable>(_ steps: [HingeStep], _ key: (HingeStep) -> T) -> [(time: Double, value: T)] {
    var result: [(time: Double, value: T)] = []
    for step in steps where result.last?.value != key(step) {
        result.append((step.time, key(step)))
    }
    return result
}

/// The lid switch of a real convertible: closed under 5 degrees.
func realLid(_ time: Double, _ pose: HingePose) -> LidState { pose.angle < 5 ? .closed : .open }

@Suite("Hinge estimator and tablet-mode decision")
struct HingeEstimatorTests {
    /// Closed 1 s, opened to 360 at 30 degrees per second, 2 s folded, back to 0, 2 s closed.
    static func sweep(sideways: Double = 0, forward: Double = 0) -> HingeMotion {
        HingeMotion([
            (1, HingePose(angle: 0, sideways: sideways, forward: forward)),
            (13, HingePose(angle: 360, sideways: sideways, forward: forward)),
            (15, HingePose(angle: 360, sideways: sideways, forward: forward)),
            (27, HingePose(angle: 0, sideways: sideways, forward: forward)),
        ])
    }

    /// The time the truth first reaches `angle` after `after` (rising or falling).
    static func crossing(_ motion: HingeMotion, _ angle: Double, rising: Bool) -> Double {
        var t = rising ? 1.0 : 15.0
        while t < 30 {
            let a = motion.pose(at: t).angle
            if rising ? a >= angle : a <= angle { return t }
            t += 0.001
        }
        return .infinity
    }

    @Test(arguments: [(0.0, 0.0, 0.0), (30, 0, 0), (0, 30, 0), (30, 30, 0), (0, 0, 3), (20, 15, 3)])
    func sweepZeroToFullAndBack(sideways: Double, forward: Double, sway: Double) {
        let motion = Self.sweep(sideways: sideways, forward: forward)
        let generator = HingeTraceGenerator(duration: 30, motion: motion, sway: sway, seed: 7)
        let steps = runHinge(generator.samples(), motion: motion, lid: realLid)
        let label = "sideways \(sideways) forward \(forward) sway \(sway)"
        for step in steps where step.estimate.trustworthy {
            let angle = step.estimate.angle ?? -100
            #expect(abs(angle - step.truth.angle) < 3.5, "\(label) t=\(step.time): \(angle) vs \(step.truth.angle)")
        }
        let trusted = steps.filter { $0.estimate.trustworthy }.count
        #expect(trusted > steps.count * 3 / 4, "\(label): only \(trusted) of \(steps.count) trusted")
        let modes = changes(steps) { $0.tabletMode }
        #expect(modes.map(\.value) == [false, true, false], "\(label): \(modes)")
        if modes.count == 3 {
            let enter = Self.crossing(motion, 200, rising: true)
            let exit = Self.crossing(motion, 160, rising: false)
            #expect(modes[1].time >= enter && modes[1].time <= enter + 0.3 + 0.35, "\(label) enter \(modes[1].time)")
            #expect(modes[2].time >= exit && modes[2].time <= exit + 0.3 + 0.35, "\(label) exit \(modes[2].time)")
        }
        let states = changes(steps) { $0.estimate.state }.map(\.value)
        #expect(
            states == [.closed, .concave, .flat, .convex, .full, .convex, .flat, .concave, .closed],
            "\(label): \(states)")
    }

    /// Laptop at 120 or tent at 300, then the whole device turned so the hinge is within 10
    /// degrees of vertical for 5 s, then back.
    @Test(arguments: [120.0, 300.0])
    func hingeVerticalKeepsTheLastState(angle: Double) {
        let motion = HingeMotion([
            (2, HingePose(angle: angle, sideways: 0, forward: 10)),
            (3, HingePose(angle: angle, sideways: 80, forward: 10)),
            (8, HingePose(angle: angle, sideways: 80, forward: 10)),
            (9, HingePose(angle: angle, sideways: 0, forward: 10)),
        ])
        let steps = runHinge(HingeTraceGenerator(duration: 12, motion: motion, seed: 8).samples(), motion: motion)
        let expected: HingeState = angle < 180 ? .concave : .convex
        let settled = steps.filter { $0.time > 1 }
        #expect(settled.allSatisfy { $0.estimate.state == expected })
        #expect(settled.allSatisfy { $0.tabletMode == (angle > 200) })
        let vertical = steps.filter { $0.time > 3.2 && $0.time < 7.8 }
        #expect(vertical.allSatisfy { $0.estimate.hold == .hingeVertical && !$0.estimate.trustworthy })
        #expect(vertical.allSatisfy { abs(($0.estimate.angle ?? 0) - angle) < 2 })
        #expect(steps.last?.estimate.trustworthy == true)
    }

    /// Shaking (0.5 g at 5 Hz) and walking (0.2 g bounce at 2 Hz, sway) in laptop and tent poses.
    @Test(arguments: [110.0, 270.0])
    func shakingAndWalkingChangeNothing(angle: Double) {
        let pose = HingePose(angle: angle, sideways: 5, forward: angle > 180 ? 45 : 0)
        let disturbances: [(String, @Sendable (Double, Vector3) -> Vector3)] = [
            (
                "shake",
                Disturbance.shake(
                    amplitude: 0.5 * g, from: 5, to: 5, direction: Vector3(1, 0.6, 0.4), start: 2, end: 12)
            ),
            (
                "walk",
                { time, down in
                    // From 2 s, so the pose is decided first.
                    time < 2 ? .zero : Disturbance.walking(amplitude: 0.2 * g, frequency: 2, sway: 0.1 * g)(time, down)
                }
            ),
        ]
        for (name, acceleration) in disturbances {
            for rate in [10.0, 1.0] {
                let generator = HingeTraceGenerator(
                    rate: rate, duration: 14, motion: .still(pose), acceleration: acceleration, seed: 9)
                let steps = runHinge(generator.samples(), motion: .still(pose))
                let decided = steps.filter { $0.time >= 1.5 }
                let expected: HingeState = angle < 180 ? .concave : .convex
                #expect(decided.allSatisfy { $0.estimate.state == expected }, "\(name) \(rate) Hz")
                #expect(
                    decided.allSatisfy { $0.tabletMode == (angle > 200) },
                    "\(name) \(rate) Hz \(decided.filter { $0.tabletMode != (angle > 200) }.map { ($0.time, $0.estimate) })"
                )
                for step in decided where step.estimate.trustworthy {
                    #expect(abs((step.estimate.angle ?? 0) - angle) < 3, "\(name) \(rate) Hz t=\(step.time)")
                }
            }
        }
    }

    /// Closed and folded back to back read the same: the lid switch and continuity tell them apart.
    @Test func closedVersusFolded() {
        // Keyboard face down, display on top of it or folded under: identical readings.
        let folded = HingePose(angle: 360, sideways: 0, forward: 180)
        let still = HingeTraceGenerator(duration: 5, motion: .still(folded), seed: 10).samples()

        // Lid closed: closed, laptop.
        let closed = runHinge(still, motion: .still(folded), lid: { _, _ in .closed })
        #expect(closed.allSatisfy { $0.estimate.state == .closed && !$0.tabletMode && $0.estimate.angle == 0 })
        #expect(closed.allSatisfy { $0.estimate.hold == .lidClosed })

        // Lid open, no history: unknown and ambiguous, then full after 2 s.
        let open = runHinge(still, motion: .still(folded), lid: { _, _ in .open })
        #expect(open.filter { $0.time < 1.9 }.allSatisfy { $0.estimate.state == .unknown && !$0.tabletMode })
        #expect(open.filter { $0.time < 1.9 }.allSatisfy { $0.estimate.hold == .ambiguousWrap })
        #expect(open.filter { $0.time > 2.05 }.allSatisfy { $0.estimate.state == .full })
        #expect(open.filter { $0.time > 2.4 }.allSatisfy { $0.tabletMode })

        // No lid information, no history: unknown, never a decision.
        let unknown = runHinge(still, motion: .still(folded), lid: { _, _ in .unknown })
        #expect(unknown.allSatisfy { $0.estimate.state == .unknown && !$0.tabletMode && $0.estimate.angle == nil })

        // History from 300, with and without a lid switch: full, tablet.
        let fold = HingeMotion([
            (1, HingePose(angle: 300, forward: 120)), (3, HingePose(angle: 360, forward: 180)),
        ])
        let samples = HingeTraceGenerator(duration: 8, motion: fold, seed: 11).samples()
        for lid in [LidState.open, .unknown] {
            let steps = runHinge(samples, motion: fold, lid: { _, _ in lid })
            #expect(changes(steps) { $0.estimate.state }.map(\.value) == [.convex, .full], "\(lid)")
            #expect(steps.filter { $0.time > 0.5 }.allSatisfy { $0.tabletMode }, "\(lid)")
            #expect(abs((steps.last?.estimate.angle ?? 0) - 360) < 1, "\(lid)")
        }

        // A lid switch that trips when folded (closed at 360 after history from 300): ignored.
        let tripping = runHinge(samples, motion: fold, lid: { _, pose in pose.angle > 355 ? .closed : .open })
        #expect(tripping.last?.estimate.lidContradicted == true)
        #expect(tripping.last?.estimate.state == .full)
        #expect(tripping.filter { $0.time > 0.5 }.allSatisfy { $0.tabletMode })
    }

    /// Lid closed at 0, opened: continuity starts from 0, so the near-0 readings are closed, not full.
    @Test func openingTheLidStartsFromZero() {
        let motion = HingeMotion([(1, HingePose(angle: 0)), (2, HingePose(angle: 3)), (5, HingePose(angle: 100))])
        let steps = runHinge(
            HingeTraceGenerator(duration: 7, motion: motion, seed: 12).samples(), motion: motion,
            lid: { time, _ in time < 1.5 ? .closed : .open })
        #expect(changes(steps) { $0.estimate.state }.map(\.value) == [.closed, .concave])
        #expect(steps.allSatisfy { !$0.tabletMode })
    }

    @Test func misScaledSensorsDecideTheSame() {
        let motion = Self.sweep(sideways: 10, forward: 5)
        let truth = runHinge(
            HingeTraceGenerator(duration: 30, motion: motion, seed: 13).samples(), motion: motion, lid: realLid)
        let scaled = runHinge(
            HingeTraceGenerator(duration: 30, motion: motion, displayScale: 1.8, baseScale: 0.5, seed: 13).samples(),
            motion: motion, lid: realLid)
        let a = changes(truth) { $0.tabletMode }
        let b = changes(scaled) { $0.tabletMode }
        #expect(a.map(\.value) == b.map(\.value))
        for (x, y) in zip(a, b) { #expect(abs(x.time - y.time) <= 0.11) }
        #expect(changes(truth) { $0.estimate.state }.map(\.value) == changes(scaled) { $0.estimate.state }.map(\.value))
    }

    @Test func badReadingsHoldTheLastState() {
        var estimator = HingeEstimator()
        let b = Vector3(0, 0, g)
        var t = 0.0
        for _ in 0..<5 {
            estimator.update(display: Vector3(0, -g, 0), base: b, lid: .open, at: t)
            t += 0.1
        }
        #expect(estimator.estimate.state == .concave)
        for bad in [Vector3.zero, Vector3(.nan, 0, 0), Vector3(0, .infinity, 0)] {
            let estimate = estimator.update(display: bad, base: b, lid: .open, at: t)
            #expect(estimate.hold == .badReading && !estimate.trustworthy && estimate.state == .concave)
            #expect(abs((estimate.angle ?? 0) - 90) < 0.5)
            let base = estimator.update(display: Vector3(0, -g, 0), base: bad, lid: .open, at: t + 0.05)
            #expect(base.hold == .badReading)
            t += 0.1
        }
        // Free fall (0.1 g) on both: not calm.
        #expect(estimator.update(display: Vector3(0, -0.98, 0), base: b * 0.1, lid: .open, at: t).hold == .moving)
        t += 1
        #expect(estimator.update(display: Vector3(0, -g, 0), base: b, lid: .open, at: t).trustworthy)
    }

    @Test func oneHalfJoltedIsAMagnitudeMismatch() {
        var estimator = HingeEstimator()
        let b = Vector3(0, 0, g)
        for i in 0..<5 { estimator.update(display: Vector3(0, -g, 0), base: b, lid: .open, at: Double(i) * 0.1) }
        // The display alone reads 8 % more (still within its own calm tolerance), the base 5 % less.
        var settings = TabletModeSettings()
        settings.calmSpread = 0.5
        var tolerant = HingeEstimator(settings: settings)
        for i in 0..<5 { tolerant.update(display: Vector3(0, -g, 0), base: b, lid: .open, at: Double(i) * 0.1) }
        let estimate = tolerant.update(display: Vector3(0, -g * 1.08, 0), base: b * 0.95, lid: .open, at: 0.5)
        #expect(estimate.hold == .magnitudeMismatch)
        #expect(tolerant.lastMotionTime == 0.5)
    }

    @Test func wrongBaseMatrixIsReportedAfterTenSeconds() {
        var estimator = HingeEstimator()
        // An identity base matrix where a rotation was needed: the base's x reads what should be z.
        let motion = HingeMotion.still(HingePose(angle: 110, sideways: 0, forward: 0))
        var t = 0.0
        while t < 12 {
            let pose = motion.pose(at: t)
            let b = pose.baseDown * g
            let d = pose.display(from: b)
            let estimate = estimator.update(display: d, base: Vector3(b.z, b.y, b.x), lid: .open, at: t)
            #expect(!estimate.trustworthy)
            #expect(estimate.hold == .axisMismatch || estimate.hold == .hingeVertical)
            #expect(estimator.suspectMountMatrix == (t >= 10.05), "t=\(t)")
            t += 0.1
        }
        #expect(estimator.estimate.state == .unknown)
    }

    @Test func hingeMotionIsReportedForSampling() {
        var estimator = HingeEstimator()
        let b = Vector3(0, 0, g)
        for i in 0..<3 { estimator.update(display: Vector3(0, -g, 0), base: b, lid: .open, at: Double(i)) }
        #expect(estimator.lastMotionTime == nil)
        let pose = HingePose(angle: 100)
        estimator.update(display: pose.display(from: b), base: b, lid: .open, at: 3)
        #expect(estimator.lastMotionTime == 3)
    }

    @Test func forgettingContinuityAfterSuspendKeepsTheState() {
        var estimator = HingeEstimator()
        let b = Vector3(0, 0, -g)
        for i in 0..<30 {
            let pose = HingePose(angle: 300 + Double(i) * 2, forward: 180)
            estimator.update(display: pose.display(from: b), base: b, lid: .open, at: Double(i) * 0.1)
        }
        #expect(estimator.estimate.state == .full)
        estimator.forgetContinuity()
        #expect(estimator.estimate.state == .full)
        // After resume, reads near 0/360 again: ambiguous until resolved, the state kept.
        let estimate = estimator.update(display: b, base: b, lid: .open, at: 100)
        #expect(estimate.hold == .ambiguousWrap && estimate.state == .full)
    }

    @Test func timeGoingBackwardsRestartsContinuity() {
        var estimator = HingeEstimator()
        let b = Vector3(0, 0, g)
        let d = HingePose(angle: 100).display(from: b)
        for i in 0..<5 { estimator.update(display: d, base: b, lid: .open, at: 10 + Double(i) * 0.1) }
        let estimate = estimator.update(display: d, base: b, lid: .open, at: 1)
        #expect(estimate.trustworthy && abs((estimate.angle ?? 0) - 100) < 0.5)
    }

    @Test func publishDeadband() {
        let known = HingeEstimate(angle: 100.4, trustworthy: true, state: .concave, hold: nil)
        #expect(known.busAngle == 100.4 && HingeEstimate().busAngle == -1)
        #expect(known.shouldPublish(after: -1, deadband: 1))
        #expect(!known.shouldPublish(after: 100, deadband: 1))
        #expect(known.shouldPublish(after: 99.4, deadband: 1))
        #expect(HingeEstimate().shouldPublish(after: 100, deadband: 1))
        #expect(!HingeEstimate().shouldPublish(after: -1, deadband: 1))
        let full = HingeEstimate(angle: 360, trustworthy: true, state: .full, hold: nil)
        #expect(full.shouldPublish(after: 359.6, deadband: 1))
        #expect(!full.shouldPublish(after: 360, deadband: 1))
    }

    @Test func replaysAreDeterministic() {
        let motion = Self.sweep(sideways: 12, forward: 7)
        let samples = HingeTraceGenerator(duration: 30, motion: motion, sway: 2, seed: 14).samples()
        let a = runHinge(samples, motion: motion, lid: realLid).map { ($0.estimate, $0.tabletMode) }
        let b = runHinge(samples, motion: motion, lid: realLid).map { ($0.estimate, $0.tabletMode) }
        #expect(a.elementsEqual(b) { $0.0 == $1.0 && $0.1 == $1.1 })
    }
}

/// `decision.update(...)`, callable inside `#expect`.
func step(
    _ decision: inout TabletModeDecision, source: TabletModeSource, switchState: Bool?, hinge: HingeEstimate,
    lid: LidState, at time: Double
) -> Bool {
    decision.update(source: source, switchState: switchState, hinge: hinge, lid: lid, at: time)
}

@Suite("Tablet-mode decision")
struct TabletModeDecisionTests {
    func trusted(_ angle: Double) -> HingeEstimate {
        HingeEstimate(angle: angle, trustworthy: true, state: .concave, hold: nil)
    }

    @Test func sourceResolution() {
        #expect(TabletModeSource.resolve(.auto, hasSwitch: true, hasHinge: true) == .switch)
        #expect(TabletModeSource.resolve(.auto, hasSwitch: false, hasHinge: true) == .hinge)
        #expect(TabletModeSource.resolve(.auto, hasSwitch: false, hasHinge: false) == .none)
        #expect(TabletModeSource.resolve(.switch, hasSwitch: false, hasHinge: true) == .none)
        #expect(TabletModeSource.resolve(.hinge, hasSwitch: true, hasHinge: true) == .hinge)
        #expect(TabletModeSource.resolve(.hinge, hasSwitch: true, hasHinge: false) == .none)
        #expect(TabletModeSource.resolve(.off, hasSwitch: true, hasHinge: true) == .none)
        #expect(TabletModeSource.allCases.map(\.name) == ["none", "switch", "hinge"])
        #expect(VirtualSwitchSetting.auto.wantsVirtualSwitch(source: .hinge))
        #expect(!VirtualSwitchSetting.auto.wantsVirtualSwitch(source: .switch))
        #expect(VirtualSwitchSetting.yes.wantsVirtualSwitch(source: .switch))
        #expect(!VirtualSwitchSetting.yes.wantsVirtualSwitch(source: .none))
        #expect(!VirtualSwitchSetting.no.wantsVirtualSwitch(source: .hinge))
    }

    @Test func switchSource() {
        var decision = TabletModeDecision()
        #expect(!step(&decision, source: .switch, switchState: nil, hinge: HingeEstimate(), lid: .open, at: 0))
        #expect(step(&decision, source: .switch, switchState: true, hinge: HingeEstimate(), lid: .open, at: 1))
        #expect(!step(&decision, source: .switch, switchState: true, hinge: HingeEstimate(), lid: .closed, at: 2))
        #expect(!step(&decision, source: .switch, switchState: false, hinge: trusted(300), lid: .open, at: 3))
        #expect(!step(&decision, source: .none, switchState: true, hinge: trusted(300), lid: .open, at: 4))
        #expect(decision.source == .none)
    }

    @Test func enterAndExitNeedEvidenceOverTwoReadings() {
        var decision = TabletModeDecision()
        func feed(_ angle: Double, _ time: Double, trust: Bool = true) -> Bool {
            var estimate = trusted(angle)
            estimate.trustworthy = trust
            return decision.update(source: .hinge, switchState: nil, hinge: estimate, lid: .open, at: time)
        }
        #expect(!feed(210, 0))
        #expect(!feed(210, 0.2))
        #expect(feed(210, 0.3))
        // Between the angles: kept.
        #expect(feed(180, 1))
        #expect(feed(161, 2))
        // A single slow reading is not evidence; an untrustworthy one restarts it.
        #expect(feed(150, 3))
        #expect(feed(150, 3.2, trust: false))
        #expect(feed(150, 3.4))
        #expect(feed(150, 3.6))
        #expect(!feed(150, 3.7))
        // The first decision is laptop, however long the angle sits between.
        var fresh = TabletModeDecision()
        for i in 0..<20 {
            #expect(!step(&fresh, source: .hinge, switchState: nil, hinge: trusted(190), lid: .open, at: Double(i)))
        }
    }

    @Test func lidClosedIsLaptopAtOnce() {
        var decision = TabletModeDecision()
        #expect(!step(&decision, source: .hinge, switchState: nil, hinge: trusted(300), lid: .open, at: 0))
        #expect(step(&decision, source: .hinge, switchState: nil, hinge: trusted(300), lid: .open, at: 1))
        #expect(!step(&decision, source: .hinge, switchState: nil, hinge: trusted(300), lid: .closed, at: 1.1))
        var contradicted = trusted(360)
        contradicted.lidContradicted = true
        #expect(!step(&decision, source: .hinge, switchState: nil, hinge: contradicted, lid: .closed, at: 2))
        #expect(step(&decision, source: .hinge, switchState: nil, hinge: contradicted, lid: .closed, at: 2.5))
    }

    @Test func configuredAnglesAreUsed() {
        var settings = TabletModeSettings()
        settings.enterAngle = 300
        settings.exitAngle = 250
        var decision = TabletModeDecision(settings: settings)
        #expect(!step(&decision, source: .hinge, switchState: nil, hinge: trusted(280), lid: .open, at: 0))
        #expect(!step(&decision, source: .hinge, switchState: nil, hinge: trusted(280), lid: .open, at: 1))
        #expect(!step(&decision, source: .hinge, switchState: nil, hinge: trusted(310), lid: .open, at: 2))
        #expect(step(&decision, source: .hinge, switchState: nil, hinge: trusted(310), lid: .open, at: 3))
        #expect(step(&decision, source: .hinge, switchState: nil, hinge: trusted(260), lid: .open, at: 4))
        // A gap under 10 degrees goes back to the defaults.
        settings.exitAngle = 295
        #expect(TabletModeDecision(settings: settings).settings.enterAngle == 200)
        #expect(settings.problems().map(\.name) == ["exitAngle"])
        #expect(TabletModeSettings().problems().isEmpty)
    }
}
