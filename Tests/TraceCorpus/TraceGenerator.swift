import OrientationCore

// MARK: - Synthetic traces
//
// The generator builds accelerometer traces from a description of how a hand moves a device:
//
// 1. An attitude over time (`Motion`): `Attitude` is a turn about the screen normal (upright
//    turning), a lean about the horizontal screen axis (the device's x axis in portrait: lap,
//    table, overhead) and a wrist roll about its long y axis. A motion is a start attitude plus
//    moves, each a smoothstep or a minimum-jerk profile (zero speed at both ends, like a real
//    hand); moves may overlap, and
//    keyframes are a shorthand for moves one after the other. A slow `wobble` may be added on top.
// 2. Hand tremor: small sinusoidal wobbles (8-12 Hz) of turn and lean, with seeded phases.
// 3. The gravity reading of that attitude (docs/axes.md frame, pointing at the ground),
//    times standard gravity.
// 4. Linear acceleration in the device frame (shake, walking bounce, impacts), added to it.
// 5. Sensor noise: independent Gaussian noise per axis (SplitMix64, seeded).
// 6. Overrides: samples replaced outright (glitches, free fall).
// 7. The driver's scale error: the whole reading (noise included, as the noise is in raw counts)
//    multiplied by `scale`.
// 8. Quantization to 0.1 mm/s^2 and 0.1 ms, so that a trace written to CSV reads back bit for bit.
//
// Sampling: sample `i` is at `start + i / rate` seconds (no drift), for `duration` seconds.
// Everything is plain Swift arithmetic with `TestMath`, so the same recipe gives the same samples
// on every machine: the corpus in Tests/traces is regenerated from these recipes
// (Tests/OrientationCoreTests/Corpus.swift).

/// How the device is held at one instant, in degrees.
public struct Attitude: Equatable, Sendable {
    /// Rotation about the screen normal, clockwise from portrait: 90 is landscape-right, -90
    /// landscape-left, 180 portrait-upside-down.
    public var turn = 0.0
    /// Lean of the screen plane, applied after the turn about the horizontal axis in the screen
    /// plane (the device's x axis when it stands in portrait): positive leans the screen back toward
    /// the sky (90 is face-up, 60 is a tablet on a lap), negative toward the ground (overhead in bed,
    /// -90 is face-down).
    public var lean = 0.0
    /// Wrist roll about the device's long (y) axis, applied last.
    public var roll = 0.0

    public init(turn: Double = 0, lean: Double = 0, roll: Double = 0) {
        self.turn = turn
        self.lean = lean
        self.roll = roll
    }

    /// Unit gravity direction in the device frame for this attitude.
    public var gravityDirection: Vector3 {
        let v = gravity(angle: turn, tilt: lean, magnitude: 1)
        let r = TestMath.sinCos(degrees: roll)
        return Vector3(v.x * r.cos + v.z * r.sin, v.y, -v.x * r.sin + v.z * r.cos)
    }
}

/// An attitude path: a starting attitude and moves, each adding its change of attitude along a
/// smoothstep (zero speed at both ends) between its start and end times. Moves may overlap, so a
/// hand can lower a device while turning it without stopping in between.
public struct Motion: Sendable {
    /// One move: `change` is added over `start...end` seconds.
    public struct Move: Sendable {
        public var start: Double
        public var end: Double
        public var change: Attitude

        public init(start: Double, end: Double, change: Attitude) {
            self.start = start
            self.end = end
            self.change = change
        }
    }

    public var initial: Attitude
    public var moves: [Move]
    /// How each move runs from its start to its end.
    public var profile = SpeedProfile.smoothstep

    public init(from initial: Attitude, moves: [Move]) {
        self.initial = initial
        self.moves = moves
    }

    /// Keyframes (time in seconds, attitude), in increasing time: held at the first before it and
    /// at the last after it, with a smoothstep from each keyframe to the next (stopping at each).
    public init(_ keyframes: [(time: Double, attitude: Attitude)]) {
        precondition(!keyframes.isEmpty)
        initial = keyframes[0].attitude
        moves = zip(keyframes, keyframes.dropFirst()).map { a, b in
            Move(
                start: a.time, end: b.time,
                change: Attitude(
                    turn: b.attitude.turn - a.attitude.turn, lean: b.attitude.lean - a.attitude.lean,
                    roll: b.attitude.roll - a.attitude.roll))
        }
    }

    /// A device held still.
    public static func still(_ attitude: Attitude) -> Motion { Motion(from: attitude, moves: []) }

    public func attitude(at time: Double) -> Attitude {
        var attitude = initial
        for move in moves {
            let u = profile.progress(time, from: move.start, to: move.end)
            attitude.turn += move.change.turn * u
            attitude.lean += move.change.lean * u
            attitude.roll += move.change.roll * u
        }
        return attitude
    }
}

/// A seeded, deterministic trace recipe (see the comment at the top of this file).
public struct TraceGenerator: Sendable {
    /// Sample rate, Hz.
    public var rate: Double
    /// Length of the trace, seconds.
    public var duration: Double
    /// Time of the first sample, seconds.
    public var start = 0.0
    /// The hand's attitude over time.
    public var motion: Motion
    /// A slow wobble of the hand, added to the attitude (degrees per component), e.g. the sway of
    /// a device held overhead in bed.
    public var wobble: (@Sendable (_ time: Double) -> Attitude)?
    /// Peak hand tremor in degrees, added to turn and lean at two different frequencies in 8-12 Hz.
    public var tremor = 0.0
    /// Sensor noise, standard deviation per axis, m/s^2.
    public var noise = 0.0
    /// Linear acceleration in the device frame, m/s^2, as a function of time and the unit gravity
    /// direction at that time (for motions along the vertical, e.g. a walking bounce).
    public var acceleration: (@Sendable (_ time: Double, _ down: Vector3) -> Vector3)?
    /// Replaces a sample's reading outright (m/s^2, before the scale error), e.g. a glitch or
    /// free fall; nil keeps the computed reading. Gets the sample time and the sample period.
    public var override: (@Sendable (_ time: Double, _ period: Double) -> Vector3?)?
    /// The driver's scale error: every reading is multiplied by it.
    public var scale = 1.0
    /// PRNG seed for noise and tremor phases.
    public var seed: UInt64 = 1

    public init(
        rate: Double, duration: Double, start: Double = 0, motion: Motion,
        wobble: (@Sendable (_ time: Double) -> Attitude)? = nil, tremor: Double = 0, noise: Double = 0,
        acceleration: (@Sendable (_ time: Double, _ down: Vector3) -> Vector3)? = nil,
        override: (@Sendable (_ time: Double, _ period: Double) -> Vector3?)? = nil, scale: Double = 1,
        seed: UInt64 = 1
    ) {
        self.rate = rate
        self.duration = duration
        self.start = start
        self.motion = motion
        self.wobble = wobble
        self.tremor = tremor
        self.noise = noise
        self.acceleration = acceleration
        self.override = override
        self.scale = scale
        self.seed = seed
    }

    /// Quantization of readings, m/s^2 (a real 12-bit +-2 g sensor has about 0.01 m/s^2).
    public static let readingStep = 1e-4
    /// Quantization of times, seconds.
    public static let timeStep = 1e-4

    /// The samples of this recipe.
    public func samples() -> [TraceSample] {
        var random = SplitMix64(seed: seed)
        let phases = (0..<4).map { _ in 360 * random.unit() }
        let count = Int((duration * rate).rounded())
        var result: [TraceSample] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let time = Self.quantize(start + Double(index) / rate, Self.timeStep)
            var attitude = motion.attitude(at: time)
            if let offset = wobble?(time) {
                attitude = Attitude(
                    turn: attitude.turn + offset.turn, lean: attitude.lean + offset.lean,
                    roll: attitude.roll + offset.roll)
            }
            if tremor > 0 {
                attitude.turn += tremor * TestMath.sinCos(degrees: 360 * 9.3 * time + phases[0]).sin
                attitude.lean += tremor * TestMath.sinCos(degrees: 360 * 11.1 * time + phases[1]).sin
            }
            let down = attitude.gravityDirection
            var reading = down * g
            if let acceleration { reading = reading + acceleration(time, down) }
            // Noise is drawn for every sample, so overrides do not shift the random sequence.
            let sensorNoise = noise > 0 ? random.noise(sigma: noise) : .zero
            reading = reading + sensorNoise
            if let replaced = override?(time, 1 / rate) { reading = replaced }
            reading = reading * scale
            let quantized = Vector3(
                Self.quantize(reading.x, Self.readingStep), Self.quantize(reading.y, Self.readingStep),
                Self.quantize(reading.z, Self.readingStep))
            result.append(TraceSample(time: time, reading: reading.isFinite ? quantized : reading))
        }
        return result
    }

    /// `value` rounded to a multiple of `step` (which must be 1/N for an integer N), computed as
    /// k / N so that it prints as the short decimal it is; non-finite values pass through and
    /// negative zero becomes zero.
    public static func quantize(_ value: Double, _ step: Double) -> Double {
        guard value.isFinite else { return value }
        let perUnit = (1 / step).rounded()
        let multiple = (value * perUnit).rounded()
        return multiple == 0 ? 0 : multiple / perUnit
    }
}

// MARK: - Disturbances (linear acceleration in the device frame, m/s^2)

public enum Disturbance {
    /// A shake along `direction` (device frame, normalized here) of `amplitude` m/s^2 whose
    /// frequency sweeps linearly from `from` to `to` Hz between `start` and `end` seconds.
    public static func shake(
        amplitude: Double, from: Double, to: Double, direction: Vector3, start: Double, end: Double
    ) -> @Sendable (Double, Vector3) -> Vector3 {
        let unit = direction * (1 / direction.magnitude)
        return { time, _ in
            guard time >= start && time < end else { return .zero }
            let t = time - start
            let cycles = from * t + (to - from) * t * t / (2 * (end - start))
            // Fade in and out over 0.2 s so the shake has no step at its ends.
            let envelope = ramp(time, from: start, to: start + 0.2) * (1 - ramp(time, from: end - 0.2, to: end))
            return unit * (amplitude * envelope * TestMath.sinCos(degrees: 360 * cycles).sin)
        }
    }

    /// Walking: a vertical bounce of `amplitude` m/s^2 at `frequency` Hz (along gravity) and a
    /// sideways sway of `sway` m/s^2 at half that frequency along the device's x axis.
    public static func walking(amplitude: Double, frequency: Double, sway: Double)
        -> @Sendable (Double, Vector3) -> Vector3
    {
        { time, down in
            down * (amplitude * TestMath.sinCos(degrees: 360 * frequency * time).sin)
                + Vector3(sway * TestMath.sinCos(degrees: 180 * frequency * time + 40).sin, 0, 0)
        }
    }
}
