import CSystemd
import ErrorsAndLog
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

    /// The service, its object and the property's interface.
    let peer: BusPeer
    let property: String
    let kind: Kind
    /// The last value seen; nil while the service is absent or did not answer.
    private(set) var value: Value?
    /// Called after `value` changed.
    var onChange: () -> Void = {}
    private let bus: OpaquePointer
    private var slots: [OpaquePointer] = []
    /// A value of the wrong type, reported once.
    private var problems = ProblemLog()

    init(
        bus: OpaquePointer, peer: BusPeer, property: String, kind: Kind
    ) throws(SystemError) {
        self.bus = bus
        self.peer = peer
        self.property = property
        self.kind = kind
        slots.append(
            try Bus.matchPropertiesChanged(bus, peer) {
                [unowned self] message in self.propertiesChanged(message)
            })
        slots.append(
            try Bus.matchNameOwnerChanged(bus, name: peer.name) { [unowned self] change in
                if change.newOwner.isEmpty {
                    self.update(nil)
                } else {
                    self.fetch()
                }
            })
        fetch()
    }

    deinit { slots.forEach { sd_bus_slot_unref($0) } }

    /// Asks the service for the current value.
    func fetch() {
        Bus.getPropertyAsync(bus, peer, property: property) {
            [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply): self.update(self.readValue(reply))
            case .failure(let error):
                // An absent service (or one without the property) is the usual case.
                Log.debug("\(self.peer.name) \(self.property): \(error)")
                self.update(nil)
            }
        }
    }

    /// The signature our kind of value has on the bus.
    private var signature: String {
        switch kind {
        case .string: "s"
        case .boolean: "b"
        }
    }

    /// Reads the value's variant; a value of another type than ours is logged once (the
    /// service is not what we take it for) and counts as absent.
    private func readValue(_ message: OpaquePointer) -> Value? {
        do throws(SystemError) {
            let value: Value
            switch kind {
            case .string: value = .string(try Bus.readVariantString(message))
            case .boolean: value = .boolean(try Bus.readVariantBool(message))
            }
            problems.resolve(source)
            return value
        } catch {
            let got = (try? Bus.peekVariant(message)) ?? "an unreadable value"
            problems.report(
                source, "\(source): expected a value of type \(signature), got \(got) (\(error)); taking it as absent")
            return nil
        }
    }

    /// Names the property in messages: `service interface.property`.
    private var source: String { "\(peer.name) \(peer.interface).\(property)" }

    private func propertiesChanged(_ message: OpaquePointer) {
        var changed: Value?? = nil
        var invalidated = false
        do {
            try Bus.readPropertiesChanged(
                message, interface: peer.interface,
                changed: { name throws(SystemError) in
                    guard name == property else { return false }
                    // A value of the wrong type counts as absent (logged); it is left
                    // unread, to be skipped.
                    let value = readValue(message)
                    changed = .some(value)
                    return value != nil
                }, invalidated: { name in if name == property { invalidated = true } })
        } catch {
            Log.warning("\(peer.name): malformed PropertiesChanged: \(error)")
            return
        }
        if let changed {
            update(changed)
        } else if invalidated {
            fetch()
        }
    }

    private func update(_ newValue: Value?) {
        guard newValue != value else { return }
        value = newValue
        Log.debug("\(peer.name) \(property): \(newValue.map { "\($0)" } ?? "absent")")
        onChange()
    }
}
