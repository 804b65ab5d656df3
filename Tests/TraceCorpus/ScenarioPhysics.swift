import OrientationCore

// MARK: - The physics of the scenario generator
//
// A scenario is a rigid device moved through the world; its accelerometer reading is computed from
// the motion, not written by hand:
//
// - The world frame: x and z horizontal, y up; gravity points along -y.
// - The device's attitude is a rotation R(t) from the device frame (docs/axes.md: x right, y the top
//   edge, z out of the screen) to the world. `Attitude` (turn, lean, roll) gives it:
//   R = Rx(-lean) Rz(-turn) Ry(-roll), so that R^T (0, -1, 0) is `Attitude.gravityDirection`.
// - The sensor's position p(t) in the world, metres: where the body, the arm and the hand put it
//   (a device turned in the hand turns about the grip point, so the sensor a few centimetres
//   away from it moves on an arc: tangential and centripetal acceleration).
// - Its acceleration a(t) = p''(t), by a central second difference of p (h = 1 ms), plus the
//   vehicle's vibration, given as an acceleration (zero mean by construction).
// - The reading (the gravity vector, pointing at the ground, as docs/axes.md's frame reads it):
//   R^T (g (0, -1, 0) - a). A device accelerated upwards reads heavier; a still device reads
//   gravity, whatever its pose.
// - Then the sensor: its output filter (the mean over its output period, as a decimation filter
//   averages: vibration above half the rate is attenuated, not aliased; the period is the rate
//   the daemon sets for the plan's interval, `SensorModel.outputPeriod`), bias, per-axis scale
//   error, the driver's scale (m/s^2, or raw counts), noise, the range's saturation and
//   quantization to the sensor's step.

/// A 3x3 matrix (a rotation), by rows.
public struct Matrix3: Equatable, Sendable {
    public var rows: (Vector3, Vector3, Vector3)

    public init(_ r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        rows = (r0, r1, r2)
    }

    public static let identity = Matrix3(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    public static func == (a: Matrix3, b: Matrix3) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2
    }

    /// Rotation by `degrees` about the unit `axis` (right hand).
    public static func rotation(about axis: Vector3, degrees: Double) -> Matrix3 {
        let (s, c) = TestMath.sinCos(degrees: degrees)
        let (x, y, z) = (axis.x, axis.y, axis.z)
        let t = 1 - c
        return Matrix3(
            Vector3(t * x * x + c, t * x * y - s * z, t * x * z + s * y),
            Vector3(t * x * y + s * z, t * y * y + c, t * y * z - s * x),
            Vector3(t * x * z - s * y, t * y * z + s * x, t * z * z + c))
    }

    public var transposed: Matrix3 {
        let (a, b, c) = rows
        return Matrix3(Vector3(a.x, b.x, c.x), Vector3(a.y, b.y, c.y), Vector3(a.z, b.z, c.z))
    }

    public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.rows.0.dot(v), m.rows.1.dot(v), m.rows.2.dot(v))
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        func row(_ r: Vector3) -> Vector3 { Vector3(r.dot(t.rows.0), r.dot(t.rows.1), r.dot(t.rows.2)) }
        return Matrix3(row(a.rows.0), row(a.rows.1), row(a.rows.2))
    }

    /// The angle of the rotation `self^T other`, degrees (how far apart two attitudes are).
    public func angle(to other: Matrix3) -> Double {
        let m = transposed * other
        let trace = m.rows.0.x + m.rows.1.y + m.rows.2.z
        let cosine = min(max((trace - 1) / 2, -1), 1)
        // acos through atan2 (plain Swift).
        let sine = (1 - cosine * cosine).squareRoot()
        return Vector3(1, 0, 0).angle(to: Vector3(cosine, sine, 0))
    }
}

extension Attitude {
    /// The rotation from the device frame to the world (see the top of this file).
    public var rotation: Matrix3 {
        Matrix3.rotation(about: Vector3(1, 0, 0), degrees: -lean)
            * Matrix3.rotation(about: Vector3(0, 0, 1), degrees: -turn)
            * Matrix3.rotation(about: Vector3(0, 1, 0), degrees: -roll)
    }
}

/// World down, unit.
public let worldDown = Vector3(0, -1, 0)

/// How a hand's move runs from 0 to 1: both have no speed at either end.
public enum SpeedProfile: String, Sendable, CaseIterable {
    /// 3u^2 - 2u^3.
    case smoothstep
    /// 10u^3 - 15u^4 + 6u^5, the profile of a reaching hand (no acceleration at either end).
    case minimumJerk

    /// The progress at `time` of a move over `start...end` (0 before, 1 after; a move with no
    /// length is a step).
    public func progress(_ time: Double, from start: Double, to end: Double) -> Double {
        if time <= start { return 0 }
        if time >= end { return 1 }
        let u = (time - start) / (end - start)
        switch self {
        case .smoothstep: return u * u * (3 - 2 * u)
        case .minimumJerk: return u * u * u * (10 + u * (-15 + 6 * u))
        }
    }
}

/// A vehicle's vibration: an acceleration in the world frame, m/s^2, with zero mean (sinusoids and
/// bumps of whole cycles).
public struct Vibration: Sendable {
    public struct Component: Sendable {
        public var frequency: Double
        public var amplitude: Double
        public var phase: Double
        public var direction: Vector3

        public init(frequency: Double, amplitude: Double, phase: Double, direction: Vector3) {
            self.frequency = frequency
            self.amplitude = amplitude
            self.phase = phase
            self.direction = direction
        }
    }

    /// A bump: `cycles` whole cycles at `frequency` under a Hann window (so it changes neither
    /// velocity nor position), peak `amplitude` along `direction`, every `period` seconds from `start`.
    public struct Bumps: Sendable {
        public var amplitude: Double
        public var frequency: Double
        public var cycles: Int
        public var period: Double
        public var start: Double
        public var direction: Vector3

        public init(
            amplitude: Double, frequency: Double, cycles: Int, period: Double, start: Double, direction: Vector3
        ) {
            self.amplitude = amplitude
            self.frequency = frequency
            self.cycles = cycles
            self.period = period
            self.start = start
            self.direction = direction
        }
    }

    public var components: [Component] = []
    public var bumps: Bumps?
    /// Vibration off before this time and after `end` (faded over 0.2 s).
    public var start = -Double.infinity
    public var end = Double.infinity

    public init() {}

    /// The upper bound of |vibration| without the bumps (the sum of the amplitudes).
    public var peak: Double { components.reduce(0) { $0 + $1.amplitude } }

    public func acceleration(at time: Double) -> Vector3 {
        var sum = Vector3.zero
        let fade =
            start.isFinite || end.isFinite
            ? ramp(time, from: start, to: start + 0.2) * (1 - ramp(time, from: end - 0.2, to: end)) : 1
        if fade > 0 {
            for c in components {
                sum =
                    sum + c.direction
                    * (fade * c.amplitude * TestMath.sinCos(degrees: 360 * c.frequency * time + c.phase).sin)
            }
        }
        if let b = bumps, time >= b.start {
            let since = (time - b.start).truncatingRemainder(dividingBy: b.period)
            let length = Double(b.cycles) / b.frequency
            if since < length {
                let window = (1 - TestMath.sinCos(degrees: 360 * since / length).cos) / 2
                sum =
                    sum + b.direction * (b.amplitude * window * TestMath.sinCos(degrees: 360 * b.frequency * since).sin)
            }
        }
        return sum
    }

    /// Road: 3-6 components spread over `band` Hz, mostly vertical, peak `amplitude` in all.
    public static func road(amplitude: Double, band: ClosedRange<Double>, random: inout SplitMix64) -> Vibration {
        var v = Vibration()
        let count = 3 + random.index(4)
        var weights = (0..<count).map { _ in 0.2 + random.unit() }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        for w in weights {
            v.components.append(
                Component(
                    frequency: random.uniform(band), amplitude: amplitude * w, phase: 360 * random.unit(),
                    direction: mostlyVertical(&random)))
        }
        return v
    }

    /// Rail: a dominant frequency in `band` and its second harmonic (weaker), peak `amplitude`.
    public static func rail(amplitude: Double, band: ClosedRange<Double>, random: inout SplitMix64) -> Vibration {
        var v = Vibration()
        let base = random.uniform(band.lowerBound...max(band.lowerBound, band.upperBound / 2))
        let share = random.uniform(0.6...0.85)
        v.components.append(
            Component(
                frequency: base, amplitude: amplitude * share, phase: 360 * random.unit(),
                direction: mostlyVertical(&random)))
        v.components.append(
            Component(
                frequency: 2 * base, amplitude: amplitude * (1 - share), phase: 360 * random.unit(),
                direction: mostlyVertical(&random)))
        return v
    }

    /// A unit vector within about 35 degrees of vertical.
    static func mostlyVertical(_ random: inout SplitMix64) -> Vector3 {
        let d = Vector3(random.uniform(-0.7...0.7), 1, random.uniform(-0.7...0.7))
        return d * (1 / d.magnitude)
    }
}

/// The accelerometer as a driver shows it.
public struct SensorModel: Sendable {
    /// The driver's rate plan.
    public enum Rate: Sendable, CustomStringConvertible {
        /// A fixed rate, Hz.
        case fixed(Double)
        /// The daemon's adaptive plan (`SamplingPolicy`): `moving` seconds between readings while
        /// the estimator settles and for `linger` seconds after, `still` otherwise.
        case adaptive(still: Double, moving: Double, linger: Double)

        public var description: String {
            switch self {
            case .fixed(let hz): return "\(hz) Hz"
            case .adaptive(let still, let moving, _): return "adaptive \(Int(still * 1000))/\(Int(moving * 1000)) ms"
            }
        }
    }

    public var rate: Rate = .fixed(50)
    /// The rate of the sensor's own output where the daemon cannot set it (a part without a
    /// `sampling_frequency` file, polled by the adaptive plan), Hz; nil for a part that takes the
    /// rate the daemon sets. The properties draw the latter; traces of the former keep the case
    /// where a slow plan aliases a vibration (`ScenarioTraces.text(partRate:)`).
    public var partRate: Double?

    /// The period of the sensor's own output for a reading that comes `interval` seconds after
    /// the one before, seconds: the rate for a fixed plan. A sensor that the adaptive plan polls
    /// runs at the rate the daemon sets for each interval (`SamplingFrequency.choose`, at least
    /// `SamplingFrequency.polledFloor`; a part whose rates run continuously): its output filter
    /// follows its rate, as bmc150's bandwidth and lis3's cut-off do.
    public func outputPeriod(interval: Double) -> Double {
        if case .fixed(let hz) = rate { return 1 / hz }
        if let partRate { return 1 / partRate }
        let msec = UInt32((interval * 1000).rounded())
        return 1 / SamplingFrequency.choose(
            .continuous(minimum: 1, maximum: 100), intervalMsec: msec, floor: SamplingFrequency.polledFloor)
    }
    /// Constant offset per axis, m/s^2.
    public var bias = Vector3.zero
    /// Per-axis gain error (1 is exact).
    public var gain = Vector3(1, 1, 1)
    /// Reading units per m/s^2: 1 for a driver that gives m/s^2, e.g. 1024 / 9.80665 for raw counts.
    public var scale = 1.0
    /// Noise per axis, m/s^2 (before the scale).
    public var noise = 0.0
    /// Saturation, m/s^2 (e.g. 2 g); infinite for none.
    public var range = Double.infinity
    /// Quantization step in reading units (one count); 0 for none.
    public var step = 0.0

    public init() {}

    /// The reading for the true specific gravity vector `v` (m/s^2, device frame).
    public func read(_ v: Vector3, random: inout SplitMix64) -> Vector3 {
        let n = noise > 0 ? random.noise(sigma: noise) : .zero
        func axis(_ value: Double, _ bias: Double, _ gain: Double, _ noise: Double) -> Double {
            let clipped = min(max(value * gain + bias + noise, -range), range)
            let units = clipped * scale
            guard step > 0 else { return units }
            return (units / step).rounded() * step
        }
        return Vector3(axis(v.x, bias.x, gain.x, n.x), axis(v.y, bias.y, gain.y, n.y), axis(v.z, bias.z, gain.z, n.z))
    }

    /// A random sensor: rate plan, bias up to `maxBias` per axis, gain errors up to 3 %, a wrong
    /// scale or none (raw counts; a fifth of the sensors each), noise (0.005-0.03 g), a 2-16 g range,
    /// 10 or 12 bit steps.
    /// `counts` false keeps the scale within 0.5-1.8 (the hinge estimator's plausible range);
    /// `noise` is the range of the noise, g.
    public static func random(
        _ random: inout SplitMix64, maxBias: Double = 0.03 * g, saturating: Bool = true, counts: Bool = true,
        noise: ClosedRange<Double> = 0.005...0.03
    ) -> SensorModel {
        var s = SensorModel()
        let policy = SamplingPolicy()
        func seconds(_ msec: UInt32) -> Double { Double(msec) / 1000 }
        let linger = seconds(policy.motionLingerMsec)
        let rates: [Rate] = [
            .fixed(10), .fixed(12.5), .fixed(25), .fixed(50), .fixed(100),
            .adaptive(still: seconds(policy.stillIntervalMsec), moving: seconds(policy.movingIntervalMsec), linger: linger),
            .adaptive(
                still: seconds(policy.lowEnergyStillIntervalMsec), moving: seconds(policy.lowEnergyMovingIntervalMsec),
                linger: linger),
        ]
        s.rate = rates[random.index(rates.count)]
        s.bias = Vector3(random.uniform(-1...1), random.uniform(-1...1), random.uniform(-1...1)) * maxBias
        s.gain = Vector3(random.uniform(0.97...1.03), random.uniform(0.97...1.03), random.uniform(0.97...1.03))
        let rangeG = [2.0, 4, 8, 16][random.index(4)]
        s.range = saturating ? rangeG * 9.80665 : .infinity
        // Counts per g of the sensor's resolution: 12 bits over the range (or 10 for some).
        let bits = random.unit() < 0.3 ? 10.0 : 12.0
        let countsPerG = (bits == 10 ? 512.0 : 2048.0) / rangeG
        switch random.index(5) {
        case 0 where counts:
            // No scale: raw counts.
            s.scale = countsPerG / 9.80665
            s.step = 1
        case 0, 1:
            // A wrong scale (a driver's table off by a factor).
            s.scale = random.uniform(0.5...1.8)
            s.step = s.scale * 9.80665 / countsPerG
        default:
            s.step = 9.80665 / countsPerG
        }
        s.noise = random.uniform(noise) * g
        return s
    }

    public var summary: String {
        let scaleText = step == 1 ? "counts x\(fixed(scale, 1))" : "scale \(fixed(scale, 2))"
        return "\(rate), \(scaleText), noise \(fixed(noise / g, 3)) g, bias \(fixed(bias.magnitude / g, 3)) g"
            + (range.isFinite ? ", range \(Int((range / 9.80665).rounded())) g" : "")
    }
}

/// `value` with `decimals` decimals, halves away from zero ("null" when not finite): plain Swift,
/// for estimator-bench's tables and the scenarios' one-line descriptions.
public func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "null" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64(value * scale + (value < 0 ? -0.5 : 0.5))
    let sign = scaled < 0 ? "-" : ""
    let magnitude = scaled.magnitude
    let whole = magnitude / UInt64(scale)
    guard decimals > 0 else { return sign + String(whole) }
    var fraction = String(magnitude % UInt64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return sign + String(whole) + "." + fraction
}
