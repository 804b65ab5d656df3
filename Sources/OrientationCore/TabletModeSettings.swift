/// Where the tablet-mode decision comes from, as configured (`[TabletMode] Source=`).
public enum TabletModeSetting: String, Sendable, CaseIterable {
    /// A hardware `SW_TABLET_MODE` switch when one exists, else the hinge when a display and a
    /// base accelerometer exist, else none.
    case auto
    /// Only a hardware switch (none when the machine has none).
    case `switch`
    /// Only the hinge angle (none without both accelerometers), even when a switch exists: for
    /// machines whose firmware switch lies.
    case hinge
    /// No tablet-mode decision: `TabletMode` stays false, `TabletModeSource` is `none`.
    case off
}

/// Whether the daemon offers its decision as a virtual `SW_TABLET_MODE` input device
/// (`[TabletMode] VirtualSwitch=`).
public enum VirtualSwitchSetting: String, Sendable, CaseIterable {
    /// Yes when the resolved source is the hinge: a hardware switch is already seen by libinput,
    /// and a second one would only repeat it.
    case auto
    /// Whenever there is a tablet-mode source (a repeat of a hardware switch included).
    case yes
    /// Never.
    case no

    /// Whether the virtual switch should exist for the resolved `source`.
    public func wantsVirtualSwitch(source: TabletModeSource) -> Bool {
        switch self {
        case .auto: return source == .hinge
        case .yes: return source != .none
        case .no: return false
        }
    }
}

/// Every constant of the hinge estimate (`HingeEstimator`) and of the tablet-mode decision
/// (`TabletModeDecision`), named once, with its unit, range and reason; plus the `[TabletMode]`
/// choices.
///
/// Units: times in seconds, angles in degrees, magnitudes as fractions of each sensor's own
/// self-calibrated 1 g unless stated otherwise. Each number has a row in `fields`; `problems()`
/// lists the ones outside their range and `clamped()` brings them back, as `EstimatorSettings`
/// does. The hinge angle follows systemd's `60-sensor.hwdb`: 0 closed like a clamshell, 180 flat,
/// 360 folded back to back. The reasons cite ChromeOS (Chromium's `tablet_mode_controller.cc` and
/// the ChromeOS EC's `motion_lid.c`), whose numbers have years of convertibles behind them.
public struct TabletModeSettings: GravityReferenceSettings, Equatable {
    /// `[TabletMode] Source=`.
    public var source = TabletModeSetting.auto
    /// `[TabletMode] VirtualSwitch=`.
    public var virtualSwitch = VirtualSwitchSetting.auto

    // MARK: Decision

    /// Tablet mode is entered when a trustworthy hinge angle stays at or above this. Degrees,
    /// default 200 (`[TabletMode] EnterAngle=`): Chromium's `kEnterTabletModeAngle`, the EC's
    /// 180 + 20. Past flat by enough that a laptop pushed flat on a table stays a laptop, early
    /// enough that a tent or stand (about 270) and a folded tablet are tablets.
    public var enterAngle = 200.0

    /// Tablet mode is left when a trustworthy hinge angle stays at or below this. Degrees,
    /// default 160 (`[TabletMode] ExitAngle=`): Chromium's `kExitTabletModeAngle`, the EC's
    /// 180 − 20. The 40 degree gap to `enterAngle` is the hysteresis: a device held about flat
    /// keeps whichever mode it had. Must be at least `minimumAngleGap` under `enterAngle`.
    public var exitAngle = 160.0

    /// How long a trustworthy angle must stay past `enterAngle` (or `exitAngle`) before the mode
    /// changes, and at least two readings must span it. Seconds, default 0.3: about the EC's four
    /// readings at 100 ms, so one wobble past the angle changes nothing, and a fold is announced
    /// a third of a second after it passes the angle (at the fast hinge interval), or as soon as
    /// two readings are `decisiveMargin` past it.
    public var evidenceTime = 0.3

    /// Two trustworthy readings in a row at least this far past `enterAngle` (or `exitAngle`)
    /// change the mode without waiting `evidenceTime`. Degrees, default 30 (tablet from 230,
    /// laptop from 130): a hand's fold, not noise or a wobble about the angle, which stay
    /// within a few degrees of it; at the fast hinge interval the second reading comes 0.1 s
    /// after the first, so a fold is announced 0.2 s sooner. One such reading right after one
    /// at least this far on the mode's own side of the angle (170 or less, then 230 or more)
    /// changes the mode at once: a fold seen in one step between two slow readings is
    /// announced at the first reading after it, not one fast interval later.
    public var decisiveMargin = 30.0

    /// Smallest allowed gap between `exitAngle` and `enterAngle`. Degrees, default 10: hinge
    /// flex and sensor noise move the angle by a few degrees; a narrower gap would chatter.
    public var minimumAngleGap = 10.0

    // MARK: Calm gating (each sensor against its own 1 g)

    /// Starting value of each sensor's 1 g reference. m/s^2, default 9.80665. Only a start: the
    /// reference follows each sensor's calm readings, so a mis-scaled sensor is judged against
    /// itself.
    public var nominalGravity = 9.80665

    /// Smallest and largest |a| that may calibrate a 1 g reference, as fractions of
    /// `nominalGravity`; defaults 0.4 and 2.5, the orientation estimator's plausible scale range
    /// (scale errors x0.4 to x2.5 are supported).
    public var minimumPlausibleScale = 0.4
    /// See `minimumPlausibleScale`.
    public var maximumPlausibleScale = 2.5

    /// Time constant of the running 1 g reference once it has several readings (a plain mean
    /// before). Seconds, default 5: a brief steady non-1 g condition barely moves it.
    public var referenceTimeConstant = 5.0

    /// Largest change of |a| between consecutive readings of one sensor for the reading to
    /// calibrate its 1 g reference. Fraction, default 0.05, as the orientation estimator's
    /// `calmChange`.
    public var referenceSteadyChange = 0.05

    /// A reading is calm only with |a| within this fraction of its sensor's 1 g reference.
    /// Default 0.10: Chromium skips readings whose magnitudes differ by more than 1.0 m/s^2, the
    /// EC rejects below about 0.9 g; walking (0.2 g bounces) and shaking fail it.
    public var calmMagnitudeTolerance = 0.10

    /// The two sensors' normalised magnitudes (|a| / own reference) must agree within this.
    /// Default 0.10: Chromium's `kNoisyMagnitudeDeviation` (1.0 m/s^2), normalised so that a
    /// mis-scaled sensor passes. The halves are one rigid body while the hinge is still, so a
    /// jolt on one half alone (a tap on the screen) shows here.
    public var magnitudeAgreement = 0.10

    /// No single axis may read more than this, normalised. Default 1.10: the EC's
    /// `MOTION_SCALING_AXIS_MAX`; more is a shock or a saturated axis.
    public var axisMaxFraction = 1.10

    /// The window over which the normalised magnitudes must stay within `calmSpread` of each
    /// other. Seconds, default 0.3: a few readings at the fast interval, one or two at the slow one.
    public var calmWindow = 0.3

    /// Largest spread (max − min) of a sensor's normalised magnitude over `calmWindow`.
    /// Default 0.10: about two standard deviations of 0.05 g, the "little variance" that noisy
    /// sensors (0.02 g per axis) still show at rest; walking (0.2 g bounces) and shaking exceed it.
    public var calmSpread = 0.10

    // MARK: The hinge axis

    /// The angle stops being trusted when the projection of gravity on the plane orthogonal to
    /// the hinge falls under this fraction of |a| (on either sensor). Default 0.26: the hinge
    /// within 15 degrees of vertical. The angle's noise grows as 1/projection, 3 to 6 degrees
    /// here for 0.01 to 0.02 g per axis, which the smoothing below takes; Chromium and the EC stop
    /// at 0.46 (8.7 m/s^2 on x, 27.5 degrees), which left a device held 20 to 27 degrees from
    /// vertical (a tablet in portrait on a lap) with a stale angle.
    public var hingeVerticalLeave = 0.26

    /// ...and is trusted again only from this projection. Default 0.30 (17.5 degrees from
    /// vertical): the hysteresis keeps a device held near the limit from flapping, and a hinge
    /// 20 degrees from vertical (0.34) is followed with noisy sensors (0.02 g moves the
    /// projection by about as much).
    public var hingeVerticalEnter = 0.30

    /// Projection at or above which the angle is not smoothed beyond `smoothingTimeMin`.
    /// Default 0.71: Chromium starts smoothing at 7.0 m/s^2 on x (0.71 g projected).
    public var smoothingStart = 0.71

    /// Time constant of the angle's low-pass filter far from vertical. Seconds, default 0.05:
    /// little lag (1.5 degrees at a 30 degree-per-second fold), enough to take the edge off noise.
    public var smoothingTimeMin = 0.05

    /// Time constant at `hingeVerticalLeave`, ramped linearly from `smoothingStart`. Seconds,
    /// default 1.0: near vertical the angle's noise is up to 2.7 times larger.
    public var smoothingTimeMax = 1.0

    /// A reading more than this from the filtered angle restarts the filter there instead of
    /// being smoothed. Degrees, default 20: a fold, seen in one step at the slow interval or in
    /// 10-30 degree steps at the fast one, is followed at once (at the 1 s time constant near
    /// vertical a 200 degree step would take over 3 s to come within 10); noise is under 20
    /// even at `hingeVerticalLeave` (about 6 standard deviations of 0.01 g per axis).
    public var smoothingJump = 20.0

    /// Each sensor's calm readings at the slow hinge interval are averaged while they stay
    /// within this of their mean, and the angle is taken between the two means; a reading
    /// further away restarts its sensor's mean there (that half moved: a fold restarts the
    /// display's, the base at rest keeps its own). Fraction of the sensor's 1 g, default 0.08:
    /// four standard deviations of the noisiest sensors' 0.02 g per axis, so noise alone seldom
    /// restarts a mean; a 15 degree fold 20 degrees from vertical moves the display's reading by
    /// 0.09. At 0.02 g per axis and a hinge 20 degrees from vertical one reading's angle has a
    /// standard deviation of 4.7 degrees, 3.4 from each sensor: the base's share averages out
    /// while it rests. 0 averages nothing.
    public var steadyTolerance = 0.08

    /// Time constant of each sensor's mean once it holds enough readings (a plain mean of the
    /// readings since its restart before). Seconds, default 1: at the slow interval the newest
    /// reading weighs a half.
    public var steadyTimeConstant = 1.0

    /// Readings closer together than this are not averaged (each sensor's mean restarts at its
    /// reading). Seconds, default 0.5: at the fast hinge interval (0.1 s) the hinge moves and the
    /// angle's filter (`smoothingTimeMin`...`smoothingTimeMax`) smooths, where a mean would lag a
    /// slow fold by up to `steadyTolerance`; readings the slow interval (1 s) apart come from a
    /// hinge the sampling policy has seen still, and the filter leaves each alone.
    public var steadyMinimumGap = 0.5

    /// Largest difference of the normalised x components of the two readings. Default 0.15:
    /// with correct mount matrices both sensors share the hinge axis, so b_x/|b| = d_x/|d| while
    /// the hinge is still. More means one half moves, or the base's mount matrix is wrong.
    public var axisMismatchLimit = 0.15

    /// A mismatch lasting this long is reported as a probably wrong base mount matrix
    /// (`HingeEstimator.suspectMountMatrix`). Seconds, default 10: no hand keeps one half
    /// moving that long.
    public var axisMismatchReportTime = 10.0

    // MARK: 0 versus 360

    /// Raw angles within this of 0/360 are ambiguous without history: closed and folded back
    /// to back read the same, and flex or an imperfect matrix put either a few degrees to the
    /// other side. Degrees, default 20: Chromium's `kMinStableAngle` / `kMaxStableAngle`.
    public var wrapBand = 20.0

    /// With the lid switch open, ambiguous readings that last this long are taken as folded
    /// (full). Seconds, default 2: Chromium's `kUnstableLidAngleDuration`.
    public var wrapResolveTime = 2.0

    /// With the lid switch open, a reading in the ambiguous zone follows the last angle to the
    /// nearer side of 0/360 only when that side is within this of it (a lid opened from closed,
    /// or closed slowly towards the switch); a longer step is a fold seen in one step, taken as
    /// folded: the switch says the lid is not closed. Degrees, default 20, as `wrapBand`: about
    /// what a hand moves the hinge in one fast interval (0.1 s), so that no angle outside the
    /// zone (25 and up) reaches the closed side in one step. Without a lid switch the nearer
    /// side is taken, however far.
    public var continuityReach = 20.0

    /// Longest time since the last trustworthy angle for it to resolve 0 versus 360 by
    /// continuity. Seconds, default 2.5: the hinge may have moved while readings were not trusted;
    /// a little over two slow intervals (`HingeIntervalMsec` 1000) so one late wakeup still counts.
    public var continuityWindow = 2.5

    // MARK: Hinge state

    /// Largest angle that is `closed` (with the lid switch unknown or open). Degrees, default 15:
    /// the EC's `SMALL_LID_ANGLE_RANGE`.
    public var closedMaximum = 15.0

    /// `flat` is 180 ± this. Degrees, default 10: what a user calls flat.
    public var flatHalfWidth = 10.0

    /// Smallest angle that is `full`. Degrees, default 345: mirrored from `closedMaximum`.
    public var fullMinimum = 345.0

    /// Hysteresis at every hinge-state boundary. Degrees, default 5: noise is about 1 degree
    /// at a projection of 0.5 g, hinge flex adds a few.
    public var stateHysteresis = 5.0

    /// A trustworthy angle that moved at least this from the previous one marks the hinge as
    /// moving (`HingeEstimator.lastMotionTime`, for the sampling policy). Degrees, default 2: well
    /// above the noise of a still device.
    public var motionStep = 2.0

    /// Changes of the published `HingeAngle` smaller than this are not announced. Degrees,
    /// default 1: no property noise at every sample of a still device.
    public var publishDeadband = 1.0

    /// Creates the default settings.
    public init() {}

    /// One numeric setting: its name, unit and range (see `SettingsField`).
    public typealias Field = SettingsField<TabletModeSettings, Double>

    /// Allowed range of `EnterAngle=`: past flat, short of fully folded.
    public static let enterAngleRange: ClosedRange<Double> = 180...350
    /// Allowed range of `ExitAngle=`.
    public static let exitAngleRange: ClosedRange<Double> = 10...340

    /// Every numeric setting, in declaration order: the one table of names, units and ranges.
    public static let fields: [Field] =
        [
            Field("enterAngle", .degrees, enterAngleRange) { $1(&$0.enterAngle) },
            Field("exitAngle", .degrees, exitAngleRange) { $1(&$0.exitAngle) },
            Field("evidenceTime", .seconds, 0.0...5.0) { $1(&$0.evidenceTime) },
            Field("decisiveMargin", .degrees, 0.0...180.0) { $1(&$0.decisiveMargin) },
            Field("minimumAngleGap", .degrees, 0.0...90.0) { $1(&$0.minimumAngleGap) },
        ] + gravityReferenceFields + [
            Field("referenceSteadyChange", .fraction, 0.001...0.5) { $1(&$0.referenceSteadyChange) },
            Field("calmMagnitudeTolerance", .fraction, 0.01...0.5) { $1(&$0.calmMagnitudeTolerance) },
            Field("magnitudeAgreement", .fraction, 0.01...0.5) { $1(&$0.magnitudeAgreement) },
            Field("axisMaxFraction", .fraction, 1.0...3.0) { $1(&$0.axisMaxFraction) },
            Field("calmWindow", .seconds, 0.0...5.0) { $1(&$0.calmWindow) },
            Field("calmSpread", .fraction, 0.001...0.5) { $1(&$0.calmSpread) },
            Field("hingeVerticalLeave", .fraction, 0.05...0.9) { $1(&$0.hingeVerticalLeave) },
            Field("hingeVerticalEnter", .fraction, 0.05...0.95) { $1(&$0.hingeVerticalEnter) },
            Field("smoothingStart", .fraction, 0.05...1.0) { $1(&$0.smoothingStart) },
            Field("smoothingTimeMin", .seconds, 0.0...2.0) { $1(&$0.smoothingTimeMin) },
            Field("smoothingTimeMax", .seconds, 0.0...10.0) { $1(&$0.smoothingTimeMax) },
            Field("smoothingJump", .degrees, 1.0...360.0) { $1(&$0.smoothingJump) },
            Field("steadyTolerance", .fraction, 0.0...1.0) { $1(&$0.steadyTolerance) },
            Field("steadyTimeConstant", .seconds, 0.0...10.0) { $1(&$0.steadyTimeConstant) },
            Field("steadyMinimumGap", .seconds, 0.0...10.0) { $1(&$0.steadyMinimumGap) },
            Field("axisMismatchLimit", .fraction, 0.01...1.0) { $1(&$0.axisMismatchLimit) },
            Field("axisMismatchReportTime", .seconds, 0.0...600.0) { $1(&$0.axisMismatchReportTime) },
            Field("wrapBand", .degrees, 0.0...45.0) { $1(&$0.wrapBand) },
            Field("wrapResolveTime", .seconds, 0.0...60.0) { $1(&$0.wrapResolveTime) },
            Field("continuityReach", .degrees, 0.0...360.0) { $1(&$0.continuityReach) },
            Field("continuityWindow", .seconds, 0.0...60.0) { $1(&$0.continuityWindow) },
            Field("closedMaximum", .degrees, 0.0...90.0) { $1(&$0.closedMaximum) },
            Field("flatHalfWidth", .degrees, 0.0...45.0) { $1(&$0.flatHalfWidth) },
            Field("fullMinimum", .degrees, 270.0...360.0) { $1(&$0.fullMinimum) },
            Field("stateHysteresis", .degrees, 0.0...20.0) { $1(&$0.stateHysteresis) },
            Field("motionStep", .degrees, 0.1...45.0) { $1(&$0.motionStep) },
            Field("publishDeadband", .degrees, 0.0...45.0) { $1(&$0.publishDeadband) },
        ]

    /// The numeric settings outside their allowed range (NaN is always outside), and an
    /// `exitAngle` less than `minimumAngleGap` under `enterAngle` (reported as "exitAngle").
    public func problems() -> [EstimatorSettings.Problem] {
        var problems = rangeProblems()
        if exitAngle > enterAngle - minimumAngleGap {
            let top = max(Self.exitAngleRange.lowerBound, enterAngle - minimumAngleGap)
            problems.append(
                EstimatorSettings.Problem(
                    name: "exitAngle", value: exitAngle, allowed: Self.exitAngleRange.lowerBound...top))
        }
        return problems
    }

    /// A copy with every numeric setting in its range (NaN becomes the default), and the enter
    /// and exit angles back to their defaults when their gap is too small.
    public func clamped() -> TabletModeSettings {
        let defaults = TabletModeSettings()
        var settings = clampedToRanges()
        if settings.exitAngle > settings.enterAngle - settings.minimumAngleGap {
            settings.enterAngle = defaults.enterAngle
            settings.exitAngle = defaults.exitAngle
        }
        return settings
    }
}
