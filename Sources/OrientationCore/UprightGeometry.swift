/// The angles the estimator's parts measure an upright device by: the in-plane direction of
/// gravity (portrait 0 degrees, landscape-right 90, upside-down 180, landscape-left -90,
/// clockwise turns positive) and the tilt of the screen plane.
enum UprightGeometry {
    /// Tilt of the screen plane for gravity `g`, degrees: +90 lying face-up (gravity into the
    /// screen's back), -90 face-down, 0 standing upright.
    static func tilt(of g: Vector3) -> Double {
        CoreMath.atan2Degrees(-g.z, (g.x * g.x + g.y * g.y).squareRoot())
    }

    /// In-plane angle of gravity `g`, degrees in -180...180.
    static func inPlaneAngle(of g: Vector3) -> Double {
        CoreMath.atan2Degrees(g.x, -g.y)
    }

    /// Upright orientation for a number of clockwise quarter turns from portrait.
    static func uprightOrientation(quarter: Int) -> DeviceOrientation {
        switch ((quarter % 4) + 4) % 4 {
        case 0: .portrait
        case 1: .landscapeRight
        case 2: .portraitUpsideDown
        default: .landscapeLeft
        }
    }

    /// In-plane angle of an upright orientation's axis, degrees (0 for the others).
    static func axisAngle(_ orientation: DeviceOrientation) -> Double {
        switch orientation {
        case .landscapeRight: 90
        case .portraitUpsideDown: 180
        case .landscapeLeft: -90
        default: 0
        }
    }

    /// The difference `a - b` of two angles in -180...180 degrees, folded into -180...180.
    static func signedDifference(_ a: Double, _ b: Double) -> Double {
        let difference = a - b
        return difference > 180 ? difference - 360 : difference < -180 ? difference + 360 : difference
    }

    /// Absolute difference of two angles in -180...180 degrees, folded into 0...180.
    static func distance(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b)
        return difference > 180 ? 360 - difference : difference
    }
}
