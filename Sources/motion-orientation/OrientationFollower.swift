import CSystemd
import ErrorsAndLog
import Glibc
import OrientationCore
import SensorIO
import SystemdBus

/// The streams of news the daemon announces that the client follows: the two orientations,
/// tablet mode and the hinge state.
enum OrientationStream: String, CaseIterable {
    case device
    case interface
    case tabletMode = "tablet-mode"
    case hingeState = "hinge-state"

    /// The stream an option names (`--device`, `--interface`, `--tablet-mode`), or nil for
    /// another word.
    init?(option: String) {
        switch option {
        case "--device": self = .device
        case "--interface": self = .interface
        case "--tablet-mode": self = .tabletMode
        default: return nil
        }
    }
}

/// The daemon's state as the client last heard it.
struct OrientationState: Equatable {
    var device: DeviceOrientation = .unknown
    var interface: InterfaceOrientation = .unknown
    /// `TabletMode`, `TabletModeSource` (`none`: no tablet mode to follow), `HingeState` and
    /// `HingeAngle` (-1: unknown); a daemon without them leaves these as they start.
    var tabletMode = false
    var tabletModeSource = "none"
    var hingeState = "unknown"
    var hingeAngle = -1.0

    /// The public name of one stream's state: an orientation, `tablet` or `laptop` (`unknown`
    /// while there is no tablet-mode source), a hinge state.
    func name(_ stream: OrientationStream) -> String {
        switch stream {
        case .device: device.name
        case .interface: interface.name
        case .tabletMode: tabletModeSource == "none" ? "unknown" : tabletMode ? "tablet" : "laptop"
        case .hingeState: hingeState
        }
    }

    /// The number scripts get with a stream's name: an orientation's raw value (DESIGN.md
    /// section 3); for tablet mode 1 tablet, 0 laptop; for the hinge state its index in
    /// `unknown, closed, concave, flat, convex, full`.
    func value(_ stream: OrientationStream) -> UInt32 {
        switch stream {
        case .device: device.rawValue
        case .interface: interface.rawValue
        case .tabletMode: tabletMode ? 1 : 0
        case .hingeState: HingeState.allCases.first { $0.name == hingeState }?.rawValue ?? 0
        }
    }

    /// Whether the stream has something to say: not `unknown`.
    func isKnown(_ stream: OrientationStream) -> Bool { name(stream) != "unknown" }

    /// Takes the value of `property` from the variant that comes next in `message`; false
    /// (nothing read) for a property the client does not follow.
    mutating func take(_ property: String, from message: OpaquePointer) throws(SystemError) -> Bool {
        switch OrientationProperty(rawValue: property) {
        case .deviceOrientation: device = DeviceOrientation(name: try Bus.readVariantString(message)) ?? .unknown
        case .interfaceOrientation:
            interface = InterfaceOrientation(name: try Bus.readVariantString(message)) ?? .unknown
        case .tabletMode: tabletMode = try Bus.readVariantBool(message)
        case .tabletModeSource: tabletModeSource = try Bus.readVariantString(message)
        case .hingeState: hingeState = try Bus.readVariantString(message)
        case .hingeAngle:
            try Bus.enterVariant(message, "d")
            hingeAngle = try Bus.readDouble(message)
            try Bus.exit(message, "a variant")
        default: return false
        }
        return true
    }

    /// Takes tablet mode and the hinge from a `GetAll` reply of the daemon's interface (the
    /// orientations come from `ReadOrientation()` and the change signals).
    mutating func takeTabletMode(fromAll reply: OpaquePointer) throws(SystemError) {
        var next = self
        try Bus.forEachProperty(reply) { name throws(SystemError) in
            switch OrientationProperty(rawValue: name) {
            case .deviceOrientation, .interfaceOrientation: return false
            default: return try next.take(name, from: reply)
            }
        }
        self = next
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

        // Tablet mode and the hinge first (a daemon without them just leaves them out),
        // then the fresh reading.
        let properties = try connection.call(
            "GetAll", interface: FreedesktopBus.properties, timeoutUsec: callTimeout()
        ) { Bus.append($0, string: MotionOrientationBus.interface) }
        defer { sd_bus_message_unref(properties) }
        do throws(SystemError) {
            try state.takeTabletMode(fromAll: properties)
        } catch {
            throw ClientError("cannot read the daemon's properties: \(error)")
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

    /// A `PropertiesChanged` of the daemon's interface: takes what it names and reports each
    /// stream whose name changed, in `OrientationStream` order, with the whole new state.
    private func changed(_ message: OpaquePointer) {
        var next = state
        do {
            try Bus.readPropertiesChanged(message, interface: MotionOrientationBus.interface) {
                name throws(SystemError) in try next.take(name, from: message)
            }
        } catch {
            // A malformed signal from the daemon: the next good one brings the state.
            return
        }
        adopt(next)
    }

    /// Takes a new state and reports each stream whose name changed. A value that repeats
    /// the state is no change: the daemon's own first decision can arrive after the reading
    /// that `begin()` took, or again after a restart.
    private func adopt(_ next: OrientationState) {
        let before = state
        state = next
        for stream in OrientationStream.allCases where before.name(stream) != next.name(stream) {
            onChange(stream, next)
        }
    }

    /// After a restart: the daemon's tablet mode and hinge as it serves them now (a restarted
    /// daemon announces only what changes after its start). The orientations come with its
    /// first decisions.
    private func rereadTabletMode() {
        Bus.callAsync(
            connection.bus, service: MotionOrientationBus.name, path: MotionOrientationBus.path,
            interface: FreedesktopBus.properties, method: "GetAll",
            arguments: { Bus.append($0, string: MotionOrientationBus.interface) }
        ) { [unowned self] result in
            guard case .success(let reply) = result else {
                // The daemon left again, or failed: its next PropertiesChanged brings the news.
                return
            }
            var next = state
            do {
                try next.takeTabletMode(fromAll: reply)
            } catch {
                writeAll(STDERR_FILENO, "motion-orientation: cannot read the daemon's properties: \(error)\n")
                return
            }
            adopt(next)
        }
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
            rereadTabletMode()
        }
    }

    private func disconnected() {
        writeAll(STDERR_FILENO, "motion-orientation: lost the connection to the system bus\n")
        exit(1)
    }
}

/// Parses the stream options shared by `monitor`, `exec` and `wait`: at most one of
/// `--device`, `--interface` and `--tablet-mode`.
func chooseStream(_ current: inout OrientationStream?, _ option: String, command: String) throws(UsageError) {
    guard let stream = OrientationStream(option: option) else { throw UsageError("unknown option '\(option)'") }
    if let current, current != stream {
        throw UsageError("\(command) takes only one of --device, --interface and --tablet-mode")
    }
    current = stream
}
