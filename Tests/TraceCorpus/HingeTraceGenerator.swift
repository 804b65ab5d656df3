import OrientationCore

// Two-sensor test traces: a convertible's display and base readings from the pose of its base
// and the hinge angle, in the hwdb frames (`HingeGeometry`).
//
// The base's pose is given by how it lies: `sideways` degrees about its y axis (right edge
// down), then `forward` degrees about the hinge (front edge up, towards the user; 180 = keyboard
// face down). A base flat on a table, keyboard up, reads (0, 0, +g). The display's reading is the
// base's rotated by the hinge angle θ about x: d_x = b_x, d_y = cosθ b_y − sinθ b_z,
// d_z = sinθ b_y + cosθ b_z (so θ = 90 is a laptop in use: d = (0, −g, 0)).

/// The pose of a convertible at one instant.
public struct HingePose: Equatable, Sendable {
    /// Hinge angle, degrees (0 closed, 180 flat, 360 folded back to back).
    public var angle = 90.0
    /// Base tilt about its y axis, degrees (right edge down); 90 puts the hinge vertical.
    public var sideways = 0.0
    /// Base tilt about the hinge, degrees (front edge up).
    public var forward = 0.0

    public init(angle: Double = 90, sideways: Double = 0, forward: Double = 0) {
        self.angle = angle
        self.sideways = sideways
        self.forward = forward
    }

    /// The base's unit gravity direction.
    public var baseDown: Vector3 {
        let s = TestMath.sinCos(degrees: sideways)
        let f = TestMath.sinCos(degrees: forward)
        return Vector3(s.sin, -s.cos * f.sin, s.cos * f.cos)
    }

    /// The display's reading for a base reading `b`.
    public func display(from b: Vector3) -> Vector3 {
        let t = TestMath.sinCos(degrees: angle)
        return Vector3(b.x, t.cos * b.y - t.sin * b.z, t.sin * b.y + t.cos * b.z)
    }
}

/// A pose changing over time: piecewise linear between key poses (time, pose), held before the
/// first and after the last.
public struct HingeMotion: Sendable {
    public var keys: [(time: Double, pose: HingePose)]

    public init(_ keys: [(Double, HingePose)]) {
        self.keys = keys.map { (time: $0.0, pose: $0.1) }
    }

    public static func still(_ pose: HingePose) -> HingeMotion { HingeMotion([(0, pose)]) }

    public func pose(at time: Double) -> HingePose {
        guard let first = keys.first else { return HingePose() }
        if time <= first.time { return first.pose }
        for (a, b) in zip(keys, keys.dropFirst()) where time < b.time {
            let u = (time - a.time) / (b.time - a.time)
            func mix(_ x: Double, _ y: Double) -> Double { x + u * (y - x) }
            return HingePose(
                angle: mix(a.pose.angle, b.pose.angle), sideways: mix(a.pose.sideways, b.pose.sideways),
                forward: mix(a.pose.forward, b.pose.forward))
        }
        return keys[keys.count - 1].pose
    }
}

/// A seeded, deterministic two-sensor trace recipe.
public struct HingeTraceGenerator: Sendable {
    /// Sample rate, Hz.
    public var rate = 10.0
    /// Length, seconds.
    public var duration: Double
    /// The pose over time.
    public var motion: HingeMotion
    /// Sensor noise, standard deviation per axis and sensor, m/s^2 (0.01 g: a typical MEMS sensor).
    public var noise = 0.01 * g
    /// A sway of the base (a lap), degrees peak, added to `sideways` and `forward` at 1 Hz and
    /// 0.7 Hz.
    public var sway = 0.0
    /// Linear acceleration common to both halves (m/s^2, base frame), a function of time and the
    /// base's unit gravity direction: shaking, walking.
    public var acceleration: (@Sendable (_ time: Double, _ down: Vector3) -> Vector3)?
    /// Scale errors of the display and base drivers.
    public var displayScale = 1.0
    public var baseScale = 1.0
    /// PRNG seed.
    public var seed: UInt64 = 1

    public init(
        rate: Double = 10, duration: Double, motion: HingeMotion, noise: Double = 0.01 * g, sway: Double = 0,
        acceleration: (@Sendable (_ time: Double, _ down: Vector3) -> Vector3)? = nil, displayScale: Double = 1,
        baseScale: Double = 1, seed: UInt64 = 1
    ) {
        self.rate = rate
        self.duration = duration
        self.motion = motion
        self.noise = noise
        self.sway = sway
        self.acceleration = acceleration
        self.displayScale = displayScale
        self.baseScale = baseScale
        self.seed = seed
    }

    public func samples() -> [TraceSample] {
        var random = SplitMix64(seed: seed)
        let count = Int((duration * rate).rounded())
        var result: [TraceSample] = []
        for index in 0..<count {
            let time = TraceGenerator.quantize(Double(index) / rate, TraceGenerator.timeStep)
            var pose = motion.pose(at: time)
            if sway > 0 {
                pose.sideways += sway * TestMath.sinCos(degrees: 360 * 1.0 * time).sin
                pose.forward += sway * TestMath.sinCos(degrees: 360 * 0.7 * time + 50).sin
            }
            let down = pose.baseDown
            var b = down * g
            if let acceleration { b = b + acceleration(time, down) }
            // The same physical vector in both frames (rigid halves), then each sensor's noise.
            var d = pose.display(from: b)
            b = b + random.noise(sigma: noise)
            d = d + random.noise(sigma: noise)
            func q(_ v: Vector3) -> Vector3 {
                Vector3(
                    TraceGenerator.quantize(v.x, TraceGenerator.readingStep),
                    TraceGenerator.quantize(v.y, TraceGenerator.readingStep),
                    TraceGenerator.quantize(v.z, TraceGenerator.readingStep))
            }
            result.append(TraceSample(time: time, reading: q(d * displayScale), base: q(b * baseScale)))
        }
        return result
    }
}
