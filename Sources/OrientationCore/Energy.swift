/// The forced low-energy flag: `[Energy] LowEnergyMode=` and `SetLowEnergyMode()`.
public enum LowEnergySetting: String, Sendable, CaseIterable {
    /// Low energy mode follows the triggers (power-saver profile, low battery, heat).
    case auto
    /// Always in low energy mode.
    case on
    /// Never in low energy mode, whatever the triggers say.
    case off
}

/// Why low energy mode is in effect (bus property `LowEnergyReasons`).
public enum LowEnergyReason: String, Sendable, CaseIterable {
    /// `LowEnergyMode=on` in the config, or `SetLowEnergyMode("on")`.
    case forced
    /// power-profiles-daemon's `ActiveProfile` is `power-saver`.
    case powerSaver = "power-saver"
    /// A battery is discharging at or below `[Energy] BatteryLowPercent=`.
    case batteryLow = "battery-low"
    /// The thermal state is `serious` or `critical`.
    case thermal
}

/// What low energy mode depends on, gathered by the daemon's watchers.
public struct EnergyInputs: Equatable, Sendable {
    /// The forced flag in force (config, or the runtime override).
    public var setting: LowEnergySetting
    /// Whether the active power profile is `power-saver` (false when no profile service runs).
    public var powerSaver: Bool
    /// Whether a battery is low (`BatteryPolicy.isLow`).
    public var batteryLow: Bool
    /// The overall thermal state (`ThermalMonitor.state`).
    public var thermalState: ThermalState

    public init(setting: LowEnergySetting, powerSaver: Bool, batteryLow: Bool, thermalState: ThermalState) {
        self.setting = setting
        self.powerSaver = powerSaver
        self.batteryLow = batteryLow
        self.thermalState = thermalState
    }
}

/// Decides whether low energy mode is in effect, and why.
public enum EnergyPolicy {
    /// The reasons low energy mode is in effect; empty means it is not.
    ///
    /// `off` gives none whatever the triggers say; `on` gives `forced` followed by the active
    /// triggers (so a client sees both that the mode is forced and that it would be on anyway);
    /// `auto` gives the active triggers. Always in `LowEnergyReason.allCases` order, so the bus
    /// property only changes when the set does. The thermal trigger is a state of `serious` or
    /// worse: the state where the kernel throttles.
    public static func reasons(_ inputs: EnergyInputs) -> [LowEnergyReason] {
        if inputs.setting == .off { return [] }
        var reasons: [LowEnergyReason] = []
        if inputs.setting == .on { reasons.append(.forced) }
        if inputs.powerSaver { reasons.append(.powerSaver) }
        if inputs.batteryLow { reasons.append(.batteryLow) }
        if inputs.thermalState >= .serious { reasons.append(.thermal) }
        return reasons
    }

    /// Whether low energy mode is in effect (bus property `LowEnergyMode`): some reason exists.
    public static func isLowEnergy(_ inputs: EnergyInputs) -> Bool {
        !reasons(inputs).isEmpty
    }
}

/// One battery's state, from `/sys/class/power_supply/<name>/`.
///
/// The caller passes only the machine's own batteries (`type` `Battery`, `scope` not `Device`):
/// a wireless mouse running flat is no reason to save the tablet's energy.
public struct BatteryReading: Equatable, Sendable {
    /// The `status` file: `Discharging`, `Charging`, `Full`, `Not charging` or `Unknown`.
    /// Surrounding whitespace is ignored.
    public var status: String
    /// The `capacity` file, in percent; nil when the file is missing or unreadable.
    public var capacity: Int?

    public init(status: String, capacity: Int?) {
        self.status = status
        self.capacity = capacity
    }
}

/// Decides the `battery-low` trigger.
public enum BatteryPolicy {
    /// True when any battery is `Discharging` with a known capacity at or below
    /// `thresholdPercent` (`[Energy] BatteryLowPercent=`). A charging, full or idle battery is
    /// never low (the machine is on mains power), and neither is one of unknown capacity.
    public static func isLow(_ batteries: [BatteryReading], thresholdPercent: Int) -> Bool {
        batteries.contains { battery in
            guard let capacity = battery.capacity else { return false }
            return battery.status.trimmingASCIIWhitespace() == "Discharging" && capacity <= thresholdPercent
        }
    }
}
