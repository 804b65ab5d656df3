import OrientationCore
import Testing

/// Standard gravity used by the synthetic traces, m/s^2.
let g = 9.81

/// SplitMix64: a tiny deterministic PRNG, so noisy tests give the same numbers on every run.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Roughly normal noise with standard deviation `sigma` (sum of 12 uniforms, minus 6).
    mutating func gaussian(sigma: Double) -> Double {
        var sum = 0.0
        for _ in 0..<12 { sum += unit() }
        return (sum - 6) * sigma
    }

    /// A vector of independent noise components.
    mutating func noise(sigma: Double) -> Vector3 {
        Vector3(gaussian(sigma: sigma), gaussian(sigma: sigma), gaussian(sigma: sigma))
    }
}

/// Sine and cosine for building test vectors (no libm in these tests either).
enum TestMath {
    static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
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
}

/// Gravity for a device turned `angle` degrees clockwise from portrait in the screen plane
/// (90 = landscape-right) and tilted `tilt` degrees back (90 = face-up, -90 = face-down).
func gravity(angle: Double, tilt: Double = 0, magnitude: Double = g) -> Vector3 {
    let a = TestMath.sinCos(degrees: angle)
    let t = TestMath.sinCos(degrees: tilt)
    return Vector3(
        magnitude * t.cos * a.sin,
        -magnitude * t.cos * a.cos,
        -magnitude * t.sin)
}

/// Smooth 0...1 ramp between `start` and `end` (cosine-like smoothstep, zero speed at both ends).
func ramp(_ time: Double, from start: Double, to end: Double) -> Double {
    if time <= start { return 0 }
    if time >= end { return 1 }
    let u = (time - start) / (end - start)
    return u * u * (3 - 2 * u)
}

/// Samples `motion` at `rate` Hz from `start` for `duration` seconds (times computed from the
/// sample index, so they do not drift).
func samples(
    rate: Double, duration: Double, start: Double = 0, _ motion: (Double) -> Vector3
) -> [TraceSample] {
    let count = Int((duration * rate).rounded())
    return (0..<count).map { index in
        let time = start + Double(index) / rate
        return TraceSample(time: time, reading: motion(time))
    }
}

/// Feeds samples to `estimator` and returns each change of the committed orientation.
func feed(_ samples: [TraceSample], into estimator: inout OrientationEstimator)
    -> [(time: Double, orientation: DeviceOrientation)]
{
    var changes: [(time: Double, orientation: DeviceOrientation)] = []
    var last = estimator.orientation
    for sample in samples {
        let now = estimator.update(sample.reading, at: sample.time)
        #expect(now == estimator.orientation)
        if now != last {
            changes.append((sample.time, now))
            last = now
        }
    }
    return changes
}
