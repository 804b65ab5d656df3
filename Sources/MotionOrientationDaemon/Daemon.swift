import CSystemd
import DaemonConfiguration
import ErrorsAndLog
import Glibc
import OrientationCore
import SensorIO
import SystemdBus

/// The daemon's context: the sd-event loop (bus, udev monitor, signals, watchdog, the
/// acquisitions' timers), the display accelerometer's acquisition and estimate, and the
/// parts it owns, each reached through its methods: the claims, the low-energy inputs,
/// tablet mode, the iio-sensor-proxy surface, and the bus object of `DaemonBus.swift`.
/// The decisions are made by `OrientationCore`; the sensor is read by an `Acquisition`.
public final class Daemon {
    private let options: DaemonOptions
    private(set) var settings: DaemonSettings
    /// The configuration entries in force, so a reload can keep a key whose new value is bad.
    private var acceptedEntries: [ConfigEntry]
    private var event: OpaquePointer?
    private(set) var bus: OpaquePointer?
    /// The bus as the parts announce on it.
    let sink = BusEmitter()
    private var object: BusObject?
    private var signalFilter: OpaquePointer?
    let claims = Claims()
    private(set) var lowEnergy: LowEnergy!
    private(set) var tabletMode: TabletMode!
    private var switchFinder: TabletModeSwitchFinder?
    /// Ends the hold of a virtual switch made on after a crash (`TabletMode.holdEnded`).
    private var tabletModeHold: EventTimer?
    private(set) var sensorProxy: SensorProxySurface!

    /// The display accelerometer's acquisition; nil when there is no usable sensor.
    private(set) var acquisition: Acquisition?
    /// Which sensor was chosen and why (or why none).
    private(set) var sensorChoice = ""
    private var sensorMonitor: UdevMonitor?
    /// The accelerometers udev has not set up that discovery takes all the same: those found
    /// at start-up, and each since named by a udev event of its own (udev announces a device
    /// once it has set it up), until its `remove` (`AccelerometerDiscovery`).
    private var unprocessedTaken: Set<String> = []
    private var estimator: OrientationEstimator
    private(set) var orientations: OrientationAnnouncer!
    /// The sampling plan in force (the acquisition's; off without a sensor).
    var plan: SamplingPlan { acquisition?.plan ?? .off }
    /// When the estimator last saw motion (monotonic seconds), and the stillness before it.
    private var motion = MotionHistory()

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
        lowEnergy = LowEnergy(setting: settings.lowEnergyMode, thermal: settings.thermal, sink: sink) {
            [unowned self] in self.updateSampling()
        }
        tabletMode = TabletMode(settings: settings.tabletMode, host: self, sink: sink) {
            [unowned self] seconds in self.armTabletModeHold(seconds)
        }
        let sensorProxy = SensorProxySurface(host: self, sink: sink)
        self.sensorProxy = sensorProxy
        orientations = OrientationAnnouncer(
            policy: InterfaceOrientationPolicy(allowed: settings.allowedInterfaceOrientations), sink: sink,
            onDevice: sensorProxy.deviceOrientationAnnounced)
        claims.onChange = { [unowned self] in self.updateSampling() }
        claims.onTimeout = { [unowned self] in
            self.answerWaiting()
            self.updateSampling()
        }
    }

    deinit {
        lowEnergy.stop()
        sensorMonitor = nil
        acquisition = nil
        tabletMode.release()
        sd_bus_slot_unref(signalFilter)
        object = nil
        sd_bus_flush_close_unref(bus)
        sd_event_unref(event)
    }

    /// Sets everything up, runs the loop until SIGTERM/SIGINT, and returns the exit status.
    public func run() -> Int32 {
        do {
            let event = try Daemon.makeEventLoop(onReload: { [unowned self] in self.reload() })
            self.event = event
            let finder = TabletModeSwitchFinder(tabletMode: tabletMode, event: event)
            switchFinder = finder
            // Watching first: an event that comes while we look is read once the loop runs.
            sensorMonitor = try Daemon.watchDevices(
                event: event, onSensor: { [unowned self] in self.sensorDeviceChanged(action: $0, syspath: $1) },
                onInput: finder.deviceChanged)
            let choice = AccelerometerDiscovery.choose(settings)
            unprocessedTaken = Set(choice.unprocessed)
            takeAccelerometer(choice)
            let bus = try Daemon.connectBus(event: event)
            self.bus = bus
            sink.bus = bus
            signalFilter = try Daemon.dropForgedSignals(bus)
            object = try serveOrientation(on: bus)
            try claims.start(bus: bus, event: event)
            try lowEnergy.start(bus: bus, event: event, batteryLowPercent: settings.batteryLowPercent) {
                [unowned self] resumed in
                // Nothing decided before the sleep may be announced as fresh.
                if resumed { self.resetEstimate() }
                self.tabletMode.lidOrSleepChanged(resumed: resumed)
                self.updateSampling()
            }
            finder.findAll()
            tabletMode.start()
            lowEnergy.update()
            try requestName()
            sensorProxy.serve(settings.sensorProxyCompatibility, on: bus)
        } catch {
            Log.error("\(error)")
            // A virtual switch made before the failure lets go here: exit(3) runs no deinit.
            acquisition?.release()
            tabletMode.release()
            return 1
        }
        ResidentSet.releaseStartUpPages()
        // Outside a unit there is no one to tell; Type=dbus units are ready once the name is
        // taken, so a failed notification changes nothing.
        _ = sd_notify(0, "READY=1\nSTATUS=Serving orientation")
        Log.info("serving \(BusPeer.motionOrientation.name) on the system bus")
        let r = sd_event_loop(event)
        _ = sd_notify(0, "STOPPING=1")
        acquisition?.release()
        tabletMode.release()
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

    /// Arms the timer that ends a restored virtual switch's hold; the switch made after a
    /// crash is never made before the loop exists.
    private func armTabletModeHold(_ seconds: Double) {
        guard let event else { return tabletMode.holdEnded() }
        let timer = tabletModeHold ?? EventTimer(event: event) { [unowned self] in self.tabletMode.holdEnded() }
        tabletModeHold = timer
        do {
            try timer.arm(afterUsec: UInt64(seconds * 1_000_000))
        } catch {
            Log.warning("\(error): the restored virtual tablet-mode switch goes to the present state now")
            tabletMode.holdEnded()
        }
    }

    /// Chooses the accelerometer (at start, on udev events for IIO devices, on reload) and
    /// takes it: a new or changed sensor starts a fresh acquisition for the existing
    /// claims; no sensor makes `HasAccelerometer` false and the orientations unknown, while
    /// the claims stay.
    private func takeAccelerometer(_ choice: AccelerometerChoice) {
        let previous = acquisition?.info.syspath
        let wasSampling = plan != .off
        if choice.reason != sensorChoice { Log.info("accelerometer: \(choice.reason)") }
        sensorChoice = choice.reason
        // The old acquisitions let go of the devices (and give their rates back) first, so
        // the new ones find the devices' own settings.
        acquisition = nil
        tabletMode.dropBase()
        acquisition = Acquisition.open(
            choice.info, preferBuffer: settings.preferBuffer, stillIntervalMsec: settings.sampling.stillIntervalMsec,
            event: event!, what: { "accelerometer \($0)" }, sink: { [unowned self] in self.take($0, at: $1) })
        acquisition?.onCadenceChange = { [unowned self] in self.updateSampling() }
        if let info = acquisition?.info { estimator.facesAvailable = info.mountMatrix.tellsFaceUpFromFaceDown }
        tabletMode.openBase(
            acquisition == nil ? nil : choice.base, reason: choice.baseReason,
            stillIntervalMsec: settings.sampling.stillIntervalMsec, event: event!)
        guard bus != nil else { return }  // at start-up, before the bus: nothing to announce
        tabletMode.update()
        let current = acquisition?.info.syspath
        if current != previous || current != nil {
            // A new sensor, or new calibration or mount matrix: decide from fresh readings.
            estimator.reset()
        }
        if (current == nil) != (previous == nil) {
            sink.changed([OrientationProperty.hasAccelerometer])
            sensorProxy.hasAccelerometerChanged()
        }
        sink.changed([OrientationProperty.sensor, .sensorChoice])
        if current == nil {
            Log.notice("no accelerometer; serving with HasAccelerometer=false and keeping the claims")
            orientations.forget()
            sensorProxy.forgetReadings()
            // Nothing will be decided: the waiting calls get what there is (the claims stay).
            answerWaiting()
        }
        // A new acquisition starts for the claims if sampling was running (or none: no sensor).
        updateSampling()
        if wasSampling && plan == .off { sink.changed([OrientationProperty.active, .sampleIntervalMsec]) }
    }

    /// A udev event for an IIO device or an input accelerometer: re-choose (an added, removed
    /// or changed sensor), and try a virtual switch that could not be made again.
    private func sensorDeviceChanged(action: String, syspath: String) {
        Log.debug("udev: \(action) \(syspath)")
        if action == "remove" {
            unprocessedTaken.remove(syspath)
        } else {
            // udev is done with the device (also where its database says otherwise: umockdev).
            unprocessedTaken.insert(syspath)
            tabletMode.accelerometerEvent()
        }
        // A change of another device than ours means nothing, unless we have none.
        if action == "change", let current = acquisition?.info.syspath, syspath != current { return }
        takeAccelerometer(AccelerometerDiscovery.choose(settings, unprocessed: unprocessedTaken))
    }

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
        if settings.estimator != previous.estimator {
            estimator = OrientationEstimator(settings: settings.estimator, facesAvailable: estimator.facesAvailable)
        }
        if settings.allowedInterfaceOrientations != previous.allowedInterfaceOrientations {
            orientations.replace(
                InterfaceOrientationPolicy(allowed: settings.allowedInterfaceOrientations),
                lastUpright: estimator.lastUprightOrientation)
        }
        tabletMode.settings = settings.tabletMode
        if settings.lockInLaptopMode != previous.lockInLaptopMode { tabletModeChanged() }
        if settings.sensorPin != previous.sensorPin || settings.mountMatrixOverride != previous.mountMatrixOverride {
            takeAccelerometer(AccelerometerDiscovery.choose(settings, unprocessed: unprocessedTaken))
        }
        if let bus { sensorProxy.serve(settings.sensorProxyCompatibility, on: bus) }
        lowEnergy.reload(
            setting: settings.lowEnergyMode, thermal: settings.thermal, batteryLowPercent: settings.batteryLowPercent)
    }

    /// Suspended, or the lid closed with `[Energy] PauseWhenLidClosed=`.
    var isPaused: Bool { lowEnergy.suspended || (tabletMode.lidClosed && settings.pauseWhenLidClosed) }

    /// Applies the sampling policy to claims, waiting reads, sensor, motion, energy and
    /// suspend; has the acquisition start, re-time or stop, and announces the change.
    func updateSampling() {
        let now = monotonicSeconds()
        let inputs = SamplingInputs(
            claims: claims.claimants.count, pendingReads: claims.readsWaiting, hasAccelerometer: acquisition != nil,
            moving: estimator.isSettling, secondsSinceMotion: motion.lastMotion.map { now - $0 },
            stillBeforeMotion: motion.stillBeforeMotion, lowEnergy: lowEnergy.isLow,
            thermalState: lowEnergy.thermal.state, paused: isPaused, virtualSwitch: tabletMode.hasVirtualSwitch,
            hingeMoving: tabletMode.hingeMoving, secondsSinceHingeMotion: tabletMode.lastHingeMotion.map { now - $0 },
            lidClosed: tabletMode.lidClosed,
            // A base read in the display's wakeups makes the display's silence cost them.
            changeOnly: (acquisition?.readsChangesOnly ?? false) && tabletMode.base == nil)
        let next = settings.sampling.plan(inputs)
        let previous = plan
        guard next != previous, let acquisition else { return }
        if previous == .off {
            // A new acquisition: decide from fresh readings only.
            resetEstimate()
            lowEnergy.samplingStarted()
        }
        acquisition.apply(next)
        tabletMode.displayPlanChanged(next)
        switch next {
        case .off:
            Log.debug("sampling stopped")
            if isPaused { answerWaiting() }
        case .every(let interval):
            Log.debug("sampling every \(interval) ms")
        }
        if claims.anyWaiting { claims.armTimeout() }
        sink.changed(
            (previous == .off) != (next == .off)
                ? [OrientationProperty.active, .sampleIntervalMsec] : [.sampleIntervalMsec])
    }

    /// One reading from the acquisition: estimate, announce, answer waiting calls, re-plan.
    private func take(_ reading: Vector3, at time: Double) {
        lowEnergy.reading(at: time, intervalMsec: settings.sampling.thermalIntervalMsec)
        orientations.decided(estimator.update(reading, at: time), laptopLock: laptopLocked)
        // The base sensor in the same wakeup, for the hinge.
        tabletMode.takeDisplay(reading, at: time)
        sensorProxy.take(reading)
        motion.note(moving: estimator.isSettling, at: time)
        if claims.anyWaiting && estimator.orientation != .unknown { answerWaiting() }
        updateSampling()
        // A silent sensor is unchanged: while a decision (orientation, hinge or tablet mode) is
        // pending, its last report keeps counting as the time passes, and so it does at every
        // sampling interval while the base is read in its wakeups (the base may turn under a
        // still display).
        acquisition?.readingTaken(
            needsMore: estimator.isSettling || claims.readsWaiting > 0 || tabletMode.decisionPending
                || tabletMode.hingeMoving,
            pacesFollower: tabletMode.base != nil)
    }

    /// `[Orientation] LockInLaptopMode=` is in effect and the device is not in tablet mode:
    /// the interface orientation stays the laptop's upright one.
    private var laptopLocked: Bool {
        settings.locksInLaptopMode(tabletModeSource: tabletMode.shown.source) && !tabletMode.shown.mode
    }

    /// Answers the waiting calls with the orientations now known (the held tilt first).
    private func answerWaiting() {
        sensorProxy.claimsAnswered()
        claims.answerWaiting(with: [orientations.device.name, orientations.interface.name])
    }

    /// Forgets the estimate and the motion (a new acquisition, a resume): only fresh
    /// readings decide.
    private func resetEstimate() {
        estimator.reset()
        motion = MotionHistory()
        tabletMode.forgetContinuity()
    }
}

extension Daemon: TabletModeHost, SensorProxyHost {
    var hasAccelerometer: Bool { acquisition != nil }
    var energyLid: (closed: Bool, reported: Bool) { lowEnergy.lid }
    func tabletModeChanged() {
        orientations.applyLaptopLock(laptopLocked, lastUpright: estimator.lastUprightOrientation)
    }
    func tabletModeSamplingChanged() { updateSampling() }
}
