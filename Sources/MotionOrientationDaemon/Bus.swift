import CSystemd
import Glibc

/// Small typed helpers over sd-bus's non-variadic calls (the variadic ones,
/// `sd_bus_message_append` and friends, cannot be called from Swift).
public enum Bus {
    static let typeString = CChar(UInt8(ascii: "s"))
    static let typeBoolean = CChar(UInt8(ascii: "b"))
    static let typeUInt32 = CChar(UInt8(ascii: "u"))

    @discardableResult
    public static func append(_ message: OpaquePointer, string: String) -> Int32 {
        string.withCString { sd_bus_message_append_basic(message, typeString, $0) }
    }

    @discardableResult
    public static func append(_ message: OpaquePointer, bool: Bool) -> Int32 {
        var value: Int32 = bool ? 1 : 0
        return sd_bus_message_append_basic(message, typeBoolean, &value)
    }

    @discardableResult
    public static func append(_ message: OpaquePointer, uint32: UInt32) -> Int32 {
        var value = uint32
        return sd_bus_message_append_basic(message, typeUInt32, &value)
    }

    /// Reads the next argument of a message as a string.
    public static func readString(_ message: OpaquePointer) throws(SystemError) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        let r = sd_bus_message_read_basic(message, typeString, &pointer)
        guard r > 0, let pointer else { throw SystemError("reading a string argument", errno: r < 0 ? r : EBADMSG) }
        return String(cString: pointer)
    }

    /// Reads the next argument of a message as a boolean.
    public static func readBool(_ message: OpaquePointer) throws(SystemError) -> Bool {
        var value: Int32 = 0
        let r = sd_bus_message_read_basic(message, typeBoolean, &value)
        guard r > 0 else { throw SystemError("reading a boolean argument", errno: r < 0 ? r : EBADMSG) }
        return value != 0
    }

    /// Reads the next argument of a message as an unsigned 32-bit integer.
    public static func readUInt32(_ message: OpaquePointer) throws(SystemError) -> UInt32 {
        var value: UInt32 = 0
        let r = sd_bus_message_read_basic(message, typeUInt32, &value)
        guard r > 0 else { throw SystemError("reading a uint32 argument", errno: r < 0 ? r : EBADMSG) }
        return value
    }

    /// Replies to a method call with the given string arguments (none for an empty reply).
    @discardableResult
    public static func reply(to call: OpaquePointer, strings: [String] = []) -> Int32 {
        var reply: OpaquePointer? = nil
        var r = sd_bus_message_new_method_return(call, &reply)
        guard r >= 0, let reply else { return r }
        defer { sd_bus_message_unref(reply) }
        for string in strings {
            r = append(reply, string: string)
            if r < 0 { return r }
        }
        return sd_bus_send(nil, reply, nil)
    }

    /// Emits a signal carrying `(s name, u value)` from the daemon's object.
    @discardableResult
    public static func emitSignal(
        _ bus: OpaquePointer, path: String, interface: String, member: String, name: String, value: UInt32
    ) -> Int32 {
        var message: OpaquePointer? = nil
        var r = sd_bus_message_new_signal(bus, &message, path, interface, member)
        guard r >= 0, let message else { return r }
        defer { sd_bus_message_unref(message) }
        r = append(message, string: name)
        if r >= 0 { r = append(message, uint32: value) }
        if r >= 0 { r = sd_bus_send(bus, message, nil) }
        return r
    }

    /// Emits one `PropertiesChanged` naming every property in `names`.
    @discardableResult
    public static func emitPropertiesChanged(
        _ bus: OpaquePointer, path: String, interface: String, names: [String]
    ) -> Int32 {
        guard !names.isEmpty else { return 0 }
        var strv: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) }
        strv.append(nil)
        defer { strv.forEach { free($0) } }
        return strv.withUnsafeMutableBufferPointer {
            sd_bus_emit_properties_changed_strv(bus, path, interface, $0.baseAddress)
        }
    }

    /// The text of an sd-bus error, or of an errno when the error is empty.
    public static func describe(_ error: UnsafePointer<sd_bus_error>, errno r: Int32) -> String {
        if let message = error.pointee.message { return String(cString: message) }
        if let name = error.pointee.name { return String(cString: name) }
        return String(cString: strerror(r < 0 ? -r : r))
    }
}
