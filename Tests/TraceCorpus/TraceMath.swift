import OrientationCore

// The arithmetic the synthetic traces, the corpus tests, the scenario properties and
// estimator-bench share: plain Swift (no libm), so that the same recipe gives the same samples on
// every machine.

/// Standard gravity used by the synthetic traces, m/s^2.
public let g = 9.81

/// SplitMix64: a tiny deterministic PRNG, so noisy traces give the same numbers on every run.
public struct SplitMix64: Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// An index in `0..<count`.
    public mutating func index(_ count: Int) -> Int {
        min(Int(unit() * Double(count)), count - 1)
    }

    /// Roughly normal noise with standard deviation `sigma`: the sum of `uniforms` uniforms,
    /// centred and scaled (12, the default, needs no scaling; estimator-bench's long trace uses 4).
    public mutating func gaussian(sigma: Double, uniforms: Int = 12) -> Double {
        var sum = 0.0
        for _ in 0..<uniforms { sum += unit() }
        let centred = (sum - Double(uniforms) / 2) * sigma
        return uniforms == 12 ? centred : centred * (12 / Double(uniforms)).squareRoot()
    }

    /// A vector of independent noise components.
    public mutating func noise(sigma: Double) -> Vector3 {
        Vector3(gaussian(sigma: sigma), gaussian(sigma: sigma), gaussian(sigma: sigma))
    }
}

/// Sine and cosine for building test vectors (no libm here either).
public enum TestMath {
    public static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        // Reduce to -180...180, then Taylor series; |x| <= pi needs about 30 terms for 1e-16.
        let reduced = degrees.remainder(dividingBy: 360)
        let x = reduced * Double.pi / 180
        var sinSum = 0.0
        var cosSum = 0.0
        var sinTerm = x
        var cosTerm = 1.0
        for n in 0..<30 {
            sinSum += sinTerm
            cosSum += cosTerm
            sinTerm *= -x * x / Double((2 * n + 2) * (2 * n + 3))
            cosTerm *= -x * x / Double((2 * n + 1) * (2 * n + 2))
        }
        return (sinSum, cosSum)
    }

    /// e^-x for x >= 0.
    public static func decay(_ x: Double) -> Double {
        // (1 + x/n)^-n with n = 2^16, accurate to about x^2/2^17: plenty for an envelope.
        var value = 1 / (1 + x / 65536)
        for _ in 0..<16 { value *= value }
        return value
    }
}

/// The median of `values` (NaN when empty).
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Gravity for a device turned `angle` degrees clockwise from portrait in the screen plane
/// (90 = landscape-right) and tilted `tilt` degrees back (90 = face-up, -90 = face-down).
public func gravity(angle: Double, tilt: Double = 0, magnitude: Double = g) -> Vector3 {
    let a = TestMath.sinCos(degrees: angle)
    let t = TestMath.sinCos(degrees: tilt)
    return Vector3(
        magnitude * t.cos * a.sin,
        -magnitude * t.cos * a.cos,
        -magnitude * t.sin)
}

/// Smooth 0...1 ramp between `start` and `end` (cosine-like smoothstep, zero speed at both ends).
public func ramp(_ time: Double, from start: Double, to end: Double) -> Double {
    SpeedProfile.smoothstep.progress(time, from: start, to: end)
}

/// Samples `motion` at `rate` Hz from `start` for `duration` seconds (times computed from the
/// sample index, so they do not drift).
public func samples(
    rate: Double, duration: Double, start: Double = 0, _ motion: (Double) -> Vector3
) -> [TraceSample] {
    let count = Int((duration * rate).rounded())
    return (0..<count).map { index in
        let time = start + Double(index) / rate
        return TraceSample(time: time, reading: motion(time))
    }
}
