import CMotionShim
import CSystemd
import Glibc
import SystemdBus

/// A failure the client reports in one line before exiting non-zero.
struct ClientError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A connection to the daemon on the system bus.
final class DaemonConnection {
    let bus: OpaquePointer
    static let callTimeoutUsec: UInt64 = 5_000_000

    init() throws(ClientError) {
        var bus: OpaquePointer? = nil
        let r = sd_bus_open_system(&bus)
        guard r >= 0, let bus else {
            throw ClientError("cannot connect to the system bus: \(String(cString: strerror(-r)))")
        }
        self.bus = bus
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Calls a method on the daemon's object and returns the reply (caller unrefs it).
    func call(
        _ method: String, interface: String = MotionOrientationBus.interface, arguments: (OpaquePointer) -> Int32 = { _ in 0 }
    ) throws(ClientError) -> OpaquePointer {
        var message: OpaquePointer? = nil
        var r = sd_bus_message_new_method_call(bus, &message, MotionOrientationBus.name, MotionOrientationBus.path, interface, method)
        guard r >= 0, let message else {
            throw ClientError("cannot build a call to \(method): \(String(cString: strerror(-r)))")
        }
        defer { sd_bus_message_unref(message) }
        r = arguments(message)
        guard r >= 0 else { throw ClientError("cannot build a call to \(method): \(String(cString: strerror(-r)))") }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer? = nil
        r = sd_bus_call(bus, message, DaemonConnection.callTimeoutUsec, &error, &reply)
        guard r >= 0, let reply else { throw DaemonConnection.explain(&error, errno: r, doing: method) }
        return reply
    }

    /// Calls a method without arguments on the daemon's object without waiting for the
    /// reply; `completion` runs on the loop the bus is attached to, with nil on success or
    /// the failure.
    func callAsync(_ method: String, completion: @escaping (ClientError?) -> Void) {
        var message: OpaquePointer? = nil
        var r = sd_bus_message_new_method_call(bus, &message, MotionOrientationBus.name, MotionOrientationBus.path, MotionOrientationBus.interface, method)
        guard r >= 0, let message else {
            return completion(ClientError("cannot build a call to \(method): \(String(cString: strerror(-r)))"))
        }
        defer { sd_bus_message_unref(message) }
        let box = Unmanaged.passRetained(
            MessageHandler { reply in
                var error = sd_bus_error()
                let failed = sd_bus_message_get_error(reply)
                if let failed {
                    sd_bus_error_copy(&error, failed)
                    completion(DaemonConnection.explain(&error, errno: -EIO, doing: method))
                    sd_bus_error_free(&error)
                } else {
                    completion(nil)
                }
            })
        r = sd_bus_call_async(
            bus, nil, message,
            { reply, context, _ in
                let box = Unmanaged<MessageHandler>.fromOpaque(context!)
                box.takeUnretainedValue().handle(reply!)
                box.release()
                return 0
            }, box.toOpaque(), DaemonConnection.callTimeoutUsec)
        if r < 0 {
            box.release()
            completion(ClientError("cannot call \(method): \(String(cString: strerror(-r)))"))
        }
    }

    /// Turns a failed call into a sentence; the daemon not running gets its own.
    static func explain(_ error: UnsafeMutablePointer<sd_bus_error>, errno r: Int32, doing what: String) -> ClientError
    {
        let name = error.pointee.name.map { String(cString: $0) } ?? ""
        if name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return ClientError("motion-orientationd is not running (\(MotionOrientationBus.name) is not on the system bus)")
        }
        return ClientError("\(what) failed: \(Bus.describe(error, errno: r))")
    }

    /// Every property of the daemon's interface, in the order the daemon lists them,
    /// rendered as text (`yes`/`no` for booleans, space-separated arrays).
    func allProperties() throws(ClientError) -> [(name: String, value: String)] {
        let reply = try call("GetAll", interface: "org.freedesktop.DBus.Properties") { message in
            Bus.append(message, string: MotionOrientationBus.interface)
        }
        defer { sd_bus_message_unref(reply) }
        do {
            return try PropertyReader.readDictionary(reply)
        } catch {
            throw ClientError("cannot read the daemon's properties: \(error)")
        }
    }
}

/// Reads an `a{sv}` property dictionary into text.
enum PropertyReader {
    static func readDictionary(_ message: OpaquePointer) throws(SystemError) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        try check(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}"), "entering a{sv}")
        while true {
            let r = sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv")
            try check(r, "entering a dictionary entry")
            if r == 0 { break }
            let name = try Bus.readString(message)
            result.append((name, try readVariant(message)))
            try check(sd_bus_message_exit_container(message), "leaving a dictionary entry")
        }
        try check(sd_bus_message_exit_container(message), "leaving a{sv}")
        return result
    }

    static func readVariant(_ message: OpaquePointer) throws(SystemError) -> String {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>? = nil
        try check(sd_bus_message_peek_type(message, &type, &contents), "peeking a variant")
        guard let contents else { throw SystemError("reading a variant", errno: EBADMSG) }
        try check(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), contents), "entering a variant")
        let text: String
        switch String(cString: contents) {
        case "s": text = try Bus.readString(message)
        case "b": text = try Bus.readBool(message) ? "yes" : "no"
        case "u": text = String(try Bus.readUInt32(message))
        case "as":
            try check(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "s"), "entering as")
            var items: [String] = []
            while true {
                var pointer: UnsafePointer<CChar>? = nil
                let r = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &pointer)
                try check(r, "reading as")
                guard r > 0, let pointer else { break }
                items.append(String(cString: pointer))
            }
            try check(sd_bus_message_exit_container(message), "leaving as")
            text = items.joined(separator: " ")
        default:
            try check(sd_bus_message_skip(message, contents), "skipping a variant")
            text = "(\(String(cString: contents)))"
        }
        try check(sd_bus_message_exit_container(message), "leaving a variant")
        return text
    }

    static func check(_ r: Int32, _ what: String) throws(SystemError) {
        if r < 0 { throw SystemError(what, errno: r) }
    }
}
