import Glibc
import OrientationCore
import SystemdBus

/// The device's own sampling frequency, set to the lowest rate that serves the sampling
/// plan and restored when we let go of the device.
final class SensorRate {
    private let setting: DeviceSetting
    private let available: SamplingFrequency.AvailableRates

    /// Nil when the device offers no rates to choose from; a rate or list of rates that
    /// exists and cannot be read or parsed is logged (the device then keeps its own rate).
    init?(syspath: String) {
        for prefix in ["", "in_accel_"] {
            let path = "\(syspath)/\(prefix)sampling_frequency"
            let consequence = "leaving the sampling frequency as it is:"
            guard
                let original = Sysfs.readIfPresent(path, consequence: consequence).map({
                    String($0.trimmingASCIIWhitespace())
                }),
                !original.isEmpty, let text = Sysfs.readIfPresent("\(path)_available", consequence: consequence)
            else { continue }
            guard let available = SamplingFrequency.parseAvailable(text) else {
                Log.warning(
                    "leaving the sampling frequency as it is: \(path)_available: cannot parse '\(text.trimmingASCIIWhitespace().prefix(64))'"
                )
                continue
            }
            self.setting = DeviceSetting(path: path, original: original, what: "sampling frequency")
            self.available = available
            return
        }
        return nil
    }

    /// Sets the rate for sampling every `intervalMsec`.
    func apply(intervalMsec: UInt32) {
        setting.set(SamplingFrequency.format(SamplingFrequency.choose(available, intervalMsec: intervalMsec)))
    }

    /// Puts back the rate the device had when we took it.
    func restore() {
        setting.restore()
    }
}
