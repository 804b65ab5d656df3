import CSystemd
import Glibc
import OrientationCore
import SensorIO
import SystemdBus

/// The two orientation streams the daemon announces.
enum OrientationStream: String {
    case device
    case interface

    /// The stream an option names (`--device`, `--interface`), or nil for another word.
    init?(option: String) {
        switch option {
        case "--device": self = .device
        case "--interface": self = .interface
        default: return nil
        }
    }
}

/// The daemon's two orientations as the client last heard them.
struct OrientationState: Equatable {
    var device: DeviceOrientation = .unknown
    var interface: InterfaceOrientation = .unknown

    /// The public name of one stream's orientation.
    func name(_ stream: OrientationStream) -> String {
        stream == .device ? device.name : interface.name
    }

    /// The raw value (DESIGN.md section 3) of one stream's orientation.
    func value(_ stream: OrientationStream) -> UInt32 {
        stream == .device ? device.rawValue : interface.rawValue
    }
}

/// Follows the daemon's orientation on one sd-event loop: it holds a claim, hands every
/// change to `onChange` (news that repeats the known state is not a change), claims again
/// when the daemon comes back after a restart, and ends the loop with status 1 if the bus
/// connection is lost. Commands (`monitor`, `exec`, `wait`) add their own sources (timers,
/// children, signals) to `event`.
final class OrientationFollower {
    let connection: DaemonConnection
    /// The loop everything runs on; the bus is attached to it.
    let event: OpaquePointer
    /// The orientations as last announced.
    private(set) var state = OrientationState()
    /// Called on the loop with the stream that changed and the new state.
    var onChange: (OrientationStream, OrientationState) -> Void = { _, _ in }
    private var slots: [OpaquePointer] = []

    init(connection: DaemonConnection) throws(ClientError) {
        var event: OpaquePointer? = nil
        let r = sd_event_new(&event)
        guard r >= 0, let event else {
            throw ClientError("cannot make an event loop: \(String(cString: strerror(-r)))")
        }
        self.event = event
        self.connection = connection
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        // Fails only when the bus was never attached: nothing to detach then.
        _ = sd_bus_detach_event(connection.bus)
        sd_event_unref(event)
    }

    /// Subscribes to the orientation and the daemon's name, takes a fresh reading,
    /// claims the sensor and attaches the bus to the loop. Returns the fresh state.
    ///
    /// The reading comes before the claim on purpose: with no claim the daemon answers
    /// `ReadOrientation()` from new samples, while right after a claim it would answer
    /// with whatever it announced last, which may be from long ago.
    ///
    /// With a `deadline` (seconds on the monotonic clock) the two calls may take until then,
    /// not past it: a daemon that does not answer by then gives an error with `timedOut`.
    func begin(deadline: Double? = nil) throws(ClientError) -> OrientationState {
        /// What is left of the deadline for one call (at least 1 us: sd-bus reads 0 as its
        /// default of 25 s).
        func callTimeout() -> UInt64 {
            guard let deadline else { return Bus.callTimeoutUsec }
            return UInt64(max(1, (deadline - monotonicSeconds()) * 1e6))
        }
        let bus = connection.bus
        // PropertiesChanged, not the two change signals: it names both orientations when
        // both change, so a command run for one stream sees the other one's new value too.
        try watch("watching the orientation") { [unowned self] () throws(SystemError) in
            try Bus.matchPropertiesChanged(
                bus, sender: MotionOrientationBus.name, path: MotionOrientationBus.path,
                interface: MotionOrientationBus.interface
            ) { [unowned self] in self.changed($0) }
        }
        // Claim again whenever the daemon (re)appears on the bus, so a restart is survived.
        try watch("watching the daemon's name") { [unowned self] () throws(SystemError) in
            try Bus.matchNameOwnerChanged(bus, name: MotionOrientationBus.name) { [unowned self] in
                self.ownerChanged($0)
            }
        }
        try watch("watching the connection") { [unowned self] () throws(SystemError) in
            try Bus.matchDisconnected(bus) { [unowned self] in self.disconnected() }
        }

        let reply = try connection.call("ReadOrientation", timeoutUsec: callTimeout())
        defer { sd_bus_message_unref(reply) }
        guard let device = try? Bus.readString(reply), let interface = try? Bus.readString(reply) else {
            throw ClientError("ReadOrientation returned a malformed reply")
        }
        state.device = DeviceOrientation(name: device) ?? .unknown
        state.interface = InterfaceOrientation(name: interface) ?? .unknown
        sd_bus_message_unref(try connection.call("Start", timeoutUsec: callTimeout()))

        var r = sd_bus_attach_event(bus, event, 0)
        if r >= 0 { r = sd_bus_set_exit_on_disconnect(bus, 1) }
        guard r >= 0 else { throw ClientError("cannot attach the bus to the loop: \(String(cString: strerror(-r)))") }
        return state
    }

    /// Runs the loop until something ends it; returns the exit status it was ended with.
    func run() -> Int32 {
        let r = sd_event_loop(event)
        if r < 0 {
            writeAll(STDERR_FILENO, "motion-orientation: event loop failed: \(String(cString: strerror(-r)))\n")
            return 1
        }
        return r
    }

    /// Ends the loop with an exit status.
    func exit(_ status: Int32) {
        // Fails only when the loop has already ended, which is what was asked.
        _ = sd_event_exit(event, status)
    }

    /// Adds a bus match, kept until deinit.
    private func watch(_ what: String, _ add: () throws(SystemError) -> OpaquePointer) throws(ClientError) {
        do {
            slots.append(try add())
        } catch {
            throw ClientError("\(what) failed: \(String(cString: strerror(error.errno)))")
        }
    }

    /// A `PropertiesChanged` of the daemon's interface: takes the orientations it names
    /// and reports each stream that changed, device first, with the whole new state.
    private func changed(_ message: OpaquePointer) {
        var device: DeviceOrientation? = nil
        var interface: InterfaceOrientation? = nil
        do {
            try Bus.readPropertiesChanged(message, interface: MotionOrientationBus.interface) {
                name throws(SystemError) in
                switch OrientationProperty(rawValue: name) {
                case .deviceOrientation: device = DeviceOrientation(name: try Bus.readVariantString(message))
                case .interfaceOrientation:
                    interface = InterfaceOrientation(name: try Bus.readVariantString(message))
                default: return false
                }
                return true
            }
        } catch {
            // A malformed signal from the daemon: the next good one brings the state.
            return
        }
        // A value that repeats the state is no change: the daemon's own first decision can
        // arrive after the reading that `begin()` took, or again after a restart.
        let deviceChanged = device.map { $0 != state.device } ?? false
        let interfaceChanged = interface.map { $0 != state.interface } ?? false
        if let device { state.device = device }
        if let interface { state.interface = interface }
        if deviceChanged { onChange(.device, state) }
        if interfaceChanged { onChange(.interface, state) }
    }

    private func ownerChanged(_ change: NameOwnerChange) {
        if change.newOwner.isEmpty {
            writeAll(
                STDERR_FILENO, "motion-orientation: motion-orientationd left the bus; waiting for it to come back\n")
        } else {
            // Without blocking the loop: a command may be waiting on a child or a timer.
            connection.callAsync("Start") { failure in
                if let failure {
                    writeAll(STDERR_FILENO, "motion-orientation: claiming again after a restart: \(failure)\n")
                }
            }
        }
    }

    private func disconnected() {
        writeAll(STDERR_FILENO, "motion-orientation: lost the connection to the system bus\n")
        exit(1)
    }
}

/// Parses the stream options shared by `monitor`, `exec` and `wait`: at most one of
/// `--device` and `--interface`.
func chooseStream(_ current: inout OrientationStream?, _ option: String, command: String) throws(UsageFailure) {
    guard let stream = OrientationStream(option: option) else { throw UsageFailure("unknown option '\(option)'") }
    if let current, current != stream {
        throw UsageFailure("\(command) takes only one of --device and --interface")
    }
    current = stream
}
