import CSystemd
import ErrorsAndLog
import Glibc
import OrientationCore
import SystemdBus

/// The daemon's connection and its object on the bus: `io.github.MotionOrientation1`'s
/// properties and methods, and the claims of both interfaces.
extension Daemon {
    /// Connects to the system bus, on the loop; losing it ends the loop (`run()` then exits
    /// non-zero for systemd to restart us).
    static func connectBus(event: OpaquePointer) throws(SystemError) -> OpaquePointer {
        var bus: OpaquePointer? = nil
        var r = sd_bus_open_system(&bus)
        guard r >= 0, let bus else { throw SystemError("connecting to the system bus", errno: r) }
        r = sd_bus_attach_event(bus, event, 0)
        guard r >= 0 else { throw SystemError("attaching the bus to the event loop", errno: r) }
        r = sd_bus_set_exit_on_disconnect(bus, 1)
        guard r >= 0 else { throw SystemError("sd_bus_set_exit_on_disconnect", errno: r) }
        return bus
    }

    /// Signals addressed to us by anyone but the bus itself are forged: sd-bus cannot tell a
    /// well-known sender (login1, a power-profiles daemon) from an impostor in them, so they
    /// are dropped before any match sees them. Returns the filter's slot.
    static func dropForgedSignals(_ bus: OpaquePointer) throws(SystemError) -> OpaquePointer? {
        var slot: OpaquePointer? = nil
        let r = sd_bus_add_filter(
            bus, &slot,
            { message, _, _ in
                var type: UInt8 = 0
                guard let message, sd_bus_message_get_type(message, &type) >= 0 else { return 0 }
                guard type == UInt8(SD_BUS_MESSAGE_SIGNAL), sd_bus_message_get_destination(message) != nil,
                    sd_bus_message_get_sender(message).map({ String(cString: $0) }) != BusPeer.messageBus.name
                else { return 0 }
                return 1
            }, nil)
        guard r >= 0 else { throw SystemError("sd_bus_add_filter", errno: r) }
        return slot
    }

    /// Serves `io.github.MotionOrientation1` at its path.
    func serveOrientation(on bus: OpaquePointer) throws(SystemError) -> BusObject {
        try BusObject(
            bus: bus, serving: .motionOrientation,
            properties: OrientationProperty.self, methods: OrientationMethod.self,
            signals: OrientationSignal.allCases,
            onMethod: { [unowned self] method, call, error in self.handle(method, call: call, error: error) },
            onProperty: { [unowned self] property, reply in self.append(property, to: reply) })
    }

    /// Takes the bus name, last, once everything it promises is in place (Type=dbus: from
    /// here on systemd counts the service as started).
    func requestName() throws(SystemError) {
        let r = sd_bus_request_name(bus, BusPeer.motionOrientation.name, 0)
        guard r >= 0 else { throw SystemError("acquiring the bus name \(BusPeer.motionOrientation.name)", errno: r) }
    }

    private func append(_ property: OrientationProperty, to reply: OpaquePointer) -> Int32 {
        let tablet = tabletMode.shown
        switch property {
        case .deviceOrientation: return Bus.append(reply, string: orientations.device.name)
        case .interfaceOrientation: return Bus.append(reply, string: orientations.interface.name)
        case .hasAccelerometer: return Bus.append(reply, bool: acquisition != nil)
        case .sensor: return Bus.append(reply, string: acquisition?.info.syspath ?? "")
        case .sensorChoice: return Bus.append(reply, string: sensorChoice)
        case .active: return Bus.append(reply, bool: plan != .off)
        case .lowEnergyMode: return Bus.append(reply, bool: lowEnergy.isLow)
        case .lowEnergyModeSetting: return Bus.append(reply, string: lowEnergy.settingInForce.rawValue)
        case .lowEnergyReasons: return Bus.append(reply, strings: lowEnergy.reasons.map(\.rawValue))
        case .thermalState: return Bus.append(reply, string: lowEnergy.thermal.state.rawValue)
        case .sampleIntervalMsec: return Bus.append(reply, uint32: plan.intervalMsec)
        case .tabletMode: return Bus.append(reply, bool: tablet.mode)
        case .tabletModeSource: return Bus.append(reply, string: tablet.source.name)
        case .hingeAngle: return Bus.append(reply, double: tablet.angle ?? -1)
        case .hingeState: return Bus.append(reply, string: tablet.hingeState.name)
        }
    }

    /// Whether a call that waits for a decision can be answered now: no sensor, paused, or
    /// sampling with an orientation known.
    private var answersAtOnce: Bool {
        acquisition == nil || isPaused || (plan != .off && orientations.device != .unknown)
    }

    /// `ClaimAccelerometer()`: the claim is the same claim as `Start()`; as in
    /// iio-sensor-proxy it returns once the orientation is known (a bounded wait, as
    /// `ReadOrientation()`).
    func claimAccelerometer(_ call: OpaquePointer) -> Int32? {
        claims.add(from: call)
        if answersAtOnce {
            updateSampling()
            return Bus.reply(to: call)
        }
        claims.waitForDecision(call, claim: true)
        updateSampling()
        claims.armTimeout()
        return nil
    }

    func releaseAccelerometer(_ call: OpaquePointer) {
        claims.remove(from: call)
        updateSampling()
    }

    private func handle(
        _ method: OrientationMethod, call: OpaquePointer, error: UnsafeMutablePointer<sd_bus_error>
    ) -> Int32 {
        switch method {
        case .start:
            claims.add(from: call)
            updateSampling()
            return Bus.reply(to: call)
        case .stop:
            claims.remove(from: call)
            updateSampling()
            return Bus.reply(to: call)
        case .readOrientation:
            if answersAtOnce {
                return Bus.reply(to: call, strings: [orientations.device.name, orientations.interface.name])
            }
            claims.waitForDecision(call, claim: false)
            updateSampling()
            return 1
        case .setLowEnergyMode:
            return setLowEnergyMode(call, error: error)
        }
    }

    private func setLowEnergyMode(_ call: OpaquePointer, error: UnsafeMutablePointer<sd_bus_error>) -> Int32 {
        guard let word = try? Bus.readString(call) else {
            return sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", "Expected a string argument")
        }
        guard let setting = LowEnergySetting(rawValue: word) else {
            return sd_bus_error_set(
                error, "org.freedesktop.DBus.Error.InvalidArgs",
                "Invalid low energy mode '\(word.prefix(32))': expected auto, on or off")
        }
        switch isPrivileged(call) {
        case .success(true): break
        case .success(false):
            Log.notice("refused SetLowEnergyMode(\(word)) from \(Claims.sender(of: call)): not privileged")
            return sd_bus_error_set(
                error, "org.freedesktop.DBus.Error.AccessDenied",
                "Only root\(settings.privilegedGroup.map { " or members of \($0)" } ?? "") may set the low energy mode")
        case .failure(let failure):
            Log.warning("SetLowEnergyMode: cannot check the caller \(Claims.sender(of: call)): \(failure)")
            return sd_bus_error_set(error, "org.freedesktop.DBus.Error.AccessDenied", "Cannot verify the caller")
        }
        Log.info("low energy mode set to \(word) by \(Claims.sender(of: call)) until the next reload")
        lowEnergy.setOverride(setting)
        return Bus.reply(to: call)
    }

    /// Whether the caller is root or a member of the configured group, from the
    /// credentials the bus vouches for.
    private func isPrivileged(_ call: OpaquePointer) -> Result<Bool, SystemError> {
        var creds: OpaquePointer? = nil
        // AUGMENT: fill in from /proc what the bus itself does not vouch for.
        let identity: UInt = SD_BUS_CREDS_UID | SD_BUS_CREDS_EUID | SD_BUS_CREDS_EGID
        let mask = UInt64(identity | SD_BUS_CREDS_SUPPLEMENTARY_GIDS | SD_BUS_CREDS_AUGMENT)
        var r = sd_bus_query_sender_creds(call, mask, &creds)
        guard r >= 0, let creds else { return .failure(SystemError("sd_bus_query_sender_creds", errno: r)) }
        defer { sd_bus_creds_unref(creds) }
        var uid: uid_t = 0
        r = sd_bus_creds_get_euid(creds, &uid)
        if r < 0 { r = sd_bus_creds_get_uid(creds, &uid) }
        guard r >= 0 else { return .failure(SystemError("reading the caller's uid", errno: r)) }
        if uid == 0 { return .success(true) }
        guard let group = settings.privilegedGroup else { return .success(false) }
        guard let entry = getgrnam(group) else {
            Log.warning("[Energy] PrivilegedGroup=\(group): no such group")
            return .success(false)
        }
        let wanted = entry.pointee.gr_gid
        var gid: gid_t = 0
        if sd_bus_creds_get_egid(creds, &gid) >= 0 && gid == wanted { return .success(true) }
        var gids: UnsafePointer<gid_t>? = nil
        let count = sd_bus_creds_get_supplementary_gids(creds, &gids)
        if count > 0, let gids {
            for index in 0..<Int(count) where gids[index] == wanted { return .success(true) }
        }
        return .success(false)
    }
}
