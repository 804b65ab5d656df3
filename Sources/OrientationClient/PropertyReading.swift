// Property values read off the bus.
import ErrorsAndLog
import SystemdBus

extension PropertyValue {
    /// Reads the variant that comes next in `message`; a type a client does not read is
    /// skipped and comes back as `.other`.
    static func read(_ message: OpaquePointer) throws(SystemError) -> PropertyValue {
        let signature = try Bus.peekVariant(message)
        if signature == "s" { return .string(try Bus.readVariantString(message)) }
        if signature == "b" { return .bool(try Bus.readVariantBool(message)) }
        guard ["u", "d", "as"].contains(signature) else {
            try Bus.skip(message, "v")
            return .other(signature: signature)
        }
        try Bus.enterVariant(message, signature)
        let value: PropertyValue =
            switch signature {
            case "u": .uint32(try Bus.readUInt32(message))
            case "d": .double(try Bus.readDouble(message))
            default: .strings(try Bus.readStrings(message))
            }
        try Bus.exit(message, "a variant")
        return value
    }

    /// Reads an `a{sv}` dictionary (a `GetAll` reply), in its order.
    static func readDictionary(_ message: OpaquePointer) throws(SystemError) -> [PropertyEntry] {
        var entries: [PropertyEntry] = []
        try Bus.forEachProperty(message) { name throws(SystemError) in
            entries.append((name, try read(message)))
            return true
        }
        return entries
    }

    /// Reads a `PropertiesChanged` of the daemon's interface: the changed properties in
    /// their order, or nil for a signal about another interface.
    static func readChanges(_ message: OpaquePointer) throws(SystemError) -> [PropertyEntry]? {
        var entries: [PropertyEntry] = []
        let ours = try Bus.readPropertiesChanged(message, interface: BusPeer.motionOrientation.interface) {
            name throws(SystemError) in
            entries.append((name, try read(message)))
            return true
        }
        return ours ? entries : nil
    }
}
