import OrientationCore

/// Where the device is and how it is turned at one instant: the rotation from the device frame to
/// the world and the sensor's position in the world, metres (see ScenarioPhysics.swift).
public struct Placement: Sendable {
    public var rotation: Matrix3
    public var position: Vector3

    public init(rotation: Matrix3, position: Vector3) {
        self.rotation = rotation
        self.position = position
    }
}

/// One generated scenario for the display accelerometer: the device's motion, the vehicle's
/// vibration, the sensor, and what the estimator must decide (checked by `OrientationProperty`).
public struct DeviceScenario: Sendable {
    /// The motion of the rigid device.
    public var motion: @Sendable (Double) -> Placement
    public var vibration = Vibration()
    public var sensor = SensorModel()
    public var duration: Double
    /// Seed of the sensor noise.
    public var noiseSeed: UInt64
    /// One line describing it (printed with a failure).
    public var summary: String
    /// Stretches during which the device is held still in a known orientation: (start, end,
    /// orientation).
    public var holds: [(start: Double, end: Double, orientation: DeviceOrientation)] = []

    public init(
        duration: Double, noiseSeed: UInt64, summary: String, motion: @escaping @Sendable (Double) -> Placement
    ) {
        self.duration = duration
        self.noiseSeed = noiseSeed
        self.summary = summary
        self.motion = motion
    }

    /// Step of the second difference that gives the acceleration, seconds.
    static let differenceStep = 1e-3

    /// The sensor's acceleration from the motion alone (no vibration), world frame, m/s^2.
    public func motionAcceleration(at time: Double) -> Vector3 {
        acceleration(at: time, placement: motion(time))
    }

    /// The same, given the placement at `time`.
    func acceleration(at time: Double, placement: Placement) -> Vector3 {
        let h = Self.differenceStep
        let p0 = motion(time - h).position
        let p2 = motion(time + h).position
        return (p2 - placement.position * 2 + p0) * (1 / (h * h))
    }

    /// The true reading (gravity minus acceleration, device frame, m/s^2), before the sensor.
    public func trueReading(at time: Double) -> Vector3 {
        let placement = motion(time)
        let a = acceleration(at: time, placement: placement) + vibration.acceleration(at: time)
        return placement.rotation.transposed * (worldDown * g - a)
    }

    /// What the sensor's output filter gives at `time`, for a reading `interval` seconds after the
    /// one before: the mean of the true reading over its output period
    /// (`SensorModel.outputPeriod(interval:)`, four points), so that vibration faster than half
    /// the output rate is attenuated as a sensor's decimation filter does rather than aliased
    /// into a slow wobble that no estimator could tell from motion.
    public func filteredReading(at time: Double, interval: Double) -> Vector3 {
        let window = sensor.outputPeriod(interval: interval)
        var sum = Vector3.zero
        for k in 0..<4 { sum = sum + trueReading(at: time - window * (Double(k) + 0.5) / 4) }
        return sum * 0.25
    }

    /// The true gravity direction in the device frame (unit).
    public func down(at time: Double) -> Vector3 {
        motion(time).rotation.transposed * worldDown
    }

    /// How fast the device turns, degrees per second (over the next 10 ms).
    public func angularSpeed(at time: Double) -> Double {
        motion(time).rotation.angle(to: motion(time + 0.01).rotation) / 0.01
    }

    /// The samples the sensor delivers, and the estimator's decisions on them: the adaptive plan
    /// needs the estimator to pick the next reading's time, so both come from one run.
    public func run(settings: EstimatorSettings = EstimatorSettings()) -> ScenarioRun {
        var estimator = OrientationEstimator(settings: settings)
        var random = SplitMix64(seed: noiseSeed)
        var run = ScenarioRun()
        var index = 0
        var time = 0.0
        var lastMotion = -Double.infinity
        // The daemon samples a sensor it takes at the moving interval first.
        var interval = 0.0
        if case .adaptive(_, let moving, _) = sensor.rate { interval = moving }
        while time < duration {
            let reading = sensor.read(filteredReading(at: time, interval: interval), random: &random)
            let before = estimator.orientation
            let now = estimator.update(reading, at: time)
            run.samples.append(TraceSample(time: time, reading: reading))
            if now != before { run.changes.append((time, now)) }
            index += 1
            switch sensor.rate {
            case .fixed(let hz):
                time = Double(index) / hz
            case .adaptive(let still, let moving, let linger):
                if estimator.isSettling { lastMotion = time }
                interval = time - lastMotion <= linger ? moving : still
                time += interval
            }
        }
        return run
    }

    /// Times every 10 ms over `start...end`.
    func grid(_ start: Double, _ end: Double) -> [Double] {
        let count = Int(((end - start) / 0.01).rounded(.down))
        return (0...max(count, 0)).map { start + Double($0) * 0.01 }
    }

    /// Whether the device is calm over `start...end`: turning slower than 20 degrees/s, its own
    /// motion accelerating it by less than 0.1 g (vibration aside), the whole time.
    public func isCalm(from start: Double, to end: Double) -> Bool {
        grid(start, end).allSatisfy { angularSpeed(at: $0) < 20 && motionAcceleration(at: $0).magnitude < 0.1 * g }
    }
}

/// The estimator's decisions on a scenario.
public struct ScenarioRun: Sendable {
    public var samples: [TraceSample] = []
    /// Each change of the committed orientation: (time, orientation).
    public var changes: [(time: Double, orientation: DeviceOrientation)] = []

    /// The committed orientation just after `time`.
    public func orientation(at time: Double) -> DeviceOrientation {
        changes.last { $0.time <= time + 1e-9 }?.orientation ?? .unknown
    }

    /// The changes as a short text.
    public var changesText: String {
        changes.isEmpty
            ? "no decision" : changes.map { "\(fixed($0.time, 2)) \($0.orientation.name)" }.joined(separator: ", ")
    }
}

/// The orientation a reading of gravity along `down` (device frame, unit) must give when it is
/// clear of every threshold and band of the estimator: an upright orientation within 25 degrees of
/// its axis, the screen tilted between 30 degrees down (not overhead, which keeps the last upright
/// orientation) and 55 degrees up (away from the 60-70 degree face band); face-up or face-down
/// beyond 78 degrees. Nil in between: there the hysteresis decides, and a property cannot.
public func clearOrientation(_ down: Vector3) -> DeviceOrientation? {
    let unit = down * (1 / down.magnitude)
    // Elevation of the screen normal toward the sky: 90 face-up, -90 face-down.
    let elevation = 90 - unit.angle(to: Vector3(0, 0, -1))
    if elevation >= 78 { return .faceUp }
    if elevation <= -78 { return .faceDown }
    guard elevation >= -30, elevation <= 55 else { return nil }
    // In-plane angle from portrait, clockwise: atan2(x, -y).
    let inPlane = Vector3(0, -1, 0).angle(to: Vector3(unit.x, unit.y, 0))
    let sideways = unit.x >= 0 ? inPlane : -inPlane
    for (axis, orientation) in [
        (0.0, DeviceOrientation.portrait), (90, .landscapeRight), (-90, .landscapeLeft), (180, .portraitUpsideDown),
        (-180, .portraitUpsideDown),
    ] where abs(sideways - axis) <= 25 {
        return orientation
    }
    return nil
}

extension DeviceOrientation {
    /// The orientation a half turn away (face-up against face-down), or nil for unknown.
    public var opposite: DeviceOrientation? {
        switch self {
        case .portrait: .portraitUpsideDown
        case .portraitUpsideDown: .portrait
        case .landscapeLeft: .landscapeRight
        case .landscapeRight: .landscapeLeft
        case .faceUp: .faceDown
        case .faceDown: .faceUp
        case .unknown: nil
        }
    }
}
