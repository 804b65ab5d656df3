// The Swift client library of motion-orientationd, with the iOS MotionOrientation API shape.
import CSystemd
import Dispatch
import ErrorsAndLog
import Foundation
import Glibc
import OrientationClient
import Synchronization
import SystemdBus

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
        // A full pipe (EAGAIN) already holds a wake-up for the bus thread.
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

/// The bus side: one sd-event loop on the library's own thread, with an
/// `OrientationFollower` on a connection to the system bus. Everything here runs on that
/// thread only.
final class BusWorker {
    let owner: MotionOrientation
    let wakeFd: Int32
    private var loop: EventLoop? = nil
    /// The follower on the connection of the moment; nil while there is none.
    private var follower: OrientationFollower? = nil
    private var wakeSource: IOSource? = nil
    private var reconnectTimer: EventTimer? = nil
    /// Lets go of a dropped connection outside sd-bus's own dispatch (at once, on the
    /// loop's next iteration).
    private var dropTimer: EventTimer? = nil
    /// How long to wait before connecting again after the system bus went away.
    static let reconnectUsec: UInt64 = 1_000_000
    static let reconnectAccuracyUsec: UInt64 = 100_000

    init(owner: MotionOrientation, wakeFd: Int32) {
        self.owner = owner
        self.wakeFd = wakeFd
    }

    /// Runs the loop for the life of the process.
    func run() {
        // Without a loop there is no bus thread: the library stays at `unknown`, as it does
        // without a daemon; a library has no log of its own to say so in.
        guard let loop = try? EventLoop() else { return }
        self.loop = loop
        reconnectTimer = EventTimer(event: loop.event, accuracyUsec: BusWorker.reconnectAccuracyUsec) {
            [unowned self] in self.connect()
        }
        dropTimer = EventTimer(event: loop.event) { [unowned self] in self.dropConnection() }
        do {
            wakeSource = try IOSource(event: loop.event, fd: wakeFd, what: "the wake-up pipe") { [unowned self] _ in
                var buffer = [UInt8](repeating: 0, count: 64)
                // Drained to EAGAIN: the pipe is non-blocking, only the wake-up matters.
                while read(self.wakeFd, &buffer, buffer.count) > 0 {}
                self.sync()
            }
        } catch {
            return  // as above: no loop to serve the caller's requests
        }
        connect()
        // Ends only on failure, and the thread then has nothing more to do.
        _ = try? loop.run()
    }

    // MARK: - The connection

    /// Opens the system bus and follows the daemon on it; on failure tries again a second
    /// later (a connection that cannot follow the daemon is no use).
    private func connect() {
        guard let loop, let follower = try? OrientationFollower(connection: DaemonConnection(), event: loop.event)
        else { return scheduleReconnect() }
        follower.onNews = { [unowned self] news in self.heard(news) }
        // The connection dropped: let go of it outside sd-bus's dispatch, then reconnect.
        // Arming cannot fail but for lack of memory; the next disconnection tries again.
        follower.onDisconnected = { [unowned self] in try? self.dropTimer?.arm(afterUsec: 0) }
        self.follower = follower
        sync()
    }

    private func dropConnection() {
        follower = nil
        scheduleReconnect()
    }

    private func scheduleReconnect() {
        // Cannot fail but for lack of memory; then the library stays disconnected.
        try? reconnectTimer?.arm(afterUsec: BusWorker.reconnectUsec)
    }

    // MARK: - Requests

    /// Brings the daemon in line with what the caller asked for: a claim (the follower reads
    /// the orientation first, and claims again when the daemon comes back) or none, and the
    /// low energy requests.
    func sync() {
        let (started, lowEnergy) = owner.takeRequests()
        for request in lowEnergy {
            guard let connection = follower?.connection else {
                owner.complete(
                    request, MotionOrientationError(name: "ENOTCONN", message: "not connected to the system bus"))
                continue
            }
            connection.callAsync(.setLowEnergyMode, arguments: { Bus.append($0, string: request.setting) }) {
                [owner] result in owner.complete(request, result.failure.map(BusWorker.error))
            }
        }
        follower?.want(claim: started)
    }

    /// The library's form of a failed call: the D-Bus error, or the errno of a call that
    /// could not be made.
    static func error(_ failure: DaemonCallFailure) -> MotionOrientationError {
        guard let name = failure.error.name else {
            return MotionOrientationError(
                name: "errno \(failure.error.errno)", message: String(cString: strerror(failure.error.errno)))
        }
        return MotionOrientationError(name: name, message: failure.error.message ?? name)
    }

    /// News from the daemon: the orientations it spoke of, while the caller wants them.
    private func heard(_ news: OrientationNews) {
        guard owner.isStarted else { return }
        owner.update(
            device: news.heard.contains(.device) ? DeviceOrientation(news.state.device) : nil,
            interface: news.heard.contains(.interface) ? InterfaceOrientation(news.state.interface) : nil)
    }
}
