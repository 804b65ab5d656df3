/// One hinge-angle measurement from a display and a base reading.
public struct HingeSample: Equatable, Sendable {
    /// The raw angle between the halves about the hinge, degrees in 0..<360 (0 and 360 read
    /// the same: see `HingeEstimator` for telling them apart).
    public var degrees: Double
    /// How well the angle is defined: the length of the reading's projection on the plane
    /// orthogonal to the hinge axis x, as a fraction of |a|, the smaller of the two sensors'.
    /// 1 with the hinge horizontal, 0 with gravity along the hinge (angle undefined).
    public var projected: Double
    /// |b_x/|b| − d_x/|d||: both sensors share the hinge axis, so with correct mount matrices and
    /// a still hinge this is about 0.
    public var axisMismatch: Double
}

/// The geometry of a two-panel convertible (display and base accelerometer).
///
/// Both readings are gravity vectors after their mount matrices, in the frames of systemd's
/// `60-sensor.hwdb`: the display's frame is docs/axes.md's (x right, y top edge, z out of the
/// screen), and the base's is defined so that both sensors read the same while the lid is closed.
/// x is then the hinge axis in both. Opening the lid by θ rotates the display frame about x:
/// the (y, z) part of the display reading is the base's rotated by θ, so
/// θ = atan2(b_y d_z − b_z d_y, b_y d_y + b_z d_z): the x component of b × d against the dot
/// product of the projections. 0 is closed, 90 a laptop in use, 180 flat, 270 a tent or stand,
/// 360 folded back to back (reads as 0).
///
/// Both atan2 terms scale with |b| |d|, so the angle is the same for mis-scaled sensors, and
/// the same if both readings were the specific force (up) instead of gravity. x components do
/// not enter: tilting the whole device sideways or forward leaves the angle alone. A linear
/// acceleration common to both halves leaves it alone too (both measure the same vector).
public enum HingeGeometry {
    /// The hinge angle from a display and a base reading, or nil when either is not finite or
    /// is zero.
    public static func angle(display d: Vector3, base b: Vector3) -> HingeSample? {
        guard d.isFinite, b.isFinite else { return nil }
        let dm = d.magnitude
        let bm = b.magnitude
        guard dm > 0, bm > 0, dm.isFinite, bm.isFinite else { return nil }
        let sine = b.y * d.z - b.z * d.y
        let cosine = b.y * d.y + b.z * d.z
        var degrees = CoreMath.atan2Degrees(sine, cosine)
        if degrees < 0 { degrees += 360 }
        if degrees >= 360 { degrees -= 360 }
        let dr = (d.y * d.y + d.z * d.z).squareRoot() / dm
        let br = (b.y * b.y + b.z * b.z).squareRoot() / bm
        return HingeSample(
            degrees: degrees, projected: min(min(dr, br), 1), axisMismatch: abs(b.x / bm - d.x / dm))
    }
}

/// The lid switch (logind's `LidClosed`, UPower's `LidIsClosed`, or an evdev `SW_LID`).
public enum LidState: String, Sendable, CaseIterable {
    /// The switch says open.
    case open
    /// The switch says closed: the hinge is at 0, the machine is a laptop.
    case closed
    /// No lid switch, or not known yet.
    case unknown
}

/// The posture of a two-panel device: the names (and values) Windows gives
/// `Windows.System.Preview.HingeState`. Windows gives no angles; ours are in `range(of:)`'s
/// documentation, each boundary with `TabletModeSettings.stateHysteresis`.
public enum HingeState: UInt32, Sendable, PublicName {
    /// No trustworthy reading yet, or no base sensor.
    case unknown = 0
    /// Lid switch closed, or angle up to `closedMaximum` (15).
    case closed = 1
    /// Screens facing each other: above 15, under 170 (a laptop, a book).
    case concave = 2
    /// 170 to 190.
    case flat = 3
    /// Screens facing away: above 190, under 345 (a tent, a stand).
    case convex = 4
    /// From `fullMinimum` (345), folded back to back: a tablet.
    case full = 5

    /// The bus names (`HingeState` property), in the order of the cases.
    public static let names = [
        "unknown", "closed", "concave", "flat", "convex", "full",
    ]

    /// The angles of a state without hysteresis (nil for `unknown`): closed 0...15,
    /// concave 15...170, flat 170...190, convex 190...345, full 345...360 (with the defaults; a
    /// boundary angle belongs to the state named first by `state(for:)`).
    public static func range(of state: HingeState, settings: TabletModeSettings) -> ClosedRange<Double>? {
        let flatLow = 180 - settings.flatHalfWidth
        let flatHigh = 180 + settings.flatHalfWidth
        switch state {
        case .unknown: return nil
        case .closed: return 0...settings.closedMaximum
        case .concave: return settings.closedMaximum...flatLow
        case .flat: return flatLow...flatHigh
        case .convex: return flatHigh...settings.fullMinimum
        case .full: return settings.fullMinimum...360
        }
    }

    /// The state of an angle in 0...360 with no previous state: closed up to and including
    /// `closedMaximum`, flat from 170 to 190 inclusive, full from `fullMinimum`.
    public static func state(for angle: Double, settings: TabletModeSettings) -> HingeState {
        if angle <= settings.closedMaximum { return .closed }
        if angle < 180 - settings.flatHalfWidth { return .concave }
        if angle <= 180 + settings.flatHalfWidth { return .flat }
        if angle < settings.fullMinimum { return .convex }
        return .full
    }

    /// The state of `angle` coming from `previous`: `previous` is kept while the angle stays
    /// within `stateHysteresis` of its range, otherwise `state(for:)`.
    public static func state(
        for angle: Double, previous: HingeState, settings: TabletModeSettings
    ) -> HingeState {
        if let range = range(of: previous, settings: settings),
            angle >= range.lowerBound - settings.stateHysteresis,
            angle <= range.upperBound + settings.stateHysteresis
        {
            return previous
        }
        return state(for: angle, settings: settings)
    }
}

/// Why the hinge estimate holds its last state instead of following the readings (the daemon
/// logs each change of it once).
public enum HingeHold: String, Sendable, CaseIterable {
    /// No reading yet (or a reset, after suspend).
    case noReadings = "no-readings"
    /// A reading was not finite, or zero.
    case badReading = "bad-reading"
    /// The lid switch says closed: the angle is 0, the readings are not used.
    case lidClosed = "lid-closed"
    /// Gravity lies almost along the hinge (device on its side, in portrait): the angle is
    /// undefined.
    case hingeVertical = "hinge-vertical"
    /// A sensor's |a| is off its own 1 g, one axis reads more than 1.1 g, or |a| varies over the
    /// calm window: the device is moved, shaken, carried.
    case moving
    /// The two sensors' normalised magnitudes disagree: one half alone is jolted.
    case magnitudeMismatch = "magnitude-mismatch"
    /// The two readings disagree on the hinge axis: one half moves, or the base's mount matrix
    /// is wrong (see `HingeEstimator.suspectMountMatrix`).
    case axisMismatch = "axis-mismatch"
    /// The reading is near 0/360 with nothing to tell closed from folded (no fresh history, lid
    /// switch not closed); with the lid open it resolves to full after `wrapResolveTime`.
    case ambiguousWrap = "ambiguous-wrap"
}
