import Glibc
import OrientationCore

/// The device's own sampling frequency, set to the lowest rate that serves the sampling
/// plan and restored when we let go of the device. Devices without a writable
/// `sampling_frequency` (or a read-only /sys) are left alone after one message.
final class SensorRate {
    let path: String
    private let available: SamplingFrequency.AvailableRates
    private let original: String
    private var current: String
    private var failed = false

    /// Nil when the device offers no rates to choose from.
    init?(syspath: String) {
        for prefix in ["", "in_accel_"] {
            let path = "\(syspath)/\(prefix)sampling_frequency"
            guard let original = try? Sysfs.read(path).trimmingWhitespace(), !original.isEmpty,
                let text = try? Sysfs.read("\(path)_available"),
                let available = SamplingFrequency.parseAvailable(text)
            else { continue }
            self.path = path
            self.available = available
            self.original = original
            self.current = original
            return
        }
        return nil
    }

    deinit { restore() }

    /// Sets the rate for sampling every `intervalMsec`.
    func apply(intervalMsec: UInt32) {
        write(SamplingFrequency.format(SamplingFrequency.choose(available, intervalMsec: intervalMsec)))
    }

    /// Puts back the rate the device had when we took it.
    func restore() {
        write(original)
    }

    private func write(_ value: String) {
        guard value != current, !failed else { return }
        do {
            try Sysfs.write(path, value)
        } catch {
            failed = true
            if error.errno != ENOENT {  // a device that is gone has no rate to keep
                Log.notice("leaving the sampling frequency as it is: \(error)")
            }
            return
        }
        Log.debug("\(path) = \(value)")
        current = value
    }
}
