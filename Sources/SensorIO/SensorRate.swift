import ErrorsAndLog
import Glibc
import OrientationCore
import SystemdBus

/// The device's own sampling frequency, set to the lowest rate that serves the sampling
/// plan and restored when we let go of the device.
///
/// Drivers name it differently (docs/drivers.md): `sampling_frequency` with
/// `sampling_frequency_available` (most), `in_accel_sampling_frequency` with the generic
/// `sampling_frequency_available` (bmc150, mma8452) or with no list at all (HID sensor hubs,
/// whose rate is their report interval and may read 0: no reports until one is written).
/// Without a list the rate the plan needs is written and read back.
final class SensorRate {
    private let setting: DeviceSetting
    private let available: SamplingFrequency.AvailableRates
    /// The rate the device had when we took it, in Hz (0 for a hub that reports nothing);
    /// nil when its text is no number (it is still given back as it was).
    private let original: Double?
    /// Rates already reported as taken differently by the driver, so each is told once.
    private var readBackProblems = ProblemLog()

    /// The rate file and the lists that may describe it, in the order they are tried.
    private static let names: [(rate: String, lists: [String])] = [
        ("sampling_frequency", ["sampling_frequency_available"]),
        ("in_accel_sampling_frequency", ["in_accel_sampling_frequency_available", "sampling_frequency_available"]),
    ]

    /// Nil when the device has no rate file; a rate or list that exists and cannot be read
    /// or parsed is logged (the device then keeps its own rate).
    init?(syspath: String) {
        let consequence = "leaving the sampling frequency as it is:"
        for (name, lists) in SensorRate.names {
            let path = "\(syspath)/\(name)"
            guard
                let text = Sysfs.readIfPresent(path, consequence: consequence).map({
                    String($0.trimmingASCIIWhitespace())
                })
            else { continue }
            var available = SamplingFrequency.AvailableRates.unlisted
            if let listPath = lists.map({ "\(syspath)/\($0)" }).first(where: { Sysfs.isReadable($0) }) {
                guard let listText = Sysfs.readIfPresent(listPath, consequence: consequence) else { return nil }
                guard let parsed = SamplingFrequency.parseAvailable(listText) else {
                    Log.warning(
                        "\(consequence) \(listPath): cannot parse '\(listText.trimmingASCIIWhitespace().prefix(64))'")
                    return nil
                }
                available = parsed
            }
            self.setting = DeviceSetting(path: path, original: text, what: "sampling frequency")
            self.available = available
            // A text that is no rate is only given back; writing tells whether the driver takes one.
            self.original = try? SysfsNumber.parseDecimal(text)
            return
        }
        return nil
    }

    /// Sets the rate for sampling every `intervalMsec`; a device that is polled gets at
    /// least `SamplingFrequency.polledFloor` (when it offers that much).
    func apply(intervalMsec: UInt32, polled: Bool) {
        write(rate(forIntervalMsec: intervalMsec, polled: polled))
    }

    /// The rate `apply(intervalMsec:polled:)` writes.
    func rate(forIntervalMsec intervalMsec: UInt32, polled: Bool) -> Double {
        SamplingFrequency.choose(
            available, intervalMsec: intervalMsec, floor: polled ? SamplingFrequency.polledFloor : 0)
    }

    /// Raises a rate under the polled floor before anything is read (at take time, as
    /// iio-sensor-proxy does, so the first raw read does not wait on a slow conversion).
    func raiseToPolledFloor() {
        guard let original, original < SamplingFrequency.polledFloor else { return }
        write(SamplingFrequency.choose(available, intervalMsec: UInt32.max, floor: SamplingFrequency.polledFloor))
    }

    /// Puts back the rate the device had when we took it.
    func restore() {
        setting.restore()
    }

    private func write(_ rate: Double) {
        let text = SamplingFrequency.format(rate)
        guard setting.set(text), available == .unlisted else { return }
        // No list says what the driver takes: read back what it made of the rate (a HID hub
        // turns it into a whole report interval in milliseconds).
        let path = setting.path
        guard let back = Sysfs.readIfPresent(path, consequence: "cannot read back the sampling frequency:"),
            let taken = try? SysfsNumber.parseDecimal(String(back))
        else { return }
        if taken <= 0 || abs(taken - rate) > rate * 0.1 {
            readBackProblems.report(
                "\(path) \(text)",
                "\(path): wrote \(text) Hz, the driver took \(SamplingFrequency.format(max(taken, 0))) Hz")
        } else {
            Log.debug("\(path) reads back \(String(back.trimmingASCIIWhitespace()))")
        }
    }
}
