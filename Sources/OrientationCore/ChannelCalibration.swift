/// Scale and offset of one channel: value = (raw + offset) x scale, the IIO ABI's rule; for an
/// accelerometer the result is in m/s^2.
public struct ChannelCalibration: Equatable, Sendable {
    /// Multiplier from (raw + offset) to the channel's unit (m/s^2 per count for acceleration).
    public var scale: Double
    /// Added to the raw value before scaling, in raw counts.
    public var offset: Double

    /// The calibration that leaves raw values unchanged.
    public static let identity = ChannelCalibration(scale: 1, offset: 0)

    /// Creates a calibration.
    public init(scale: Double, offset: Double) {
        self.scale = scale
        self.offset = offset
    }

    /// (raw + offset) x scale. Raw counts are whole on most drivers; a fraction (which some
    /// print) is kept.
    public func apply(_ raw: Double) -> Double {
        (raw + offset) * scale
    }

    /// Counts per g assumed for an input accelerometer that reports no resolution (the common
    /// 10-bit, +-2 g parts). Only the values shown in m/s^2 depend on it: the estimator
    /// calibrates its own 1 g reference.
    public static let assumedInputCountsPerG: Int32 = 256

    /// The calibration of an input-subsystem accelerometer axis from its `input_absinfo`
    /// resolution, which for accelerometers (`INPUT_PROP_ACCELEROMETER`) is in counts per g.
    /// A resolution of zero or less (not given) assumes `assumedInputCountsPerG`, with a note.
    public static func inputAxis(resolution: Int32) -> (calibration: ChannelCalibration, problem: String?) {
        let standardGravity = 9.80665
        guard resolution > 0 else {
            let perG = assumedInputCountsPerG
            return (
                ChannelCalibration(scale: standardGravity / Double(perG), offset: 0),
                "no resolution given (\(resolution)); assuming \(perG) counts per g"
            )
        }
        return (ChannelCalibration(scale: standardGravity / Double(resolution), offset: 0), nil)
    }

    /// Picks the scale and offset from sysfs text.
    ///
    /// `scales` and `offsets` are candidates in the caller's precedence order (per channel
    /// `in_accel_x_scale`, shared `in_accel_scale`, generic `scale`); nil text means absent and
    /// is skipped. The first usable text wins; a present text that is not a decimal number
    /// (`.` is the only decimal point, whatever the locale, so "0,0095" is refused) or, for a
    /// scale, not positive and finite, gives a problem naming the source and falls through.
    /// Without a usable scale the scale is 1, with a note (the values are then raw counts);
    /// without a usable offset it is 0, with no note when none was given (most devices have
    /// no offset attribute), but noted when every given one was refused.
    public static func resolve(
        scales: [(source: String, text: String?)], offsets: [(source: String, text: String?)]
    ) -> (calibration: ChannelCalibration, problems: [String]) {
        var problems: [String] = []
        var scale: Double?
        for (source, text) in scales {
            guard let text else { continue }
            do {
                let value = try SysfsNumber.parseDecimal(text)
                if value > 0 {
                    scale = value
                    break
                }
                problems.append(
                    "ignoring the scale from \(source): must be positive, found \"\(NumberText.excerpt(text.trimmingASCIIWhitespace()))\""
                )
            } catch {
                problems.append("ignoring the scale from \(source): \(error)")
            }
        }
        if scale == nil {
            let tried = scales.map(\.source).joined(separator: ", ")
            problems.append("no usable scale (\(tried.isEmpty ? "none given" : "tried " + tried)); using 1")
        }

        var offset: Double?
        var refusedOffset = false
        for (source, text) in offsets {
            guard let text else { continue }
            do {
                offset = try SysfsNumber.parseDecimal(text)
                break
            } catch {
                problems.append("ignoring the offset from \(source): \(error)")
                refusedOffset = true
            }
        }
        if offset == nil && refusedOffset { problems.append("no usable offset; using 0") }
        return (ChannelCalibration(scale: scale ?? 1, offset: offset ?? 0), problems)
    }
}
