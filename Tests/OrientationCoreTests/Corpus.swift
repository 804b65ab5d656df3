import OrientationCore

/// The recipes of the trace corpus in `Tests/traces`, one per file (`<name>.csv`).
///
/// The files are generated from these recipes and checked in; `CorpusTests` checks that every
/// file still equals its recipe's output, so the corpus cannot drift from its documentation.
/// To regenerate after changing a recipe (from the package root):
///
///     MOTION_ORIENTATION_WRITE_TRACES=1 swift test --filter CorpusTests
///
/// The expected outcome of every file is in `Tests/traces/expected.txt` (read by `CorpusTests` and
/// by `estimator-bench`), not here: a recorded capture from a real device gets a line there too,
/// without a recipe.
enum Corpus {
    /// One corpus entry: file name (without `.csv`), a one-line description for the file's header
    /// comment, and the recipe.
    struct Entry: Sendable {
        var name: String
        var summary: String
        var recipe: TraceGenerator
    }

    /// 0.01 g and 0.03 g of sensor noise, m/s^2 per axis.
    static let lightNoise = 0.01 * g
    static let heavyNoise = 0.03 * g

    /// Portrait held the usual way, leaning back a little.
    static let heldPortrait = Attitude(turn: 0, lean: 15)

    /// The turn used for the rate and scale comparisons: portrait to landscape-right in 0.5 s at
    /// 2 s, and back in 0.5 s at 5 s.
    static func referenceTurn(rate: Double, scale: Double = 1) -> TraceGenerator {
        TraceGenerator(
            rate: rate, duration: 8,
            motion: Motion([
                (2.0, Attitude(turn: 0, lean: 20)), (2.5, Attitude(turn: 90, lean: 20)),
                (5.0, Attitude(turn: 90, lean: 20)), (5.5, Attitude(turn: 0, lean: 20)),
            ]),
            tremor: 0.5, noise: lightNoise, scale: scale, seed: 1001)
    }

    /// Saturated reading of a +-16 g sensor on every axis, m/s^2.
    static let saturated16g = 16 * 9.80665

    static let entries: [Entry] = [
        Entry(
            name: "sweep-90-and-back",
            summary: "slow sweep portrait -> landscape-right over 10 s, 1 s there, back over 10 s",
            recipe: TraceGenerator(
                rate: 25, duration: 25,
                motion: Motion([
                    (2, Attitude(turn: 0, lean: 15)), (12, Attitude(turn: 90, lean: 15)),
                    (13, Attitude(turn: 90, lean: 15)), (23, Attitude(turn: 0, lean: 15)),
                ]),
                tremor: 0.5, noise: lightNoise, seed: 1)),
        Entry(
            name: "dwell-45-tremor",
            summary: "portrait, then 30 s at 45 degrees with 3 degree tremor and 0.03 g noise",
            recipe: TraceGenerator(
                rate: 50, duration: 33,
                motion: Motion([(1, heldPortrait), (2.5, Attitude(turn: 45, lean: 15))]),
                tremor: 3, noise: heavyNoise, seed: 2)),
        Entry(
            name: "shake-portrait",
            summary: "portrait shaken with 1 g at 3 -> 5 Hz for 7.5 s",
            recipe: TraceGenerator(
                rate: 50, duration: 10, motion: .still(heldPortrait), tremor: 1, noise: 0.02 * g,
                acceleration: Disturbance.shake(
                    amplitude: g, from: 3, to: 5, direction: Vector3(1, 0.5, 0.3), start: 1.5, end: 9),
                seed: 3)),
        Entry(
            name: "walking-landscape",
            summary: "landscape-left while walking: 0.25 g bounce at 2 Hz, 0.1 g sway",
            recipe: TraceGenerator(
                rate: 50, duration: 20, motion: .still(Attitude(turn: -90, lean: 25)), tremor: 1,
                noise: 0.02 * g,
                acceleration: Disturbance.walking(amplitude: 0.25 * g, frequency: 2, sway: 0.1 * g),
                seed: 4)),
        Entry(
            name: "free-fall-impact",
            summary: "portrait, dropped: 0.45 s free fall, 4 g impact, comes to rest face up",
            recipe: TraceGenerator(
                rate: 50, duration: 6,
                motion: Motion([(2.0, Attitude(turn: 0, lean: 10)), (2.45, Attitude(turn: 30, lean: 88))]),
                noise: lightNoise,
                acceleration: { time, down in
                    // The bounce after the impact: a damped 12 Hz ring along the screen normal.
                    guard time >= 2.49 && time < 3.0 else { return .zero }
                    let age = time - 2.49
                    let decay = TestMath.decay(age / 0.08)
                    return Vector3(0, 0, 1.5 * g * decay * TestMath.sinCos(degrees: 360 * 12 * age).sin)
                },
                override: { time, _ in
                    if time >= 2.0 && time < 2.45 - 1e-9 {
                        // Free fall: a tumbling sensor reads its offset and noise only.
                        let wobble = TestMath.sinCos(degrees: 720 * time)
                        return Vector3(0.25 * wobble.sin, -0.3, 0.2 * wobble.cos)
                    }
                    if time >= 2.45 - 1e-9 && time < 2.49 - 1e-9 {
                        return Vector3(0.3, -0.4, -0.85) * (4 * g / Vector3(0.3, -0.4, -0.85).magnitude)
                    }
                    return nil
                },
                seed: 5)),
        Entry(
            name: "glitches",
            summary: "landscape-right with a glitch every second: all zero, saturated +16 g, NaN (in turn)",
            recipe: TraceGenerator(
                rate: 25, duration: 20, motion: .still(Attitude(turn: 90, lean: 20)), tremor: 0.5,
                noise: lightNoise,
                override: { time, period in
                    // The first sample at or after k + 0.5 s for k = 1...19, cycling through the
                    // three kinds.
                    let second = Int(time - 0.5)
                    let offset = time - 0.5 - Double(second)
                    guard second >= 1, offset >= -1e-9, offset < period - 1e-9 else { return nil }
                    switch second % 3 {
                    case 1: return .zero
                    case 2: return Vector3(saturated16g, saturated16g, saturated16g)
                    default: return Vector3(.nan, .nan, .nan)
                    }
                },
                seed: 6)),
        Entry(
            name: "turn-90-in-0.4s",
            summary: "portrait -> landscape-left in 0.4 s",
            recipe: TraceGenerator(
                rate: 25, duration: 5,
                motion: Motion([(2.0, heldPortrait), (2.4, Attitude(turn: -90, lean: 15))]),
                tremor: 0.5, noise: lightNoise, seed: 7)),
        Entry(
            name: "step-quarter-turn",
            summary:
                "resting in portrait, the reading jumps to landscape-right at once (as `make bench` moves its fake device)",
            recipe: TraceGenerator(
                rate: 25, duration: 4,
                motion: Motion([(1.99, heldPortrait), (1.99, Attitude(turn: 90, lean: 15))]),
                noise: 0.003 * g, seed: 16)),
        Entry(
            name: "flip-180-in-0.5s",
            summary: "portrait -> portrait-upside-down in 0.5 s",
            recipe: TraceGenerator(
                rate: 25, duration: 5,
                motion: Motion([(2.0, heldPortrait), (2.5, Attitude(turn: 180, lean: 15))]),
                tremor: 0.5, noise: lightNoise, seed: 8)),
        Entry(
            name: "lap-turn-lean-60",
            summary: "on a lap, leaning back 60 degrees: portrait -> landscape-right in 0.6 s",
            recipe: TraceGenerator(
                rate: 25, duration: 6,
                motion: Motion([(2.0, Attitude(turn: 0, lean: 60)), (2.6, Attitude(turn: 90, lean: 60))]),
                tremor: 0.5, noise: lightNoise, seed: 9)),
        Entry(
            name: "overhead-wobble",
            summary:
                "portrait, lying back in bed: screen down at 50 degrees, wobbling for 14 s (in-plane up to 70 degrees)",
            recipe: TraceGenerator(
                rate: 25, duration: 20,
                motion: Motion([(2.0, Attitude(turn: 0, lean: 10)), (3.5, Attitude(turn: 0, lean: -50))]),
                wobble: { time in
                    let fade = ramp(time, from: 4, to: 5) * (1 - ramp(time, from: 17, to: 18))
                    return Attitude(
                        turn: fade * 65 * TestMath.sinCos(degrees: 360 * 0.35 * time).sin,
                        lean: fade * 8 * TestMath.sinCos(degrees: 360 * 0.6 * time).sin,
                        roll: fade * 10 * TestMath.sinCos(degrees: 360 * 0.23 * time + 20).sin)
                },
                tremor: 1, noise: lightNoise, seed: 10)),
        Entry(
            name: "scale-0.5-turn",
            summary: "the reference turn (as turn-25hz) with the driver's scale wrong by x0.5",
            recipe: referenceTurn(rate: 25, scale: 0.5)),
        Entry(
            name: "scale-1.8-turn",
            summary: "the reference turn (as turn-25hz) with the driver's scale wrong by x1.8",
            recipe: referenceTurn(rate: 25, scale: 1.8)),
        Entry(
            name: "turn-10hz", summary: "the reference turn sampled at 10 Hz",
            recipe: referenceTurn(rate: 10)),
        Entry(
            name: "turn-25hz", summary: "the reference turn sampled at 25 Hz",
            recipe: referenceTurn(rate: 25)),
        Entry(
            name: "turn-50hz", summary: "the reference turn sampled at 50 Hz",
            recipe: referenceTurn(rate: 50)),
        Entry(
            name: "put-down-wrist-roll",
            summary: "portrait, put down on a table face up, the wrist turning it to landscape-left on the way",
            recipe: TraceGenerator(
                rate: 25, duration: 7,
                motion: Motion(
                    from: heldPortrait,
                    moves: [
                        .init(start: 2.0, end: 3.0, change: Attitude(lean: 74)),
                        .init(start: 2.1, end: 2.6, change: Attitude(turn: -75)),
                        .init(start: 2.6, end: 3.0, change: Attitude(turn: 15)),
                    ]),
                tremor: 0.5, noise: lightNoise, seed: 14)),
        Entry(
            name: "pick-up-portrait",
            summary: "lying face up, picked up into portrait (passing landscape-right on the way)",
            recipe: TraceGenerator(
                rate: 25, duration: 7,
                motion: Motion(
                    from: Attitude(turn: 130, lean: 89),
                    moves: [
                        .init(start: 2.0, end: 3.0, change: Attitude(lean: -74)),
                        .init(start: 2.0, end: 2.4, change: Attitude(turn: -50)),
                        .init(start: 2.6, end: 3.1, change: Attitude(turn: -80)),
                    ]),
                tremor: 0.5, noise: lightNoise, seed: 15)),
        Entry(
            name: "smooth-turn-0.3s",
            summary: "portrait -> landscape-right in 0.3 s, the way a hand turns a tablet (0.5 degree tremor)",
            recipe: smoothTurn(from: 0, to: 90, duration: 0.3, rate: 25, seed: 17)),
        Entry(
            name: "smooth-turn-0.45s",
            summary: "landscape-right -> portrait-upside-down in 0.45 s at 50 Hz (0.5 degree tremor)",
            recipe: smoothTurn(from: 90, to: 180, duration: 0.45, rate: 50, seed: 18)),
        Entry(
            name: "smooth-turn-0.6s-10hz",
            summary: "portrait -> landscape-left in 0.6 s sampled at 10 Hz (0.5 degree tremor)",
            recipe: smoothTurn(from: 0, to: -90, duration: 0.6, rate: 10, seed: 19)),
        Entry(
            name: "slow-turn-2s",
            summary: "portrait -> landscape-right in 2 s (0.5 degree tremor)",
            recipe: smoothTurn(from: 0, to: 90, duration: 2, rate: 25, seed: 20)),
    ]

    /// A smooth quarter turn about the screen normal from 2 s, leaning back 15 degrees, with 0.5
    /// degrees of tremor and 0.01 g of noise; 2 s of rest after it.
    static func smoothTurn(from: Double, to: Double, duration: Double, rate: Double, seed: UInt64)
        -> TraceGenerator
    {
        TraceGenerator(
            rate: rate, duration: 4 + duration,
            motion: Motion([(2, Attitude(turn: from, lean: 15)), (2 + duration, Attitude(turn: to, lean: 15))]),
            tremor: 0.5, noise: lightNoise, seed: seed)
    }

    /// The corpus file text of an entry: comment lines naming the trace and its recipe, the header,
    /// one line per sample. A non-finite reading cannot be written in the trace format (which takes
    /// finite numbers only); it becomes a comment line, and `CorpusTests` replays the recipe in
    /// memory as well, with the real NaN samples.
    static func fileText(_ entry: Entry) -> String {
        var text = "# \(entry.name): \(entry.summary)\n"
        text += "# synthetic, generated from Tests/OrientationCoreTests/Corpus.swift (seed \(entry.recipe.seed), "
        text += "\(entry.recipe.rate) Hz); expected outcome in expected.txt\n"
        text += Trace.header + "\n"
        for sample in entry.recipe.samples() {
            let r = sample.reading
            if r.isFinite {
                text += "\(sample.time),\(r.x),\(r.y),\(r.z)\n"
            } else {
                text += "# \(sample.time),nan,nan,nan (non-finite reading, replayed in memory only)\n"
            }
        }
        return text
    }
}
