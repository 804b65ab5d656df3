import CMotionShim
import CSystemd
import Glibc
import MotionOrientationDaemon
import OrientationCore

/// `motion-orientation monitor`: holds a claim and prints one line per change.
final class Monitor {
    let connection: DaemonConnection
    let json: Bool
    private var slots: [OpaquePointer?] = []

    init(connection: DaemonConnection, json: Bool) {
        self.connection = connection
        self.json = json
    }

    deinit { slots.forEach { sd_bus_slot_unref($0) } }

    /// Subscribes, claims, prints the current state, then follows changes until the
    /// connection ends. Returns the exit status.
    func run() throws(ClientError) -> Int32 {
        let context = Unmanaged.passUnretained(self).toOpaque()
        for member in ["DeviceOrientationChanged", "InterfaceOrientationChanged"] {
            var slot: OpaquePointer? = nil
            let r = sd_bus_match_signal(
                connection.bus, &slot, MO_BUS_NAME, MO_BUS_PATH, MO_BUS_INTERFACE, member,
                { message, context, _ in
                    Unmanaged<Monitor>.fromOpaque(context!).takeUnretainedValue().changed(message!)
                    return 0
                }, context)
            guard r >= 0 else { throw ClientError("cannot subscribe to \(member): \(String(cString: strerror(-r)))") }
            slots.append(slot)
        }
        // Claim again whenever the daemon (re)appears on the bus, so a restart is survived.
        var ownerSlot: OpaquePointer? = nil
        let r = sd_bus_match_signal(
            connection.bus, &ownerSlot, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "NameOwnerChanged",
            { message, context, _ in
                Unmanaged<Monitor>.fromOpaque(context!).takeUnretainedValue().ownerChanged(message!)
                return 0
            }, context)
        guard r >= 0 else { throw ClientError("cannot watch the daemon's name: \(String(cString: strerror(-r)))") }
        slots.append(ownerSlot)

        sd_bus_message_unref(try connection.call("Start"))
        let properties = try connection.allProperties()
        for (stream, property) in [("device", "DeviceOrientation"), ("interface", "InterfaceOrientation")] {
            if let value = properties.first(where: { $0.name == property })?.value {
                emit(stream: stream, name: value)
            }
        }
        while true {
            var r = sd_bus_process(connection.bus, nil)
            if r < 0 {
                throw ClientError("lost the system bus: \(String(cString: strerror(-r)))")
            }
            if r > 0 { continue }
            r = sd_bus_wait(connection.bus, UInt64.max)
            if r < 0 && r != -EINTR {
                throw ClientError("lost the system bus: \(String(cString: strerror(-r)))")
            }
        }
    }

    private func changed(_ message: OpaquePointer) {
        guard let member = sd_bus_message_get_member(message).map({ String(cString: $0) }),
            let name = try? Bus.readString(message),
            let value = try? Bus.readUInt32(message)
        else { return }
        emit(stream: member.hasPrefix("Device") ? "device" : "interface", name: name, value: value)
    }

    private func ownerChanged(_ message: OpaquePointer) {
        guard let name = try? Bus.readString(message), name == MO_BUS_NAME,
            (try? Bus.readString(message)) != nil,
            let newOwner = try? Bus.readString(message)
        else { return }
        if newOwner.isEmpty {
            writeAll(
                STDERR_FILENO, "motion-orientation: motion-orientationd left the bus; waiting for it to come back\n")
        } else if let reply = try? connection.call("Start") {
            sd_bus_message_unref(reply)
        }
    }

    private func emit(stream: String, name: String, value: UInt32? = nil) {
        if json {
            let number = value ?? Monitor.rawValue(stream: stream, name: name)
            writeAll(STDOUT_FILENO, "{\"stream\": \"\(stream)\", \"orientation\": \"\(name)\", \"value\": \(number)}\n")
        } else {
            writeAll(STDOUT_FILENO, "\(stream) \(name)\n")
        }
    }

    static func rawValue(stream: String, name: String) -> UInt32 {
        if stream == "device" { return DeviceOrientation(name: name)?.rawValue ?? 0 }
        return InterfaceOrientation(name: name)?.rawValue ?? 0
    }
}
