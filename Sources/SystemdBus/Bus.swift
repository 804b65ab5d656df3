import CSystemd
import ErrorsAndLog
import Glibc

/// Small typed helpers over sd-bus's non-variadic calls (the variadic ones,
/// `sd_bus_message_append` and friends, cannot be called from Swift).
public enum Bus {
    static let typeString = CChar(UInt8(ascii: "s"))
    static let typeBoolean = CChar(UInt8(ascii: "b"))
    static let typeUInt32 = CChar(UInt8(ascii: "u"))
    static let typeDouble = CChar(UInt8(ascii: "d"))
    static let typeArray = CChar(UInt8(ascii: "a"))
    static let typeVariant = CChar(UInt8(ascii: "v"))
    static let typeDictionaryEntry = CChar(UInt8(ascii: "e"))

    // MARK: - Appending

    public static func append(_ message: OpaquePointer, string: String) -> Int32 {
        string.withCString { sd_bus_message_append_basic(message, typeString, $0) }
    }

    public static func append(_ message: OpaquePointer, bool: Bool) -> Int32 {
        var value: Int32 = bool ? 1 : 0
        return sd_bus_message_append_basic(message, typeBoolean, &value)
    }

    public static func append(_ message: OpaquePointer, uint32: UInt32) -> Int32 {
        var value = uint32
        return sd_bus_message_append_basic(message, typeUInt32, &value)
    }

    public static func append(_ message: OpaquePointer, double: Double) -> Int32 {
        var value = double
        return sd_bus_message_append_basic(message, typeDouble, &value)
    }

    /// Appends a string array (`as`).
    public static func append(_ message: OpaquePointer, strings: [String]) -> Int32 {
        withStrv(strings) { sd_bus_message_append_strv(message, $0) }
    }

    /// Appends each string in turn (`s` arguments), stopping at the first failure.
    public static func append(_ message: OpaquePointer, arguments: [String]) -> Int32 {
        for argument in arguments {
            let r = append(message, string: argument)
            if r < 0 { return r }
        }
        return 0
    }

    // MARK: - Reading

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

    /// Reads the next argument of a message as a double (`HingeAngle`).
    public static func readDouble(_ message: OpaquePointer) throws(SystemError) -> Double {
        try readBasic(message, typeDouble, "a double", Double(0))
    }

    /// Reads the next argument, a string array (`as`).
    public static func readStrings(_ message: OpaquePointer) throws(SystemError) -> [String] {
        try enter(message, typeArray, "s", "a string array")
        var items: [String] = []
        while true {
            var pointer: UnsafePointer<CChar>? = nil
            let r = sd_bus_message_read_basic(message, typeString, &pointer)
            guard r >= 0 else { throw SystemError("reading a string array", errno: r) }
            guard r > 0, let pointer else { break }
            items.append(String(cString: pointer))
        }
        try exit(message, "a string array")
        return items
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

    /// Reads a variant holding a string, e.g. the answer to `Properties.Get` or a value in
    /// `PropertiesChanged`.
    public static func readVariantString(_ message: OpaquePointer) throws(SystemError) -> String {
        try enterVariant(message, "s")
        let value = try readString(message)
        try exit(message, "a variant")
        return value
    }

    /// Reads a variant holding a boolean.
    public static func readVariantBool(_ message: OpaquePointer) throws(SystemError) -> Bool {
        try enterVariant(message, "b")
        let value = try readBool(message)
        try exit(message, "a variant")
        return value
    }

    /// The signature of the variant that comes next, e.g. "s" or "as".
    public static func peekVariant(_ message: OpaquePointer) throws(SystemError) -> String {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>? = nil
        let r = sd_bus_message_peek_type(message, &type, &contents)
        guard r > 0, type == typeVariant, let contents else {
            throw SystemError("reading a variant", errno: r < 0 ? r : EBADMSG)
        }
        return String(cString: contents)
    }

    /// Enters a variant whose contents must have `signature`; ENXIO when they differ.
    public static func enterVariant(_ message: OpaquePointer, _ signature: String) throws(SystemError) {
        let r = sd_bus_message_enter_container(message, typeVariant, signature)
        guard r > 0 else { throw SystemError("reading a variant of type \(signature)", errno: r < 0 ? r : ENXIO) }
    }

    /// Skips the next value, of the given signature.
    public static func skip(_ message: OpaquePointer, _ signature: String) throws(SystemError) {
        let r = sd_bus_message_skip(message, signature)
        if r < 0 { throw SystemError("skipping a value of type \(signature)", errno: r) }
    }

    /// Leaves the container being read.
    public static func exit(_ message: OpaquePointer, _ what: String) throws(SystemError) {
        let r = sd_bus_message_exit_container(message)
        if r < 0 { throw SystemError("leaving \(what)", errno: r) }
    }

    static func enter(_ message: OpaquePointer, _ type: CChar, _ contents: String, _ what: String)
        throws(SystemError)
    {
        let r = sd_bus_message_enter_container(message, type, contents)
        guard r > 0 else { throw SystemError("reading \(what)", errno: r < 0 ? r : EBADMSG) }
    }

    /// Walks an `a{sv}` dictionary (a `GetAll` reply, the changes of `PropertiesChanged`)
    /// and hands each name to `visit`, which reads the variant that follows and returns
    /// true, or returns false to have it skipped.
    public static func forEachProperty(
        _ message: OpaquePointer, _ visit: (String) throws(SystemError) -> Bool
    ) throws(SystemError) {
        try enter(message, typeArray, "{sv}", "a property dictionary")
        while true {
            let r = sd_bus_message_enter_container(message, typeDictionaryEntry, "sv")
            if r < 0 { throw SystemError("reading a property dictionary", errno: r) }
            if r == 0 { break }
            let name = try readString(message)
            if try !visit(name) { try skip(message, "v") }
            try exit(message, "a dictionary entry")
        }
        try exit(message, "a property dictionary")
    }

    // MARK: - Sending

    /// Replies to a method call with the given string arguments (none for an empty reply).
    public static func reply(to call: OpaquePointer, strings: [String] = []) -> Int32 {
        send(on: nil, { sd_bus_message_new_method_return(call, &$0) }) { append($0, arguments: strings) }
    }

    /// Emits a signal of `peer`'s object carrying `(s name, u value)`.
    public static func emitSignal(
        _ bus: OpaquePointer, _ peer: BusPeer, member: String, name: String, value: UInt32
    ) -> Int32 {
        send(on: bus, { sd_bus_message_new_signal(bus, &$0, peer.path, peer.interface, member) }) {
            let r = append($0, string: name)
            return r < 0 ? r : append($0, uint32: value)
        }
    }

    /// Emits a signal of `peer`'s object with one boolean argument (`TabletModeChanged(b)`).
    public static func emitSignal(_ bus: OpaquePointer, _ peer: BusPeer, member: String, bool: Bool) -> Int32 {
        send(on: bus, { sd_bus_message_new_signal(bus, &$0, peer.path, peer.interface, member) }) {
            append($0, bool: bool)
        }
    }

    /// Creates a message with `create`, appends its arguments with `fill` and sends it on `bus`
    /// (nil: the bus of the call a reply answers), stopping at the first negative errno.
    private static func send(
        on bus: OpaquePointer?, _ create: (inout OpaquePointer?) -> Int32, _ fill: (OpaquePointer) -> Int32
    ) -> Int32 {
        var message: OpaquePointer? = nil
        var r = create(&message)
        guard r >= 0, let message else { return r }
        defer { sd_bus_message_unref(message) }
        r = fill(message)
        if r < 0 { return r }
        return sd_bus_send(bus, message, nil)
    }

    /// Emits one `PropertiesChanged` of `peer`'s object naming every property in `properties`
    /// (their values come from the object's getters). Inlined, so the caller's concrete
    /// property type needs no generic code at run time.
    @inlinable
    public static func emitPropertiesChanged<Property: BusProperty>(
        _ bus: OpaquePointer, _ peer: BusPeer, _ properties: [Property]
    ) -> Int32 {
        emitPropertiesChanged(bus, peer, names: properties.map { $0.rawValue })
    }

    /// Emits one `PropertiesChanged` of `peer`'s object naming the properties `names`.
    public static func emitPropertiesChanged(_ bus: OpaquePointer, _ peer: BusPeer, names: [String]) -> Int32 {
        guard !names.isEmpty else { return 0 }
        return withStrv(names) { sd_bus_emit_properties_changed_strv(bus, peer.path, peer.interface, $0) }
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
