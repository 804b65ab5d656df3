import CBusObject
import CSystemd
import ErrorsAndLog
import Glibc
import SystemdBus

/// One object served on the bus: its vtable built by the shim from the typed lists (the
/// cases of `Property` and `Method`, and `signals`), each method call and property read
/// handed to the closures with its typed name. Dropping the object withdraws it.
final class BusObject {
    typealias Error = UnsafeMutablePointer<sd_bus_error>

    private var slot: OpaquePointer?
    private let onMethod: (String, _ call: OpaquePointer, Error) -> Int32
    private let onProperty: (String, _ reply: OpaquePointer) -> Int32

    init<Property: BusProperty, Method: BusMethod>(
        bus: OpaquePointer, serving peer: BusPeer, properties: Property.Type, methods: Method.Type,
        signals: [any BusSignal] = [], onMethod: @escaping (Method, _ call: OpaquePointer, Error) -> Int32,
        onProperty: @escaping (Property, _ reply: OpaquePointer) -> Int32
    ) throws(SystemError) {
        self.onMethod = { name, call, error in Method(rawValue: name).map { onMethod($0, call, error) } ?? -ENOENT }
        self.onProperty = { name, reply in Property(rawValue: name).map { onProperty($0, reply) } ?? -ENOENT }
        var handlers = mo_bus_handlers(
            method: { context, member, call, error in
                Unmanaged<BusObject>.fromOpaque(context!).takeUnretainedValue().onMethod(
                    String(cString: member!), call!, error!)
            },
            property: { context, property, reply, _ in
                Unmanaged<BusObject>.fromOpaque(context!).takeUnretainedValue().onProperty(
                    String(cString: property!), reply!)
            })
        // The shim copies the strings: they need to live only for the call.
        var strings = CStrings()
        defer { strings.free() }
        let properties = Property.allCases.map {
            mo_bus_property(name: strings.keep($0.rawValue), signature: strings.keep($0.signature))
        }
        let methods = Method.allCases.map {
            strings.member(
                $0.rawValue, arguments: $0.arguments, results: $0.results as [BusArgument]?)
        }
        let signalMembers = signals.map { strings.member($0.rawValue, arguments: $0.arguments, results: nil) }
        guard !strings.failed else { throw SystemError("registering \(peer.path)", errno: ENOMEM) }
        let r = mo_bus_add_object(
            bus, &slot, peer.path, peer.interface, properties, properties.count, methods, methods.count, signalMembers,
            signalMembers.count, &handlers, Unmanaged.passUnretained(self).toOpaque())
        guard r >= 0 else { throw SystemError("registering \(peer.interface) at \(peer.path)", errno: r) }
    }

    deinit { sd_bus_slot_unref(slot) }
}

/// C copies of Swift strings for one registration, freed together.
private struct CStrings {
    private var kept: [UnsafeMutablePointer<CChar>] = []
    private(set) var failed = false

    mutating func keep(_ text: String) -> UnsafePointer<CChar>? {
        guard let copy = strdup(text) else {
            failed = true
            return nil
        }
        kept.append(copy)
        return UnsafePointer(copy)
    }

    /// A method (`results` not nil) or a signal: the signatures, and the argument names
    /// each ending with a NUL.
    mutating func member(_ name: String, arguments: [BusArgument], results: [BusArgument]?) -> mo_bus_member {
        let names = (arguments + (results ?? [])).map { Array($0.name.utf8CString) }.joined()
        guard let buffer = malloc(max(names.count, 1))?.assumingMemoryBound(to: CChar.self) else {
            failed = true
            return mo_bus_member()
        }
        buffer.initialize(to: 0)
        for (index, byte) in names.enumerated() { buffer[index] = byte }
        kept.append(buffer)
        return mo_bus_member(
            name: keep(name), signature: keep(arguments.map(\.signature).joined()),
            result: results.map { keep($0.map(\.signature).joined()) } ?? nil, names: UnsafePointer(buffer),
            names_length: names.count)
    }

    func free() {
        for pointer in kept { Glibc.free(pointer) }
    }
}
