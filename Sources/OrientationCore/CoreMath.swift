/// The few transcendental functions the core needs, written in plain Swift.
///
/// OrientationCore may not import Glibc (libm), and must not even reference it indirectly:
/// `Double.rounded()`, `remainder(dividingBy:)` and `truncatingRemainder(dividingBy:)` compile to
/// libm calls (`round`, `remainder`, `fmod`) that an executable without Glibc fails to link.
/// Only `+ - * /`, `squareRoot()` and integer conversion are used. Implementing these here also makes estimator
/// replays bit-for-bit identical on every platform and C library version, which libm does not
/// promise. Accuracy is a few units in the last place, far finer than any sensor.
enum CoreMath {
    /// Degrees per radian.
    static let degreesPerRadian = 180 / Double.pi

    /// The integer nearest to `x`, halves away from zero; `x` must be well inside the Int range.
    static func nearestInteger(_ x: Double) -> Int {
        Int(x < 0 ? x - 0.5 : x + 0.5)
    }

    /// e^x.
    static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        // x = k ln2 + r with |r| <= ln2 / 2; ln 2 split in a high and a low part so that k * ln2Hi
        // is exact.
        let ln2Hi = 6.931_471_803_691_238_164_90e-01
        let ln2Lo = 1.908_214_929_270_587_700_02e-10
        let k = Double(nearestInteger(x * 1.442_695_040_888_963_387_00))
        let r = (x - k * ln2Hi) - k * ln2Lo
        // Taylor series; |r| <= 0.35 so the 14th term is below 1e-17.
        var term = 1.0
        var sum = 1.0
        for n in 1...14 {
            term *= r / Double(n)
            sum += term
        }
        return Double(sign: .plus, exponent: Int(k), significand: sum)
    }

    /// e^x - 1, accurate also for tiny x (where exp(x) - 1 would cancel).
    static func expMinusOne(_ x: Double) -> Double {
        guard abs(x) < 0.35 else { return exp(x) - 1 }
        // Taylor series without the leading 1; |x| < 0.35 so 17 terms reach 1e-17.
        var term = x
        var sum = x
        for n in 2...17 {
            term *= x / Double(n)
            sum += term
        }
        return sum
    }

    /// atan2(y, x) in degrees, in -180...180. Zero when both arguments are zero.
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        atan2(y, x) * degreesPerRadian
    }

    /// atan2(y, x) in radians, in -pi...pi. Zero when both arguments are zero.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return .nan }
        let ax = abs(x)
        let ay = abs(y)
        var angle: Double
        if ax == 0 && ay == 0 {
            angle = 0
        } else if ax.isInfinite || ay.isInfinite {
            angle = ax.isInfinite ? (ay.isInfinite ? Double.pi / 4 : 0) : Double.pi / 2
        } else if ay <= ax {
            angle = atanUnit(ay / ax)
        } else {
            angle = Double.pi / 2 - atanUnit(ax / ay)
        }
        if x < 0 { angle = Double.pi - angle }
        return y < 0 ? -angle : angle
    }

    /// atan(t) for t in 0...1.
    private static func atanUnit(_ t: Double) -> Double {
        // Above tan(15 deg) shift by 30 deg: atan t = pi/6 + atan((sqrt3 t - 1) / (t + sqrt3)),
        // which brings the argument back into |u| <= tan(15 deg).
        let tan15 = 0.267_949_192_431_122_7
        if t > tan15 {
            let sqrt3 = 1.732_050_807_568_877_2
            return Double.pi / 6 + atanSmall((t * sqrt3 - 1) / (t + sqrt3))
        }
        return atanSmall(t)
    }

    /// atan(u) for |u| <= tan(15 deg), by its Taylor series (u^2 <= 0.072, 12 terms).
    private static func atanSmall(_ u: Double) -> Double {
        let u2 = u * u
        var sum = 0.0
        var n = 11
        while n >= 0 {
            let coefficient = 1 / Double(2 * n + 1)
            sum = (n % 2 == 0 ? coefficient : -coefficient) + u2 * sum
            n -= 1
        }
        return u * sum
    }
}
