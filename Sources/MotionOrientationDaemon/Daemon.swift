import CMotionShim
import CSystemd
import Glibc
import OrientationCore

/// Seconds on the monotonic clock, the time base the estimator is fed with.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The daemon: every piece of state, owned by the main thread and driven by one
/// sd-event loop (sampling timer, bus, signals, watchdog).
public final class Daemon {
    /// How long `ReadOrientation()` waits for a fresh decision before answering with
    /// what it has, in microseconds.
    static let readOrientationTimeoutUsec: UInt64 = 1_000_000
    /// Timer slack we allow sd-event, in microseconds (its default is 250 ms).
    static let timerAccuracyUsec: UInt64 = 1_000

    let options: DaemonOptions
    let settings: DaemonSettings
    private var event: OpaquePointer?
    private var bus: OpaquePointer?
    private var objectSlot: OpaquePointer?
    private var claims: OpaquePointer?
    private var sampleTimer: OpaquePointer?
    private var readTimeout: OpaquePointer?

    private var reader: AccelerometerReader?
    private var estimator: OrientationEstimator
    private var interfacePolicy: InterfaceOrientationPolicy
    private var pendingReads: [OpaquePointer] = []
    private var plan: SamplingPlan = .off

    // What the bus shows.
    private(set) var deviceOrientation: DeviceOrientation = .unknown
    private(set) var interfaceOrientation: InterfaceOrientation = .unknown

    public init(options: DaemonOptions, settings: DaemonSettings) {
        self.options = options
        self.settings = settings
        self.estimator = OrientationEstimator(settings: settings.estimator)
        self.interfacePolicy = InterfaceOrientationPolicy(allowed: settings.allowedInterfaceOrientations)
    }

    deinit {
        for call in pendingReads { sd_bus_message_unref(call) }
        sd_event_source_unref(sampleTimer)
        sd_event_source_unref(readTimeout)
        sd_bus_track_unref(claims)
        sd_bus_slot_unref(objectSlot)
        sd_bus_flush_close_unref(bus)
        sd_event_unref(event)
    }

    private var unmanaged: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ pointer: UnsafeMutableRawPointer?) -> Daemon {
        Unmanaged<Daemon>.fromOpaque(pointer!).takeUnretainedValue()
    }

    // MARK: - Running

    /// Sets everything up, runs the loop until SIGTERM/SIGINT, and returns the exit status.
    public func run() -> Int32 {
        do {
            try setUpEventLoop()
            takeAccelerometer()
            try setUpBus()
        } catch {
            Log.error("\(error)")
            return 1
        }
        _ = sd_notify(0, "READY=1\nSTATUS=Serving orientation")
        Log.info("serving \(MO_BUS_NAME) on the system bus")
        let r = sd_event_loop(event)
        _ = sd_notify(0, "STOPPING=1")
        if r < 0 {
            Log.error("event loop failed: \(SystemError("sd_event_loop", errno: r))")
            return 1
        }
        // A signal ends the loop with 0; losing the bus (exit-on-disconnect) with 1.
        if r != 0 {
            Log.error("lost the connection to the system bus")
            return 1
        }
        Log.info("exiting")
        return 0
    }

    private func setUpEventLoop() throws(SystemError) {
        var r = sd_event_default(&event)
        guard r >= 0 else { throw SystemError("sd_event_default", errno: r) }
        for signal in [SIGTERM, SIGINT] {
            // A NULL handler makes the loop exit on the signal (blocked in main).
            r = sd_event_add_signal(event, nil, signal, nil, nil)
            guard r >= 0 else { throw SystemError("sd_event_add_signal(\(signal))", errno: r) }
        }
        r = sd_event_set_watchdog(event, 1)
        guard r >= 0 else { throw SystemError("sd_event_set_watchdog", errno: r) }
    }

    private func setUpBus() throws(SystemError) {
        var r = sd_bus_open_system(&bus)
        guard r >= 0 else { throw SystemError("connecting to the system bus", errno: r) }
        var handlers = mo_object_handlers(
            method: { context, member, call, error in
                Daemon.from(context).handleMethod(String(cString: member!), call: call!, error: error!)
            },
            property: { context, property, reply, _ in
                Daemon.from(context).appendProperty(String(cString: property!), to: reply!)
            })
        r = mo_bus_add_orientation_object(bus, &objectSlot, MO_BUS_PATH, &handlers, unmanaged)
        guard r >= 0 else { throw SystemError("registering \(MO_BUS_PATH)", errno: r) }
        r = sd_bus_attach_event(bus, event, 0)
        guard r >= 0 else { throw SystemError("attaching the bus to the event loop", errno: r) }
        // Losing the bus ends the loop; run() then exits non-zero for systemd to restart us.
        r = sd_bus_set_exit_on_disconnect(bus, 1)
        guard r >= 0 else { throw SystemError("sd_bus_set_exit_on_disconnect", errno: r) }
        r = sd_bus_request_name(bus, MO_BUS_NAME, 0)
        guard r >= 0 else { throw SystemError("acquiring the bus name \(MO_BUS_NAME)", errno: r) }
    }

    /// Picks the accelerometer to use (the first one found, for now).
    private func takeAccelerometer() {
        guard let info = AccelerometerDiscovery.chooseDisplayAccelerometer() else {
            Log.notice("no accelerometer found; serving with HasAccelerometer=false")
            return
        }
        do {
            reader = try AccelerometerReader(info: info)
            Log.info(
                "using accelerometer \(info.syspath) (\(info.name ?? "unnamed")), mount matrix from \(info.mountMatrixSource)"
            )
        } catch {
            Log.error("cannot use accelerometer: \(error)")
        }
    }

    // MARK: - Bus object

    private static let propertyNames = [
        "DeviceOrientation", "InterfaceOrientation", "HasAccelerometer", "Active", "SampleIntervalMsec",
    ]

    private func appendProperty(_ property: String, to reply: OpaquePointer) -> Int32 {
        switch property {
        case "DeviceOrientation": return Bus.append(reply, string: deviceOrientation.name)
        case "InterfaceOrientation": return Bus.append(reply, string: interfaceOrientation.name)
        case "HasAccelerometer": return Bus.append(reply, bool: reader != nil)
        case "Active": return Bus.append(reply, bool: plan != .off)
        case "SampleIntervalMsec": return Bus.append(reply, uint32: plan.intervalMsec)
        default: return -ENOENT
        }
    }

    private func handleMethod(_ member: String, call: OpaquePointer, error: UnsafeMutablePointer<sd_bus_error>)
        -> Int32
    {
        switch member {
        case "Start":
            if claims == nil {
                // Made on the first claim and dropped when empty: sd-bus calls the
                // handler of an empty track again and again until it is released.
                let r = sd_bus_track_new(
                    bus, &claims,
                    { _, context in
                        Daemon.from(context).claimsEmptied()
                        return 0
                    }, unmanaged)
                if r < 0 { return r }
            }
            let r = sd_bus_track_add_sender(claims, call)
            if r < 0 { return r }
            Log.debug("claim from \(sender(of: call))")
            updateSampling()
            return Bus.reply(to: call)
        case "Stop":
            // Releasing a claim the caller does not hold is not an error.
            if claims != nil {
                let r = sd_bus_track_remove_sender(claims, call)
                if r < 0 && r != -EUNATCH { return r }
            }
            Log.debug("claim released by \(sender(of: call))")
            updateSampling()
            return Bus.reply(to: call)
        case "ReadOrientation":
            if plan != .off && deviceOrientation != .unknown || reader == nil {
                return replyOrientation(to: call)
            }
            pendingReads.append(sd_bus_message_ref(call))
            updateSampling()
            return 1
        default:
            return sd_bus_error_set(error, "org.freedesktop.DBus.Error.UnknownMethod", "Unknown method \(member)")
        }
    }

    private func sender(of call: OpaquePointer) -> String {
        sd_bus_message_get_sender(call).map { String(cString: $0) } ?? "?"
    }

    private func replyOrientation(to call: OpaquePointer) -> Int32 {
        Bus.reply(to: call, strings: [deviceOrientation.name, interfaceOrientation.name])
    }

    /// The last claim went (released, or its client left the bus).
    private func claimsEmptied() {
        claims = sd_bus_track_unref(claims)
        updateSampling()
    }

    private func answerPendingReads() {
        let calls = pendingReads
        pendingReads = []
        for call in calls {
            let r = replyOrientation(to: call)
            if r < 0 { Log.warning("answering ReadOrientation: \(SystemError("sd_bus_send", errno: r))") }
            sd_bus_message_unref(call)
        }
        sd_event_source_set_enabled(readTimeout, Int32(SD_EVENT_OFF))
    }

    // MARK: - Sampling

    /// Applies the sampling policy to the current claims, waiting reads and sensor.
    private func updateSampling() {
        let inputs = SamplingInputs(
            claims: Int(sd_bus_track_count(claims)), pendingReads: pendingReads.count,
            hasAccelerometer: reader != nil)
        let next = settings.sampling.plan(inputs)
        guard next != plan else { return }
        let wasOff = plan == .off
        plan = next
        switch next {
        case .off:
            sd_event_source_set_enabled(sampleTimer, Int32(SD_EVENT_OFF))
            Log.debug("sampling stopped")
        case .every(let interval):
            if wasOff {
                // A new acquisition: decide from fresh readings only.
                estimator.reset()
                armSampleTimer(afterUsec: 0)
                Log.debug("sampling every \(interval) ms")
            }
        }
        if !pendingReads.isEmpty { armReadTimeout() }
        Bus.emitPropertiesChanged(
            bus!, path: MO_BUS_PATH, interface: MO_BUS_INTERFACE, names: ["Active", "SampleIntervalMsec"])
    }

    private func armSampleTimer(afterUsec usec: UInt64) {
        if let sampleTimer {
            sd_event_source_set_time_relative(sampleTimer, usec)
            sd_event_source_set_enabled(sampleTimer, Int32(SD_EVENT_ONESHOT))
            return
        }
        let r = sd_event_add_time_relative(
            event, &sampleTimer, CLOCK_MONOTONIC, usec, Daemon.timerAccuracyUsec,
            { _, _, context in
                Daemon.from(context).sample()
                return 0
            }, unmanaged)
        if r < 0 { Log.error("cannot arm the sampling timer: \(SystemError("sd_event_add_time_relative", errno: r))") }
    }

    private func armReadTimeout() {
        if let readTimeout {
            if sd_event_source_get_enabled(readTimeout, nil) > 0 { return }
            sd_event_source_set_time_relative(readTimeout, Daemon.readOrientationTimeoutUsec)
            sd_event_source_set_enabled(readTimeout, Int32(SD_EVENT_ONESHOT))
            return
        }
        let r = sd_event_add_time_relative(
            event, &readTimeout, CLOCK_MONOTONIC, Daemon.readOrientationTimeoutUsec, Daemon.timerAccuracyUsec,
            { _, _, context in
                let daemon = Daemon.from(context)
                Log.debug("ReadOrientation timed out before a decision; answering with the last known orientation")
                daemon.answerPendingReads()
                daemon.updateSampling()
                return 0
            }, unmanaged)
        if r < 0 { Log.error("cannot arm the read timeout: \(SystemError("sd_event_add_time_relative", errno: r))") }
    }

    /// One tick of the sampling timer: read, estimate, announce, re-arm.
    private func sample() {
        guard let reader else { return }
        if let reading = reader.read() {
            let decided = estimator.update(reading, at: monotonicSeconds())
            if decided != .unknown { publish(decided) }
        }
        if !pendingReads.isEmpty && estimator.orientation != .unknown {
            answerPendingReads()
            updateSampling()
        }
        if case .every(let interval) = plan {
            armSampleTimer(afterUsec: UInt64(interval) * 1000)
        }
    }

    /// Announces a decided device orientation and the interface orientation it implies.
    private func publish(_ device: DeviceOrientation) {
        guard device != deviceOrientation else { return }
        deviceOrientation = device
        let interface = interfacePolicy.update(device: device)
        let interfaceChanged = interface != interfaceOrientation
        interfaceOrientation = interface
        Log.info("device orientation \(device.name), interface orientation \(interface.name)")
        guard let bus else { return }
        Bus.emitPropertiesChanged(
            bus, path: MO_BUS_PATH, interface: MO_BUS_INTERFACE,
            names: interfaceChanged ? ["DeviceOrientation", "InterfaceOrientation"] : ["DeviceOrientation"])
        Bus.emitSignal(
            bus, path: MO_BUS_PATH, interface: MO_BUS_INTERFACE, member: "DeviceOrientationChanged",
            name: device.name, value: device.rawValue)
        if interfaceChanged {
            Bus.emitSignal(
                bus, path: MO_BUS_PATH, interface: MO_BUS_INTERFACE, member: "InterfaceOrientationChanged",
                name: interface.name, value: interface.rawValue)
        }
    }
}
