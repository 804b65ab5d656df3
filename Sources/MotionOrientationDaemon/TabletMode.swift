import ErrorsAndLog
import OrientationCore
import SensorIO
import SystemdBus

/// What tablet mode needs of the daemon.
protocol TabletModeHost: AnyObject {
    /// Whether the display accelerometer is in use.
    var hasAccelerometer: Bool { get }
    /// The lid as logind or UPower say it: closed, and whether either reports a lid.
    var energyLid: (closed: Bool, reported: Bool) { get }
    /// Tablet mode or its source changed: the laptop-mode lock may change.
    func tabletModeChanged()
    /// The lid or the virtual switch changed: the sampling plan may change.
    func tabletModeSamplingChanged()
}

/// A tablet-mode switch as tablet mode reads it (`TabletModeSwitch`, or a test's fake).
protocol TabletModeSwitchReading: AnyObject {
    var tabletMode: Bool { get }
    var lidClosed: Bool? { get }
    func stop()
}

/// The base accelerometer as the hinge reads it (an `Acquisition`, or a test's fake): read
/// in the display's wakeups, its readings handed to `TabletMode.takeBase`.
protocol HingeBaseSensor: AnyObject {
    var syspath: String { get }
    var mountMatrixSource: String { get }
    func readOnce()
    func followRate(of plan: SamplingPlan)
    func release()
}

/// The virtual switch as tablet mode writes it (`VirtualTabletSwitch`, or a test's fake).
protocol TabletModeOutput: AnyObject {
    func send(_ tabletMode: Bool) throws(SystemError)
}

/// Where the virtual switch's state is kept across a crash (`SwitchStateFile`, or a test's
/// fake).
protocol TabletModeMemory {
    var path: String { get }
    func load() throws(SystemError) -> Bool?
    func store(_ on: Bool) throws(SystemError)
}

extension SwitchStateFile: TabletModeMemory {}
extension TabletModeSwitch: TabletModeSwitchReading {}
extension Acquisition: HingeBaseSensor {
    var syspath: String { info.syspath }
    var mountMatrixSource: String { info.mountMatrixSource }
}
extension VirtualTabletSwitch: TabletModeOutput {}

/// Tablet mode: the hardware switches, the base accelerometer that pairs with the display's
/// for the hinge, the one decision, what the bus shows, and the virtual switch.
final class TabletMode {
    var settings: TabletModeSettings {
        didSet {
            guard settings != oldValue else { return }
            hinge = HingeEstimator(settings: settings)
            decision = TabletModeDecision(settings: settings)
            update()
        }
    }
    private unowned let host: any TabletModeHost
    private unowned let sink: any BusSink
    /// The clock (monotonic seconds) and the virtual switch's maker; a test's fakes.
    private let now: () -> Double
    private let makeVirtualSwitch: (Bool) throws(SystemError) -> any TabletModeOutput
    /// The virtual switch's state across a crash, and the one-shot timer that ends a
    /// restored switch's hold (it calls `holdEnded()`).
    private let memory: any TabletModeMemory
    private let armHold: (_ seconds: Double) -> Void

    /// What the bus shows.
    private(set) var shown = TabletModeShown()
    /// The hardware tablet-mode switches being read, by sysfs path.
    private var switches: [String: any TabletModeSwitchReading] = [:]
    /// The lid as the switches said it last.
    private var lastSwitchLid: Bool?
    /// The base accelerometer (nil without one), its latest reading and that reading's time.
    private(set) var base: (any HingeBaseSensor)?
    private var baseReading: (reading: Vector3, time: Double)?
    /// The display reading the base reading was last paired with.
    private var pairedDisplay: Vector3?
    /// A base reading younger than this (seconds) is the base as it is now, for any display
    /// reading: the scans of one buffer read come within it.
    static let currentBaseAge = 0.002
    /// The display's sampling plan, which paces the base.
    private var displayPlan = SamplingPlan.off
    /// The base the hinge estimate is about.
    private var hingeBase: String?
    private var hinge: HingeEstimator
    /// When the hinge estimator last had a reading (monotonic seconds).
    private var lastHingeUpdate: Double?
    private var decision: TabletModeDecision
    /// The suspect base mount matrix has been logged.
    private var mountMatrixReported = false
    private var virtualSwitch: (any TabletModeOutput)?
    /// The source the virtual switch was last considered for, and whether making it failed
    /// (tried again when the source changes, or at an accelerometer's udev event).
    private var virtualSwitchSource = TabletModeSource.none
    private var virtualSwitchFailed = false
    private var virtualSwitchProblems = ProblemLog()
    /// What the memory says: read once, before the first virtual switch is made; then the
    /// state last written to it (or tried).
    private var remembered: Bool?
    private var memoryRead = false
    /// The memory said on: the next virtual switch is made on, and held on for
    /// `restoredHoldSeconds` before it says the present state.
    private var restoreOn = false
    private(set) var holding = false
    /// How long a switch made on because the last daemon left its switch on stays on, so
    /// that libinput has opened it (and paired the keyboard with it) before it goes to 0:
    /// only that transition resumes what the old switch suspended.
    static let restoredHoldSeconds = 3.0

    init(
        settings: TabletModeSettings, host: any TabletModeHost, sink: any BusSink,
        now: @escaping () -> Double = monotonicSeconds,
        makeVirtualSwitch: @escaping (Bool) throws(SystemError) -> any TabletModeOutput = {
            (mode: Bool) throws(SystemError) in try VirtualTabletSwitch(tabletMode: mode)
        },
        memory: any TabletModeMemory = SwitchStateFile.inRuntimeDirectory(),
        armHold: @escaping (_ seconds: Double) -> Void
    ) {
        self.settings = settings
        self.host = host
        self.sink = sink
        self.now = now
        self.makeVirtualSwitch = makeVirtualSwitch
        self.memory = memory
        self.armHold = armHold
        self.hinge = HingeEstimator(settings: settings)
        self.decision = TabletModeDecision(settings: settings)
    }

    /// Starts from the switches found (the lid as they say it) and announces.
    func start() {
        lastSwitchLid = switchLidClosed
        update()
    }

    /// Lets go of the devices (at exit).
    func release() {
        base?.release()
        dropVirtualSwitch()
        switches.values.forEach { $0.stop() }
        switches = [:]
    }

    // MARK: - Hardware switches

    /// Reads `reader` as the switch at `syspath`; false when one is read there already.
    @discardableResult
    func add(_ reader: any TabletModeSwitchReading, syspath: String) -> Bool {
        guard switches[syspath] == nil else { return false }
        switches[syspath] = reader
        return true
    }

    /// The switch at `syspath` is gone (removed, or unreadable).
    func remove(syspath: String) {
        guard let gone = switches.removeValue(forKey: syspath) else { return }
        gone.stop()
    }

    func isReading(syspath: String) -> Bool { switches[syspath] != nil }

    /// The switch that decides when the source is `switch`: the first by sysfs path, so the
    /// choice is stable.
    private var hardwareSwitch: (any TabletModeSwitchReading)? {
        switches.keys.min().flatMap { switches[$0] }
    }

    /// The lid as the switches say it: closed when any switch with `SW_LID` says so; nil
    /// when none has a lid switch.
    private var switchLidClosed: Bool? {
        let lids = switches.values.compactMap(\.lidClosed)
        return lids.isEmpty ? nil : lids.contains(true)
    }

    /// A switch said something, or came or went: a changed lid is news for the hinge and
    /// the plan, anything else for the decision.
    func switchesChanged() {
        let lid = switchLidClosed
        guard lid != lastSwitchLid else { return update() }
        lastSwitchLid = lid
        if let lid { Log.info(lid ? "lid closed (switch)" : "lid open (switch)") }
        lidOrSleepChanged(resumed: false)
        host.tabletModeSamplingChanged()
    }

    // MARK: - The lid, the base and the hinge

    /// The lid is closed: logind's or UPower's word, or a tablet-mode switch's `SW_LID`.
    var lidClosed: Bool { host.energyLid.closed || (switchLidClosed ?? false) }

    /// The lid as the hinge and the decision see it; unknown when nobody says.
    private var lid: LidState {
        if lidClosed { return .closed }
        return switchLidClosed != nil || host.energyLid.reported ? .open : .unknown
    }

    /// The hinge moved in its latest reading, and how long ago it last moved.
    var hingeMoving: Bool { hinge.lastMotionTime != nil && hinge.lastMotionTime == lastHingeUpdate }
    var lastHingeMotion: Double? { hinge.lastMotionTime }
    var hasVirtualSwitch: Bool { virtualSwitch != nil }
    /// The tablet-mode decision waits for its evidence time: the hinge needs further readings.
    var decisionPending: Bool { base != nil && decision.isGatheringEvidence }

    /// Lets go of the base accelerometer (before the display's acquisition is replaced).
    func dropBase() {
        base = nil
        baseReading = nil
    }

    /// Uses `sensor` as the base accelerometer (nil: none); another one than the hinge had
    /// starts the hinge afresh.
    func use(base sensor: (any HingeBaseSensor)?) {
        base = sensor
        baseReading = nil
        guard sensor?.syspath != hingeBase else { return }
        hingeBase = sensor?.syspath
        hinge = HingeEstimator(settings: settings)
        mountMatrixReported = false
    }

    /// Opens the base accelerometer `info` (nil: none), polled in the display's wakeups:
    /// never given a plan (or a buffer) of its own.
    func openBase(_ info: AccelerometerInfo?, reason: String, stillIntervalMsec: UInt32, event: OpaquePointer) {
        use(
            base: Acquisition.open(
                info, preferBuffer: false, stillIntervalMsec: stillIntervalMsec, event: event,
                what: { "base accelerometer \($0) for the hinge: \(reason)" },
                sink: { [unowned self] in self.takeBase($0, at: $1) }))
    }

    /// A base reading (from `readOnce()`).
    func takeBase(_ reading: Vector3, at time: Double) { baseReading = (reading, time) }

    /// Paces the base with the display's plan (it has none of its own).
    func displayPlanChanged(_ plan: SamplingPlan) {
        displayPlan = plan
        base?.followRate(of: plan)
    }

    /// One display reading: the base is read in the same wakeup (at most once per half
    /// sampling interval, as a buffered display may deliver several readings in one, unless
    /// the display moved since the base was paired and the base reading is older than
    /// `currentBaseAge`: a display report right after a paced wakeup must not pair with the
    /// base as it was before the fold), and the pair, at most one interval apart, is the
    /// hinge's; then the decision.
    func takeDisplay(_ display: Vector3, at time: Double) {
        guard let base else { return }
        let interval = Double(max(displayPlan.intervalMsec, 1)) / 1000
        let stale = baseReading.map {
            time - $0.time >= interval / 2 || time < $0.time
                || (display != pairedDisplay && now() - $0.time >= TabletMode.currentBaseAge)
        }
        if stale ?? true { base.readOnce() }
        pairedDisplay = display
        guard let pair = baseReading, abs(time - pair.time) <= interval else { return }
        let before = hinge.estimate
        let estimate = hinge.update(display: display, base: pair.reading, lid: lid, at: time)
        lastHingeUpdate = time
        note(estimate, after: before)
        if hinge.suspectMountMatrix && !mountMatrixReported {
            mountMatrixReported = true
            Log.warning(
                "the display and base accelerometers disagree on the hinge axis: the base mount matrix (\(base.mountMatrixSource)) is probably wrong"
            )
        }
        update(at: time, fresh: true)
    }

    /// The lid or suspend changed: the hinge and the decision learn it.
    func lidOrSleepChanged(resumed: Bool) {
        let time = now()
        if resumed { hinge.forgetContinuity() }
        let before = hinge.estimate
        note(hinge.lidChanged(lid, at: time), after: before)
        update(at: time)
    }

    /// Only fresh readings decide (a new acquisition, a resume).
    func forgetContinuity() { hinge.forgetContinuity() }

    /// Logs why the hinge estimate holds when that changes, and a lid switch not believed.
    private func note(_ estimate: HingeEstimate, after before: HingeEstimate) {
        if estimate.hold != before.hold {
            Log.debug("hinge: \(estimate.hold.map { "holding (\($0))" } ?? "following the readings")")
        }
        if estimate.lidContradicted && !before.lidContradicted {
            Log.notice(
                "the lid switch says closed while the hinge was just seen folded back: the switch is taken to trip on a fold, the hinge decides"
            )
        }
    }

    // MARK: - What the bus shows

    /// Recomputes tablet mode from its source, announces what changed and keeps the virtual
    /// switch in step. `fresh`: the hinge estimate comes from a reading just taken (only such
    /// an estimate counts as evidence for the decision).
    func update(at time: Double? = nil, fresh: Bool = false) {
        let source = TabletModeSource.resolve(
            settings.source, hasSwitch: hardwareSwitch != nil, hasHinge: host.hasAccelerometer && base != nil)
        var estimate = hinge.estimate
        if !fresh { estimate.trustworthy = false }
        var next = TabletModeShown()
        next.source = source
        next.mode = decision.update(
            source: source, switchState: hardwareSwitch?.tabletMode, hinge: estimate, lid: lid, at: time ?? now())
        if base != nil {
            next.hingeState = hinge.estimate.state
            // HingeAngle moves by at least the deadband, so a still device sends no noise.
            next.angle =
                hinge.estimate.shouldPublish(after: shown.angle ?? -1, deadband: settings.publishDeadband)
                ? hinge.estimate.angle : shown.angle
        }
        let lockChanged = next.mode != shown.mode || next.source != shown.source
        show(next)
        if lockChanged { host.tabletModeChanged() }
        updateVirtualSwitch()
    }

    /// Takes what the bus shows and announces `PropertiesChanged` (and `TabletModeChanged`)
    /// for what changed.
    private func show(_ next: TabletModeShown) {
        let previous = shown
        guard next != previous else { return }
        shown = next
        var changed: [OrientationProperty] = []
        if next.mode != previous.mode { changed.append(.tabletMode) }
        if next.source != previous.source {
            changed.append(.tabletModeSource)
            Log.info("tablet mode from: \(next.source.name)")
        }
        if next.angle != previous.angle { changed.append(.hingeAngle) }
        if next.hingeState != previous.hingeState {
            changed.append(.hingeState)
            Log.info("hinge \(next.hingeState.name)\(next.angle.map { " at \(Int($0.rounded())) degrees" } ?? "")")
        }
        sink.changed(changed)
        if next.mode != previous.mode {
            Log.info(next.mode ? "tablet mode on" : "tablet mode off")
            sink.emitTabletModeChanged(next.mode)
        }
    }

    // MARK: - The virtual switch

    /// A udev event for an accelerometer (the base's, say): udev's RUN for a base
    /// accelerometer grants /dev/uinput, so a virtual switch that could not be made is tried
    /// again.
    func accelerometerEvent() {
        guard virtualSwitchFailed else { return }
        virtualSwitchFailed = false
        update()
    }

    /// Creates, updates or destroys the virtual switch as the source and
    /// `[TabletMode] VirtualSwitch=` want; its coming and going changes the sampling plan.
    private func updateVirtualSwitch() {
        if shown.source != virtualSwitchSource {
            // A new source: a failed creation may be tried again.
            virtualSwitchSource = shown.source
            virtualSwitchFailed = false
        }
        let existed = virtualSwitch != nil
        defer { if existed != (virtualSwitch != nil) { host.tabletModeSamplingChanged() } }
        guard settings.virtualSwitch.wantsVirtualSwitch(source: shown.source) else { return dropVirtualSwitch() }
        let devnode = VirtualTabletSwitch.devnode
        if let virtualSwitch {
            let state = shown.mode || holding
            do {
                try virtualSwitch.send(state)
                virtualSwitchProblems.resolve(devnode)
                remember(state)
            } catch {
                virtualSwitchProblems.report(devnode, "cannot update the virtual tablet-mode switch: \(error)")
            }
            return
        }
        // One attempt per source and accelerometer event: a missing or forbidden /dev/uinput
        // stays so until udev has set up another device.
        guard !virtualSwitchFailed else { return }
        readMemory()
        let state = shown.mode || restoreOn
        do {
            virtualSwitch = try makeVirtualSwitch(state)
            Log.info("created the virtual tablet-mode switch \"\(VirtualTabletSwitch.name)\"")
        } catch {
            virtualSwitchFailed = true
            virtualSwitchProblems.report(
                devnode, "cannot create the virtual tablet-mode switch: \(error); going on without it")
            return
        }
        remember(state)
        let restored = restoreOn
        restoreOn = false
        guard restored && !shown.mode else { return }
        Log.notice(
            "the last virtual tablet-mode switch was left on (\(memory.path)): the new one stays on for \(Int(TabletMode.restoredHoldSeconds)) s, then goes off, which resumes the keyboard"
        )
        holding = true
        armHold(TabletMode.restoredHoldSeconds)
    }

    /// The hold of a restored switch is over: it says the present state.
    func holdEnded() {
        guard holding else { return }
        holding = false
        Log.debug(
            "the restored virtual tablet-mode switch's hold is over: it says tablet mode \(shown.mode ? "on" : "off")")
        updateVirtualSwitch()
    }

    /// Destroys the virtual switch, if any: its teardown sends 0 first (`VirtualTabletSwitch`).
    private func dropVirtualSwitch() {
        holding = false
        guard virtualSwitch != nil else { return }
        Log.info("removing the virtual tablet-mode switch")
        virtualSwitch = nil
        remember(false)
    }

    // MARK: - The memory across a crash

    /// Reads the state the last daemon left (once, at the first virtual switch): on means
    /// its switch may have left the keyboard suspended. A bad file is reported and ignored.
    private func readMemory() {
        guard !memoryRead else { return }
        memoryRead = true
        do {
            remembered = try memory.load()
            restoreOn = remembered == true
        } catch {
            Log.warning("ignoring the state of the last virtual tablet-mode switch: \(error)")
        }
    }

    /// Keeps the virtual switch's state, when it changed; a failure is reported once and
    /// tried again at the next change.
    private func remember(_ state: Bool) {
        guard state != remembered else { return }
        remembered = state
        do {
            try memory.store(state)
            virtualSwitchProblems.resolve(memory.path)
        } catch {
            virtualSwitchProblems.report(
                memory.path,
                "cannot keep the virtual tablet-mode switch's state: \(error); a daemon restarted after a crash could not resume a keyboard it left suspended"
            )
        }
    }
}
