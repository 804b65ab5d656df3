import CMotionShim
import CSystemd
import ErrorsAndLog
import Glibc
import OrientationCore
import SensorIO
import SystemdBus

/// The daemon's context: every piece of state, owned by the main thread and driven by one
/// sd-event loop (bus, udev monitor, signals, watchdog, and the acquisition's timers), and
/// the path from a reading to an announcement: estimate, decide, announce. The decisions
/// (orientation, energy, thermal state, sampling plan) are made by `OrientationCore`; the
/// sensor is read by an `Acquisition`.
public final class Daemon {
    /// How long `ReadOrientation()` (and the compatibility interface's `ClaimAccelerometer()`)
    /// waits for a fresh decision before answering with what it has, in microseconds.
    static let readOrientationTimeoutUsec: UInt64 = 1_000_000

    private let options: DaemonOptions
    private(set) var settings: DaemonSettings
    /// The configuration entries in force, so a reload can keep a key whose new value is bad.
    private var acceptedEntries: [ConfigEntry]
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
    /// When the thermal zones were last read (monotonic seconds); nil: read at the next
    /// reading. Zones are read along with a sensor reading, never on a wakeup of their own.
    private var lastThermalRead: Double?
    /// Answers the waiting `ReadOrientation()` and `ClaimAccelerometer()` calls when no
    /// decision came in time.
    private(set) lazy var readTimeout = EventTimer(event: event!) { [unowned self] in self.readTimedOut() }

    /// The display accelerometer's acquisition; nil when there is no usable sensor.
    private(set) var acquisition: Acquisition?
    /// Which sensor was chosen and why (or why none).
    private(set) var sensorChoice = ""
    private var sensorMonitor: UdevMonitor?
    private var estimator: OrientationEstimator
    private var interfacePolicy: InterfaceOrientationPolicy
    var pendingReads: [OpaquePointer] = []
    /// `ClaimAccelerometer()` calls waiting for the first decision (iio-sensor-proxy answers a
    /// claim once the orientation is known).
    var pendingClaims: [OpaquePointer] = []
    /// The sampling plan in force (the acquisition's; off without a sensor).
    var plan: SamplingPlan { acquisition?.plan ?? .off }
    /// When the estimator last saw motion (monotonic seconds).
    private var lastMotion: Double?

    // Energy: the sources and what they say.
    private(set) var energy: EnergySources?
    /// `SetLowEnergyMode()`'s override of the configured flag, until the next reload.
    var runtimeLowEnergy: LowEnergySetting?
    private(set) var thermal: ThermalMonitor
    private var thermalZones = ThermalZones()
    private(set) var lowEnergyReasons: [LowEnergyReason] = []

    // What the bus shows.
    private(set) var deviceOrientation: DeviceOrientation = .unknown
    private(set) var interfaceOrientation: InterfaceOrientation = .unknown
    /// The last upright device orientation announced (iio-sensor-proxy knows no face-up).
    private(set) var lastUprightDevice: DeviceOrientation = .unknown
    /// `AccelerometerTilt` of the compatibility interface.
    private(set) var sensorProxyTilt = "undefined"
    /// Tablet mode and the hinge as the bus shows them.
    var tablet = TabletModeShown()
    /// The base accelerometer's acquisition (a follower, read in the display's wakeups); nil
    /// without a base sensor.
    private(set) var baseAcquisition: Acquisition?
    /// The latest base reading and its time, for the hinge.
    private(set) var baseReading: (reading: Vector3, time: Double)?
    /// The hardware tablet-mode switches being read, by sysfs path.
    var tabletSwitches: [String: TabletModeSwitch] = [:]
    /// Switches deliberately not read (virtual, keyboards), each logged once.
    var skippedSwitches: Set<String> = []
    /// Switches that could not be opened, each logged once.
    var switchProblems = ProblemLog()
    /// The lid as the switches said it last.
    var lastSwitchLid: Bool?
    /// The virtual tablet-mode switch, while the hinge decides.
    var virtualSwitch: VirtualTabletSwitch?
    /// The hinge angle and posture from the display and base readings.
    var hinge: HingeEstimator
    /// When the hinge estimator last had a reading (monotonic seconds).
    var lastHingeUpdate: Double?
    /// The one tablet-mode decision.
    var tabletDecision: TabletModeDecision
    /// The suspect base mount matrix has been logged.
    var hingeMountMatrixReported = false
    /// The source the virtual switch was last considered for.
    var virtualSwitchSource = TabletModeSource.none
    /// The virtual switch could not be made (until the source changes).
    var virtualSwitchFailed = false
    var virtualSwitchProblems = ProblemLog()

    /// Reads the configuration (its problems are logged); nil when it cannot be read at all
    /// (a `--config` file that is missing or unreadable).
    public convenience init?(options: DaemonOptions) {
        guard let configuration = loadConfiguration(options.config) else { return nil }
        self.init(options: options, configuration: configuration)
    }

    private init(options: DaemonOptions, configuration: LoadedConfiguration) {
        self.options = options
        self.settings = configuration.settings
        self.acceptedEntries = configuration.acceptedEntries
        self.estimator = OrientationEstimator(settings: settings.estimator)
        self.interfacePolicy = InterfaceOrientationPolicy(allowed: settings.allowedInterfaceOrientations)
        self.thermal = ThermalMonitor(settings: settings.thermal)
        self.hinge = HingeEstimator(settings: settings.tabletMode)
        self.tabletDecision = TabletModeDecision(settings: settings.tabletMode)
    }

    deinit {
        for call in pendingReads + pendingClaims { sd_bus_message_unref(call) }
        energy = nil
        sensorMonitor = nil
        acquisition = nil
        baseAcquisition = nil
        virtualSwitch = nil
        tabletSwitches = [:]
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
                    if !isEventDevice { return }
                    if property("ID_INPUT_ACCELEROMETER") != "1" {
                        self.switchDeviceChanged(action: action, syspath: syspath, property: property)
                        return
                    }
                }
                self.sensorDeviceChanged(action: action, syspath: syspath)
            }
            energy = try EnergySources(
                bus: bus!, event: event!, batteryLowPercent: settings.batteryLowPercent,
                onEnergyChange: { [unowned self] in self.updateEnergy() },
                onPauseChange: { [unowned self] resumed in
                    // Nothing decided before the sleep may be announced as fresh.
                    if resumed { self.resetEstimate() }
                    self.hingeLidOrSleepChanged(resumed: resumed)
                    self.updateSampling()
                })
            findTabletModeSwitches()
            lastSwitchLid = switchLidClosed
            updateTabletMode()
            updateEnergy()
            try requestName()
            updateSensorProxyCompatibility()
        } catch {
            Log.error("\(error)")
            return 1
        }
        // Outside a unit there is no one to tell; Type=dbus units are ready once the name is
        // taken, so a failed notification changes nothing.
        _ = sd_notify(0, "READY=1\nSTATUS=Serving orientation")
        Log.info("serving \(MotionOrientationBus.name) on the system bus")
        let r = sd_event_loop(event)
        _ = sd_notify(0, "STOPPING=1")
        acquisition?.release()
        baseAcquisition?.release()
        if virtualSwitch != nil { Log.info("removing the virtual tablet-mode switch") }
        virtualSwitch = nil
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
    private func takeAccelerometer(_ choice: AccelerometerChoice) {
        let previous = acquisition?.info.syspath
        let previousBase = baseAcquisition?.info.syspath
        let wasSampling = plan != .off
        if choice.reason != sensorChoice { Log.info("accelerometer: \(choice.reason)") }
        sensorChoice = choice.reason
        // The old acquisition lets go of the device (and gives its rate back) first, so the
        // new one finds the device's own settings.
        acquisition = nil
        baseAcquisition = nil
        baseReading = nil
        if let info = choice.info {
            do {
                acquisition = try Acquisition(
                    info: info, preferBuffer: settings.preferBuffer,
                    stillIntervalMsec: settings.sampling.stillIntervalMsec, event: event!,
                    sink: { [unowned self] reading, time in self.take(reading, at: time) })
                estimator.facesAvailable = info.mountMatrix.tellsFaceUpFromFaceDown
                Log.info(
                    "using accelerometer \(info.syspath) (\(info.name ?? "unnamed")), mount matrix from \(info.mountMatrixSource)"
                )
            } catch {
                Log.error("cannot use accelerometer: \(error)")
            }
        }
        if acquisition != nil, let base = choice.base {
            do {
                // Polled in the display's wakeups: never given a plan (or a buffer) of its own.
                baseAcquisition = try Acquisition(
                    info: base, preferBuffer: false, stillIntervalMsec: settings.sampling.stillIntervalMsec,
                    event: event!,
                    sink: { [unowned self] reading, time in self.baseReading = (reading, time) })
                Log.info(
                    "base accelerometer \(base.syspath) (\(base.name ?? "unnamed")) for the hinge: \(choice.baseReason), mount matrix from \(base.mountMatrixSource)"
                )
            } catch {
                Log.error("cannot use the base accelerometer: \(error)")
            }
        }
        if baseAcquisition?.info.syspath != previousBase {
            hinge = HingeEstimator(settings: settings.tabletMode)
            hingeMountMatrixReported = false
        }
        guard bus != nil else { return }  // at start-up, before the bus: nothing to announce
        updateTabletMode()
        let current = acquisition?.info.syspath
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
            forgetSensorProxyReadings()
            // Nothing will be decided: the waiting calls get what there is (the claims stay).
            answerPendingReads()
        }
        // A new acquisition starts for the claims if sampling was running (or none: no sensor).
        updateSampling()
        if wasSampling && plan == .off { emitPropertiesChanged([.active, .sampleIntervalMsec]) }
    }

    /// A udev event for an IIO device or an input accelerometer: re-choose (an added, removed
    /// or changed sensor).
    private func sensorDeviceChanged(action: String, syspath: String) {
        let current = acquisition?.info.syspath
        Log.debug("udev: \(action) \(syspath)")
        // A change of another device than ours means nothing, unless we have none.
        if action == "change" && current != nil && syspath != current { return }
        takeAccelerometer(AccelerometerDiscovery.choose(settings))
    }

    // MARK: - Configuration

    /// SIGHUP: re-reads the configuration. Claims, the orientation and the sensor stay;
    /// `SetLowEnergyMode()`'s override ends; a key whose new value is bad keeps the old one.
    private func reload() {
        Log.info("reloading the configuration")
        guard let loaded = loadConfiguration(options.config, keeping: acceptedEntries) else {
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
        if settings.tabletMode != previous.tabletMode {
            hinge = HingeEstimator(settings: settings.tabletMode)
            tabletDecision = TabletModeDecision(settings: settings.tabletMode)
            updateTabletMode()
        }
        if settings.lockInLaptopMode != previous.lockInLaptopMode { applyLaptopLock() }
        if settings.sensorPin != previous.sensorPin || settings.mountMatrixOverride != previous.mountMatrixOverride {
            takeAccelerometer(AccelerometerDiscovery.choose(settings))
        }
        updateSensorProxyCompatibility()
        emitPropertiesChanged([.lowEnergyModeSetting])
        energy?.batteryLowPercent = settings.batteryLowPercent
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
        return energy.suspended || (lidClosed && settings.pauseWhenLidClosed)
    }

    /// The lid is closed: logind's or UPower's word, or a tablet-mode switch's `SW_LID`.
    var lidClosed: Bool {
        (energy?.lidClosed ?? false) || (switchLidClosed ?? false)
    }

    /// Applies the sampling policy to claims, waiting reads, sensor, motion, energy and
    /// suspend; has the acquisition start, re-time or stop, and announces the change.
    func updateSampling() {
        let now = monotonicSeconds()
        let inputs = SamplingInputs(
            claims: claimants.count, pendingReads: pendingReads.count,
            hasAccelerometer: acquisition != nil, moving: estimator.isSettling,
            secondsSinceMotion: lastMotion.map { now - $0 }, lowEnergy: !lowEnergyReasons.isEmpty,
            thermalState: thermal.state, paused: isPaused, virtualSwitch: virtualSwitch != nil,
            hingeMoving: hinge.lastMotionTime != nil && hinge.lastMotionTime == lastHingeUpdate,
            secondsSinceHingeMotion: hinge.lastMotionTime.map { now - $0 }, lidClosed: lidClosed,
            changeOnly: acquisition?.readsChangesOnly ?? false)
        let next = settings.sampling.plan(inputs)
        let previous = plan
        guard next != previous, let acquisition else { return }
        if previous == .off {
            // A new acquisition: decide from fresh readings only.
            resetEstimate()
            lastThermalRead = nil
        }
        acquisition.apply(next)
        baseAcquisition?.followRate(of: next)
        switch next {
        case .off:
            Log.debug("sampling stopped")
            if isPaused { answerPendingReads() }
        case .every(let interval):
            Log.debug("sampling every \(interval) ms")
        }
        if !pendingReads.isEmpty || !pendingClaims.isEmpty { armReadTimeout() }
        emitPropertiesChanged(
            (previous == .off) != (next == .off) ? [.active, .sampleIntervalMsec] : [.sampleIntervalMsec])
    }

    func armReadTimeout() {
        guard !readTimeout.isArmed else { return }
        do {
            try readTimeout.arm(afterUsec: Daemon.readOrientationTimeoutUsec)
        } catch {
            Log.error("cannot arm a timer: \(error)")
        }
    }

    private func readTimedOut() {
        Log.debug(
            "ReadOrientation/ClaimAccelerometer timed out before a decision; answering with the last known orientation")
        answerPendingReads()
        updateSampling()
    }

    /// One reading from the acquisition: estimate, announce, answer waiting reads, re-plan.
    private func take(_ reading: Vector3, at time: Double) {
        let interval = Double(settings.sampling.thermalIntervalMsec) / 1000
        if lastThermalRead.map({ time - $0 >= interval }) ?? true {
            lastThermalRead = time
            readThermalZones()
        }
        let decided = estimator.update(reading, at: time)
        if decided != .unknown { publish(decided) }
        // The base sensor in the same wakeup, for the hinge.
        takeHingeReading(display: reading, at: time)
        updateSensorProxyTilt(reading)
        if estimator.isSettling { lastMotion = time }
        if !(pendingReads.isEmpty && pendingClaims.isEmpty) && estimator.orientation != .unknown {
            answerPendingReads()
        }
        updateSampling()
        // A change-only sensor's silence means "unchanged": while a decision is pending, its
        // last report keeps counting as the time passes.
        acquisition?.holdLastReading(estimator.isSettling || !pendingReads.isEmpty)
    }

    /// Announces a decided device orientation and the interface orientation it implies.
    private func publish(_ device: DeviceOrientation) {
        guard device != deviceOrientation else { return }
        announce(device: device, interface: interfacePolicy.update(device: device, laptopLock: laptopLocked))
    }

    /// `[Orientation] LockInLaptopMode=` is in effect and the device is not in tablet mode:
    /// the interface orientation stays the laptop's upright one.
    var laptopLocked: Bool {
        settings.locksInLaptopMode(tabletModeSource: tablet.source) && !tablet.mode
    }

    /// Applies the laptop-mode lock, or its end, to the interface orientation at once (once
    /// there is a device orientation to follow; the device orientation is never locked).
    func applyLaptopLock() {
        guard let device = estimator.lastUprightOrientation ?? (deviceOrientation.isUpright ? deviceOrientation : nil)
        else { return }
        announce(device: deviceOrientation, interface: interfacePolicy.update(device: device, laptopLock: laptopLocked))
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

    /// Keeps the compatibility interface's `AccelerometerTilt` up to date: from the latest
    /// reading, as iio-sensor-proxy 3.9 computes it.
    private func updateSensorProxyTilt(_ reading: Vector3) {
        let tilt = SensorProxyCompatibility.tilt(reading: reading)
        guard tilt != sensorProxyTilt, tilt != "undefined" else { return }
        sensorProxyTilt = tilt
        emitSensorProxyPropertiesChanged([.accelerometerTilt])
    }

    /// The sensor is gone: `AccelerometerOrientation` and `AccelerometerTilt` become
    /// `undefined` (iio-sensor-proxy 3.9 keeps them, or exits: see
    /// docs/migrating-from-iio-sensor-proxy.md).
    private func forgetSensorProxyReadings() {
        var changed: [SensorProxyProperty] = []
        if lastUprightDevice != .unknown {
            lastUprightDevice = .unknown
            changed.append(.accelerometerOrientation)
        }
        if sensorProxyTilt != "undefined" {
            sensorProxyTilt = "undefined"
            changed.append(.accelerometerTilt)
        }
        if !changed.isEmpty { emitSensorProxyPropertiesChanged(changed) }
    }

    /// Forgets the estimate and the motion (a new acquisition, a resume): only fresh
    /// readings decide.
    private func resetEstimate() {
        estimator.reset()
        lastMotion = nil
        hinge.forgetContinuity()
    }
}
