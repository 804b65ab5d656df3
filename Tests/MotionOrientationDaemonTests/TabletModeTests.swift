import ErrorsAndLog
import OrientationCore
import Testing

@testable import MotionOrientationDaemon

@Suite("Tablet mode")
struct TabletModeTests {
    let host = FakeTabletModeHost()
    let sink = RecordingSink()
    let clock = FakeClock()
    let journal = SwitchJournal()
    let hold = FakeHoldTimer()

    func tabletMode(
        _ settings: TabletModeSettings = TabletModeSettings(), memory: FakeMemory = FakeMemory(),
        makeVirtualSwitch: @escaping (Bool) throws(SystemError) -> any TabletModeOutput = { _ throws(SystemError) in
            FakeVirtualSwitch()
        }
    ) -> TabletMode {
        TabletMode(
            settings: settings, host: host, sink: sink, now: { [clock] in clock.now },
            makeVirtualSwitch: makeVirtualSwitch, memory: memory, armHold: { [hold] in hold.armed.append($0) })
    }

    @Test("a hardware switch decides: its source, then each change with TabletModeChanged and the lock re-applied")
    func hardwareSwitch() {
        let tablet = tabletMode()
        let hardware = FakeSwitch()
        tablet.add(hardware, syspath: "/sys/devices/platform/vbtn/input/input9/event9")
        tablet.start()
        #expect(tablet.shown.source == .switch && !tablet.shown.mode)
        #expect(sink.take() == [.changed([.tabletModeSource])])
        #expect(host.modeChanges == 1)
        hardware.tabletMode = true
        tablet.switchesChanged()
        #expect(tablet.shown.mode)
        #expect(sink.take() == [.changed([.tabletMode]), .tabletModeChanged(true)])
        #expect(host.modeChanges == 2)
        // Nothing new: nothing announced.
        tablet.switchesChanged()
        #expect(sink.take() == [])
        tablet.remove(syspath: "/sys/devices/platform/vbtn/input/input9/event9")
        tablet.update()
        #expect(hardware.stopped)
        #expect(tablet.shown == TabletModeShown())
        #expect(sink.take() == [.changed([.tabletMode, .tabletModeSource]), .tabletModeChanged(false)])
    }

    @Test("the first switch by sysfs path decides, whichever was found first")
    func firstByPath() {
        let tablet = tabletMode()
        tablet.add(FakeSwitch(tabletMode: false), syspath: "/sys/devices/b/event2")
        tablet.add(FakeSwitch(tabletMode: true), syspath: "/sys/devices/a/event1")
        #expect(!tablet.add(FakeSwitch(), syspath: "/sys/devices/a/event1"))
        tablet.start()
        #expect(tablet.shown.mode)
    }

    @Test("a switch's lid closing is news for the plan, and a closed lid is no tablet")
    func switchLid() {
        let tablet = tabletMode()
        let hardware = FakeSwitch(tabletMode: true, lidClosed: false)
        tablet.add(hardware, syspath: "/sys/devices/a/event1")
        tablet.start()
        #expect(tablet.shown.mode && !tablet.lidClosed)
        let before = host.samplingChanges
        hardware.lidClosed = true
        tablet.switchesChanged()
        #expect(tablet.lidClosed)
        #expect(!tablet.shown.mode)
        #expect(host.samplingChanges == before + 1)
        // The lid from logind or UPower counts as well.
        hardware.lidClosed = false
        host.energyLid = (closed: true, reported: true)
        tablet.switchesChanged()
        #expect(tablet.lidClosed)
    }

    @Test("with a base the hinge decides, and the virtual switch comes with it and follows")
    func virtualSwitch() {
        let output = FakeVirtualSwitch()
        var made: [Bool] = []
        let tablet = tabletMode { (mode: Bool) throws(SystemError) in
            made.append(mode)
            return output
        }
        tablet.use(base: FakeBase())
        tablet.start()
        #expect(tablet.shown.source == .hinge)
        #expect(made == [false])
        #expect(tablet.hasVirtualSwitch)
        #expect(host.samplingChanges == 1)  // the virtual switch came: sampling may change
        tablet.use(base: nil)
        tablet.update()
        #expect(tablet.shown.source == .none)
        #expect(!tablet.hasVirtualSwitch)
        #expect(host.samplingChanges == 2)
    }

    @Test("a virtual switch that cannot be made is tried once per source")
    func virtualSwitchFails() {
        var attempts = 0
        let tablet = tabletMode { (_: Bool) throws(SystemError) in
            attempts += 1
            throw SystemError("open", path: "/dev/uinput", errno: 13)
        }
        tablet.use(base: FakeBase())
        tablet.start()
        tablet.update()
        tablet.update()
        #expect(attempts == 1)
        #expect(!tablet.hasVirtualSwitch)
        tablet.use(base: nil)
        tablet.update()
        tablet.use(base: FakeBase())
        tablet.update()
        #expect(attempts == 2)
    }

    @Test("a virtual switch that could not be made is tried again at an accelerometer's udev event")
    func virtualSwitchRetriedAtAnAccelerometerEvent() {
        var attempts = 0
        var granted = false
        let tablet = tabletMode { (_: Bool) throws(SystemError) in
            attempts += 1
            // udev's RUN for the base grants /dev/uinput; the daemon may have been first.
            guard granted else { throw SystemError("open", path: "/dev/uinput", errno: 13) }
            return FakeVirtualSwitch()
        }
        tablet.use(base: FakeBase())
        tablet.start()
        #expect(attempts == 1)
        #expect(!tablet.hasVirtualSwitch)
        tablet.accelerometerEvent()  // still refused: one more attempt, no more
        tablet.update()
        #expect(attempts == 2)
        granted = true
        tablet.accelerometerEvent()
        #expect(attempts == 3)
        #expect(tablet.hasVirtualSwitch)
        tablet.accelerometerEvent()  // made: nothing to try again
        #expect(attempts == 3)
    }

    @Test("the base is read at most once per half sampling interval, and pairs only with readings near it")
    func basePacing() {
        let tablet = tabletMode()
        let base = FakeBase()
        base.deliver = { [clock] reading in tablet.takeBase(reading, at: clock.now) }
        tablet.use(base: base)
        tablet.displayPlanChanged(.every(intervalMsec: 100))
        #expect(base.followed == [.every(intervalMsec: 100)])
        let display = Vector3(0, -9.81, 0)
        tablet.takeDisplay(display, at: clock.now)
        #expect(base.reads == 1)
        clock.now += 0.02
        tablet.takeDisplay(display, at: clock.now)  // a buffered display's second reading
        #expect(base.reads == 1)
        clock.now += 0.04
        tablet.takeDisplay(display, at: clock.now)
        #expect(base.reads == 2)
        // A reading from before the base's (a clock step back) reads the base again.
        tablet.takeDisplay(display, at: clock.now - 1)
        #expect(base.reads == 3)
    }

    @Test("a fold between two slow hinge readings is tablet mode at the first reading after it")
    func foldBetweenSlowReadings() {
        let output = FakeVirtualSwitch()
        let tablet = tabletMode { (_: Bool) throws(SystemError) in output }
        let base = FakeBase()
        base.reading = Vector3(0, 0, 9.81)  // flat on the table, keyboard up
        base.deliver = { [clock] reading in tablet.takeBase(reading, at: clock.now) }
        tablet.use(base: base)
        tablet.start()
        tablet.displayPlanChanged(.every(intervalMsec: 1000))
        // The display at 120 degrees, then at 250: (0, -sin, cos) of the angle, times 9.81.
        let laptop = Vector3(0, -8.4957, -4.905)
        let tent = Vector3(0, 9.2184, -3.3552)
        for _ in 0..<5 {
            tablet.takeDisplay(laptop, at: clock.now)
            clock.now += 1
        }
        #expect(!tablet.shown.mode && tablet.shown.hingeState == .concave)
        tablet.takeDisplay(tent, at: clock.now)
        #expect(tablet.shown.mode && tablet.shown.hingeState == .convex)
        #expect(output.sent.last == true)
        #expect(host.modeChanges >= 2)
    }

    @Test("a reload with other settings starts the hinge and the decision afresh, and announces")
    func reload() {
        let tablet = tabletMode()
        tablet.add(FakeSwitch(tabletMode: true), syspath: "/sys/devices/a/event1")
        tablet.start()
        _ = sink.take()
        var off = TabletModeSettings()
        off.source = .off
        tablet.settings = off
        #expect(tablet.shown.source == .none && !tablet.shown.mode)
        #expect(sink.take() == [.changed([.tabletMode, .tabletModeSource]), .tabletModeChanged(false)])
        tablet.settings = off
        #expect(sink.take() == [])
    }
}
