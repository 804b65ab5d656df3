/// The sensor's own sampling frequency (`sampling_frequency`): the lowest rate the device
/// offers that still serves the daemon's sampling plan, so slow parts spend no power on
/// samples nobody reads and a read never waits on a stale conversion.
public enum SamplingFrequency {
    /// Parses `sampling_frequency_available`: either a list of rates ("12.5 25 50 100") or
    /// a range in brackets ("[min step max]"), in Hz. Nil when the text holds no usable
    /// positive rate.
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
        let rates = trimmed.compactMap { try? SysfsNumber.parseDecimal(String($0)) }.filter { $0 > 0 }
        return rates.isEmpty ? nil : .list(rates.sorted())
    }

    /// What a device offers.
    public enum AvailableRates: Equatable, Sendable {
        case list([Double])
        case range(minimum: Double, step: Double, maximum: Double)
    }

    /// The lowest offered rate at or above what sampling every `intervalMsec` needs (the
    /// highest offered when none is fast enough).
    public static func choose(_ available: AvailableRates, intervalMsec: UInt32) -> Double {
        let needed = 1000 / Double(max(intervalMsec, 1))
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
        }
    }

    /// The text to write: whole numbers without a fraction ("25"), others as decimals.
    public static func format(_ rate: Double) -> String {
        let whole = Double(Int64(rate))
        return whole == rate ? String(Int64(rate)) : String(rate)
    }
}
