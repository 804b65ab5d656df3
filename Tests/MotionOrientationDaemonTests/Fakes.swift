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

final class FakeVirtualSwitch: TabletModeOutput {
    var sent: [Bool] = []
    func send(_ tabletMode: Bool) throws(SystemError) { sent.append(tabletMode) }
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
