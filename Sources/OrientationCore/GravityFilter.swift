/// The low-pass filtered gravity, with how fast its direction turns and how fast the readings'
/// tilt changes.
///
/// The time constant comes from the real time step (alpha = 1 - exp(-dt / tau)), so behaviour is
/// the same at any sample rate; tau grows from `filterTimeConstant` toward
/// `disturbedFilterTimeConstant` with the magnitude disturbance. A gap longer than
/// `maximumSampleGap` restarts it.
public struct GravityFilter: Sendable, Equatable {
    /// The filtered gravity in sensor units; nil before the first reading or after a restart.
    public private(set) var gravity: Vector3?
    /// Angular speed of the filtered direction, smoothed with `angularSpeedTimeConstant`,
    /// degrees per second.
    public private(set) var angularSpeed = 0.0
    /// Angle the filtered direction moved at the last update, degrees.
    public private(set) var lastStepAngle = 0.0
    /// How fast the filtered tilt of the readings changed at the last update, degrees per second.
    public private(set) var readingTiltSpeed = 0.0
    // Time of the last update.
    private var time = 0.0
    // Low-pass filtered tilt of the readings themselves (degrees), for swing detection; nil after
    // a restart. Not the tilt of the filtered gravity: averaging a fast turn about the screen
    // normal shortens the filtered in-plane part and would fake a tilt change.
    private var readingTilt: Double?

    /// What an update did.
    public enum Step: Sendable, Equatable {
        /// The filter started over from the reading (first reading, or a gap).
        case restarted
        /// The filter continued; `swing` when the readings' tilt grew toward flat faster than
        /// `swingTiltSpeed`.
        case continued(swing: Bool)
    }

    /// An empty filter.
    public init() {}

    /// Feeds an accepted reading whose tilt is `tilt` (`UprightGeometry.tilt`) and whose
    /// magnitude is `ratio` times the 1 g reference.
    public mutating func update(
        _ reading: Vector3, tilt: Double, ratio: Double, at time: Double, _ settings: EstimatorSettings
    ) -> Step {
        defer { self.time = time }
        let elapsed = time - self.time
        guard let previous = gravity, elapsed <= settings.maximumSampleGap else {
            gravity = reading
            angularSpeed = 0
            lastStepAngle = 0
            readingTilt = tilt
            readingTiltSpeed = 0
            return .restarted
        }
        let disturbance = min(abs(ratio - 1) / settings.disturbanceFullScale, 1)
        let timeConstant =
            settings.filterTimeConstant
            + (settings.disturbedFilterTimeConstant - settings.filterTimeConstant) * disturbance
        let weight = OrientationEstimator.smoothingWeight(elapsed: elapsed, timeConstant: timeConstant)
        let next = previous + (reading - previous) * weight
        lastStepAngle = previous.angle(to: next)
        if elapsed > 0 {
            // Smoothed over a fixed time, so that the per-step jitter of noise and tremor, larger
            // at high sample rates, does not make the speed gate rate-dependent.
            let speed = lastStepAngle / elapsed
            angularSpeed +=
                (speed - angularSpeed)
                * OrientationEstimator.smoothingWeight(
                    elapsed: elapsed, timeConstant: settings.angularSpeedTimeConstant)
        }
        gravity = next
        // Swing: the tilt of the readings, filtered alike, changing fast.
        let previousTilt = readingTilt ?? tilt
        let nextTilt = previousTilt + (tilt - previousTilt) * weight
        readingTilt = nextTilt
        if elapsed > 0 { readingTiltSpeed = abs(nextTilt - previousTilt) / elapsed }
        // Only a swing toward flat (face up or face down) counts, as in Android's listener: a
        // device raised to upright (picked up, someone sitting up) shows its new direction once
        // the angular speed gate lets it.
        return .continued(swing: elapsed > 0 && abs(nextTilt) - abs(previousTilt) > settings.swingTiltSpeed * elapsed)
    }

    /// Moves the filtered gravity to `gravity` (a commit the readings showed before the filter).
    public mutating func move(to gravity: Vector3) {
        self.gravity = gravity
    }

    /// Forgets the filtered gravity (a new scale): the next reading starts it over.
    public mutating func forget() {
        gravity = nil
    }

    /// Forgets everything but the time of the last update (a new timeline).
    public mutating func restart() {
        gravity = nil
        readingTilt = nil
        readingTiltSpeed = 0
        angularSpeed = 0
        lastStepAngle = 0
    }
}
