import CMotionShim
import CSystemd
import Glibc
import OrientationCore
import SystemdBus

/// Seconds on the monotonic clock, the time base the estimator is fed with.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The daemon: every piece of state, owned by the main thread and driven by one sd-event
/// loop (sampling and thermal timers, bus, udev monitor, signals, watchdog). The decisions
/// (orientation, energy, thermal state, sampling plan) are made by `OrientationCore`.
public final class Daemon {
    /// How long `ReadOrientation()` waits for a fresh decision before answering with what
    /// it has, in microseconds.
    static let readOrientationTimeoutUsec: UInt64 = 1_000_000
    /// Timer slack we allow sd-event, in microseconds (its default is 250 ms).
    static let timerAccuracyUsec: UInt64 = 1_000

    let options: DaemonOptions
    var settings: DaemonSettings
    /// The configuration entries in force, so a reload can keep a key whose new value is bad.
    var acceptedEntries: [ConfigEntry]
    var event: OpaquePointer?
    var bus: OpaquePointer?
    var objectSlot: OpaquePointer?
    /// The objects of `net.hadess.SensorProxy`, while compatibility is on.
    var sensorProxySlots: [OpaquePointer] = []
    /// Unique bus names of the clients holding a claim (`Start()`, `ClaimAccelerometer()`).
    var claimants: Set<String> = []
    var claimWatch: OpaquePointer?
    var signalFilter: OpaquePointer?
    /// Emissions that failed, each logged once until it works again.
    var busProblems = ProblemLog()
    private var sampleTimer: OpaquePointer?
    /// When the thermal zones were last read (monotonic seconds); nil: read at the next
    /// reading. Zones are read along with a sensor reading, never on a wakeup of their own.
    private var lastThermalRead: Double?
    var readTimeout: OpaquePointer?

    var reader: (any AccelerometerSource)?
    /// The buffered interface of the sensor, preferred while it delivers.
    private var buffered: BufferedAccelerometer?
    private var bufferDeadline: OpaquePointer?
    /// How long a freshly enabled buffer may stay silent before we poll instead.
    static let bufferDeadlineUsec: UInt64 = 1_000_000
    /// Which sensor was chosen and why (or why none).
    var sensorChoice = ""
    private var sensorMonitor: UdevMonitor?
    var estimator: OrientationEstimator
    var interfacePolicy: InterfaceOrientationPolicy
    var pendingReads: [OpaquePointer] = []
    var plan: SamplingPlan = .off
    /// When the estimator last saw motion (monotonic seconds).
    private var lastMotion: Double?

    // Energy: the sources and what they say.
    var energy: EnergySources?
    /// `SetLowEnergyMode()`'s override of the configured flag, until the next reload.
    var runtimeLowEnergy: LowEnergySetting?
    var thermal: ThermalMonitor
    private var thermalZones = ThermalZones()
    var lowEnergyReasons: [LowEnergyReason] = []

    // What the bus shows.
    var deviceOrientation: DeviceOrientation = .unknown
    var interfaceOrientation: InterfaceOrientation = .unknown
    /// The last upright device orientation announced (iio-sensor-proxy knows no face-up).
    var lastUprightDevice: DeviceOrientation = .unknown
    /// `AccelerometerTilt` of the compatibility interface.
    var sensorProxyTilt = "undefined"

    public init(options: DaemonOptions, configuration: LoadedConfiguration) {
        self.options = options
        self.settings = configuration.settings
        self.acceptedEntries = configuration.acceptedEntries
        self.estimator = OrientationEstimator(settings: settings.estimator)
        self.interfacePolicy = InterfaceOrientationPolicy(allowed: settings.allowedInterfaceOrientations)
        self.thermal = ThermalMonitor(settings: settings.thermal)
    }

    deinit {
        for call in pendingReads { sd_bus_message_unref(call) }
        energy = nil
        sensorMonitor = nil
        buffered = nil
        sd_event_source_disable_unref(bufferDeadline)
        sd_event_source_disable_unref(sampleTimer)
        sd_event_source_disable_unref(readTimeout)
        sd_bus_slot_unref(claimWatch)
        sd_bus_slot_unref(signalFilter)
        sensorProxySlots.forEach { sd_bus_slot_unref($0) }
        sd_bus_slot_unref(objectSlot)
        sd_bus_flush_close_unref(bus)
        sd_event_unref(event)
    }

    var unmanaged: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> Daemon {
        Unmanaged<Daemon>.fromOpaque(pointer!).takeUnretainedValue()
    }

    // MARK: - Running

    /// Sets everything up, runs the loop until SIGTERM/SIGINT, and returns the exit status.
    public func run() -> Int32 {
        do {
            try setUpEventLoop()
            takeAccelerometer(AccelerometerDiscovery.choose(settings))
            try setUpBus()
            sensorMonitor = try UdevMonitor(event: event!, subsystems: ["iio", "input"]) {
                [unowned self] action, subsystem, syspath, property in
                // Keyboards, mice and the like come and go: only accelerometers matter, and of
                // one only its event device (its parent inputN carries the same property).
                if subsystem == "input" {
                    let isEventDevice = syspath.split(separator: "/").last?.hasPrefix("event") ?? false
                    if !isEventDevice || property("ID_INPUT_ACCELEROMETER") != "1" { return }
                }
                self.sensorDeviceChanged(action: action, syspath: syspath)
            }
            energy = try EnergySources(daemon: self)
            updateEnergy()
            try requestName()
            updateSensorProxyCompatibility()
        } catch {
            Log.error("\(error)")
            return 1
        }
        _ = sd_notify(0, "READY=1\nSTATUS=Serving orientation")
        Log.info("serving \(MotionOrientationBus.name) on the system bus")
        let r = sd_event_loop(event)
        _ = sd_notify(0, "STOPPING=1")
        buffered?.stop()
        reader?.restoreSamplingFrequency()
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
        r = sd_event_add_signal(
            event, nil, SIGHUP,
            { _, _, context in
                Daemon.from(context).reload()
                return 0
            }, unmanaged)
        guard r >= 0 else { throw SystemError("sd_event_add_signal(SIGHUP)", errno: r) }
        r = sd_event_set_watchdog(event, 1)
        guard r >= 0 else { throw SystemError("sd_event_set_watchdog", errno: r) }
    }

    /// Chooses the accelerometer (at start, on udev events for IIO devices, on reload) and
    /// takes it: a new or changed sensor starts a fresh acquisition for the existing
    /// claims; no sensor makes `HasAccelerometer` false and the orientations unknown, while
    /// the claims stay.
    func takeAccelerometer(_ choice: AccelerometerChoice) {
        let previous = reader?.info.syspath
        if choice.reason != sensorChoice { Log.info("accelerometer: \(choice.reason)") }
        sensorChoice = choice.reason
        buffered = nil
        if let info = choice.info {
            if info.subsystem == .iio && (settings.preferBuffer || !info.hasRawChannels) {
                buffered = BufferedAccelerometer(info: info, devnode: info.devnode)
            }
            do {
                reader = try AccelerometerDiscovery.reader(for: info)
                estimator.facesAvailable = info.mountMatrix.tellsFaceUpFromFaceDown
                Log.info(
                    "using accelerometer \(info.syspath) (\(info.name ?? "unnamed")), mount matrix from \(info.mountMatrixSource)"
                )
            } catch {
                Log.error("cannot use accelerometer: \(error)")
                reader = nil
            }
        } else {
            reader = nil
        }
        guard bus != nil else { return }  // at start-up, before the bus: nothing to announce
        let current = reader?.info.syspath
        if current != previous || current != nil {
            // A new sensor, or new calibration or mount matrix: decide from fresh readings.
            estimator.reset()
        }
        if (current == nil) != (previous == nil) {
            emitPropertiesChanged([.hasAccelerometer])
            emitSensorProxyPropertiesChanged([.hasAccelerometer])
        }
        emitPropertiesChanged([.sensor, .sensorChoice])
        if current == nil {
            Log.notice("no accelerometer; serving with HasAccelerometer=false and keeping the claims")
            announce(device: .unknown, interface: .unknown)
        }
        // Restart the acquisition if sampling was running (or stop it: no sensor).
        let wasSampling = plan != .off
        if wasSampling {
            suspendSampling()
            plan = .off
        }
        updateSampling()
        if wasSampling && plan == .off { emitPropertiesChanged([.active, .sampleIntervalMsec]) }
    }

    /// A udev event for an IIO device or an input accelerometer: re-choose (an added, removed
    /// or changed sensor).
    private func sensorDeviceChanged(action: String, syspath: String) {
        let current = reader?.info.syspath
        Log.debug("udev: \(action) \(syspath)")
        // A change of another device than ours means nothing, unless we have none.
        if action == "change" && current != nil && syspath != current { return }
        takeAccelerometer(AccelerometerDiscovery.choose(settings))
    }

    // MARK: - Configuration

    /// SIGHUP: re-reads the configuration. Claims, the orientation and the sensor stay;
    /// `SetLowEnergyMode()`'s override ends; a key whose new value is bad keeps the old one.
    func reload() {
        Log.info("reloading the configuration")
        guard let loaded = loadConfiguration(options, keeping: acceptedEntries) else {
            Log.warning("keeping the previous configuration")
            return
        }
        let previous = settings
        settings = loaded.settings
        acceptedEntries = loaded.acceptedEntries
        runtimeLowEnergy = nil
        if settings.estimator != previous.estimator {
            estimator = OrientationEstimator(settings: settings.estimator, facesAvailable: estimator.facesAvailable)
        }
        if settings.allowedInterfaceOrientations != previous.allowedInterfaceOrientations {
            interfacePolicy = InterfaceOrientationPolicy(allowed: settings.allowedInterfaceOrientations)
            interfacePolicy.update(device: estimator.lastUprightOrientation ?? deviceOrientation)
            announce(device: deviceOrientation, interface: interfacePolicy.orientation)
        }
        thermal.settings = settings.thermal
        if settings.sensorPin != previous.sensorPin || settings.mountMatrixOverride != previous.mountMatrixOverride {
            takeAccelerometer(AccelerometerDiscovery.choose(settings))
        }
        updateSensorProxyCompatibility()
        emitPropertiesChanged([.lowEnergyModeSetting])
        energy?.refreshBatteries()
        updateEnergy()
    }

    // MARK: - Energy

    /// Recomputes the low-energy reasons from the setting and the triggers, announces a
    /// change, and applies it to sampling.
    func updateEnergy() {
        let inputs = EnergyInputs(
            setting: runtimeLowEnergy ?? settings.lowEnergyMode, powerSaver: energy?.powerSaver ?? false,
            batteryLow: energy?.batteryLow ?? false, thermalState: thermal.state)
        let reasons = EnergyPolicy.reasons(inputs)
        if reasons != lowEnergyReasons {
            let wasLow = !lowEnergyReasons.isEmpty
            lowEnergyReasons = reasons
            Log.info(
                reasons.isEmpty
                    ? "low energy mode off" : "low energy mode on: \(reasons.map(\.rawValue).joined(separator: ", "))")
            emitPropertiesChanged(
                wasLow != !reasons.isEmpty ? [.lowEnergyMode, .lowEnergyReasons] : [.lowEnergyReasons])
        }
        updateSampling()
    }

    /// Reads the thermal zones (only while sampling) and applies the new thermal state.
    private func readThermalZones() {
        let before = thermal.state
        let after = thermal.update(thermalZones.read())
        guard after != before else { return }
        Log.info("thermal state \(after.rawValue)")
        emitPropertiesChanged([.thermalState])
        updateEnergy()
    }

    // MARK: - Sampling

    var isPaused: Bool {
        guard let energy else { return false }
        return energy.suspended || (energy.lidClosed && settings.pauseWhenLidClosed)
    }

    /// Applies the sampling policy to claims, waiting reads, sensor, motion, energy and
    /// suspend; starts, re-times or stops the timers and announces the change.
    func updateSampling() {
        let now = monotonicSeconds()
        let inputs = SamplingInputs(
            claims: claimants.count, pendingReads: pendingReads.count,
            hasAccelerometer: reader != nil, moving: estimator.isSettling,
            secondsSinceMotion: lastMotion.map { now - $0 }, lowEnergy: !lowEnergyReasons.isEmpty,
            thermalState: thermal.state, paused: isPaused)
        let next = settings.sampling.plan(inputs)
        guard next != plan else { return }
        let previous = plan
        plan = next
        switch next {
        case .off:
            suspendSampling()
            Log.debug("sampling stopped")
            if isPaused { answerPendingReads() }
        case .every(let interval):
            reader?.setSamplingInterval(msec: interval)
            if previous == .off {
                // A new acquisition: decide from fresh readings only.
                estimator.reset()
                lastMotion = nil
                lastThermalRead = nil
                if !startBuffer() { armSampleTimer(afterUsec: 0) }
            } else if interval < previous.intervalMsec && !(buffered?.isRunning ?? false) {
                armSampleTimer(afterUsec: UInt64(interval) * 1000)
            }
            Log.debug("sampling every \(interval) ms")
        }
        if !pendingReads.isEmpty { armReadTimeout() }
        emitPropertiesChanged(
            (previous == .off) != (next == .off) ? [.active, .sampleIntervalMsec] : [.sampleIntervalMsec])
    }

    /// Stops the timers and the buffer without touching the plan (the caller re-plans).
    private func suspendSampling() {
        sd_event_source_set_enabled(sampleTimer, Int32(SD_EVENT_OFF))
        sd_event_source_set_enabled(bufferDeadline, Int32(SD_EVENT_OFF))
        buffered?.stop()
        reader?.stopSampling()
    }

    /// Starts reading the buffered interface, if the sensor has a usable one; a buffer that
    /// delivers nothing before the deadline, or fails later, falls back to polling.
    private func startBuffer() -> Bool {
        guard let buffered, let event else { return false }
        do {
            try buffered.start(
                event: event, sink: { [unowned self] reading, time in self.take(reading, at: time) },
                onFailure: { [unowned self] why in self.pollInstead(why) })
        } catch {
            pollInstead("cannot use the buffer: \(error)")
            return false
        }
        Log.info("reading \(buffered.devnode) (buffered)")
        armTimer(&bufferDeadline, afterUsec: Daemon.bufferDeadlineUsec) { daemon in
            if let buffered = daemon.buffered, buffered.isRunning, !buffered.delivered {
                daemon.pollInstead("\(buffered.devnode) delivered nothing within a second")
            }
        }
        return true
    }

    /// Gives up on the buffered interface (until the sensor changes) and polls. A device
    /// without raw channels cannot be polled: its buffer is kept (tried again at the next
    /// acquisition if it failed).
    private func pollInstead(_ why: String) {
        if let reader, reader.info.subsystem == .iio, !reader.info.hasRawChannels {
            Log.warning("\(why); \(reader.info.syspath) has no raw channels to poll, only its buffer")
            return
        }
        Log.warning("\(why); polling the channels instead")
        buffered?.stop()
        buffered = nil
        if plan != .off { armSampleTimer(afterUsec: 0) }
    }

    private func armSampleTimer(afterUsec usec: UInt64) {
        armTimer(&sampleTimer, afterUsec: usec) { $0.sample() }
    }

    private func armReadTimeout() {
        if let readTimeout, sd_event_source_get_enabled(readTimeout, nil) > 0 { return }
        armTimer(&readTimeout, afterUsec: Daemon.readOrientationTimeoutUsec) { daemon in
            Log.debug("ReadOrientation timed out before a decision; answering with the last known orientation")
            daemon.answerPendingReads()
            daemon.updateSampling()
        }
    }

    /// Arms a one-shot monotonic timer, making it on first use. The action is fixed when
    /// the timer is made.
    private func armTimer(_ timer: inout OpaquePointer?, afterUsec usec: UInt64, _ action: @escaping (Daemon) -> Void) {
        if let timer {
            sd_event_source_set_time_relative(timer, usec)
            sd_event_source_set_enabled(timer, Int32(SD_EVENT_ONESHOT))
            return
        }
        let box = Unmanaged.passRetained(TimerAction(daemon: self, action))
        let r = sd_event_add_time_relative(
            event, &timer, CLOCK_MONOTONIC, usec, Daemon.timerAccuracyUsec,
            { _, _, context in
                let box = Unmanaged<TimerAction>.fromOpaque(context!).takeUnretainedValue()
                if let daemon = box.daemon { box.action(daemon) }
                return 0
            }, box.toOpaque())
        if r < 0 {
            box.release()
            Log.error("cannot arm a timer: \(SystemError("sd_event_add_time_relative", errno: r))")
            return
        }
        sd_event_source_set_destroy_callback(timer) { context in
            Unmanaged<TimerAction>.fromOpaque(context!).release()
        }
    }

    /// One tick of the sampling timer: read, then take the reading and re-arm.
    private func sample() {
        guard let reader else { return }
        let now = monotonicSeconds()
        if let reading = reader.read() { take(reading, at: now) }
        if case .every(let interval) = plan, !(buffered?.isRunning ?? false) {
            armSampleTimer(afterUsec: UInt64(interval) * 1000)
        }
    }

    /// One reading, polled or from the buffer: estimate, announce, answer waiting reads,
    /// re-plan.
    private func take(_ reading: Vector3, at time: Double) {
        let interval = Double(settings.sampling.thermalIntervalMsec) / 1000
        if lastThermalRead.map({ time - $0 >= interval }) ?? true {
            lastThermalRead = time
            readThermalZones()
        }
        let decided = estimator.update(reading, at: time)
        if decided != .unknown { publish(decided) }
        updateSensorProxyTilt()
        if estimator.isSettling { lastMotion = time }
        if !pendingReads.isEmpty && estimator.orientation != .unknown {
            answerPendingReads()
        }
        updateSampling()
    }

    /// Announces a decided device orientation and the interface orientation it implies.
    private func publish(_ device: DeviceOrientation) {
        guard device != deviceOrientation else { return }
        announce(device: device, interface: interfacePolicy.update(device: device))
    }

    /// Takes new orientations and emits `PropertiesChanged` and the change signals for
    /// whichever changed.
    func announce(device: DeviceOrientation, interface: InterfaceOrientation) {
        let deviceChanged = device != deviceOrientation
        let interfaceChanged = interface != interfaceOrientation
        guard deviceChanged || interfaceChanged else { return }
        deviceOrientation = device
        interfaceOrientation = interface
        Log.info("device orientation \(device.name), interface orientation \(interface.name)")
        emitPropertiesChanged(
            (deviceChanged ? [.deviceOrientation] : []) + (interfaceChanged ? [.interfaceOrientation] : []))
        if device.isUpright && device != lastUprightDevice {
            lastUprightDevice = device
            // Some iio-sensor-proxy clients read only the first entry: the orientation.
            emitSensorProxyPropertiesChanged([.accelerometerOrientation])
        }
        if deviceChanged {
            emitOrientationSignal("DeviceOrientationChanged", name: device.name, value: device.rawValue)
        }
        if interfaceChanged {
            emitOrientationSignal("InterfaceOrientationChanged", name: interface.name, value: interface.rawValue)
        }
    }

    /// Keeps the compatibility interface's `AccelerometerTilt` up to date.
    private func updateSensorProxyTilt() {
        let tilt = SensorProxyCompatibility.tilt(device: deviceOrientation, gravity: estimator.filteredGravity)
        guard tilt != sensorProxyTilt else { return }
        sensorProxyTilt = tilt
        emitSensorProxyPropertiesChanged([.accelerometerTilt])
    }

    /// After suspend: nothing decided before the sleep may be announced as fresh.
    func resumed() {
        estimator.reset()
        lastMotion = nil
    }
}

/// A timer's action, carried through sd-event's userdata.
private final class TimerAction {
    weak var daemon: Daemon?
    let action: (Daemon) -> Void
    init(daemon: Daemon, _ action: @escaping (Daemon) -> Void) {
        self.daemon = daemon
        self.action = action
    }
}
