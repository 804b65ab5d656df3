import CSystemd
import ErrorsAndLog
import Glibc

/// A Swift closure carried through sd-bus's `void *userdata`: the one box for message
/// handlers (matches and asynchronous replies) in every program.
final class MessageHandler {
    let handle: (OpaquePointer) -> Void
    init(_ handle: @escaping (OpaquePointer) -> Void) { self.handle = handle }

    /// Retains `handle` for a C callback; balance with `release(_:)` or a destroy callback.
    static func retain(_ handle: @escaping (OpaquePointer) -> Void) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(MessageHandler(handle)).toOpaque()
    }

    static func release(_ context: UnsafeMutableRawPointer?) {
        Unmanaged<MessageHandler>.fromOpaque(context!).release()
    }

    /// Runs the handler a context carries.
    static func run(_ context: UnsafeMutableRawPointer?, _ message: OpaquePointer?) {
        Unmanaged<MessageHandler>.fromOpaque(context!).takeUnretainedValue().handle(message!)
    }
}

/// A change of owner of a bus name, from the bus's `NameOwnerChanged` signal; an empty
/// owner means none (the name appeared, or left).
public struct NameOwnerChange: Sendable {
    public var name: String
    public var oldOwner: String
    public var newOwner: String
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
        let context = MessageHandler.retain(handler)
        var slot: OpaquePointer? = nil
        let r = register(
            &slot,
            { message, context, _ in
                MessageHandler.run(context, message)
                return 0
            }, context)
        guard r >= 0, let slot else {
            MessageHandler.release(context)
            throw SystemError(what, errno: r)
        }
        // Setting a destroy callback on a slot we hold cannot fail.
        _ = sd_bus_slot_set_destroy_callback(slot) { MessageHandler.release($0) }
        return slot
    }

    /// Calls `handler` with every `PropertiesChanged` of `peer`'s interface that its name
    /// sends from its path; read it with `readPropertiesChanged`.
    public static func matchPropertiesChanged(
        _ bus: OpaquePointer, _ peer: BusPeer, _ handler: @escaping (OpaquePointer) -> Void
    ) throws(SystemError) -> OpaquePointer {
        try addMatch(
            bus,
            rule: "type='signal',sender='\(peer.name)',path='\(peer.path)',interface='\(BusPeer.propertiesInterface)',"
                + "member='PropertiesChanged',arg0='\(peer.interface)'", handler)
    }

    /// Calls `handler` with every change of owner of `name` (of any name when nil), as the
    /// bus itself announces it.
    public static func matchNameOwnerChanged(
        _ bus: OpaquePointer, name: String? = nil, _ handler: @escaping (NameOwnerChange) -> Void
    ) throws(SystemError) -> OpaquePointer {
        let rule =
            "type='signal',sender='\(BusPeer.messageBus.name)',path='\(BusPeer.messageBus.path)',"
            + "interface='\(BusPeer.messageBus.interface)',member='NameOwnerChanged'"
            + (name.map { ",arg0='\($0)'" } ?? "")
        return try addMatch(bus, rule: rule) { message in
            // Only the bus sends these (the rule says so) and it always sends (sss): a
            // message that does not read so is no change of owner, and there is no one to
            // tell about it.
            guard let name = try? readString(message), let oldOwner = try? readString(message),
                let newOwner = try? readString(message)
            else { return }
            handler(NameOwnerChange(name: name, oldOwner: oldOwner, newOwner: newOwner))
        }
    }

    /// Calls `handler` when sd-bus reports that the connection was lost (its local
    /// `Disconnected` signal).
    public static func matchDisconnected(_ bus: OpaquePointer, _ handler: @escaping () -> Void) throws(SystemError)
        -> OpaquePointer
    {
        try matchSignal(
            bus, sender: nil, path: BusPeer.local.path, interface: BusPeer.local.interface,
            member: "Disconnected"
        ) { _ in handler() }
    }

    /// Reads a `PropertiesChanged` signal: false when it is about another interface than
    /// `interface`; else hands each changed property's name to `changed` (which reads its
    /// variant and returns true, or returns false to skip it) and each invalidated
    /// property's name to `invalidated`.
    @discardableResult
    public static func readPropertiesChanged(
        _ message: OpaquePointer, interface: String, changed: (String) throws(SystemError) -> Bool,
        invalidated: (String) -> Void = { _ in }
    ) throws(SystemError) -> Bool {
        guard try readString(message) == interface else { return false }
        try forEachProperty(message, changed)
        for name in try readStrings(message) { invalidated(name) }
        return true
    }
}
