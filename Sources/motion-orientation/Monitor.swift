import CMotionShim
import CSystemd
import Glibc
import OrientationCore
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
        sd_bus_detach_event(connection.bus)
        sd_event_unref(event)
    }

    /// Subscribes to the orientation and the daemon's name, takes a fresh reading,
    /// claims the sensor and attaches the bus to the loop. Returns the fresh state.
    ///
    /// The reading comes before the claim on purpose: with no claim the daemon answers
    /// `ReadOrientation()` from new samples, while right after a claim it would answer
    /// with whatever it announced last, which may be from long ago.
    func begin() throws(ClientError) -> OrientationState {
        // PropertiesChanged, not the two change signals: it names both orientations when
        // both change, so a command run for one stream sees the other one's new value too.
        try watch("watching the orientation") { [unowned self] in
            self.changed($0)
        } subscribe: { bus, slot, handler, box in
            sd_bus_add_match(
                bus, slot,
                "type='signal',sender='\(MotionOrientationBus.name)',path='\(MotionOrientationBus.path)',"
                    + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                    + "arg0='\(MotionOrientationBus.interface)'",
                handler, box)
        }
        // Claim again whenever the daemon (re)appears on the bus, so a restart is survived.
        try watch("watching the daemon's name") { [unowned self] in
            self.ownerChanged($0)
        } subscribe: {
            bus, slot, handler, box in
            sd_bus_add_match(
                bus, slot,
                "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                    + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(MotionOrientationBus.name)'",
                handler, box)
        }
        try watch("watching the connection") { [unowned self] _ in
            self.disconnected()
        } subscribe: {
            bus, slot, handler, box in
            sd_bus_match_signal(
                bus, slot, nil, "/org/freedesktop/DBus/Local", "org.freedesktop.DBus.Local", "Disconnected", handler,
                box)
        }

        let reply = try connection.call("ReadOrientation")
        defer { sd_bus_message_unref(reply) }
        guard let device = try? Bus.readString(reply), let interface = try? Bus.readString(reply) else {
            throw ClientError("ReadOrientation returned a malformed reply")
        }
        state.device = DeviceOrientation(name: device) ?? .unknown
        state.interface = InterfaceOrientation(name: interface) ?? .unknown
        sd_bus_message_unref(try connection.call("Start"))

        var r = sd_bus_attach_event(connection.bus, event, 0)
        if r >= 0 { r = sd_bus_set_exit_on_disconnect(connection.bus, 1) }
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
        sd_event_exit(event, status)
    }

    /// Registers a bus match whose handler is a Swift closure, kept until deinit.
    private func watch(
        _ what: String, _ handler: @escaping (OpaquePointer) -> Void,
        subscribe: (
            OpaquePointer, UnsafeMutablePointer<OpaquePointer?>, sd_bus_message_handler_t, UnsafeMutableRawPointer
        ) -> Int32
    ) throws(ClientError) {
        let box = Unmanaged.passRetained(MessageHandler(handler))
        var slot: OpaquePointer? = nil
        let r = subscribe(
            connection.bus, &slot,
            { message, context, _ in
                Unmanaged<MessageHandler>.fromOpaque(context!).takeUnretainedValue().handle(message!)
                return 0
            }, box.toOpaque())
        guard r >= 0, let slot else {
            box.release()
            throw ClientError("\(what) failed: \(String(cString: strerror(-r)))")
        }
        sd_bus_slot_set_destroy_callback(slot) { Unmanaged<MessageHandler>.fromOpaque($0!).release() }
        slots.append(slot)
    }

    /// A `PropertiesChanged` of the daemon's interface: takes the orientations it names
    /// and reports each stream that changed, device first, with the whole new state.
    private func changed(_ message: OpaquePointer) {
        var device: DeviceOrientation? = nil
        var interface: InterfaceOrientation? = nil
        do {
            _ = try Bus.readString(message)
            try Bus.forEachChangedProperty(message) { name throws(SystemError) in
                switch name {
                case "DeviceOrientation": device = DeviceOrientation(name: try Bus.readVariantString(message))
                case "InterfaceOrientation": interface = InterfaceOrientation(name: try Bus.readVariantString(message))
                default: return false
                }
                return true
            }
        } catch {
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

    private func ownerChanged(_ message: OpaquePointer) {
        guard (try? Bus.readString(message)) == MotionOrientationBus.name,
            (try? Bus.readString(message)) != nil,
            let newOwner = try? Bus.readString(message)
        else { return }
        if newOwner.isEmpty {
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

/// A Swift closure carried through sd-bus's `void *userdata`.
final class MessageHandler {
    let handle: (OpaquePointer) -> Void
    init(_ handle: @escaping (OpaquePointer) -> Void) { self.handle = handle }
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

/// `motion-orientation monitor [--device|--interface] [--json]`: holds a claim and prints
/// one line per change: first the current state, then every change as the daemon
/// announces it. With a stream option, only that stream's lines.
func monitor(_ arguments: [String]) throws(ClientError) -> Int32 {
    var json = false
    var only: OrientationStream? = nil
    for argument in arguments {
        if argument == "--json" {
            json = true
        } else {
            do throws(UsageFailure) {
                try chooseStream(&only, argument, command: "monitor")
            } catch {
                usageFailure("\(error.description) for monitor")
            }
        }
    }
    let follower = try OrientationFollower(connection: DaemonConnection())
    func emit(_ stream: OrientationStream, _ state: OrientationState) {
        guard only == nil || only == stream else { return }
        let name = state.name(stream)
        if json {
            let value = state.value(stream)
            writeAll(STDOUT_FILENO, "{\"stream\": \"\(stream)\", \"orientation\": \"\(name)\", \"value\": \(value)}\n")
        } else {
            writeAll(STDOUT_FILENO, "\(stream) \(name)\n")
        }
    }
    follower.onChange = emit
    let initial = try follower.begin()
    emit(.device, initial)
    emit(.interface, initial)
    return follower.run()
}
