// The follower against a stand-in daemon on a private message bus: what it calls, in which
// order, and what it does when the daemon leaves and comes back.
import CSystemd
import ErrorsAndLog
import Glibc
import OrientationClient
import SystemdBus
import Testing

/// A private dbus-daemon (the session configuration: anyone may own any name), stopped when
/// released.
final class PrivateBus {
    let address: String
    private let pid: pid_t
    private let directory: String

    init() throws {
        var template = Array("/tmp/orientation-client-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", errno: errno) }
        directory = String(cString: made)
        address = "unix:path=\(directory)/bus"
        let argv = ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(address)"]
        var pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        // The test's threads block signals; the bus starts with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var child: pid_t = 0
        let r = posix_spawnp(&child, "dbus-daemon", nil, &attributes, &pointers, environ)
        guard r == 0 else { throw SystemError("spawning dbus-daemon", errno: r) }
        pid = child
        // Ready once it takes a connection.
        for _ in 0..<500 where !PrivateBus.answers(address) { usleep(10_000) }
    }

    /// Whether a client can connect to the bus at `address`.
    static func answers(_ address: String) -> Bool {
        var bus: OpaquePointer? = nil
        guard sd_bus_new(&bus) >= 0 else { return false }
        defer { sd_bus_flush_close_unref(bus) }
        return sd_bus_set_address(bus, address) >= 0 && sd_bus_set_bus_client(bus, 1) >= 0 && sd_bus_start(bus) >= 0
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        unlink("\(directory)/bus")
        rmdir(directory)
    }
}

/// Stands in for motion-orientationd: owns its name, answers `GetAll`, `ReadOrientation()`,
/// `Start()` and `Stop()` with fixed values and records the calls.
final class StandInDaemon {
    let bus: OpaquePointer
    private var slot: OpaquePointer? = nil
    private(set) var calls: [String] = []
    var device = "portrait"

    init(address: String, event: OpaquePointer) throws {
        var bus: OpaquePointer? = nil
        #expect(sd_bus_new(&bus) >= 0)
        self.bus = bus!
        #expect(sd_bus_set_address(self.bus, address) >= 0)
        #expect(sd_bus_set_bus_client(self.bus, 1) >= 0)
        #expect(sd_bus_start(self.bus) >= 0)
        #expect(sd_bus_attach_event(self.bus, event, 0) >= 0)
        let context = Unmanaged.passUnretained(self).toOpaque()
        #expect(
            sd_bus_add_object(
                self.bus, &slot, BusPeer.motionOrientation.path,
                { message, context, _ in
                    Unmanaged<StandInDaemon>.fromOpaque(context!).takeUnretainedValue().answer(message!)
                }, context) >= 0)
        claimName()
    }

    deinit {
        sd_bus_slot_unref(slot)
        _ = sd_bus_detach_event(bus)
        sd_bus_flush_close_unref(bus)
    }

    func claimName() { #expect(sd_bus_request_name(bus, BusPeer.motionOrientation.name, 0) >= 0) }
    func releaseName() { #expect(sd_bus_release_name(bus, BusPeer.motionOrientation.name) >= 0) }

    private func answer(_ call: OpaquePointer) -> Int32 {
        guard let member = sd_bus_message_get_member(call) else { return 0 }
        let name = String(cString: member)
        var reply: OpaquePointer? = nil
        guard sd_bus_message_new_method_return(call, &reply) >= 0, let reply else { return 0 }
        defer { sd_bus_message_unref(reply) }
        switch name {
        case "GetAll":
            properties(reply, [("TabletModeSource", "s", "switch"), ("DeviceOrientation", "s", "face-down")])
        case "ReadOrientation":
            _ = Bus.append(reply, string: device)
            _ = Bus.append(reply, string: "portrait")
        case "Start", "Stop": break
        default: return 0
        }
        calls.append(name)
        _ = sd_bus_send(bus, reply, nil)
        return 1
    }

    /// Appends an `a{sv}` of string values.
    private func properties(_ message: OpaquePointer, _ entries: [(String, String, String)]) {
        sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}")
        for (name, signature, value) in entries {
            sd_bus_message_open_container(message, CChar(UInt8(ascii: "e")), "sv")
            _ = Bus.append(message, string: name)
            sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), signature)
            _ = Bus.append(message, string: value)
            sd_bus_message_close_container(message)
            sd_bus_message_close_container(message)
        }
        sd_bus_message_close_container(message)
    }

    /// Sends a `PropertiesChanged` of the daemon's interface with string values.
    func announce(_ entries: [(String, String)]) {
        var signal: OpaquePointer? = nil
        sd_bus_message_new_signal(
            bus, &signal, BusPeer.motionOrientation.path, BusPeer.propertiesInterface, "PropertiesChanged")
        _ = Bus.append(signal!, string: BusPeer.motionOrientation.interface)
        properties(signal!, entries.map { ($0.0, "s", $0.1) })
        _ = Bus.append(signal!, strings: [])
        sd_bus_send(bus, signal, nil)
        sd_bus_message_unref(signal)
    }
}

/// Runs `loop` until `done()` holds or 5 s have passed; whether it holds.
func runUntil(_ loop: EventLoop, _ done: () -> Bool) -> Bool {
    for _ in 0..<500 where !done() { _ = sd_event_run(loop.event, 10_000) }
    return done()
}

@Suite("The follower against a stand-in daemon", .serialized)
struct FollowerBusTests {
    @Test("it reads, then claims; follows PropertiesChanged; after a restart reads and claims again")
    func readClaimRestart() throws {
        try onPrivateBus { privateBus, loop in try readClaimRestart(privateBus, loop) }
    }

    func readClaimRestart(_ privateBus: PrivateBus, _ loop: EventLoop) throws {
        let daemon = try StandInDaemon(address: privateBus.address, event: loop.event)
        let follower = try OrientationFollower(connection: DaemonConnection(), event: loop.event)
        var news: [OrientationNews] = []
        var claims: [DaemonCallFailure?] = []
        var left = 0
        follower.onNews = { news.append($0) }
        follower.onClaim = { claims.append($0) }
        follower.onDaemonLeft = { left += 1 }

        follower.want(claim: true)
        follower.want(claim: true)  // a repeated wish changes nothing
        #expect(runUntil(loop) { claims.count == 1 })
        #expect(daemon.calls == ["GetAll", "ReadOrientation", "Start"])
        #expect(claims.first! == nil)
        // GetAll's orientations are old news; ReadOrientation's are the state.
        #expect(follower.state.device == .portrait)
        #expect(follower.state.name(.tabletMode) == "laptop")
        #expect(news.map(\.heard) == [[.tabletMode], [.device, .interface]])

        daemon.announce([("InterfaceOrientation", "landscape-right"), ("DeviceOrientation", "landscape-left")])
        #expect(runUntil(loop) { news.count == 3 })
        #expect(news.last?.changed == [.device, .interface])
        #expect(follower.state.device == .landscapeLeft)

        // A restart: the name leaves and comes back; the new daemon has no claim of ours.
        daemon.device = "face-up"
        daemon.releaseName()
        daemon.claimName()
        #expect(runUntil(loop) { claims.count == 2 })
        #expect(left == 1)
        #expect(daemon.calls == ["GetAll", "ReadOrientation", "Start", "GetAll", "ReadOrientation", "Start"])
        #expect(follower.state.device == .faceUp)

        follower.want(claim: false)
        #expect(runUntil(loop) { daemon.calls.last == "Stop" })
    }

    @Test("with no daemon on the bus the claim fails at once, as not running")
    func noDaemon() throws {
        try onPrivateBus { _, loop in
            let follower = try OrientationFollower(connection: DaemonConnection(), event: loop.event)
            var claims: [DaemonCallFailure?] = []
            follower.onClaim = { claims.append($0) }
            follower.want(claim: true)
            #expect(runUntil(loop) { !claims.isEmpty })
            let failure = try #require(claims.first ?? nil)
            #expect(failure.daemonAbsent)
            #expect(failure.method == "GetAll")
            #expect(failure.description.hasPrefix("motion-orientationd is not running"))
        }
    }

    /// Runs `body` with a private bus that a client takes for the system bus, and a loop.
    func onPrivateBus(_ body: (PrivateBus, EventLoop) throws -> Void) throws {
        let privateBus = try PrivateBus()
        setenv("DBUS_SYSTEM_BUS_ADDRESS", privateBus.address, 1)
        defer { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        try withExtendedLifetime(privateBus) { try body(privateBus, EventLoop()) }
    }
}
