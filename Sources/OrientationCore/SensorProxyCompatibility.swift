/// The words of iio-sensor-proxy's `net.hadess.SensorProxy` interface, which GNOME, KDE
/// and `monitor-sensor` read, derived from our decisions (DESIGN.md section 3 table).
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

    /// Degrees the screen may lean back or forward from vertical and still be `vertical`.
    public static let verticalTiltLimit = 20.0

    /// `AccelerometerTilt`: `face-up`/`face-down` as the estimator decided them (with its
    /// hysteresis), otherwise from the filtered gravity: `tilted-up` when the screen leans
    /// back (faces the sky, gravity has a negative z) more than `verticalTiltLimit`,
    /// `tilted-down` when it leans forward, else `vertical`; `undefined` with no estimate.
    public static func tilt(device: DeviceOrientation, gravity: Vector3?) -> String {
        switch device {
        case .faceUp: return "face-up"
        case .faceDown: return "face-down"
        case .unknown: return "undefined"
        default: break
        }
        guard let gravity, gravity.magnitude > 0 else { return "undefined" }
        // Angle between the gravity vector and the screen plane: positive when the screen
        // faces up.
        let lean = Vector3(0, 0, -1).angle(to: gravity)
        let elevation = 90 - lean
        if elevation > verticalTiltLimit { return "tilted-up" }
        if elevation < -verticalTiltLimit { return "tilted-down" }
        return "vertical"
    }
}
