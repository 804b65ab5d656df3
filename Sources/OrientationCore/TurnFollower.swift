/// Follows a turn about the screen normal on the readings themselves (the filter lags a hand's
/// turn by tens of degrees) and names the adjacent upright orientation it slows into
/// (`target`) when:
/// - the reading is at least `midTurnAngle` from the committed axis and no further than that
///   from the adjacent one;
/// - every reading of the turn was at 1 g within `calmMagnitudeBand`, with a steady upright tilt
///   (not beyond `uprightTiltLimit` or `overheadTilt`, changing slower than `swingTiltSpeed`);
/// - the turn was seen on its way (a reading between the two axes since it began);
/// - it has slowed to `midTurnSlowdown` of its top speed or less.
/// A turn begins where the readings, short of `midTurnAngle`, last turned slower than
/// `steadyAngularSpeed`, or last were off 1 g or not upright. A hand turning a tablet a quarter
/// turn slows down into the new orientation; a flip passing through it is at its top speed
/// there, a step shows no way in between (the calm fast path takes it). With `midTurnSlowdown` 0
/// nothing is followed.
public struct TurnFollower: Sendable, Equatable {
    /// The adjacent orientation the turn is slowing into, past `midTurnAngle`; nil otherwise.
    public private(set) var target: DeviceOrientation?
    // The in-plane angle of the last followed reading from the committed upright axis (degrees,
    // signed, clockwise positive; nil when no turn is followed) and its time, its speed (degrees
    // per second, signed, smoothed with `angularSpeedTimeConstant`), the fastest the turn went
    // since it began, and whether a reading showed it between the axes.
    private var offset: Double?
    private var offsetTime = 0.0
    private var speed = 0.0
    private var peakSpeed = 0.0
    private var seenOnItsWay = false

    /// Nothing followed.
    public init() {}

    /// Follows an accepted reading with tilt `tilt` and magnitude `ratio` times 1 g, given the
    /// committed `orientation`, the filtered direction's `angularSpeed` and the readings'
    /// `tiltSpeed` (`GravityFilter`).
    public mutating func follow(
        _ reading: Vector3, tilt: Double, ratio: Double, at time: Double, committed orientation: DeviceOrientation,
        angularSpeed: Double, tiltSpeed: Double, _ settings: EstimatorSettings
    ) {
        target = nil
        // Followed from where the filtered direction starts to turn fast (no in-plane angle to
        // work out for a device at rest) until the turn is over.
        guard settings.midTurnSlowdown > 0, orientation.isUpright,
            offset != nil || angularSpeed > settings.steadyAngularSpeed
        else {
            offset = nil
            return
        }
        let axis = UprightGeometry.axisAngle(orientation)
        let offset = UprightGeometry.signedDifference(UprightGeometry.inPlaneAngle(of: reading), axis)
        if let previous = self.offset, time > offsetTime, time - offsetTime <= settings.maximumSampleGap {
            let elapsed = time - offsetTime
            let speed = UprightGeometry.signedDifference(offset, previous) / elapsed
            self.speed +=
                (speed - self.speed)
                * OrientationEstimator.smoothingWeight(
                    elapsed: elapsed, timeConstant: settings.angularSpeedTimeConstant)
        } else {
            speed = 0
            peakSpeed = 0
            seenOnItsWay = false
        }
        self.offset = offset
        offsetTime = time
        // A turn counts from where it began: where the readings, short of the mid-turn angle,
        // turned slowly (at rest on the axis, or held between the axes), or last left 1 g or a
        // steady upright tilt (a shake, a swing); there, start over.
        let distance = abs(offset)
        let steady =
            abs(ratio - 1) <= settings.calmMagnitudeBand && abs(tilt) <= settings.uprightTiltLimit
            && -tilt <= settings.overheadTilt && tiltSpeed <= settings.swingTiltSpeed
        if !steady || (distance < settings.midTurnAngle && abs(speed) <= settings.steadyAngularSpeed) {
            peakSpeed = 0
            seenOnItsWay = false
            // At rest short of the mid-turn angle, the turn is over.
            if steady && angularSpeed <= settings.steadyAngularSpeed { self.offset = nil }
        }
        peakSpeed = max(peakSpeed, abs(speed))
        let past = distance >= settings.midTurnAngle && distance <= 180 - settings.midTurnAngle
        if distance >= 90 - settings.switchAngle && distance < settings.midTurnAngle { seenOnItsWay = true }
        guard past, steady, seenOnItsWay, abs(speed) <= settings.midTurnSlowdown * peakSpeed else { return }
        let quarter = CoreMath.nearestInteger(axis / 90) + (offset > 0 ? 1 : -1)
        target = UprightGeometry.uprightOrientation(quarter: quarter)
    }

    /// Forgets the target once it was committed (the turn it named is over).
    public mutating func clearTarget() {
        target = nil
    }
}
