import OrientationCore

// The scenario generators: each draws a physical scenario from a seed (SplitMix64, so a seed
// always gives the same scenario) and an `intensity` in 0...1 that scales its disturbances
// (vibration, bumps, swing, speed); a failing seed is shrunk by lowering the intensity.

public enum ScenarioGenerator {
    /// A random attitude whose gravity reading is clear of the estimator's bands
    /// (`clearOrientation`): an upright orientation within 20 degrees of its axis, leaning -25 to
    /// 50 degrees, wrist roll within 10, or lying within 8 degrees of face-up or face-down.
    public static func clearAttitude(_ random: inout SplitMix64) -> Attitude {
        clear(&random) { random in
            random.unit() < 0.25
                ? Attitude(
                    turn: random.uniform(-180...180), lean: (random.unit() < 0.6 ? 1 : -1) * random.uniform(83...90))
                : Attitude(
                    turn: 90 * Double(random.index(4) - 1) + random.uniform(-18...18), lean: random.uniform(-25...50),
                    roll: random.uniform(-8...8))
        }
    }

    /// The first attitude `draw` gives whose reading is clear (`clearOrientation`): a lean and a
    /// roll together can carry an upright pose off its axis.
    static func clear(_ random: inout SplitMix64, _ draw: (inout SplitMix64) -> Attitude) -> Attitude {
        while true {
            let attitude = draw(&random)
            if clearOrientation(attitude.gravityDirection) != nil { return attitude }
        }
    }

    /// The grip: the sensor's offset from the point the hand turns the device about, device frame,
    /// metres (3-15 cm, mostly in the screen plane).
    static func grip(_ random: inout SplitMix64) -> Vector3 {
        let angle = random.uniform(0...360)
        let length = random.uniform(0.03...0.15)
        let (s, c) = TestMath.sinCos(degrees: angle)
        return Vector3(length * c, length * s, random.uniform(-0.01...0.01))
    }

    /// A vehicle's vibration: road or rail, peak `amplitude` m/s^2 over 5-25 Hz.
    static func vehicle(_ random: inout SplitMix64, amplitude: Double) -> (Vibration, String) {
        if random.unit() < 0.5 {
            return (Vibration.road(amplitude: amplitude, band: 5...25, random: &random), "road")
        }
        return (Vibration.rail(amplitude: amplitude, band: 5...25, random: &random), "rail")
    }

    /// The next attitude of a turn by hand from `from`: a quarter or half turn about the screen
    /// normal, or (from or to lying flat) a tilt between lying and upright; always clear.
    static func turned(from: Attitude, _ random: inout SplitMix64) -> Attitude {
        clear(&random) { random in turnDrawn(from: from, &random) }
    }

    static func turnDrawn(from: Attitude, _ random: inout SplitMix64) -> Attitude {
        let lying = abs(from.lean) > 70
        if lying || random.unit() < 0.15 {
            if lying {
                return Attitude(
                    turn: from.turn + random.uniform(-20...20), lean: random.uniform(-20...45),
                    roll: random.uniform(-8...8))
            }
            let up = random.unit() < 0.7
            return Attitude(turn: from.turn, lean: (up ? 1 : -1) * random.uniform(83...90), roll: 0)
        }
        let quarters = [1.0, -1, 2, -2][random.index(4)]
        // Land within 18 degrees of the new axis.
        let axis = (from.turn / 90).rounded() * 90 + 90 * quarters
        return Attitude(
            turn: axis + random.uniform(-18...18), lean: random.uniform(-25...50), roll: random.uniform(-8...8))
    }

    /// Held still (a car mount, a hand on a table) under zero-mean vibration, turned by a hand in
    /// between: holds of 1.5-3 s at clear attitudes, turns of 0.3-2 s (quarter and half turns,
    /// to and from lying flat) about a grip point, with minimum-jerk or smoothstep speed.
    /// Vibration up to 0.5 g at 5-25 Hz (times `intensity`), and with `bumps` 0.5-2 g bumps
    /// every 2-4 s as well.
    public static func heldStill(seed: UInt64, intensity: Double = 1, bumps: Bool = false) -> DeviceScenario {
        var random = SplitMix64(seed: seed)
        let holdCount = 2 + random.index(2)
        var keys: [(time: Double, attitude: Attitude)] = []
        var holds: [(start: Double, end: Double, attitude: Attitude)] = []
        var time = 0.0
        var attitude = clearAttitude(&random)
        for index in 0..<holdCount {
            let length = random.uniform(1.5...3)
            keys.append((time, attitude))
            holds.append((time, time + length, attitude))
            time += length
            keys.append((time, attitude))
            guard index < holdCount - 1 else { break }
            time += random.uniform(0.3...2)
            attitude = turned(from: attitude, &random)
        }
        let profile: SpeedProfile = random.unit() < 0.5 ? .minimumJerk : .smoothstep
        var keyed = Motion(keys)
        keyed.profile = profile
        let path = keyed
        let offset = grip(&random)
        let hand = Vector3(0, 1.0, 0.4)
        let amplitude = random.uniform(0...0.5) * g * intensity
        var (vibration, spectrum) = vehicle(&random, amplitude: amplitude)
        var bumpText = ""
        if bumps {
            let b = Vibration.Bumps(
                amplitude: random.uniform(0.5...2) * g * intensity, frequency: random.uniform(6...15),
                cycles: 1 + random.index(3), period: random.uniform(2...4), start: random.uniform(0.2...2),
                direction: Vibration.mostlyVertical(&random))
            vibration.bumps = b
            bumpText =
                ", bumps \(fixed(b.amplitude / g, 2)) g \(fixed(b.frequency, 1)) Hz every \(fixed(b.period, 1)) s"
        }
        var scenario = DeviceScenario(
            duration: time + 0.5, noiseSeed: random.next(),
            summary: "",
            motion: { t in
                let rotation = path.attitude(at: t).rotation
                return Placement(rotation: rotation, position: hand + rotation * offset)
            })
        scenario.vibration = vibration
        scenario.sensor = SensorModel.random(&random)
        scenario.holds = holds.map { hold in
            (hold.start, hold.end, clearOrientation(hold.attitude.gravityDirection) ?? .unknown)
        }
        let turns = zip(holds, holds.dropFirst()).map { a, b in
            "\(fixed(b.start - a.end, 2)) s to \(b.attitude.brief)"
        }
        scenario.summary =
            "held at \(holds[0].attitude.brief) \(fixed(holds[0].end, 1)) s, " + turns.joined(separator: ", ")
            + " (\(profile.rawValue), grip \(fixed(offset.magnitude * 100, 0)) cm); \(spectrum) "
            + "\(fixed(vibration.peak / g, 2)) g at "
            + vibration.components.map { fixed($0.frequency, 1) }.joined(separator: "/") + " Hz"
            + bumpText + "; " + scenario.sensor.summary
        return scenario
    }

    /// Walking or running with the device in a swinging hand, the arm raised through exercises
    /// (a sensor on the wrist), or held in front while walking: 8-14 s. The hand's attitude is
    /// any; the swing is about a horizontal axis through the shoulder.
    public static func swinging(seed: UInt64, intensity: Double = 1) -> DeviceScenario {
        var random = SplitMix64(seed: seed)
        let kind = random.index(3)
        let duration = random.uniform(8...14)
        let hand = Attitude(
            turn: random.uniform(-180...180), lean: random.uniform(-90...90), roll: random.uniform(-90...90))
        let handRotation = hand.rotation
        let offset = grip(&random)
        let running = random.unit() < 0.35
        let step = running ? random.uniform(2.4...3.0) : random.uniform(1.6...2.2)
        let bounce = (running ? random.uniform(0.6...1.2) : random.uniform(0.15...0.35)) * g * intensity
        let sway = random.uniform(0.03...0.1) * g * intensity
        let bouncePhase = random.uniform(0...360)
        let axisAngle = random.uniform(-30...30)
        let (axisSin, axisCos) = TestMath.sinCos(degrees: axisAngle)
        let swingAxis = Vector3(axisCos, 0, axisSin)
        let arm = running ? random.uniform(0.4...0.5) : random.uniform(0.55...0.7)
        var description: String
        let swing: @Sendable (Double) -> Double
        let walking: Bool
        switch kind {
        case 0:
            // Arm swing at half the step rate.
            // Walking swings the hand 10-35 degrees about the shoulder at 0.8-1.1 Hz (about 1 g at
            // the hand), running 20-45 degrees at 1.2-1.5 Hz with the elbow bent (up to 3-4 g).
            let amplitude = (running ? random.uniform(20...45) : random.uniform(10...35)) * intensity
            let phase = random.uniform(0...360)
            swing = { t in amplitude * TestMath.sinCos(degrees: 180 * step * t + phase).sin }
            walking = true
            description =
                "\(running ? "running" : "walking") \(fixed(step, 1)) steps/s, bounce \(fixed(bounce / g, 2)) g, "
                + "arm swing \(fixed(amplitude, 0)) deg"
        case 1:
            // Shoulder exercises: the arm raised to `top` and lowered, 2-4 s a repetition,
            // pauses at the bottom and at the top.
            let top = random.uniform(60...170) * intensity
            let rep = random.uniform(2...4)
            let pauseTop = random.uniform(0...0.5)
            let pauseBottom = random.uniform(0...0.8)
            swing = { t in
                let cycle = rep + pauseTop + pauseBottom
                let u = t.truncatingRemainder(dividingBy: cycle)
                let half = rep / 2
                if u < half { return top * SpeedProfile.minimumJerk.progress(u, from: 0, to: half) }
                if u < half + pauseTop { return top }
                return top * (1 - SpeedProfile.minimumJerk.progress(u, from: half + pauseTop, to: rep + pauseTop))
            }
            walking = false
            description =
                "arm raised to \(fixed(top, 0)) deg every \(fixed(rep + pauseTop + pauseBottom, 1)) s "
                + "(pauses \(fixed(pauseTop, 2))/\(fixed(pauseBottom, 2)) s)"
        default:
            swing = { _ in 0 }
            walking = true
            description =
                "\(running ? "running" : "walking") \(fixed(step, 1)) steps/s holding it in front, "
                + "bounce \(fixed(bounce / g, 2)) g"
        }
        let stepRate = step
        let shoulder = Vector3(0, 1.4, 0)
        var scenario = DeviceScenario(
            duration: duration, noiseSeed: random.next(), summary: "",
            motion: { t in
                let swingRotation = Matrix3.rotation(about: swingAxis, degrees: swing(t))
                let rotation = swingRotation * handRotation
                var body = shoulder
                if walking {
                    let w = 360 * stepRate
                    // Displacements whose second derivatives are the bounce and the sway.
                    body =
                        body
                        + Vector3(
                            -sway / ((w / 2 * Double.pi / 180) * (w / 2 * Double.pi / 180))
                                * TestMath.sinCos(degrees: w / 2 * t).sin,
                            -bounce / ((w * Double.pi / 180) * (w * Double.pi / 180))
                                * TestMath.sinCos(degrees: w * t + bouncePhase).sin,
                            1.2 * t)
                }
                let armVector = kind == 2 ? Vector3(0, -0.3, 0.35) : Vector3(0, -arm, 0)
                return Placement(
                    rotation: rotation, position: body + swingRotation * (armVector + handRotation * offset))
            })
        scenario.sensor = SensorModel.random(&random)
        scenario.summary =
            description + "; in the hand at \(hand.brief), grip \(fixed(offset.magnitude * 100, 0)) cm; "
            + scenario.sensor.summary
        return scenario
    }

    /// A posture change and the stay after it: with the device in a trouser pocket or on the waist,
    /// sitting down, standing up, lying down (on the back or a side) and getting up; with the
    /// device in the hand, putting it on a table and picking it up. 2 s before, 2.5-4 s after.
    /// Sitting and lying down may be walked into, and end by landing on the seat or bed.
    /// Only changes whose poses before and after are clear (`clearOrientation`) are drawn (others
    /// are redrawn): a pose inside the hysteresis band has no single right answer.
    public static func posture(seed: UInt64, intensity: Double = 1) -> (DeviceScenario, end: Double) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<50 {
            if let drawn = drawPosture(&random, intensity: intensity) { return drawn }
        }
        preconditionFailure("no clear posture drawn for seed \(seed)")
    }

    static func drawPosture(_ random: inout SplitMix64, intensity: Double) -> (DeviceScenario, end: Double)? {
        let kind = random.index(6)
        let start = 2.0
        let length: Double
        let stay = random.uniform(2.5...4)
        let profile: SpeedProfile = random.unit() < 0.5 ? .minimumJerk : .smoothstep
        let name: String
        // The trunk's rotation (world) and the hip's position over the change, as functions of
        // progress 0...1; the device's pose relative to the trunk (or the hand).
        var trunkFrom = Matrix3.identity
        var trunkTo = Matrix3.identity
        var hipFrom = Vector3(0, 1.0, 0)
        var hipTo = Vector3(0, 1.0, 0)
        var lean: @Sendable (Double) -> Double = { _ in 0 }
        var device: Attitude
        var lever = Vector3(random.uniform(-0.15...0.15), random.uniform(-0.1...0.1), 0.12)
        // Pocket or waist: the screen facing out or in, any upright way up.
        let pocket = Attitude(
            turn: 90 * Double(random.index(4)) + random.uniform(-15...15), lean: random.uniform(-12...12),
            roll: random.uniform(-12...12) + (random.unit() < 0.5 ? 180 : 0))
        let side = random.unit() < 0.5 ? 1.0 : -1.0
        let lying = Matrix3.rotation(
            about: random.unit() < 0.5 ? Vector3(1, 0, 0) : Vector3(0, 0, side), degrees: -random.uniform(80...100))
        switch kind {
        case 0, 1:
            // Sitting down (0) or standing up (1): the hip drops 0.4-0.5 m and moves back, the
            // trunk leans forward up to 40 degrees on the way and settles 0-15 degrees back.
            length = random.uniform(1.0...2.5) / (0.5 + 0.5 * intensity)
            let forward = random.uniform(15...40) * intensity
            let back = random.uniform(0...15)
            let seated = Vector3(0, 1.0 - random.uniform(0.4...0.5), -0.25)
            device = pocket
            if kind == 0 {
                hipTo = seated
                trunkTo = Matrix3.rotation(about: Vector3(1, 0, 0), degrees: back)
            } else {
                hipFrom = seated
                trunkFrom = Matrix3.rotation(about: Vector3(1, 0, 0), degrees: back)
            }
            lean = { u in forward * TestMath.sinCos(degrees: 180 * u).sin }
            name = kind == 0 ? "sitting down" : "standing up"
        case 2, 3:
            // Lying down (2) or getting up (3): the trunk turns 80-100 degrees about a horizontal
            // axis, the hip drops 0.3-0.5 m.
            length = random.uniform(1.5...3) / (0.5 + 0.5 * intensity)
            let low = Vector3(0, 1.0 - random.uniform(0.3...0.5), 0.3)
            device = pocket
            if kind == 2 {
                trunkTo = lying
                hipTo = low
            } else {
                trunkFrom = lying
                hipFrom = low
            }
            name = kind == 2 ? "lying down" : "getting up"
        default:
            // Put on a table (4) or picked up (5): the hand lowers the device 0.2-0.5 m and tilts
            // it flat (face-up, turned any way), or the reverse.
            length = random.uniform(0.6...1.5) / (0.5 + 0.5 * intensity)
            let held = Attitude(
                turn: 90 * Double(random.index(4) - 1) + random.uniform(-15...15), lean: random.uniform(10...45),
                roll: random.uniform(-8...8))
            let flat = Attitude(turn: held.turn + random.uniform(-60...60), lean: random.uniform(87...90), roll: 0)
            let drop = random.uniform(0.2...0.5)
            lever = grip(&random)
            let (a, b) = kind == 4 ? (held, flat) : (flat, held)
            device = Attitude()
            let change = Motion.Move(
                start: start, end: start + length,
                change: Attitude(turn: b.turn - a.turn, lean: b.lean - a.lean, roll: b.roll - a.roll))
            var moved = Motion(from: a, moves: [change])
            moved.profile = profile
            let path = moved
            let handLever = lever
            let table = Vector3(0, 0.75, 0.3)
            let (hipA, hipB) = kind == 4 ? (table + Vector3(0, drop, 0), table) : (table, table + Vector3(0, drop, 0))
            let end = start + length
            // Physiological tremor: 0.03-0.12 degrees at 9.5 Hz, which at the grip's lever is
            // 0.01-0.1 g (a hand's tremor moves the device by a fraction of a millimetre).
            let breath = random.uniform(0.03...0.12) * intensity
            let tremorPhase = random.uniform(0...360)
            let inHand = kind == 5
            let motion: @Sendable (Double) -> Placement = { t in
                let u = profile.progress(t, from: start, to: end)
                var attitude = path.attitude(at: t)
                // Hand tremor while held (before putting down, after picking up).
                if (inHand && t > end) || (!inHand && t < start) {
                    attitude.lean += breath * TestMath.sinCos(degrees: 360 * 9.5 * t + tremorPhase).sin
                }
                let rotation = attitude.rotation
                let hip = hipA + (hipB - hipA) * u
                return Placement(rotation: rotation, position: hip + rotation * handLever)
            }
            return finishPosture(
                motion: motion, name: kind == 4 ? "put on a table" : "picked up", start: start, end: end, stay: stay,
                profile: profile, random: &random)
        }
        let end = start + length
        let trunkPathFrom = trunkFrom
        let trunkPathTo = trunkTo
        let (hipA, hipB) = (hipFrom, hipTo)
        let deviceRotation = device.rotation
        let pocketLever = lever
        let leanPath = lean
        let breathing = random.uniform(0.3...1.5) * intensity
        let breathRate = random.uniform(0.2...0.35)
        // The trunk's turn from `trunkFrom` to `trunkTo`: the same axis-angle, scaled by progress.
        let relative = trunkPathFrom.transposed * trunkPathTo
        let (axis, angle) = relative.axisAngle
        // Sitting and lying down: walked up to the chair or bed half the time (a 0.15-0.3 g bounce
        // at 1.6-2.2 steps/s that dies out over the last 0.5 s), and landing on it (a 0.3-1.2 g
        // jolt of one or two cycles at 4-8 Hz that ends as the change does).
        let sitsOrLies = kind == 0 || kind == 2
        let walks = sitsOrLies && random.unit() < 0.5
        let stepRate = random.uniform(1.6...2.2)
        let bounce = walks ? random.uniform(0.15...0.3) * g * intensity : 0
        var vibration = Vibration()
        var extra = ""
        if sitsOrLies {
            let frequency = random.uniform(4...8)
            let cycles = 1 + random.index(2)
            vibration.bumps = Vibration.Bumps(
                amplitude: random.uniform(0.3...1.2) * g * intensity, frequency: frequency, cycles: cycles, period: 1e6,
                start: end - Double(cycles) / frequency, direction: Vibration.mostlyVertical(&random))
            extra = ", landing \(fixed(vibration.bumps!.amplitude / g, 2)) g at \(fixed(frequency, 1)) Hz"
            if walks { extra = ", walked up to it (\(fixed(bounce / g, 2)) g)" + extra }
        }
        let motion: @Sendable (Double) -> Placement = { t in
            let u = profile.progress(t, from: start, to: end)
            let trunk =
                trunkPathFrom * Matrix3.rotation(about: axis, degrees: angle * u)
                * Matrix3.rotation(
                    about: Vector3(1, 0, 0),
                    degrees: -leanPath(u) + breathing * TestMath.sinCos(degrees: 360 * breathRate * t).sin)
            var hip = hipA + (hipB - hipA) * u
            if bounce > 0 {
                let w = 2 * Double.pi * stepRate
                let fade = 1 - ramp(t, from: start - 0.5, to: start)
                hip = hip + Vector3(0, -bounce / (w * w) * fade * TestMath.sinCos(degrees: 360 * stepRate * t).sin, 0)
            }
            let rotation = trunk * deviceRotation
            return Placement(rotation: rotation, position: hip + trunk * pocketLever)
        }
        return finishPosture(
            motion: motion, name: name + " (pocket at \(device.brief)\(extra))", start: start, end: end, stay: stay,
            profile: profile, vibration: vibration, random: &random)
    }

    static func finishPosture(
        motion: @escaping @Sendable (Double) -> Placement, name: String, start: Double, end: Double, stay: Double,
        profile: SpeedProfile, vibration: Vibration = Vibration(), random: inout SplitMix64
    ) -> (DeviceScenario, end: Double)? {
        var scenario = DeviceScenario(duration: end + stay, noiseSeed: random.next(), summary: "", motion: motion)
        scenario.vibration = vibration
        scenario.sensor = SensorModel.random(&random)
        // Clear before (the whole 2 s) and after (the whole stay), breathing and tremor included.
        var before: DeviceOrientation?
        for t in stride(from: 0.0, through: start, by: 0.05) {
            guard let o = clearOrientation(scenario.down(at: t)), before == nil || before == o else { return nil }
            before = o
        }
        var after: DeviceOrientation?
        for t in stride(from: end, through: end + stay, by: 0.05) {
            guard let o = clearOrientation(scenario.down(at: t)), after == nil || after == o else { return nil }
            after = o
        }
        guard let before, let after else { return nil }
        scenario.holds = [(0, start, before), (end, end + stay, after)]
        scenario.summary =
            "\(name): \(before.name) -> \(after.name) over \(fixed(start, 1))-\(fixed(end, 2)) s "
            + "(\(profile.rawValue)), "
            + "\(fixed(stay, 1)) s after; " + scenario.sensor.summary
        return (scenario, end)
    }
}

extension Matrix3 {
    /// The rotation's unit axis and angle (degrees, 0...180).
    public var axisAngle: (axis: Vector3, degrees: Double) {
        let angle = Matrix3.identity.angle(to: self)
        let (a, b, c) = rows
        let axis = Vector3(c.y - b.z, a.z - c.x, b.x - a.y)
        guard axis.magnitude > 1e-12 else {
            if angle < 1e-9 { return (Vector3(1, 0, 0), 0) }
            // A half turn: the axis from the symmetric part.
            let d = Vector3(((a.x + 1) / 2).squareRoot(), ((b.y + 1) / 2).squareRoot(), ((c.z + 1) / 2).squareRoot())
            let signed = Vector3(d.x, a.y >= 0 ? d.y : -d.y, a.z >= 0 ? d.z : -d.z)
            return (signed * (1 / signed.magnitude), angle)
        }
        return (axis * (1 / axis.magnitude), angle)
    }
}

extension Attitude {
    /// "turn 92 lean 15" (roll when there is one).
    public var brief: String {
        "turn \(fixed(turn, 0)) lean \(fixed(lean, 0))" + (abs(roll) >= 0.5 ? " roll \(fixed(roll, 0))" : "")
    }
}
