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

    @discardableResult
    public static func append(_ message: OpaquePointer, double: Double) -> Int32 {
        var value = double
        return sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &value)
    }

    /// Reads the next argument of a message as a string.
    public static func readString(_ message: OpaquePointer) throws(SystemError) -> String {
        let pointer: UnsafePointer<CChar>? = try readBasic(message, typeString, "a string", nil)
        guard let pointer else { throw SystemError("reading a string argument", errno: EBADMSG) }
        return String(cString: pointer)
    }

    /// Reads the next argument of a message as a boolean.
    public static func readBool(_ message: OpaquePointer) throws(SystemError) -> Bool {
        try readBasic(message, typeBoolean, "a boolean", Int32(0)) != 0
    }

    /// Reads the next argument of a message as an unsigned 32-bit integer.
    public static func readUInt32(_ message: OpaquePointer) throws(SystemError) -> UInt32 {
        try readBasic(message, typeUInt32, "a uint32", UInt32(0))
    }

    /// Reads the next argument, of basic D-Bus type `type`, into a value like `initial`.
    private static func readBasic<Value: BitwiseCopyable>(
        _ message: OpaquePointer, _ type: CChar, _ what: String, _ initial: Value
    ) throws(SystemError) -> Value {
        var value = initial
        let r = sd_bus_message_read_basic(message, type, &value)
        guard r > 0 else { throw SystemError("reading \(what) argument", errno: r < 0 ? r : EBADMSG) }
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
        return withStrv(names) { sd_bus_emit_properties_changed_strv(bus, path, interface, $0) }
    }

    /// The text of an sd-bus error, or of an errno when the error is empty.
    public static func describe(_ error: UnsafePointer<sd_bus_error>, errno r: Int32) -> String {
        if let message = error.pointee.message { return String(cString: message) }
        if let name = error.pointee.name { return String(cString: name) }
        return String(cString: strerror(r < 0 ? -r : r))
    }
}

/// A Swift closure carried through sd-bus's `void *userdata`: the one box for message
/// handlers (matches, asynchronous replies) in every program.
final class MessageHandler {
    let handle: (OpaquePointer) -> Void
    init(_ handle: @escaping (OpaquePointer) -> Void) { self.handle = handle }
}

extension Bus {
    /// Calls `handler` with every matching signal until the returned slot is unreffed.
    public static func matchSignal(
        _ bus: OpaquePointer, sender: String?, path: String?, interface: String?, member: String?,
        _ handler: @escaping (OpaquePointer) -> Void
    ) throws(SystemError) -> OpaquePointer {
        try subscribe("watching \(interface ?? "*").\(member ?? "*") from \(sender ?? "anyone")", handler) {
            sd_bus_match_signal(bus, $0, sender, path, interface, member, $1, $2)
        }
    }

    /// Calls `handler` with every message matching a D-Bus match rule (for rules
    /// `matchSignal` cannot say, such as `arg0=`) until the returned slot is unreffed.
    public static func addMatch(_ bus: OpaquePointer, rule: String, _ handler: @escaping (OpaquePointer) -> Void)
        throws(SystemError) -> OpaquePointer
    {
        try subscribe("adding the match \(rule)", handler) { sd_bus_add_match(bus, $0, rule, $1, $2) }
    }

    private static func subscribe(
        _ what: String, _ handler: @escaping (OpaquePointer) -> Void,
        register: (
            UnsafeMutablePointer<OpaquePointer?>, sd_bus_message_handler_t, UnsafeMutableRawPointer
        ) -> Int32
    ) throws(SystemError) -> OpaquePointer {
        let box = Unmanaged.passRetained(MessageHandler(handler))
        var slot: OpaquePointer? = nil
        let r = register(
            &slot,
            { message, context, _ in
                Unmanaged<MessageHandler>.fromOpaque(context!).takeUnretainedValue().handle(message!)
                return 0
            }, box.toOpaque())
        guard r >= 0, let slot else {
            box.release()
            throw SystemError(what, errno: r)
        }
        sd_bus_slot_set_destroy_callback(slot) { context in
            Unmanaged<MessageHandler>.fromOpaque(context!).release()
        }
        return slot
    }

    /// Reads `property` of a service without blocking the loop and without starting the
    /// service (no bus activation). `completion` gets the reply positioned at the value
    /// inside its variant (enter it with `readVariant`), or nil when the service is absent
    /// or the call failed.
    public static func getPropertyAsync(
        _ bus: OpaquePointer, service: String, path: String, interface: String, property: String,
        _ completion: @escaping (OpaquePointer?) -> Void
    ) {
        var message: OpaquePointer? = nil
        var r = sd_bus_message_new_method_call(
            bus, &message, service, path, "org.freedesktop.DBus.Properties", "Get")
        guard r >= 0, let message else { return completion(nil) }
        defer { sd_bus_message_unref(message) }
        sd_bus_message_set_auto_start(message, 0)
        r = append(message, string: interface)
        if r >= 0 { r = append(message, string: property) }
        guard r >= 0 else { return completion(nil) }
        let box = Unmanaged.passRetained(MessageHandler { reply in completion(reply) })
        r = sd_bus_call_async(
            bus, nil, message,
            { reply, context, _ in
                let box = Unmanaged<MessageHandler>.fromOpaque(context!)
                box.takeUnretainedValue().handle(reply!)
                box.release()
                return 0
            }, box.toOpaque(), 5_000_000)
        if r < 0 {
            box.release()
            completion(nil)
        }
    }

    /// Whether a reply is an error (then there is nothing to read).
    public static func isError(_ message: OpaquePointer) -> Bool {
        sd_bus_message_get_error(message) != nil
    }

    /// Reads a variant holding a basic value of `type` ("s" or "b"), e.g. the answer to
    /// `Properties.Get` or a value in `PropertiesChanged`.
    public static func readVariantString(_ message: OpaquePointer) throws(SystemError) -> String {
        try enterVariant(message, "s")
        let value = try readString(message)
        sd_bus_message_exit_container(message)
        return value
    }

    public static func readVariantBool(_ message: OpaquePointer) throws(SystemError) -> Bool {
        try enterVariant(message, "b")
        let value = try readBool(message)
        sd_bus_message_exit_container(message)
        return value
    }

    static func enterVariant(_ message: OpaquePointer, _ contents: String) throws(SystemError) {
        let r = sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), contents)
        guard r > 0 else { throw SystemError("reading a variant of type \(contents)", errno: r < 0 ? r : ENXIO) }
    }

    /// Walks the changed-properties dictionary of a `PropertiesChanged` signal (after the
    /// interface name has been read) and hands each property name to `visit`, which must
    /// read or skip the variant that follows.
    public static func forEachChangedProperty(
        _ message: OpaquePointer, _ visit: (String) throws(SystemError) -> Bool
    ) throws(SystemError) {
        var r = sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}")
        guard r > 0 else { throw SystemError("reading PropertiesChanged", errno: r < 0 ? r : EBADMSG) }
        while true {
            r = sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv")
            if r < 0 { throw SystemError("reading PropertiesChanged", errno: r) }
            if r == 0 { break }
            let name = try readString(message)
            if try !visit(name) { sd_bus_message_skip(message, "v") }
            sd_bus_message_exit_container(message)
        }
        sd_bus_message_exit_container(message)
    }

    /// Appends a string array (`as`).
    @discardableResult
    public static func append(_ message: OpaquePointer, strings: [String]) -> Int32 {
        withStrv(strings) { sd_bus_message_append_strv(message, $0) }
    }

    /// Lends `strings` as a NULL-terminated C string array for the duration of `body`.
    static func withStrv<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> R)
        -> R
    {
        var strv: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        strv.append(nil)
        defer { strv.forEach { free($0) } }
        return strv.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }
}
