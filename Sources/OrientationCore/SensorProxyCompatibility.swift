/// The words of iio-sensor-proxy's `net.hadess.SensorProxy` interface, which GNOME, KDE
/// and `monitor-sensor` read, derived from our decisions (docs/migrating-from-iio-sensor-proxy.md, Names).
public enum SensorProxyCompatibility {
    /// `AccelerometerOrientation` for a device orientation. iio-sensor-proxy has no face-up or
    /// face-down orientation: pass the last upright device orientation.
    public static func orientation(_ device: DeviceOrientation) -> String {
        switch device {
        case .portrait: return "normal"
        case .portraitUpsideDown: return "bottom-up"
        case .landscapeLeft: return "right-up"
        case .landscapeRight: return "left-up"
        case .unknown, .faceUp, .faceDown: return "undefined"
        }
    }

    /// `AccelerometerTilt` bands of iio-sensor-proxy 3.9, in whole degrees of elevation of the
    /// reading out of the screen plane: up to `verticalTiltLimit` is `vertical`, from
    /// `faceTiltLimit` on `face-up`/`face-down`, `tilted-up`/`tilted-down` between.
    public static let verticalTiltLimit = 20
    public static let faceTiltLimit = 70

    /// `AccelerometerTilt` for one reading (m/s^2 after the mount matrix; nil before the first),
    /// as iio-sensor-proxy 3.9 computes it for the same sysfs input: from this reading alone (no
    /// filter, no hysteresis, no magnitude check, no orientation decision), in its units of
    /// 1 g = 256 (each axis truncated to a whole unit), the elevation rounded to whole degrees, and
    /// its sign: a positive z is "up". In docs/axes.md's frame that is the screen facing the floor, so
    /// `face-up` here is our face-down; a compatibility mode is bug-compatible, the native
    /// interface keeps the design's convention. A zero reading is `vertical`, as there. Unlike 3.9
    /// the squares do not overflow above 128 g.
    public static func tilt(reading: Vector3?) -> String {
        guard let reading, reading.isFinite else { return "undefined" }
        func units(_ value: Double) -> Double { (value * 256 / 9.81).rounded(.towardZero) }
        let x = units(reading.x)
        let y = units(reading.y)
        let z = units(reading.z)
        let elevation = CoreMath.nearestInteger(CoreMath.atan2Degrees(z, (x * x + y * y).squareRoot()))
        if abs(elevation) <= verticalTiltLimit { return "vertical" }
        if abs(elevation) < faceTiltLimit { return elevation > 0 ? "tilted-up" : "tilted-down" }
        return elevation > 0 ? "face-up" : "face-down"
    }
}
