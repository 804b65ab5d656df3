import ErrorsAndLog
import OrientationCore

/// The energy and thermal inputs and the low-energy decision: the configured flag and
/// `SetLowEnergyMode()`'s override, power-saver, a low battery, the thermal zones (read
/// along with a sensor reading, never on a wakeup of their own), and the reasons in force.
final class LowEnergy {
    private unowned let sink: any BusSink
    /// The low-energy reasons or the thermal state changed: the sampling plan follows.
    private let onChange: () -> Void
    /// The energy sources (power profiles, batteries, suspend, lid); nil until started.
    private var sources: EnergySources?
    /// `[Energy] LowEnergyMode=`.
    private var setting: LowEnergySetting
    /// `SetLowEnergyMode()`'s override of the configured flag, until the next reload.
    private(set) var override: LowEnergySetting?
    private(set) var thermal: ThermalMonitor
    private var zones = ThermalZones()
    /// When the thermal zones were last read (monotonic seconds); nil: at the next reading.
    private var lastThermalRead: Double?
    private(set) var reasons: [LowEnergyReason] = []

    var isLow: Bool { !reasons.isEmpty }
    /// Between logind's `PrepareForSleep(true)` and `PrepareForSleep(false)`.
    var suspended: Bool { sources?.suspended ?? false }
    /// The lid as logind or UPower say it: closed, and whether either reports a lid.
    var lid: (closed: Bool, reported: Bool) { (sources?.lidClosed ?? false, sources?.reportsLid ?? false) }
    /// `LowEnergyModeSetting`: the override, else the configured flag.
    var settingInForce: LowEnergySetting { override ?? setting }

    init(setting: LowEnergySetting, thermal: ThermalSettings, sink: any BusSink, onChange: @escaping () -> Void) {
        self.setting = setting
        self.thermal = ThermalMonitor(settings: thermal)
        self.sink = sink
        self.onChange = onChange
    }

    /// Follows the energy sources on the bus; `onPauseChange` learns of suspend, resume and
    /// the lid.
    func start(
        bus: OpaquePointer, event: OpaquePointer, batteryLowPercent: Int,
        onPauseChange: @escaping (_ resumed: Bool) -> Void
    ) throws(SystemError) {
        sources = try EnergySources(
            bus: bus, event: event, batteryLowPercent: batteryLowPercent,
            onEnergyChange: { [unowned self] in self.update() }, onPauseChange: onPauseChange)
    }

    /// Lets go of the sources (at exit).
    func stop() { sources = nil }

    /// A reload: the configured flag and thermal settings; the override ends.
    func reload(setting: LowEnergySetting, thermal: ThermalSettings, batteryLowPercent: Int) {
        override = nil
        self.setting = setting
        self.thermal.settings = thermal
        sink.changed([.lowEnergyModeSetting])
        sources?.batteryLowPercent = batteryLowPercent
        update()
    }

    /// `SetLowEnergyMode()`.
    func setOverride(_ next: LowEnergySetting) {
        override = next
        sink.changed([.lowEnergyModeSetting])
        update()
    }

    /// Recomputes the low-energy reasons from the setting and the triggers, announces a
    /// change, and has the plan follow.
    func update() {
        let inputs = EnergyInputs(
            setting: settingInForce, powerSaver: sources?.powerSaver ?? false,
            batteryLow: sources?.batteryLow ?? false, thermalState: thermal.state)
        let next = EnergyPolicy.reasons(inputs)
        if next != reasons {
            let wasLow = isLow
            reasons = next
            Log.info(
                next.isEmpty
                    ? "low energy mode off" : "low energy mode on: \(next.map(\.rawValue).joined(separator: ", "))")
            sink.changed(wasLow != isLow ? [.lowEnergyMode, .lowEnergyReasons] : [.lowEnergyReasons])
        }
        onChange()
    }

    /// A new acquisition: the zones are read with its first reading.
    func samplingStarted() { lastThermalRead = nil }

    /// A sensor reading at `time`: the thermal zones are read when `intervalMsec` has passed.
    func reading(at time: Double, intervalMsec: UInt32) {
        guard lastThermalRead.map({ time - $0 >= Double(intervalMsec) / 1000 }) ?? true else { return }
        lastThermalRead = time
        let before = thermal.state
        let after = thermal.update(zones.read())
        guard after != before else { return }
        Log.info("thermal state \(after.rawValue)")
        sink.changed([.thermalState])
        update()
    }
}
