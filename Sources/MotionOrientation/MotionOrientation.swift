// The Swift client library of motion-orientationd, with the iOS MotionOrientation API shape.
import CMotionShim
import CSystemd
import Dispatch
import Foundation
import Glibc
import Synchronization

/// The device and interface orientation from motion-orientationd, for Swift programs.
///
/// ```swift
/// let motion = MotionOrientation.sharedInstance()
/// NotificationCenter.default.addObserver(
///     forName: MotionOrientationChangedNotification, object: nil, queue: nil
/// ) { note in
///     let raw = note.userInfo?[kMotionOrientationDeviceOrientationKey] as? Int
///     print(DeviceOrientation(rawValue: raw ?? 0) ?? .unknown)
/// }
/// motion.start()
/// ```
///
/// Threading: the library talks to the daemon over sd-bus on a thread of its own (an
/// sd-event loop; the bus connection is used on that thread only). Notifications are
/// posted on `notificationQueue`, the main queue unless set otherwise, so a program
/// that keeps the default must run the main queue (`dispatchMain()`, `RunLoop.main`).
/// The properties and methods may be used from any thread.
///
/// The daemon may come and go: the library follows its name on the bus, claims the
/// sensor again and re-reads the orientation when it comes back, and reconnects if the
/// system bus itself goes away.
public final class MotionOrientation: Sendable {
    private static let shared = MotionOrientation()

    /// The instance every caller shares (the iOS library's `sharedInstance`).
    public static func sharedInstance() -> MotionOrientation { shared }

    /// What the caller asked for and what the bus thread last heard; guarded by a mutex.
    struct State {
        var device: DeviceOrientation = .unknown
        var interface: InterfaceOrientation = .unknown
        var started = false
        var queue: DispatchQueue = .main
        var threadRunning = false
        var lowEnergyRequests: [LowEnergyRequest] = []
    }

    /// A `SetLowEnergyMode` call waiting for the bus thread.
    struct LowEnergyRequest: Sendable {
        var setting: String
        var completion: (@Sendable (MotionOrientationError?) -> Void)?
    }

    private let state = Mutex(State())
    /// A pipe that wakes the bus thread when the caller asks for something.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    // MARK: - The iOS API

    /// The device orientation as last announced (`unknown` before `start()`).
    public var deviceOrientation: DeviceOrientation { state.withLock { $0.device } }

    /// The interface orientation as last announced (`unknown` before the first upright
    /// decision).
    public var interfaceOrientation: InterfaceOrientation { state.withLock { $0.interface } }

    /// Whether `start()` is in effect.
    public var isStarted: Bool { state.withLock { $0.started } }

    /// Where notifications are posted: the main queue by default. Use a serial queue, so
    /// that notifications arrive in the order of the changes.
    public var notificationQueue: DispatchQueue {
        get { state.withLock { $0.queue } }
        set { state.withLock { $0.queue = newValue } }
    }

    /// Asks the daemon to sample the accelerometer for this process and to announce
    /// changes; reads the current orientation first. Calling it again changes nothing.
    /// The claim lasts until `stop()` or until the process leaves the bus.
    public func start() {
        let changed = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        if changed { wake() }
    }

    /// Releases this process's claim (other clients' claims are theirs). The last known
    /// orientations stay readable; no notifications are posted until `start()`.
    public func stop() {
        let changed = state.withLock { state in
            defer { state.started = false }
            return state.started
        }
        if changed { wake() }
    }

    /// Forces low energy mode on (`true`: the daemon's `SetLowEnergyMode("on")`) or hands
    /// it back to the daemon's own triggers (`false`: `"auto"`). The daemon allows this to
    /// root and to members of its `PrivilegedGroup` only; `completion`, if given, runs on
    /// `notificationQueue` with nil or the error (`AccessDenied` for anyone else).
    ///
    /// The spelling is the iOS library's; `setLowEnergyModeForcibly(_:completion:)` is the
    /// same call.
    public func setLowEnergeModeForcely(
        _ forcely: Bool, completion: (@Sendable (MotionOrientationError?) -> Void)? = nil
    ) {
        let request = LowEnergyRequest(setting: forcely ? "on" : "auto", completion: completion)
        state.withLock { $0.lowEnergyRequests.append(request) }
        wake()
    }

    /// `setLowEnergeModeForcely(_:completion:)`, spelled correctly.
    public func setLowEnergyModeForcibly(
        _ forcibly: Bool, completion: (@Sendable (MotionOrientationError?) -> Void)? = nil
    ) {
        setLowEnergeModeForcely(forcibly, completion: completion)
    }

    // MARK: - Between the caller and the bus thread

    /// Starts the bus thread if needed and tells it to look at the requests.
    private func wake() {
        let startThread = state.withLock { state in
            defer { state.threadRunning = true }
            return !state.threadRunning
        }
        if startThread {
            let thread = Thread { [self] in
                BusWorker(owner: self, wakeFd: wakeRead).run()
            }
            thread.name = "MotionOrientation sd-bus"
            thread.start()
        }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// What the bus thread should do now: hold a claim or not, and the low energy
    /// requests to send (taken out of the queue).
    func takeRequests() -> (started: Bool, lowEnergy: [LowEnergyRequest]) {
        state.withLock { state in
            defer { state.lowEnergyRequests = [] }
            return (state.started, state.lowEnergyRequests)
        }
    }

    /// Records orientations heard from the daemon and posts a notification for each that
    /// changed (device first). Either may be nil: not part of this news. Both are taken
    /// before anything is posted, so each notification's userInfo has both new values.
    func update(device: DeviceOrientation?, interface: InterfaceOrientation?) {
        let (queue, news, now) = state.withLock {
            state -> (DispatchQueue, [Notification.Name], (device: Int, interface: Int)) in
            var news: [Notification.Name] = []
            if let device, device != state.device {
                state.device = device
                news.append(MotionOrientationChangedNotification)
            }
            if let interface, interface != state.interface {
                state.interface = interface
                news.append(MotionOrientationInterfaceOrientationChangedNotification)
            }
            return (state.queue, news, (state.device.rawValue, state.interface.rawValue))
        }
        for name in news {
            queue.async { [self] in
                NotificationCenter.default.post(
                    name: name, object: self,
                    userInfo: [
                        kMotionOrientationDeviceOrientationKey: now.device,
                        kMotionOrientationInterfaceOrientationKey: now.interface,
                    ])
            }
        }
    }

    /// Runs a low energy request's completion on the notification queue.
    func complete(_ request: LowEnergyRequest, _ error: MotionOrientationError?) {
        guard let completion = request.completion else { return }
        let queue = state.withLock { $0.queue }
        queue.async { completion(error) }
    }
}

/// The bus side: one sd-event loop on the library's own thread, with the sd-bus
/// connection attached. Everything here runs on that thread only.
final class BusWorker {
    let owner: MotionOrientation
    let wakeFd: Int32
    private var event: OpaquePointer? = nil
    private var bus: OpaquePointer? = nil
    private var slots: [OpaquePointer] = []
    /// Whether this connection holds a claim with the daemon as it is now.
    private var claimed = false
    private var reconnectTimer: OpaquePointer? = nil
    /// Lets go of a dropped connection outside sd-bus's own dispatch.
    private var dropSource: OpaquePointer? = nil
    /// How long to wait before connecting again after the system bus went away.
    static let reconnectUsec: UInt64 = 1_000_000
    static let callTimeoutUsec: UInt64 = 5_000_000

    init(owner: MotionOrientation, wakeFd: Int32) {
        self.owner = owner
        self.wakeFd = wakeFd
    }

    /// Runs the loop for the life of the process.
    func run() {
        guard sd_event_new(&event) >= 0, let event else { return }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sd_event_add_io(
            event, nil, wakeFd, UInt32(EPOLLIN.rawValue),
            { _, fd, _, context in
                var buffer = [UInt8](repeating: 0, count: 64)
                while read(fd, &buffer, buffer.count) > 0 {}
                BusWorker.from(context).sync()
                return 0
            }, context)
        connect()
        sd_event_loop(event)
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> BusWorker {
        Unmanaged<BusWorker>.fromOpaque(context!).takeUnretainedValue()
    }

    // MARK: - The connection

    /// Opens the system bus and subscribes; on failure tries again a second later.
    private func connect() {
        var bus: OpaquePointer? = nil
        guard sd_bus_open_system(&bus) >= 0, let bus else { return scheduleReconnect() }
        guard sd_bus_attach_event(bus, event, 0) >= 0 else {
            sd_bus_flush_close_unref(bus)
            return scheduleReconnect()
        }
        self.bus = bus
        // PropertiesChanged rather than the two change signals: it names both orientations
        // when both change, so the first notification's userInfo already has both.
        match(
            "type='signal',sender='\(MO_BUS_NAME)',path='\(MO_BUS_PATH)',"
                + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='\(MO_BUS_INTERFACE)'"
        ) { $0.changed($1) }
        match(
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(MO_BUS_NAME)'"
        ) { $0.ownerChanged($1) }
        match(
            "type='signal',path='/org/freedesktop/DBus/Local',interface='org.freedesktop.DBus.Local',member='Disconnected'"
        ) { worker, _ in worker.disconnected() }
        claimed = false
        sync()
    }

    /// Adds a match whose handler is a method of the worker; the slot lives with the bus.
    private func match(_ rule: String, _ handler: @escaping (BusWorker, OpaquePointer) -> Void) {
        guard let bus else { return }
        let box = Unmanaged.passRetained(Handler { [unowned self] in handler(self, $0) })
        var slot: OpaquePointer? = nil
        let r = sd_bus_add_match(
            bus, &slot, rule,
            { message, context, _ in
                Unmanaged<Handler>.fromOpaque(context!).takeUnretainedValue().handle(message!)
                return 0
            }, box.toOpaque())
        guard r >= 0, let slot else {
            box.release()
            return
        }
        sd_bus_slot_set_destroy_callback(slot) { Unmanaged<Handler>.fromOpaque($0!).release() }
        slots.append(slot)
    }

    /// The connection dropped: let go of it outside sd-bus's dispatch, then reconnect.
    private func disconnected() {
        if let dropSource {
            sd_event_source_set_enabled(dropSource, Int32(SD_EVENT_ONESHOT))
            return
        }
        // A defer source is one-shot: it runs once on the next loop iteration.
        sd_event_add_defer(
            event, &dropSource,
            { _, context in
                BusWorker.from(context).dropConnection()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func dropConnection() {
        for slot in slots { sd_bus_slot_unref(slot) }
        slots = []
        if let bus {
            sd_bus_detach_event(bus)
            sd_bus_flush_close_unref(bus)
        }
        bus = nil
        claimed = false
        scheduleReconnect()
    }

    private func scheduleReconnect() {
        if let reconnectTimer {
            sd_event_source_set_time_relative(reconnectTimer, BusWorker.reconnectUsec)
            sd_event_source_set_enabled(reconnectTimer, Int32(SD_EVENT_ONESHOT))
            return
        }
        sd_event_add_time_relative(
            event, &reconnectTimer, clockid_t(CLOCK_MONOTONIC), BusWorker.reconnectUsec, 100_000,
            { _, _, context in
                BusWorker.from(context).connect()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    // MARK: - Requests

    /// Brings the daemon in line with what the caller asked for.
    func sync() {
        let (started, lowEnergy) = owner.takeRequests()
        for request in lowEnergy {
            call("SetLowEnergyMode", argument: request.setting) { [owner] error in owner.complete(request, error) }
        }
        guard bus != nil else { return }
        if started && !claimed {
            claimed = true
            // The reading comes first: with no claim the daemon answers from new samples,
            // right after a claim it would answer with what it announced last.
            call("ReadOrientation") { [owner] error, reply in
                guard error == nil, let reply else { return }
                let device = BusWorker.readString(reply).flatMap(DeviceOrientation.init(name:))
                let interface = BusWorker.readString(reply).flatMap(InterfaceOrientation.init(name:))
                owner.update(device: device, interface: interface)
            }
            call("Start") { _ in }
        } else if !started && claimed {
            claimed = false
            call("Stop") { _ in }
        }
    }

    private func call(_ method: String, argument: String? = nil, _ done: @escaping (MotionOrientationError?) -> Void) {
        call(method, argument: argument) { error, _ in done(error) }
    }

    /// Calls a method of the daemon without blocking; `done` gets the error or the reply.
    private func call(
        _ method: String, argument: String? = nil, _ done: @escaping (MotionOrientationError?, OpaquePointer?) -> Void
    ) {
        guard let bus else {
            return done(MotionOrientationError(name: "ENOTCONN", message: "not connected to the system bus"), nil)
        }
        var message: OpaquePointer? = nil
        var r = sd_bus_message_new_method_call(bus, &message, MO_BUS_NAME, MO_BUS_PATH, MO_BUS_INTERFACE, method)
        guard r >= 0, let message else { return done(BusWorker.errnoError(r), nil) }
        defer { sd_bus_message_unref(message) }
        if let argument {
            r = argument.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            guard r >= 0 else { return done(BusWorker.errnoError(r), nil) }
        }
        let box = Unmanaged.passRetained(
            Handler { reply in
                if let failure = sd_bus_message_get_error(reply) {
                    let name = failure.pointee.name.map { String(cString: $0) } ?? "unknown"
                    let text = failure.pointee.message.map { String(cString: $0) } ?? name
                    done(MotionOrientationError(name: name, message: text), nil)
                } else {
                    done(nil, reply)
                }
            })
        r = sd_bus_call_async(
            bus, nil, message,
            { reply, context, _ in
                let box = Unmanaged<Handler>.fromOpaque(context!)
                box.takeUnretainedValue().handle(reply!)
                box.release()
                return 0
            }, box.toOpaque(), BusWorker.callTimeoutUsec)
        if r < 0 {
            box.release()
            done(BusWorker.errnoError(r), nil)
        }
    }

    static func errnoError(_ r: Int32) -> MotionOrientationError {
        MotionOrientationError(name: "errno \(-r)", message: String(cString: strerror(-r)))
    }

    static func readString(_ message: OpaquePointer) -> String? {
        var pointer: UnsafePointer<CChar>? = nil
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &pointer) > 0, let pointer else {
            return nil
        }
        return String(cString: pointer)
    }

    // MARK: - Signals

    /// A `PropertiesChanged` of the daemon's interface: takes the orientations it names.
    private func changed(_ message: OpaquePointer) {
        guard owner.isStarted, BusWorker.readString(message) == MO_BUS_INTERFACE,
            sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}") > 0
        else { return }
        var device: DeviceOrientation? = nil
        var interface: InterfaceOrientation? = nil
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv") > 0 {
            let name = BusWorker.readString(message)
            if name == "DeviceOrientation" || name == "InterfaceOrientation",
                sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), "s") > 0
            {
                let value = BusWorker.readString(message) ?? ""
                sd_bus_message_exit_container(message)
                if name == "DeviceOrientation" {
                    device = DeviceOrientation(name: value)
                } else {
                    interface = InterfaceOrientation(name: value)
                }
            } else {
                sd_bus_message_skip(message, "v")
            }
            sd_bus_message_exit_container(message)
        }
        owner.update(device: device, interface: interface)
    }

    private func ownerChanged(_ message: OpaquePointer) {
        guard BusWorker.readString(message) == MO_BUS_NAME, BusWorker.readString(message) != nil,
            let newOwner = BusWorker.readString(message)
        else { return }
        // The claim belonged to the daemon that left; a new one starts with none.
        claimed = false
        if !newOwner.isEmpty { sync() }
    }
}

/// A Swift closure carried through sd-bus's `void *userdata`.
final class Handler {
    let handle: (OpaquePointer) -> Void
    init(_ handle: @escaping (OpaquePointer) -> Void) { self.handle = handle }
}
