import Glibc
import OrientationCore
import SystemdBus

/// A device attribute we set while we use the device and give back when we let go of it
/// (on exit, or when the device object goes). A device that refuses the write (or a read-only
/// /sys) is left alone after one message.
final class DeviceSetting {
    let path: String
    /// What the attribute is, for the message: "sampling frequency".
    private let what: String
    private let original: String
    private var current: String
    private var failed = false

    init(path: String, original: String, what: String) {
        self.path = path
        self.what = what
        self.original = original
        self.current = original
    }

    deinit { restore() }

    /// Writes `value` unless it is already in force.
    func set(_ value: String) {
        guard value != current, !failed else { return }
        do {
            try Sysfs.write(path, value)
        } catch {
            failed = true
            if error.errno != ENOENT {  // a device that is gone has nothing to keep
                Log.notice("leaving the \(what) as it is: \(error)")
            }
            return
        }
        Log.debug("\(path) = \(value)")
        current = value
    }

    /// Puts back the value the device had when we took it.
    func restore() {
        set(original)
    }
}

/// The device's own sampling frequency, set to the lowest rate that serves the sampling
/// plan and restored when we let go of the device.
final class SensorRate {
    private let setting: DeviceSetting
    private let available: SamplingFrequency.AvailableRates

    /// Nil when the device offers no rates to choose from.
    init?(syspath: String) {
        for prefix in ["", "in_accel_"] {
            let path = "\(syspath)/\(prefix)sampling_frequency"
            guard let original = try? String(Sysfs.read(path).trimmingASCIIWhitespace()), !original.isEmpty,
                let text = try? Sysfs.read("\(path)_available"),
                let available = SamplingFrequency.parseAvailable(text)
            else { continue }
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
