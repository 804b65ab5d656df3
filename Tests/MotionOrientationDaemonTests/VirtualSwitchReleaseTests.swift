import ErrorsAndLog
import Glibc
import OrientationCore
import Testing

@testable import MotionOrientationDaemon

/// The virtual switch always lets go (issue 29): 0 before it goes, on every path, and a
/// switch the last daemon left on is made on and then turned off.
extension TabletModeTests {
    /// The display at 120 degrees (a laptop) and at 250 (a tent), base flat, keyboard up.
    static let laptop = Vector3(0, -8.4957, -4.905)
    static let tent = Vector3(0, 9.2184, -3.3552)

    /// Tablet mode from a hinge with switches that write to the journal, started.
    func hingeTabletMode(
        _ settings: TabletModeSettings = TabletModeSettings(), memory: FakeMemory
    ) -> TabletMode {
        let tablet = tabletMode(settings, memory: memory) { [journal] (mode: Bool) throws(SystemError) in
            FakeVirtualSwitch(made: mode, journal: journal)
        }
        let base = FakeBase()
        base.reading = Vector3(0, 0, 9.81)
        base.deliver = { [clock] reading in tablet.takeBase(reading, at: clock.now) }
        tablet.use(base: base)
        tablet.start()
        tablet.displayPlanChanged(.every(intervalMsec: 1000))
        return tablet
    }

    /// Display readings one second apart until tablet mode is `mode`.
    func hinge(_ tablet: TabletMode, to mode: Bool) {
        for _ in 0..<30 where tablet.shown.mode != mode {
            tablet.takeDisplay(mode ? Self.tent : Self.laptop, at: clock.now)
            clock.now += 1
        }
        #expect(tablet.shown.mode == mode)
    }

    @Test("the switch's state is kept when it changes, not at every reading, and 0 is written before it goes")
    func keptAndReleasedAtExit() {
        let memory = FakeMemory(journal: journal)
        let tablet = hingeTabletMode(memory: memory)
        hinge(tablet, to: false)
        #expect(journal.take() == [.made(false), .stored(false)])
        hinge(tablet, to: true)
        #expect(journal.take() == [.wrote(true), .stored(true)])
        let stores = memory.stores
        for _ in 0..<5 {
            tablet.takeDisplay(Self.tent, at: clock.now)
            clock.now += 1
        }
        #expect(memory.stores == stores)
        tablet.release()
        #expect(journal.take() == [.wrote(false), .destroyed, .stored(false)])
        #expect(memory.content == false)
    }

    @Test("a switch at 0 goes without writing again")
    func releasedAtZero() {
        let tablet = hingeTabletMode(memory: FakeMemory(journal: journal))
        hinge(tablet, to: false)
        _ = journal.take()
        tablet.release()
        #expect(journal.take() == [.destroyed])
    }

    @Test("a source change and a reload turning the virtual switch off write 0 before it goes")
    func releasedOnSourceChangeAndReload() {
        let memory = FakeMemory(journal: journal)
        let tablet = hingeTabletMode(memory: memory)
        hinge(tablet, to: true)
        _ = journal.take()
        // A hardware switch appears: it decides, the virtual one goes.
        tablet.add(FakeSwitch(tabletMode: true), syspath: "/sys/devices/platform/vbtn/input/input9/event9")
        tablet.switchesChanged()
        #expect(tablet.shown.source == .switch && !tablet.hasVirtualSwitch)
        #expect(journal.take() == [.wrote(false), .destroyed, .stored(false)])
        tablet.remove(syspath: "/sys/devices/platform/vbtn/input/input9/event9")
        tablet.update()
        hinge(tablet, to: true)
        #expect(tablet.hasVirtualSwitch)
        _ = journal.take()
        var off = TabletModeSettings()
        off.virtualSwitch = .no
        tablet.settings = off
        #expect(!tablet.hasVirtualSwitch)
        #expect(journal.take() == [.wrote(false), .destroyed, .stored(false)])
    }

    @Test("a switch the last daemon left on is made on, held, then says the present state")
    func restoredThenReleased() {
        let memory = FakeMemory(content: true, journal: journal)
        let tablet = hingeTabletMode(memory: memory)
        #expect(journal.take() == [.made(true)])  // the memory already says on
        #expect(hold.armed == [TabletMode.restoredHoldSeconds])
        // Unfolded: the decision says off, the held switch stays on.
        for _ in 0..<5 {
            tablet.takeDisplay(Self.laptop, at: clock.now)
            clock.now += 1
        }
        #expect(!tablet.shown.mode && tablet.shown.hingeState == .concave)
        #expect(journal.take() == [])
        tablet.holdEnded()
        #expect(journal.take() == [.wrote(false), .stored(false)])
        tablet.holdEnded()  // once only
        #expect(journal.take() == [])
        #expect(memory.loads == 1)
        // A later switch is not restored.
        tablet.use(base: nil)
        tablet.update()
        tablet.use(base: FakeBase())
        tablet.update()
        #expect(journal.take() == [.destroyed, .made(false)])
        #expect(hold.armed.count == 1)
    }

    @Test("a switch the last daemon left on stays on when the machine is still folded")
    func restoredAndStillFolded() {
        let tablet = hingeTabletMode(memory: FakeMemory(content: true, journal: journal))
        hinge(tablet, to: true)
        tablet.holdEnded()
        #expect(journal.take() == [.made(true)])
    }

    @Test("the memory is read at the first switch made, and restored once the switch can be made")
    func restoredAfterAFailedCreation() {
        var granted = false
        let memory = FakeMemory(content: true, journal: journal)
        let tablet = tabletMode(memory: memory) { [journal] (mode: Bool) throws(SystemError) in
            guard granted else { throw SystemError("open", path: "/dev/uinput", errno: 13) }
            return FakeVirtualSwitch(made: mode, journal: journal)
        }
        tablet.use(base: FakeBase())
        tablet.start()
        #expect(memory.loads == 1 && journal.entries == [] && hold.armed == [])
        granted = true
        tablet.accelerometerEvent()
        #expect(journal.take() == [.made(true)])
        #expect(hold.armed.count == 1 && memory.loads == 1)
    }

    @Test(
        "a memory that cannot be read or kept changes nothing else, and a failed write is tried at the next change only"
    )
    func badMemory() {
        let memory = FakeMemory(journal: journal)
        memory.loadError = SystemError("read (neither 0 nor 1)", path: memory.path, errno: EINVAL)
        memory.storeError = SystemError("open", path: memory.path + ".new", errno: EROFS)
        let tablet = hingeTabletMode(memory: memory)
        hinge(tablet, to: false)
        #expect(journal.take() == [.made(false)])
        #expect(hold.armed == [])
        #expect(memory.stores == 1)
        hinge(tablet, to: true)
        for _ in 0..<3 {
            tablet.takeDisplay(Self.tent, at: clock.now)
            clock.now += 1
        }
        #expect(memory.stores == 2)
        memory.storeError = nil
        hinge(tablet, to: false)
        #expect(journal.take() == [.wrote(true), .wrote(false), .stored(false)])
    }
}
