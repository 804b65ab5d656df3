import CSystemd
import ErrorsAndLog
import Glibc
import SystemdBus

/// A failure the client reports in one line before exiting non-zero.
struct ClientError: Error, CustomStringConvertible {
    var description: String
    /// The daemon did not answer within the call's timeout.
    var timedOut = false
    init(_ description: String, timedOut: Bool = false) {
        self.description = description
        self.timedOut = timedOut
    }
}

/// A connection to the daemon on the system bus.
final class DaemonConnection {
    let bus: OpaquePointer

    init() throws(ClientError) {
        var bus: OpaquePointer? = nil
        let r = sd_bus_open_system(&bus)
        guard r >= 0, let bus else {
            throw ClientError("cannot connect to the system bus: \(String(cString: strerror(-r)))")
        }
        self.bus = bus
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Calls a method on the daemon's object and returns the reply (caller unrefs it); a
    /// daemon that does not answer within `timeoutUsec` gives an error with `timedOut`.
    func call(
        _ method: String, interface: String = MotionOrientationBus.interface,
        timeoutUsec: UInt64 = Bus.callTimeoutUsec, arguments: (OpaquePointer) -> Int32 = { _ in 0 }
    ) throws(ClientError) -> OpaquePointer {
        do {
            return try Bus.call(
                bus, service: MotionOrientationBus.name, path: MotionOrientationBus.path, interface: interface,
                method: method, timeoutUsec: timeoutUsec, arguments: arguments)
        } catch {
            throw DaemonConnection.explain(error, doing: method)
        }
    }

    /// Calls a method without arguments on the daemon's object without waiting for the
    /// reply; `completion` runs on the loop the bus is attached to, with nil on success or
    /// the failure.
    func callAsync(_ method: String, completion: @escaping (ClientError?) -> Void) {
        Bus.callAsync(
            bus, service: MotionOrientationBus.name, path: MotionOrientationBus.path,
            interface: MotionOrientationBus.interface, method: method
        ) { result in
            switch result {
            case .success: completion(nil)
            case .failure(let error): completion(DaemonConnection.explain(error, doing: method))
            }
        }
    }

    /// Turns a failed call into a sentence; the daemon not running gets its own.
    static func explain(_ error: BusError, doing what: String) -> ClientError {
        if error.isServiceUnknown {
            return ClientError(
                "motion-orientationd is not running (\(MotionOrientationBus.name) is not on the system bus)")
        }
        return ClientError("\(what) failed: \(error)", timedOut: error.errno == ETIMEDOUT)
    }

    /// Every property of the daemon's interface, in the order the daemon lists them,
    /// rendered as text (`yes`/`no` for booleans, space-separated arrays).
    func allProperties() throws(ClientError) -> [(name: String, value: String)] {
        let reply = try call("GetAll", interface: FreedesktopBus.properties) { message in
            Bus.append(message, string: MotionOrientationBus.interface)
        }
        defer { sd_bus_message_unref(reply) }
        var result: [(name: String, value: String)] = []
        do throws(SystemError) {
            try Bus.forEachProperty(reply) { name throws(SystemError) in
                result.append((name, try DaemonConnection.text(ofVariantIn: reply)))
                return true
            }
        } catch {
            throw ClientError("cannot read the daemon's properties: \(error)")
        }
        return result
    }

    /// The value of the variant that comes next, as text; a type the client does not
    /// know is shown as its signature in parentheses.
    static func text(ofVariantIn message: OpaquePointer) throws(SystemError) -> String {
        let signature = try Bus.peekVariant(message)
        switch signature {
        case "s": return try Bus.readVariantString(message)
        case "b": return try Bus.readVariantBool(message) ? "yes" : "no"
        case "u":
            try Bus.enterVariant(message, signature)
            let value = try Bus.readUInt32(message)
            try Bus.exit(message, "a variant")
            return String(value)
        case "d":
            try Bus.enterVariant(message, signature)
            let value = try Bus.readDouble(message)
            try Bus.exit(message, "a variant")
            return degreesText(value)
        case "as":
            try Bus.enterVariant(message, signature)
            let items = try Bus.readStrings(message)
            try Bus.exit(message, "a variant")
            return items.joined(separator: " ")
        default:
            try Bus.skip(message, "v")
            return "(\(signature))"
        }
    }
}

/// An angle in degrees as `status` and `monitor` show it: to a tenth of a degree, a whole
/// number without a fraction (`HingeAngle`'s unknown is "-1", a flat hinge "180" or "179.6").
func degreesText(_ degrees: Double) -> String {
    guard degrees.isFinite else { return String(degrees) }
    let tenths = (degrees * 10).rounded()
    if tenths.truncatingRemainder(dividingBy: 10) == 0 { return String(Int64(tenths / 10)) }
    return String(tenths / 10)
}
