import ErrorsAndLog
import OrientationCore
import SystemdBus

@testable import MotionOrientationDaemon

/// Records what the parts announce, in order; empty lists are not announcements (the bus
/// sink sends nothing for them).
final class RecordingSink: BusSink {
    enum Event: Equatable {
        case changed([OrientationProperty])
        case sensorProxyChanged([SensorProxyProperty])
        case signal(OrientationSignal, String)
        case tabletModeChanged(Bool)
    }

    var events: [Event] = []

    func changed(_ properties: [OrientationProperty]) {
        if !properties.isEmpty { events.append(.changed(properties)) }
    }

    func changed(_ properties: [SensorProxyProperty]) {
        if !properties.isEmpty { events.append(.sensorProxyChanged(properties)) }
    }

    func emit(_ signal: OrientationSignal, orientation name: String, value: UInt32) {
        events.append(.signal(signal, name))
    }

    func emitTabletModeChanged(_ tabletMode: Bool) { events.append(.tabletModeChanged(tabletMode)) }

    /// The events since the last call.
    func take() -> [Event] {
        defer { events = [] }
        return events
    }
}

/// A clock the test moves.
final class FakeClock {
    var now = 1000.0
}

final class FakeTabletModeHost: TabletModeHost {
    var hasAccelerometer = true
    var energyLid: (closed: Bool, reported: Bool) = (false, false)
    var modeChanges = 0
    var samplingChanges = 0
    func tabletModeChanged() { modeChanges += 1 }
    func tabletModeSamplingChanged() { samplingChanges += 1 }
}

final class FakeSwitch: TabletModeSwitchReading {
    var tabletMode = false
    var lidClosed: Bool?
    var stopped = false
    init(tabletMode: Bool = false, lidClosed: Bool? = nil) {
        self.tabletMode = tabletMode
        self.lidClosed = lidClosed
    }
    func stop() { stopped = true }
}

/// What reached the virtual switch's device and the memory, in order.
final class SwitchJournal {
    enum Entry: Equatable {
        /// Made with this state.
        case made(Bool)
        /// An event written to the device (only changes are written).
        case wrote(Bool)
        case destroyed
        /// The memory kept this state.
        case stored(Bool)
    }
    var entries: [Entry] = []

    /// The entries since the last call.
    func take() -> [Entry] {
        defer { entries = [] }
        return entries
    }
}

/// A virtual switch that writes what `VirtualTabletSwitch` writes: changes only, and 0 at its
/// teardown unless it is at 0.
final class FakeVirtualSwitch: TabletModeOutput {
    var sent: [Bool] = []
    private let journal: SwitchJournal?
    private var state: Bool?
    init(made: Bool = false, journal: SwitchJournal? = nil) {
        self.journal = journal
        journal?.entries.append(.made(made))
        state = made
    }
    func send(_ tabletMode: Bool) throws(SystemError) {
        sent.append(tabletMode)
        guard tabletMode != state else { return }
        journal?.entries.append(.wrote(tabletMode))
        state = tabletMode
    }
    deinit {
        if state != false { journal?.entries.append(.wrote(false)) }
        journal?.entries.append(.destroyed)
    }
}

/// The state file: what it holds, what it refuses.
final class FakeMemory: TabletModeMemory {
    let path = "/run/motion-orientationd/tablet-mode-switch"
    var content: Bool?
    var loadError: SystemError?
    var storeError: SystemError?
    var loads = 0
    var stores = 0
    private let journal: SwitchJournal?
    init(content: Bool? = nil, journal: SwitchJournal? = nil) {
        self.content = content
        self.journal = journal
    }
    func load() throws(SystemError) -> Bool? {
        loads += 1
        if let loadError { throw loadError }
        return content
    }
    func store(_ on: Bool) throws(SystemError) {
        stores += 1
        if let storeError { throw storeError }
        content = on
        journal?.entries.append(.stored(on))
    }
}

/// The hold timer: the delays it was armed with.
final class FakeHoldTimer {
    var armed: [Double] = []
}

/// A base accelerometer whose `readOnce()` delivers `reading` at the clock's time.
final class FakeBase: HingeBaseSensor {
    let syspath: String
    let mountMatrixSource = "the test"
    var reading = Vector3(0, -9.81, 0)
    var reads = 0
    var deliver: (Vector3) -> Void = { _ in }
    var followed: [SamplingPlan] = []
    init(syspath: String = "/sys/bus/iio/devices/iio:device1") { self.syspath = syspath }
    func readOnce() {
        reads += 1
        deliver(reading)
    }
    func followRate(of plan: SamplingPlan) { followed.append(plan) }
    func release() {}
}

final class FakeSensorProxyHost: SensorProxyHost {
    var hasAccelerometer = true
    func claimAccelerometer(_ call: OpaquePointer) -> Int32? { nil }
    func releaseAccelerometer(_ call: OpaquePointer) {}
}
