import CMotionShim
import CSystemd
import ErrorsAndLog
import Glibc
import OrientationCore
import SensorIO
import SystemdBus

/// The daemon's object on the bus: properties, methods, claims.
extension Daemon {
    func setUpBus() throws(SystemError) {
        var r = sd_bus_open_system(&bus)
        guard r >= 0 else { throw SystemError("connecting to the system bus", errno: r) }
        r = addObject(
            MotionOrientationBus.path, MotionOrientationBus.interface, MO_INTERFACE_ORIENTATION,
            OrientationProperty.self, slot: &objectSlot)
        guard r >= 0 else { throw SystemError("registering \(MotionOrientationBus.path)", errno: r) }
        r = sd_bus_attach_event(bus, event, 0)
        guard r >= 0 else { throw SystemError("attaching the bus to the event loop", errno: r) }
        // Losing the bus ends the loop; run() then exits non-zero for systemd to restart us.
        r = sd_bus_set_exit_on_disconnect(bus, 1)
        guard r >= 0 else { throw SystemError("sd_bus_set_exit_on_disconnect", errno: r) }
        // Signals addressed to us by anyone but the bus itself are forged: sd-bus cannot tell
        // a well-known sender (login1, a power-profiles daemon) from an impostor in them, so
        // they are dropped before any match sees them.
        r = sd_bus_add_filter(
            bus, &signalFilter,
            { message, _, _ in
                var type: UInt8 = 0
                guard let message, sd_bus_message_get_type(message, &type) >= 0 else { return 0 }
                guard type == UInt8(SD_BUS_MESSAGE_SIGNAL), sd_bus_message_get_destination(message) != nil,
                    sd_bus_message_get_sender(message).map({ String(cString: $0) }) != FreedesktopBus.name
                else { return 0 }
                return 1
            }, nil)
        guard r >= 0 else { throw SystemError("sd_bus_add_filter", errno: r) }
        // Claims end when their client leaves the bus: one watch for everyone (a match per
        // client would run into the bus's limit on match rules per connection).
        claimWatch = try Bus.matchNameOwnerChanged(bus!) { [unowned self] change in
            guard change.name.utf8.first == UInt8(ascii: ":"), change.newOwner.isEmpty,
                self.claimants.remove(change.name) != nil
            else { return }
            Log.debug("claim of \(change.name) ended: it left the bus")
            self.updateSampling()
        }
    }

    /// Takes the bus name, last, once everything it promises is in place (Type=dbus: from
    /// here on systemd counts the service as started).
    func requestName() throws(SystemError) {
        let r = sd_bus_request_name(bus, MotionOrientationBus.name, 0)
        guard r >= 0 else { throw SystemError("acquiring the bus name \(MotionOrientationBus.name)", errno: r) }
    }

    /// Serves one of the shim's interfaces at `path`, with the properties `Property` names,
    /// dispatching to this daemon.
    private func addObject<Property: BusProperty>(
        _ path: String, _ name: String, _ interface: mo_interface, _: Property.Type, slot: inout OpaquePointer?
    ) -> Int32 {
        var handlers = mo_object_handlers(
            method: { context, interface, member, call, error in
                Daemon.from(context).handleMethod(interface, String(cString: member!), call: call!, error: error!)
            },
            property: { context, interface, property, reply, _ in
                Daemon.from(context).appendProperty(interface, String(cString: property!), to: reply!)
            })
        // The shim copies the strings: they need to live only for the call.
        let cStrings = Property.allCases.map { (strdup($0.rawValue), strdup($0.signature)) }
        defer {
            cStrings.forEach {
                free($0.0)
                free($0.1)
            }
        }
        guard cStrings.allSatisfy({ $0.0 != nil && $0.1 != nil }) else { return -ENOMEM }
        let properties = cStrings.map { mo_property(name: $0.0, signature: $0.1) }
        return mo_bus_add_object(
            bus, &slot, path, name, interface, properties, properties.count, &handlers, unmanaged)
    }

    /// Serves or withdraws iio-sensor-proxy's name and objects as `[Compatibility]
    /// SensorProxy=` says (at start and on reload).
    func updateSensorProxyCompatibility() {
        let wanted = settings.sensorProxyCompatibility
        guard wanted != !sensorProxySlots.isEmpty, let bus else { return }
        if !wanted {
            sensorProxySlots.forEach { sd_bus_slot_unref($0) }
            sensorProxySlots = []
            let r = sd_bus_release_name(bus, SensorProxyBus.name)
            if r < 0 {
                Log.warning("releasing \(SensorProxyBus.name): \(SystemError("sd_bus_release_name", errno: r))")
            }
            Log.info("no longer serving \(SensorProxyBus.name)")
            return
        }
        for path in [SensorProxyBus.path, SensorProxyBus.compassPath] {
            var slot: OpaquePointer? = nil
            let r =
                path == SensorProxyBus.path
                ? addObject(
                    path, SensorProxyBus.interface, MO_INTERFACE_SENSOR_PROXY, SensorProxyProperty.self, slot: &slot)
                : addObject(
                    path, SensorProxyBus.compassInterface, MO_INTERFACE_SENSOR_PROXY_COMPASS,
                    SensorProxyCompassProperty.self, slot: &slot)
            guard r >= 0, let slot else {
                Log.error("cannot serve \(path): \(SystemError("sd_bus_add_object_vtable", errno: r))")
                continue
            }
            sensorProxySlots.append(slot)
        }
        let r = sd_bus_request_name(bus, SensorProxyBus.name, 0)
        if r < 0 {
            Log.error(
                "cannot own \(SensorProxyBus.name) (is iio-sensor-proxy running?): \(SystemError("sd_bus_request_name", errno: r))"
            )
        } else {
            Log.info("also serving \(SensorProxyBus.name) for iio-sensor-proxy clients")
        }
    }

    /// Announces changed properties of the compatibility interface, if it is served.
    func emitSensorProxyPropertiesChanged(_ properties: [SensorProxyProperty]) {
        guard let bus, !sensorProxySlots.isEmpty else { return }
        report(
            Bus.emitPropertiesChanged(bus, path: SensorProxyBus.path, interface: SensorProxyBus.interface, properties),
            "PropertiesChanged of \(SensorProxyBus.interface)")
    }

    /// Announces changed properties of the daemon's interface.
    func emitPropertiesChanged(_ properties: [OrientationProperty]) {
        guard let bus else { return }
        report(
            Bus.emitPropertiesChanged(
                bus, path: MotionOrientationBus.path, interface: MotionOrientationBus.interface, properties),
            "PropertiesChanged of \(MotionOrientationBus.interface)")
    }

    /// Emits `DeviceOrientationChanged` or `InterfaceOrientationChanged`.
    func emitOrientationSignal(_ member: String, name: String, value: UInt32) {
        guard let bus else { return }
        report(
            Bus.emitSignal(
                bus, path: MotionOrientationBus.path, interface: MotionOrientationBus.interface, member: member,
                name: name, value: value), member)
    }

    /// Emits `TabletModeChanged`.
    func emitTabletModeSignal(_ tabletMode: Bool) {
        guard let bus else { return }
        report(
            Bus.emitSignal(
                bus, path: MotionOrientationBus.path, interface: MotionOrientationBus.interface,
                member: "TabletModeChanged", bool: tabletMode), "TabletModeChanged")
    }

    /// Logs a failed emission once (until one succeeds again): a client misses news, the
    /// daemon goes on.
    private func report(_ r: Int32, _ what: String) {
        if r < 0 {
            busProblems.report(what, "cannot emit \(what): \(SystemError("sd_bus_send", errno: r))")
        } else {
            busProblems.resolve(what)
        }
    }

    private func appendProperty(_ interface: mo_interface, _ name: String, to reply: OpaquePointer) -> Int32 {
        switch interface {
        case MO_INTERFACE_SENSOR_PROXY:
            guard let property = SensorProxyProperty(rawValue: name) else { return -ENOENT }
            return appendSensorProxyProperty(property, to: reply)
        case MO_INTERFACE_SENSOR_PROXY_COMPASS:
            // No compass: HasCompass false, and iio-sensor-proxy's "unset" heading.
            switch SensorProxyCompassProperty(rawValue: name) {
            case .hasCompass: return Bus.append(reply, bool: false)
            case .compassHeading: return Bus.append(reply, double: -1)
            case nil: return -ENOENT
            }
        default: break
        }
        guard let property = OrientationProperty(rawValue: name) else { return -ENOENT }
        switch property {
        case .deviceOrientation: return Bus.append(reply, string: deviceOrientation.name)
        case .interfaceOrientation: return Bus.append(reply, string: interfaceOrientation.name)
        case .hasAccelerometer: return Bus.append(reply, bool: acquisition != nil)
        case .sensor: return Bus.append(reply, string: acquisition?.info.syspath ?? "")
        case .sensorChoice: return Bus.append(reply, string: sensorChoice)
        case .active: return Bus.append(reply, bool: plan != .off)
        case .lowEnergyMode: return Bus.append(reply, bool: !lowEnergyReasons.isEmpty)
        case .lowEnergyModeSetting:
            return Bus.append(reply, string: (runtimeLowEnergy ?? settings.lowEnergyMode).rawValue)
        case .lowEnergyReasons: return Bus.append(reply, strings: lowEnergyReasons.map(\.rawValue))
        case .thermalState: return Bus.append(reply, string: thermal.state.rawValue)
        case .sampleIntervalMsec: return Bus.append(reply, uint32: plan.intervalMsec)
        case .tabletMode: return Bus.append(reply, bool: tablet.mode)
        case .tabletModeSource: return Bus.append(reply, string: tablet.source.name)
        case .hingeAngle: return Bus.append(reply, double: tablet.angle ?? -1)
        case .hingeState: return Bus.append(reply, string: tablet.hingeState.name)
        }
    }

    /// iio-sensor-proxy's properties: the accelerometer from our decisions; no light or
    /// proximity sensor.
    private func appendSensorProxyProperty(_ property: SensorProxyProperty, to reply: OpaquePointer) -> Int32 {
        switch property {
        case .hasAccelerometer: return Bus.append(reply, bool: acquisition != nil)
        case .accelerometerOrientation:
            return Bus.append(reply, string: SensorProxyCompatibility.orientation(lastUprightDevice))
        case .accelerometerTilt: return Bus.append(reply, string: sensorProxyTilt)
        case .hasAmbientLight, .hasProximity, .proximityNear: return Bus.append(reply, bool: false)
        case .lightLevelUnit: return Bus.append(reply, string: "lux")
        case .lightLevel: return Bus.append(reply, double: 0)
        }
    }

    private func handleMethod(
        _ interface: mo_interface, _ member: String, call: OpaquePointer, error: UnsafeMutablePointer<sd_bus_error>
    ) -> Int32 {
        if interface != MO_INTERFACE_ORIENTATION {
            switch member {
            // The accelerometer claim is the same claim as Start()/Stop(); as in iio-sensor-proxy
            // it returns once the orientation is known (a bounded wait, as ReadOrientation).
            case "ClaimAccelerometer":
                addClaim(from: call)
                if acquisition == nil || isPaused || (plan != .off && deviceOrientation != .unknown) {
                    updateSampling()
                    return Bus.reply(to: call)
                }
                pendingClaims.append(sd_bus_message_ref(call))
                updateSampling()
                armReadTimeout()
                return 1
            case "ReleaseAccelerometer": return handleMethod(MO_INTERFACE_ORIENTATION, "Stop", call: call, error: error)
            // No light, proximity or compass sensor: claiming one succeeds and changes nothing.
            default: return Bus.reply(to: call)
            }
        }
        switch member {
        case "Start":
            addClaim(from: call)
            updateSampling()
            return Bus.reply(to: call)
        case "Stop":
            // Releasing a claim the caller does not hold is not an error.
            if claimants.remove(sender(of: call)) != nil { Log.debug("claim released by \(sender(of: call))") }
            updateSampling()
            return Bus.reply(to: call)
        case "ReadOrientation":
            if acquisition == nil || isPaused || (plan != .off && deviceOrientation != .unknown) {
                return replyOrientation(to: call)
            }
            pendingReads.append(sd_bus_message_ref(call))
            updateSampling()
            return 1
        case "SetLowEnergyMode":
            return setLowEnergyMode(call, error: error)
        default:
            return sd_bus_error_set(error, "org.freedesktop.DBus.Error.UnknownMethod", "Unknown method \(member)")
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
            Log.notice("refused SetLowEnergyMode(\(word)) from \(sender(of: call)): not privileged")
            return sd_bus_error_set(
                error, "org.freedesktop.DBus.Error.AccessDenied",
                "Only root\(settings.privilegedGroup.map { " or members of \($0)" } ?? "") may set the low energy mode")
        case .failure(let failure):
            Log.warning("SetLowEnergyMode: cannot check the caller \(sender(of: call)): \(failure)")
            return sd_bus_error_set(error, "org.freedesktop.DBus.Error.AccessDenied", "Cannot verify the caller")
        }
        Log.info("low energy mode set to \(word) by \(sender(of: call)) until the next reload")
        runtimeLowEnergy = setting
        emitPropertiesChanged([.lowEnergyModeSetting])
        updateEnergy()
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

    /// Claims sampling for the caller. A set of unique names: a second claim from the same
    /// client changes nothing.
    private func addClaim(from call: OpaquePointer) {
        let caller = sender(of: call)
        if claimants.insert(caller).inserted { Log.debug("claim from \(caller)") }
    }

    private func sender(of call: OpaquePointer) -> String {
        sd_bus_message_get_sender(call).map { String(cString: $0) } ?? "?"
    }

    private func replyOrientation(to call: OpaquePointer) -> Int32 {
        Bus.reply(to: call, strings: [deviceOrientation.name, interfaceOrientation.name])
    }

    /// Answers the waiting `ReadOrientation()` calls with the orientations now known, and the
    /// waiting `ClaimAccelerometer()` calls.
    func answerPendingReads() {
        let calls = pendingReads
        pendingReads = []
        for call in calls {
            let r = replyOrientation(to: call)
            if r < 0 { Log.warning("answering ReadOrientation: \(SystemError("sd_bus_send", errno: r))") }
            sd_bus_message_unref(call)
        }
        let claims = pendingClaims
        pendingClaims = []
        for call in claims {
            let r = Bus.reply(to: call)
            if r < 0 { Log.warning("answering ClaimAccelerometer: \(SystemError("sd_bus_send", errno: r))") }
            sd_bus_message_unref(call)
        }
        readTimeout.disarm()
    }
}
