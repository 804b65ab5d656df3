import OrientationCore
import Testing

/// The tablet-mode keys of the configuration, the hinge sampling plan, the laptop-mode lock of
/// the interface orientation, and two-sensor traces.
@Suite struct TabletModeConfigTests {
    func interpret(_ text: String, file: String = "test.conf") -> (DaemonSettings, [ConfigDiagnostic]) {
        DaemonSettings.interpret(ConfigFile.parse(text, file: file).entries)
    }

    @Test func defaults() {
        let (settings, diagnostics) = interpret("")
        #expect(diagnostics.isEmpty)
        #expect(settings.tabletMode == TabletModeSettings())
        #expect(settings.tabletMode.source == .auto && settings.tabletMode.virtualSwitch == .auto)
        #expect(settings.tabletMode.enterAngle == 200 && settings.tabletMode.exitAngle == 160)
        #expect(settings.lockInLaptopMode == nil)
        #expect(settings.locksInLaptopMode(tabletModeSource: .hinge))
        #expect(settings.locksInLaptopMode(tabletModeSource: .switch))
        #expect(!settings.locksInLaptopMode(tabletModeSource: .none))
        #expect(settings.sampling.hingeIntervalMsec == 1000)
        #expect(settings.sampling.hingeMovingIntervalMsec == 100)
        #expect(settings.sampling.lowEnergyHingeIntervalMsec == 2000)
    }

    @Test func readsEveryKey() {
        let (settings, diagnostics) = interpret(
            """
            [TabletMode]
            Source=hinge
            EnterAngle=210.5
            ExitAngle=150
            VirtualSwitch=no
            [Sampling]
            HingeIntervalMsec=500
            HingeMovingIntervalMsec=50
            LowEnergyHingeIntervalMsec=3000
            [Orientation]
            LockInLaptopMode=no
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(settings.tabletMode.source == .hinge)
        #expect(settings.tabletMode.enterAngle == 210.5)
        #expect(settings.tabletMode.exitAngle == 150)
        #expect(settings.tabletMode.virtualSwitch == .no)
        #expect(settings.sampling.hingeIntervalMsec == 500)
        #expect(settings.sampling.hingeMovingIntervalMsec == 50)
        #expect(settings.sampling.lowEnergyHingeIntervalMsec == 3000)
        #expect(settings.lockInLaptopMode == false)
        #expect(!settings.locksInLaptopMode(tabletModeSource: .hinge))
        for (text, value) in [("switch", TabletModeSetting.switch), ("off", .off), ("auto", .auto)] {
            #expect(interpret("[TabletMode]\nSource=\(text)\n").0.tabletMode.source == value)
        }
        #expect(interpret("[TabletMode]\nVirtualSwitch=yes\n").0.tabletMode.virtualSwitch == .yes)
        #expect(interpret("[TabletMode]\nVirtualSwitch=true\n").0.tabletMode.virtualSwitch == .yes)
        #expect(interpret("[Orientation]\nLockInLaptopMode=yes\n").0.lockInLaptopMode == true)
        #expect(interpret("[Orientation]\nLockInLaptopMode=no\nLockInLaptopMode=\n").0.lockInLaptopMode == nil)
        #expect(interpret("[Orientation]\nLockInLaptopMode=yes\n").0.locksInLaptopMode(tabletModeSource: .none))
    }

    @Test(arguments: [
        ("[TabletMode]\nSource=tablet\n", "[TabletMode] Source", "expected auto, switch, hinge or off"),
        ("[TabletMode]\nVirtualSwitch=maybe\n", "[TabletMode] VirtualSwitch", "expected auto, yes or no"),
        ("[TabletMode]\nEnterAngle=170\n", "[TabletMode] EnterAngle", "expected degrees between 180.0 and 350.0"),
        ("[TabletMode]\nEnterAngle=nan\n", "[TabletMode] EnterAngle", "expected degrees"),
        ("[TabletMode]\nExitAngle=5\n", "[TabletMode] ExitAngle", "expected degrees between 10.0 and 340.0"),
        ("[TabletMode]\nExitAngle=\n", "[TabletMode] ExitAngle", "expected degrees"),
        ("[TabletMode]\nFoldAngle=200\n", "[TabletMode] FoldAngle", "unknown key"),
        ("[Orientation]\nLockInLaptopMode=sometimes\n", "[Orientation] LockInLaptopMode", "expected a boolean"),
        ("[Sampling]\nHingeIntervalMsec=0\n", "[Sampling] HingeIntervalMsec", "expected milliseconds between 10"),
        ("[Sampling]\nHingeMovingIntervalMsec=99999\n", "[Sampling] HingeMovingIntervalMsec", "expected milliseconds"),
    ])
    func badValuesAreReportedAndKeepTheDefault(text: String, key: String, message: String) {
        let (settings, diagnostics) = interpret("\n" + text, file: "bad.conf")
        #expect(diagnostics.count == 1, "\(diagnostics)")
        let diagnostic = diagnostics.first
        #expect(diagnostic?.file == "bad.conf")
        #expect(diagnostic?.line == 3)
        #expect(diagnostic?.key == key)
        #expect(diagnostic?.message.contains(message) == true, "\(diagnostic?.message ?? "")")
        #expect(settings.tabletMode == TabletModeSettings())
        #expect(settings.lockInLaptopMode == nil)
        #expect(settings.sampling == SamplingPolicy())
    }

    @Test func anglesTooCloseGoBackToTheDefaultsAtTheLastLine() {
        let entries =
            ConfigFile.parse("[TabletMode]\nEnterAngle=250\n", file: "main.conf").entries
            + ConfigFile.parse("[TabletMode]\nExitAngle=245\n", file: "drop-in.conf").entries
        let (settings, diagnostics) = DaemonSettings.interpret(entries)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.file == "drop-in.conf" && diagnostics.first?.line == 2)
        #expect(diagnostics.first?.key == "[TabletMode] ExitAngle")
        #expect(diagnostics.first?.message.contains("at least 10.0 degrees under") == true)
        #expect(settings.tabletMode.enterAngle == 200 && settings.tabletMode.exitAngle == 160)
        // Exit above enter: the same.
        let (swapped, more) = interpret("[TabletMode]\nExitAngle=300\nEnterAngle=200\n")
        #expect(more.count == 1 && more.first?.line == 3)
        #expect(swapped.tabletMode.exitAngle == 160)
        // Exactly 10 apart is fine.
        let (edge, none) = interpret("[TabletMode]\nEnterAngle=190\nExitAngle=180\n")
        #expect(none.isEmpty && edge.tabletMode.exitAngle == 180)
    }

    @Test func hingeMovingLongerThanHingeIntervalIsReported() {
        let (settings, diagnostics) = interpret("[Sampling]\nHingeMovingIntervalMsec=2000\n")
        #expect(diagnostics.count == 1 && diagnostics.first?.key == "[Sampling] HingeMovingIntervalMsec")
        #expect(settings.sampling.hingeMovingIntervalMsec == 100 && settings.sampling.hingeIntervalMsec == 1000)
    }

    @Test func settingsTableIsComplete() {
        let settings = TabletModeSettings()
        #expect(Set(TabletModeSettings.fields.map(\.name)).count == TabletModeSettings.fields.count)
        for field in TabletModeSettings.fields {
            #expect(field.range.contains(settings[field]), "\(field.name)")
        }
        var bad = settings
        bad.calmSpread = .nan
        bad.enterAngle = 1000
        #expect(bad.problems().map(\.name) == ["enterAngle", "calmSpread"])
        #expect(bad.clamped().calmSpread == settings.calmSpread)
        #expect(bad.clamped().enterAngle == 350)
        #expect(TabletModeSettings.field(named: "wrapBand") != nil)
        #expect(TabletModeSettings.field(named: "nothing") == nil)
    }
}

@Suite struct HingeSamplingTests {
    let policy = SamplingPolicy()

    @Test func noClaimNoSwitchIsOff() {
        #expect(policy.plan(SamplingInputs(claims: 0, pendingReads: 0, hasAccelerometer: true)) == .off)
        #expect(
            policy.plan(SamplingInputs(claims: 0, pendingReads: 0, hasAccelerometer: true, hingeMoving: true)) == .off)
    }

    @Test func virtualSwitchAlone() {
        func plan(
            moving: Bool = false, since: Double? = nil, lowEnergy: Bool = false, paused: Bool = false,
            lid: Bool = false, thermal: ThermalState = .nominal
        ) -> SamplingPlan {
            policy.plan(
                SamplingInputs(
                    claims: 0, pendingReads: 0, hasAccelerometer: true, lowEnergy: lowEnergy, thermalState: thermal,
                    paused: paused, virtualSwitch: true, hingeMoving: moving, secondsSinceHingeMotion: since,
                    lidClosed: lid))
        }
        #expect(plan() == .every(intervalMsec: 1000))
        #expect(plan(moving: true) == .every(intervalMsec: 100))
        #expect(plan(since: 4.9) == .every(intervalMsec: 100))
        #expect(plan(since: 5.1) == .every(intervalMsec: 1000))
        #expect(plan(lowEnergy: true) == .every(intervalMsec: 2000))
        #expect(plan(thermal: .critical) == .every(intervalMsec: 2000))
        #expect(plan(paused: true) == .off)
        #expect(plan(lid: true) == .off)
        #expect(plan(moving: true, lid: true) == .off)
    }

    @Test func aClaimNeverSlowsTheHinge() {
        func plan(claims: Int, moving: Bool, bodyMoving: Bool = false, lowEnergy: Bool = false) -> UInt32 {
            policy.plan(
                SamplingInputs(
                    claims: claims, pendingReads: 0, hasAccelerometer: true, moving: bodyMoving, lowEnergy: lowEnergy,
                    virtualSwitch: true, hingeMoving: moving)
            ).intervalMsec
        }
        #expect(plan(claims: 1, moving: false) == 750)
        #expect(plan(claims: 1, moving: true) == 100)
        #expect(plan(claims: 1, moving: false, bodyMoving: true) == 40)
        #expect(plan(claims: 1, moving: false, lowEnergy: true) == 1500)
        // Without the virtual switch the hinge does not count.
        #expect(
            policy.plan(SamplingInputs(claims: 1, pendingReads: 0, hasAccelerometer: true, hingeMoving: true))
                .intervalMsec == 750)
    }

    @Test func configuredHingeIntervals() {
        var custom = SamplingPolicy()
        custom.hingeIntervalMsec = 3000
        custom.lowEnergyHingeIntervalMsec = 1000
        // Low energy never samples faster than normal.
        let inputs = SamplingInputs(
            claims: 0, pendingReads: 0, hasAccelerometer: true, lowEnergy: true, virtualSwitch: true)
        #expect(custom.plan(inputs) == .every(intervalMsec: 3000))
    }
}

@Suite struct LaptopModeLockTests {
    @Test func laptopModeKeepsTheLaptopsUpright() {
        var policy = InterfaceOrientationPolicy()
        #expect(policy.update(device: .landscapeLeft, laptopLock: true) == .portrait)
        #expect(policy.update(device: .portraitUpsideDown, laptopLock: true) == .portrait)
        #expect(policy.update(device: .faceUp, laptopLock: true) == .portrait)
        // Tablet mode: rotates as before, at once.
        #expect(policy.update(device: .landscapeLeft, laptopLock: false) == .landscapeRight)
        #expect(policy.update(device: .faceUp, laptopLock: false) == .landscapeRight)
        #expect(policy.update(device: .portraitUpsideDown, laptopLock: false) == .portraitUpsideDown)
        #expect(policy.update(device: .portraitUpsideDown, laptopLock: true) == .portrait)
        #expect(InterfaceOrientationPolicy.laptopUpright == .portrait)
    }

    @Test func aKioskWithoutPortraitKeepsItsLastValue() {
        var kiosk = InterfaceOrientationPolicy(allowed: [.landscapeLeft, .landscapeRight])
        #expect(kiosk.update(device: .portrait, laptopLock: true) == .unknown)
        #expect(kiosk.update(device: .landscapeRight, laptopLock: false) == .landscapeLeft)
        #expect(kiosk.update(device: .landscapeLeft, laptopLock: true) == .landscapeLeft)
    }
}

@Suite struct TwoSensorTraceTests {
    @Test func roundTrip() throws {
        let samples = [
            TraceSample(time: 0, reading: Vector3(0.1, -9.8, 0.2), base: Vector3(0, 0.01, 9.81)),
            TraceSample(time: 0.1, reading: Vector3(1 / 3, -2 / 3, 1e-300), base: Vector3(-0.5, 100, -9.80665)),
        ]
        let text = Trace.format(samples)
        #expect(text.hasPrefix("t,x,y,z,base_x,base_y,base_z\n"))
        #expect(try Trace.parse(text) == samples)
        // A mixed list is written as a one-sensor trace.
        let mixed = [samples[0], TraceSample(time: 1, reading: Vector3(0, -9.8, 0))]
        #expect(try Trace.parse(Trace.format(mixed)).allSatisfy { $0.base == nil })
        #expect(Trace.format([]) == "t,x,y,z\n")
        let parsed = try Trace.parse(" T , X,y,z,BASE_X,base_y,base_z \r\n# c\n0,1,2,3,4,5,6\r\n")
        #expect(parsed == [TraceSample(time: 0, reading: Vector3(1, 2, 3), base: Vector3(4, 5, 6))])
    }

    @Test(arguments: [
        ("t,x,y,z,base_x,base_y,base_z\n0,1,2,3\n", TraceError.wrongTwoSensorFieldCount(line: 2, found: 4)),
        ("t,x,y,z,base_x,base_y\n0,1,2,3,4,5\n", .missingHeader(line: 1)),
        ("t,x,y,z\n0,1,2,3,4,5,6\n", .wrongFieldCount(line: 2, found: 7)),
        ("t,x,y,z,base_x,base_y,base_z\n0,1,2,3,4,x,6\n", .badNumber(line: 2, field: "base_y", text: "x")),
        ("t,x,y,z,base_x,base_y,base_z\n0,1,2,3,4,5,nan\n", .badNumber(line: 2, field: "base_z", text: "nan")),
    ])
    func errors(text: String, error: TraceError) {
        #expect(throws: error) { try Trace.parse(text) }
        #expect(
            TraceError.wrongTwoSensorFieldCount(line: 3, found: 4).description == "line 3: expected 7 fields, found 4")
    }

    @Test func replayFollowsTheFold() {
        let motion = HingeMotion([(1, HingePose(angle: 100)), (6, HingePose(angle: 300, forward: 60))])
        let samples = HingeTraceGenerator(duration: 8, motion: motion, seed: 21).samples()
        let changes = Trace.replayHinge(samples)
        var states: [HingeState] = []
        for change in changes where states.last != change.state { states.append(change.state) }
        #expect(states == [.concave, .flat, .convex])
        #expect(changes.map(\.tabletMode) == [false, false, false, true])
        #expect(changes.first?.state == .concave && changes.first?.tabletMode == false)
        #expect(changes.last?.state == .convex && changes.last?.tabletMode == true)
        #expect(changes.filter(\.tabletMode).count == changes.count - changes.firstIndex { $0.tabletMode }!)
        #expect(Trace.replayHinge(samples) == changes)
        // One-sensor samples are skipped.
        #expect(Trace.replayHinge(samples.map { TraceSample(time: $0.time, reading: $0.reading) }).isEmpty)
    }
}
