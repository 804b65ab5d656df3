/// The sensor's own sampling frequency (`sampling_frequency`, `in_accel_sampling_frequency`):
/// the lowest rate the device offers that still serves the daemon's sampling plan, so slow
/// parts spend no power on samples nobody reads. See docs/drivers.md for each driver's naming.
public enum SamplingFrequency {
    /// The least rate a device is given while its raw channels are polled, in Hz (when it
    /// offers one that high). Many drivers answer a raw read only after the next conversion
    /// (a whole period at the device's rate), and the read blocks the event loop meanwhile:
    /// at 10 Hz that wait stays under 100 ms. Buffered devices have no floor: their scans
    /// arrive on their own, and the lowest rate serving the plan is the most frugal.
    /// iio-sensor-proxy 3.9 raises polled rates under 10 Hz to 10 too.
    public static let polledFloor = 10.0

    /// Parses a `sampling_frequency_available` text: a list of rates ("12.5 25 50 100"), a
    /// stepped range in brackets ("[min step max]"), or cros-ec's three values "off, minimum,
    /// maximum" ("0.000000 12.500000 100.000000"), where any rate between the minimum and the
    /// maximum is taken. Rates in Hz. Nil when the text holds no usable positive rate.
    public static func parseAvailable(_ text: String) -> AvailableRates? {
        let trimmed = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        if let first = trimmed.first, first.hasPrefix("[") {
            let numbers = text.filter { $0 != "[" && $0 != "]" }.split(whereSeparator: { $0 == " " || $0 == "\n" })
                .compactMap { try? SysfsNumber.parseDecimal(String($0)) }
            guard numbers.count == 3, numbers[0] >= 0, numbers[1] > 0, numbers[2] >= numbers[0], numbers[2] > 0 else {
                return nil
            }
            return .range(minimum: numbers[0], step: numbers[1], maximum: numbers[2])
        }
        let values = trimmed.compactMap { try? SysfsNumber.parseDecimal(String($0)) }
        // A set of rates has no 0 Hz in it: "0, minimum, maximum" is cros-ec's continuous range.
        if values.count == 3, trimmed.count == 3, values[0] == 0, values[1] > 0, values[2] >= values[1] {
            return .continuous(minimum: values[1], maximum: values[2])
        }
        let rates = values.filter { $0 > 0 }
        return rates.isEmpty ? nil : .list(rates.sorted())
    }

    /// What a device offers.
    public enum AvailableRates: Equatable, Sendable {
        /// A set of rates.
        case list([Double])
        /// Rates from `minimum` to `maximum` in steps of `step`.
        case range(minimum: Double, step: Double, maximum: Double)
        /// Any rate from `minimum` to `maximum` (cros-ec).
        case continuous(minimum: Double, maximum: Double)
        /// No list: any rate the driver takes (HID sensor hubs' report interval).
        case unlisted
    }

    /// The lowest offered rate at or above what sampling every `intervalMsec` needs, and at
    /// least `floor` Hz when the device offers that much (the highest offered when none is
    /// fast enough).
    public static func choose(_ available: AvailableRates, intervalMsec: UInt32, floor: Double = 0) -> Double {
        let needed = max(1000 / Double(max(intervalMsec, 1)), floor)
        switch available {
        case .list(let rates):
            return rates.first { $0 >= needed } ?? rates.last!
        case .range(let minimum, let step, let maximum):
            guard needed > minimum else { return max(minimum, step) }
            var steps = ((needed - minimum) / step)
            // Round up to a whole step without libm (ceil).
            let whole = Double(Int64(steps))
            steps = whole < steps ? whole + 1 : whole
            return min(minimum + steps * step, maximum)
        case .continuous(let minimum, let maximum):
            return min(max(needed, minimum), maximum)
        case .unlisted:
            return needed
        }
    }

    /// The text to write: whole numbers without a fraction ("25"), others as decimals with at
    /// most six places (IIO's micro precision), rounded up so the rate still serves the plan
    /// ("1.428572" for 700 ms).
    public static func format(_ rate: Double) -> String {
        let scaled = rate * 1_000_000
        var micro = Int64(scaled)
        // Round up, but not a representation error of a decimal that is exact in six places.
        if Double(micro) < scaled && scaled - Double(micro) > 1e-3 { micro += 1 }
        let whole = micro / 1_000_000
        var fraction = micro % 1_000_000
        guard fraction != 0 else { return String(whole) }
        var places = 6
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        let digits = String(fraction)
        return "\(whole)." + String(repeating: "0", count: places - digits.count) + digits
    }
}
