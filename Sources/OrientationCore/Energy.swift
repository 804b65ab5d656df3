/// The forced low-energy flag: `[Energy] LowEnergyMode=` and `SetLowEnergyMode()`.
public enum LowEnergySetting: String, Sendable, CaseIterable {
    /// Low energy mode follows the triggers (power-saver profile, low battery, heat).
    case auto
    /// Always in low energy mode.
    case on
    /// Never in low energy mode, whatever the triggers say.
    case off
}
