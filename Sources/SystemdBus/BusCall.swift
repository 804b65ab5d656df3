import CSystemd
import Glibc

/// A failed method call: the D-Bus error the peer (or the bus) answered with, or, when
/// the call could not be made at all, only an errno.
public struct BusError: Error, CustomStringConvertible, Sendable {
    /// The D-Bus error name (`org.freedesktop.DBus.Error.AccessDenied`); nil for a local
    /// failure.
    public var name: String?
    /// The error's human-readable message, if it has one.
    public var message: String?
    /// The errno sd-bus reported (positive), or the one the error name maps to.
    public var errno: Int32

    public init(name: String?, message: String?, errno: Int32) {
        self.name = name
        self.message = message
        self.errno = errno < 0 ? -errno : errno
    }

    /// A failure of sd-bus itself, with the negative errno it returned.
    public init(errno: Int32) { self.init(name: nil, message: nil, errno: errno) }

    init(_ error: UnsafePointer<sd_bus_error>, errno: Int32) {
        self.init(
            name: error.pointee.name.map { String(cString: $0) },
            message: error.pointee.message.map { String(cString: $0) }, errno: errno)
    }

    /// The error's message, else its name, else the errno's text.
    public var description: String { message ?? name ?? String(cString: strerror(errno)) }

    /// Whether the service called is not on the bus.
    public var isServiceUnknown: Bool {
        name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }
}

extension Bus {
    /// How long a method call may take before it fails with a timeout.
    public static let callTimeoutUsec: UInt64 = 5_000_000

    /// Builds a method call; `arguments` appends its arguments (returns < 0 on failure).
    /// The caller unrefs the message.
    static func methodCall(
        _ bus: OpaquePointer, service: String, path: String, interface: String, method: String,
        autoStart: Bool, arguments: (OpaquePointer) -> Int32
    ) throws(BusError) -> OpaquePointer {
        var message: OpaquePointer? = nil
        var r = sd_bus_message_new_method_call(bus, &message, service, path, interface, method)
        guard r >= 0, let message else { throw BusError(errno: r) }
        if !autoStart {
            // Only fails for a sealed message, and this one is being built.
            _ = sd_bus_message_set_auto_start(message, 0)
        }
        r = arguments(message)
        guard r >= 0 else {
            sd_bus_message_unref(message)
            throw BusError(errno: r)
        }
        return message
    }

    /// Calls a method and waits for the reply (the caller unrefs it).
    public static func call(
        _ bus: OpaquePointer, service: String, path: String, interface: String, method: String,
        timeoutUsec: UInt64 = callTimeoutUsec, arguments: (OpaquePointer) -> Int32 = { _ in 0 }
    ) throws(BusError) -> OpaquePointer {
        let message = try methodCall(
            bus, service: service, path: path, interface: interface, method: method, autoStart: true,
            arguments: arguments)
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer? = nil
        let r = sd_bus_call(bus, message, timeoutUsec, &error, &reply)
        guard r >= 0, let reply else { throw BusError(&error, errno: r) }
        return reply
    }

    /// Calls a method without blocking the loop the bus is attached to. `completion` runs
    /// on that loop with the reply (valid during the call only) or the failure, at once
    /// if the call cannot be sent. With `autoStart` false an absent service is not
    /// started for the call (no bus activation).
    public static func callAsync(
        _ bus: OpaquePointer, service: String, path: String, interface: String, method: String,
        autoStart: Bool = true, timeoutUsec: UInt64 = callTimeoutUsec,
        arguments: (OpaquePointer) -> Int32 = { _ in 0 },
        _ completion: @escaping (Result<OpaquePointer, BusError>) -> Void
    ) {
        let message: OpaquePointer
        do {
            message = try methodCall(
                bus, service: service, path: path, interface: interface, method: method, autoStart: autoStart,
                arguments: arguments)
        } catch {
            return completion(.failure(error))
        }
        defer { sd_bus_message_unref(message) }
        let context = MessageHandler.retain { reply in
            if let failure = sd_bus_message_get_error(reply) {
                completion(.failure(BusError(failure, errno: sd_bus_message_get_errno(reply))))
            } else {
                completion(.success(reply))
            }
        }
        let r = sd_bus_call_async(
            bus, nil, message,
            { reply, context, _ in
                MessageHandler.run(context, reply)
                MessageHandler.release(context)
                return 0
            }, context, timeoutUsec)
        if r < 0 {
            MessageHandler.release(context)
            completion(.failure(BusError(errno: r)))
        }
    }

    /// Reads `property` of `peer`'s interface without blocking the loop and without starting
    /// the service. `completion` gets the reply positioned at the variant holding the value
    /// (read it with `readVariantString` and the like), or the failure.
    public static func getPropertyAsync(
        _ bus: OpaquePointer, _ peer: BusPeer, property: String,
        _ completion: @escaping (Result<OpaquePointer, BusError>) -> Void
    ) {
        callAsync(
            bus, service: peer.name, path: peer.path, interface: BusPeer.propertiesInterface, method: "Get",
            autoStart: false, arguments: { append($0, arguments: [peer.interface, property]) }, completion)
    }
}
