// A client's connection to motion-orientationd on the system bus.
import CSystemd
import ErrorsAndLog
import Glibc
import SystemdBus

/// A call to the daemon that failed: the method and what the bus answered.
public struct DaemonCallFailure: Error, CustomStringConvertible, Sendable {
    public var method: String
    public var error: BusError

    /// The daemon is not on the bus.
    public var daemonAbsent: Bool { error.isServiceUnknown }
    /// The daemon did not answer within the call's timeout.
    public var timedOut: Bool { error.errno == ETIMEDOUT }

    /// One sentence; the daemon not running gets its own.
    public var description: String {
        if daemonAbsent {
            return "motion-orientationd is not running (\(BusPeer.motionOrientation.name) is not on the system bus)"
        }
        return "\(method) failed: \(error)"
    }
}

/// A connection to the system bus, for calls to the daemon's object. Closed when released.
public final class DaemonConnection {
    public let bus: OpaquePointer

    /// Opens the system bus.
    public init() throws(SystemError) { bus = try made("connecting to the system bus") { sd_bus_open_system(&$0) } }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Calls a method of the daemon's object and waits for the reply (the caller unrefs it).
    func call(
        _ method: String, interface: String, arguments: (OpaquePointer) -> Int32 = { _ in 0 }
    ) throws(DaemonCallFailure) -> OpaquePointer {
        do {
            return try Bus.call(
                bus, service: BusPeer.motionOrientation.name, path: BusPeer.motionOrientation.path,
                interface: interface,
                method: method, arguments: arguments)
        } catch {
            throw DaemonCallFailure(method: method, error: error)
        }
    }

    /// Calls a method of the daemon's interface without blocking the loop the bus is attached
    /// to; `completion` runs on that loop with the reply (valid during the call only).
    public func callAsync(
        _ method: OrientationMethod, timeoutUsec: UInt64 = Bus.callTimeoutUsec,
        arguments: (OpaquePointer) -> Int32 = { _ in 0 },
        _ completion: @escaping (Result<OpaquePointer, DaemonCallFailure>) -> Void
    ) {
        callAsync(
            method.rawValue, interface: BusPeer.motionOrientation.interface, timeoutUsec: timeoutUsec,
            arguments: arguments,
            completion)
    }

    private func callAsync(
        _ method: String, interface: String, timeoutUsec: UInt64, arguments: (OpaquePointer) -> Int32,
        _ completion: @escaping (Result<OpaquePointer, DaemonCallFailure>) -> Void
    ) {
        Bus.callAsync(
            bus, service: BusPeer.motionOrientation.name, path: BusPeer.motionOrientation.path, interface: interface,
            method: method, timeoutUsec: timeoutUsec, arguments: arguments
        ) { result in completion(result.mapError { DaemonCallFailure(method: method, error: $0) }) }
    }

    /// `GetAll` of the daemon's interface, sent without waiting.
    func allPropertiesAsync(
        timeoutUsec: UInt64, _ completion: @escaping (Result<[PropertyEntry], DaemonCallFailure>) -> Void
    ) {
        callAsync(
            "GetAll", interface: BusPeer.propertiesInterface, timeoutUsec: timeoutUsec,
            arguments: DaemonConnection.ourInterface
        ) {
            completion($0.flatMap(DaemonConnection.properties(inAll:)))
        }
    }

    /// Every property of the daemon's interface, in the order the daemon lists them.
    public func allProperties() throws(DaemonCallFailure) -> [PropertyEntry] {
        let reply = try call("GetAll", interface: BusPeer.propertiesInterface, arguments: DaemonConnection.ourInterface)
        defer { sd_bus_message_unref(reply) }
        return try DaemonConnection.properties(inAll: reply).get()
    }

    /// `ReadOrientation()`'s reply: the device and the interface orientation names.
    static func orientations(in reply: OpaquePointer) -> Result<(device: String, interface: String), DaemonCallFailure>
    {
        guard let device = try? Bus.readString(reply), let interface = try? Bus.readString(reply) else {
            return .failure(DaemonConnection.malformed(OrientationMethod.readOrientation.rawValue))
        }
        return .success((device, interface))
    }

    /// `ReadOrientation()`, waiting for the reply.
    public func readOrientation() throws(DaemonCallFailure) -> (device: String, interface: String) {
        let reply = try call(OrientationMethod.readOrientation.rawValue, interface: BusPeer.motionOrientation.interface)
        defer { sd_bus_message_unref(reply) }
        return try DaemonConnection.orientations(in: reply).get()
    }

    private static func ourInterface(_ message: OpaquePointer) -> Int32 {
        Bus.append(message, string: BusPeer.motionOrientation.interface)
    }

    private static func properties(inAll reply: OpaquePointer) -> Result<[PropertyEntry], DaemonCallFailure> {
        do throws(SystemError) {
            return .success(try PropertyValue.readDictionary(reply))
        } catch {
            return .failure(DaemonConnection.malformed("GetAll", error))
        }
    }

    private static func malformed(_ method: String, _ error: SystemError? = nil) -> DaemonCallFailure {
        DaemonCallFailure(
            method: method,
            error: BusError(name: nil, message: "a malformed reply" + (error.map { ": \($0)" } ?? ""), errno: EBADMSG))
    }
}
