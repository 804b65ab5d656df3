import CSystemd
import SystemdBus

/// A property of another service on the bus, followed without polling: read once when the
/// service is (or comes) on the bus, then updated from its `PropertiesChanged` signals, and
/// forgotten (nil) when the service leaves. The service is never started for us.
final class RemoteProperty {
    enum Kind { case string, boolean }
    enum Value: Equatable {
        case string(String)
        case boolean(Bool)
    }

    let service: String
    let path: String
    let interface: String
    let property: String
    let kind: Kind
    /// The last value seen; nil while the service is absent or did not answer.
    private(set) var value: Value?
    /// Called after `value` changed.
    var onChange: () -> Void = {}
    private let bus: OpaquePointer
    private var slots: [OpaquePointer] = []

    init(
        bus: OpaquePointer, service: String, path: String, interface: String, property: String, kind: Kind
    ) throws(SystemError) {
        self.bus = bus
        self.service = service
        self.path = path
        self.interface = interface
        self.property = property
        self.kind = kind
        slots.append(
            try Bus.matchSignal(
                bus, sender: service, path: path, interface: "org.freedesktop.DBus.Properties",
                member: "PropertiesChanged"
            ) { [unowned self] message in self.propertiesChanged(message) })
        slots.append(
            try Bus.addMatch(
                bus,
                rule: "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                    + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(service)'"
            ) { [unowned self] message in self.ownerChanged(message) })
        fetch()
    }

    deinit { slots.forEach { sd_bus_slot_unref($0) } }

    /// Asks the service for the current value.
    func fetch() {
        Bus.getPropertyAsync(bus, service: service, path: path, interface: interface, property: property) {
            [weak self] reply in
            guard let self else { return }
            guard let reply, !Bus.isError(reply) else { return self.update(nil) }
            self.update(try? self.readValue(reply))
        }
    }

    private func readValue(_ message: OpaquePointer) throws(SystemError) -> Value {
        switch kind {
        case .string: return .string(try Bus.readVariantString(message))
        case .boolean: return .boolean(try Bus.readVariantBool(message))
        }
    }

    private func propertiesChanged(_ message: OpaquePointer) {
        guard (try? Bus.readString(message)) == interface else { return }
        var changed: Value?? = nil
        do {
            try Bus.forEachChangedProperty(message) { name throws(SystemError) in
                guard name == property else { return false }
                changed = .some(try readValue(message))
                return true
            }
        } catch {
            Log.warning("\(service): malformed PropertiesChanged: \(error)")
            return
        }
        if let changed {
            update(changed)
        } else if invalidates(message) {
            fetch()
        }
    }

    /// Whether the invalidated-properties list of a `PropertiesChanged` names ours.
    private func invalidates(_ message: OpaquePointer) -> Bool {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "s") > 0 else { return false }
        defer { sd_bus_message_exit_container(message) }
        while let name = try? Bus.readString(message) {
            if name == property { return true }
        }
        return false
    }

    private func ownerChanged(_ message: OpaquePointer) {
        guard (try? Bus.readString(message)) == service, (try? Bus.readString(message)) != nil,
            let newOwner = try? Bus.readString(message)
        else { return }
        if newOwner.isEmpty {
            update(nil)
        } else {
            fetch()
        }
    }

    private func update(_ newValue: Value?) {
        guard newValue != value else { return }
        value = newValue
        Log.debug("\(service) \(property): \(newValue.map { "\($0)" } ?? "absent")")
        onChange()
    }
}
