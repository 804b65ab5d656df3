// estimator-bench: throughput of the pure orientation estimator, and the trace corpus table.
//
//     estimator-bench [--json] [--set NAME=VALUE]... [TRACES-DIRECTORY]
//     estimator-bench [--set NAME=VALUE]... --recording TRACE.csv [--labels LABELS.csv]
//     estimator-bench [--json] [--set NAME=VALUE]... --recordings DIRECTORY [--recordings DIRECTORY]...
//
// 1. Generates a long synthetic trace in memory (500,000 samples, 2.8 hours at 50 Hz) (deterministic: a fixed seed, plain Swift math):
//    a device taken through every orientation with turns, flips, lying down, lap and overhead
//    poses, sensor noise, shake bursts and glitch samples, at 50 Hz. Replays it through
//    `OrientationEstimator` and `InterfaceOrientationPolicy` and prints samples per second and
//    nanoseconds per sample (the best of up to five passes within 2 s, timed with the stdlib's
//    ContinuousClock).
// 2. With a directory (Tests/traces), replays every trace listed in its `expected.txt` with
//    `Trace.parse` + `Trace.replay` and prints, per trace: name, samples, decisions, the delay of
//    the main decision (from the end of the main motion) and whether the expected outcome was met.
//    The exit status is 1 when a trace misses its expected outcome or cannot be read. Beside each
//    trace, the decisions of a per-sample judge in the manner of iio-sensor-proxy (each reading
//    judged alone, no filter, no evidence time: see `PerSampleJudge`), with its delay.
//    Before the corpus, smooth quarter turns (0.3, 0.45, 0.6 and 2 s at 10, 25 and 50 Hz, see
//    `smoothTurn`): the delay after each turn ends (negative: committed before it ends), with the
//    settings given, with the same settings but no mid-turn commit (`EstimatorSettings.midTurnSlowdown`
//    0, the filter and the settle time alone) and for the per-sample judge.
// 3. With --recording, replays one (long, real) recording instead and prints its decisions; with
//    --labels (`start,end,label,name` rows, HAPT activity codes, see Tests/recordings/README.md)
//    also the changes inside each labelled activity, the flaps (a change undone within
//    `flapWindow`) and, per postural transition, the first decision after it began and its time
//    from the transition's end. The exit status is 1 when a change falls inside a labelled
//    activity during which the device does not turn (codes 1-5) or a flap occurs.
// 4. With a directory that has `hinge/expected.txt` (Tests/traces/hinge), replays every
//    two-sensor trace listed there with `Trace.replayHinge` and prints, per trace: name, lid
//    switch, expected and decided tablet-mode sequence, final hinge state, the delay of the last
//    tablet-mode change (from the time the motion passed the deciding angle) and the result.
// 5. With --recordings, scores every recording of each folder (and their total) instead: spurious
//    changes, flaps, direct 180-degree flips and delays after labelled transitions, for the
//    estimator and the per-sample judge (see RecordingsScore.swift).
// 6. With --properties, the scenario generator's properties (TraceCorpus, ScenarioProperties) at
//    10,000 seeds each (--seeds N), or one (--property NAME); with --seed S, one seed described
//    (and with --trace written as a trace); with --every-failure every failing seed described, not
//    the first three. See Properties.swift. They use the default settings.
//
// --set NAME=VALUE replaces one `EstimatorSettings` field (by its property name) for every replay.
//
// Output is plain text lines, or one JSON object with --json.

// Glibc only for reading the trace files (fopen/opendir) and for libm, which the stdlib's
// `squareRoot()` shim calls in debug builds.
import Glibc
import OrientationCore
import TraceCorpus

// MARK: - Deterministic synthetic trace

/// A long mixed trace: every 4 s a new pose (drawn from a fixed list with a seeded PRNG), reached
/// by a smooth move of 0.3-1.0 s; 0.02 g noise; a 1 g shake burst every 23 s; a glitch sample
/// (zero, saturated, NaN) every 7 s.
func syntheticTrace(count: Int, rate: Double = 50, seed: UInt64 = 2024) -> [TraceSample] {
    let poses: [(turn: Double, lean: Double)] = [
        (0, 15), (90, 15), (180, 15), (-90, 15), (0, 88), (0, -88), (90, 60), (0, -50), (45, 15),
        (-90, 30), (0, 40),
    ]
    let g = 9.80665
    var random = SplitMix64(seed: seed)
    var samples: [TraceSample] = []
    samples.reserveCapacity(count)
    var from = poses[0]
    var to = poses[0]
    var moveStart = 0.0
    var moveLength = 0.5
    var nextPose = 4.0
    for index in 0..<count {
        let time = Double(index) / rate
        if time >= nextPose {
            from = to
            to = poses[Int(random.unit() * Double(poses.count))]
            moveStart = time
            moveLength = 0.3 + 0.7 * random.unit()
            nextPose += 4
        }
        var u = min(max((time - moveStart) / moveLength, 0), 1)
        u = u * u * (3 - 2 * u)
        var turn = from.turn + (to.turn - from.turn) * u
        if from.turn == 180 && to.turn == -90 { turn = 180 + 90 * u }
        let lean = from.lean + (to.lean - from.lean) * u
        var reading = gravity(angle: turn, tilt: lean, magnitude: 1) * g
        reading =
            reading
            + Vector3(
                random.gaussian(sigma: 0.2, uniforms: 4), random.gaussian(sigma: 0.2, uniforms: 4),
                random.gaussian(sigma: 0.2, uniforms: 4))
        let second = Int(time)
        if second % 23 == 20 {
            reading = reading + Vector3(g * TestMath.sinCos(degrees: 360 * 4 * time).sin, 0, 0)
        }
        if index % Int(7 * rate) == Int(3 * rate) {
            switch (index / Int(7 * rate)) % 3 {
            case 0: reading = .zero
            case 1: reading = Vector3(156.9, 156.9, 156.9)
            default: reading = Vector3(.nan, .nan, .nan)
            }
        }
        samples.append(TraceSample(time: time, reading: reading))
    }
    return samples
}

/// A smooth quarter turn the way a hand turns a tablet: `from` to `to` degrees about the screen
/// normal (smoothstep, no speed at either end) from 2 s for `duration` seconds, leaning back 15
/// degrees, with 0.5 degrees of hand tremor (9.3 and 11.1 Hz) and 0.01 g of noise; 1.5 s of rest
/// after it. The first sample is at `phase` sample periods.
func smoothTurn(from: Double, to: Double, duration: Double, rate: Double, phase: Double, seed: UInt64)
    -> [TraceSample]
{
    let g = 9.80665
    var random = SplitMix64(seed: seed)
    let phases = (0..<2).map { _ in 360 * random.unit() }
    var samples: [TraceSample] = []
    let count = Int(((3.5 + duration) * rate).rounded())
    for index in 0..<count {
        let time = (Double(index) + phase) / rate
        var u = min(max((time - 2) / duration, 0), 1)
        u = u * u * (3 - 2 * u)
        let turn = from + (to - from) * u + 0.5 * TestMath.sinCos(degrees: 360 * 9.3 * time + phases[0]).sin
        let lean = 15 + 0.5 * TestMath.sinCos(degrees: 360 * 11.1 * time + phases[1]).sin
        let noise = Vector3(
            random.gaussian(sigma: 0.01 * g, uniforms: 4), random.gaussian(sigma: 0.01 * g, uniforms: 4),
            random.gaussian(sigma: 0.01 * g, uniforms: 4))
        samples.append(TraceSample(time: time, reading: gravity(angle: turn, tilt: lean, magnitude: 1) * g + noise))
    }
    return samples
}

/// Delays of the last decision after the end of smooth quarter turns (`smoothTurn`), per rate and
/// duration: the estimator's and the per-sample judge's, over four directions and five sampling
/// phases. `wrong` counts turns whose decisions were not exactly the two orientations.
struct SmoothTurnRow {
    var rate: Double
    var duration: Double
    var delays: [Double] = []
    var judged: [Double] = []
    var wrong = 0
}

func smoothTurnRows(settings: EstimatorSettings) -> [SmoothTurnRow] {
    var rows: [SmoothTurnRow] = []
    for rate in [10.0, 25.0, 50.0] {
        for duration in [0.3, 0.45, 0.6, 2.0] {
            var row = SmoothTurnRow(rate: rate, duration: duration)
            var seed: UInt64 = 40
            for (from, to) in [(0.0, 90.0), (0.0, -90.0), (90.0, 180.0), (-90.0, 0.0)] {
                for phase in [0.0, 0.2, 0.4, 0.6, 0.8] {
                    seed += 1
                    let samples = smoothTurn(
                        from: from, to: to, duration: duration, rate: rate, phase: phase, seed: seed)
                    var decisions: [OrientationChange] = []
                    for change in Trace.replay(samples, settings: settings)
                    where change.device != decisions.last?.device {
                        decisions.append(change)
                    }
                    if decisions.count == 2 {
                        row.delays.append(decisions[1].time - 2 - duration)
                    } else {
                        row.wrong += 1
                    }
                    if let last = PerSampleJudge.replay(samples).last { row.judged.append(last.time - 2 - duration) }
                }
            }
            rows.append(row)
        }
    }
    return rows
}

// MARK: - Throughput

struct Throughput {
    var samples: Int
    var seconds: Double
    var decisions: Int
    var checksum: UInt64
    var samplesPerSecond: Double { Double(samples) / seconds }
    var nanosecondsPerSample: Double { seconds * 1e9 / Double(samples) }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// Replays `trace` through a fresh estimator and policy, up to `passes` times while the total stays
/// under `budget` seconds (so a debug build stays quick too); the fastest pass counts.
func measure(_ trace: [TraceSample], passes: Int, budget: Double = 2) -> Throughput {
    let clock = ContinuousClock()
    var best = Double.infinity
    var total = 0.0
    var decisions = 0
    var checksum: UInt64 = 0
    for _ in 0..<passes where total < budget {
        var estimator = OrientationEstimator()
        var policy = InterfaceOrientationPolicy()
        var changes = 0
        var sum: UInt64 = 0
        var last = DeviceOrientation.unknown
        let elapsed = clock.measure {
            for sample in trace {
                let device = estimator.update(sample.reading, at: sample.time)
                let interface = policy.update(device: device)
                if device != last {
                    changes += 1
                    last = device
                }
                sum = sum &* 31 &+ UInt64(device.rawValue &* 8 &+ interface.rawValue)
            }
        }
        best = min(best, seconds(elapsed))
        total += seconds(elapsed)
        decisions = changes
        checksum = sum
    }
    return Throughput(samples: trace.count, seconds: best, decisions: decisions, checksum: checksum)
}

// MARK: - Per-sample judge

/// Judges every reading alone, as iio-sensor-proxy does (facts from its orientation code: the
/// angle of gravity to the screen plane's axes, 35 degrees to switch, the previous orientation kept
/// below it; no filter, no evidence time, upright orientations only). The comparison the issue
/// asks for: it commits mid-turn, and it chatters on shaking and walking.
struct PerSampleJudge {
    /// Degrees of gravity along an in-plane axis (from the plane normal to that axis) to choose it.
    static let switchAngle = 35.0
    var orientation = DeviceOrientation.unknown

    mutating func update(_ reading: Vector3) -> DeviceOrientation {
        let magnitude = reading.magnitude
        guard reading.isFinite, magnitude > 0 else { return orientation }
        // asin(component / |a|) compared with the switch angle, as sines.
        let limit = TestMath.sinCos(degrees: Self.switchAngle).sin * magnitude
        if abs(reading.x) > limit {
            orientation = reading.x > 0 ? .landscapeRight : .landscapeLeft
        } else if abs(reading.y) > limit {
            orientation = reading.y > 0 ? .portraitUpsideDown : .portrait
        }
        return orientation
    }

    /// The judge's decisions over a trace, in the replay's change format.
    static func replay(_ samples: [TraceSample]) -> [OrientationChange] {
        var judge = PerSampleJudge()
        var changes: [OrientationChange] = []
        for sample in samples {
            let before = judge.orientation
            let device = judge.update(sample.reading)
            if device != before {
                changes.append(
                    OrientationChange(
                        time: sample.time, device: device,
                        interface: InterfaceOrientation(following: device) ?? .unknown))
            }
        }
        return changes
    }
}

// MARK: - Corpus table

struct CorpusRow {
    var name: String
    var samples: Int
    var changes: [OrientationChange]
    var expectation: ExpectedOutcome?
    var error: String?
    /// The per-sample judge's decisions on the same trace.
    var judged: [OrientationChange] = []

    /// Delay of the judge's last decision after the end of the main motion.
    var judgedDelay: Double? {
        guard let end = expectation?.end, let last = judged.last else { return nil }
        return last.time - end
    }

    /// The device decisions (changes of the device orientation), in order.
    var decisions: [OrientationChange] {
        var result: [OrientationChange] = []
        for change in changes where change.device != result.last?.device { result.append(change) }
        return result
    }

    /// Delay of the main decision (the last device decision) after the end of the main motion.
    var delay: Double? { expectation?.delay(changes) }

    var passed: Bool {
        guard error == nil, let expectation else { return false }
        return expectation.problems(changes).isEmpty
    }
}

func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    if ferror(file) != 0 { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

/// Names of the `.csv` files in `directory`, without the extension, sorted.
func traceNames(in directory: String) -> [String] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name.hasSuffix(".csv") { names.append(String(name.dropLast(4))) }
    }
    return names.sorted()
}

func corpusRows(_ directory: String, settings: EstimatorSettings) -> [CorpusRow] {
    let expectations = readFile(directory + "/expected.txt").map(ExpectedOutcome.parse) ?? []
    var names = expectations.map(\.name)
    for name in traceNames(in: directory) where !names.contains(name) { names.append(name) }
    return names.map { name in
        let expectation = expectations.first { $0.name == name }
        guard let text = readFile(directory + "/" + name + ".csv") else {
            return CorpusRow(name: name, samples: 0, changes: [], expectation: expectation, error: "cannot read")
        }
        do {
            let samples = try Trace.parse(text)
            return CorpusRow(
                name: name, samples: samples.count, changes: Trace.replay(samples, settings: settings),
                expectation: expectation, judged: PerSampleJudge.replay(samples))
        } catch {
            return CorpusRow(name: name, samples: 0, changes: [], expectation: expectation, error: "\(error)")
        }
    }
}

// MARK: - Two-sensor corpus table

/// One line of hinge/expected.txt (see the comment at its top) and its replay.
struct HingeRow {
    var outcome: HingeOutcome
    var changes: [TabletModeChange] = []
    var error: String?

    /// The tablet-mode sequence decided, starting with the initial laptop mode.
    var decided: [Bool] { HingeOutcome.decided(changes) }

    /// Time from `end` to the last tablet-mode change.
    var delay: Double? { outcome.delay(changes) }

    var passed: Bool { error == nil && outcome.problems(changes).isEmpty }
}

func hingeRows(_ directory: String) -> [HingeRow] {
    guard let manifest = readFile(directory + "/expected.txt") else { return [] }
    return HingeOutcome.parse(manifest).map { outcome in
        var row = HingeRow(outcome: outcome)
        guard let text = readFile(directory + "/" + outcome.name + ".csv") else {
            row.error = "cannot read"
            return row
        }
        do {
            row.changes = Trace.replayHinge(try Trace.parse(text), lid: outcome.lid)
        } catch {
            row.error = "\(error)"
        }
        return row
    }
}

// MARK: - Output

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func jsonString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}

let usage = """
    usage: estimator-bench [--json] [--set NAME=VALUE]... [TRACES-DIRECTORY]
           estimator-bench [--set NAME=VALUE]... --recording TRACE.csv [--labels LABELS.csv]
           estimator-bench [--json] [--set NAME=VALUE]... --recordings DIRECTORY [--recordings DIRECTORY]...
           estimator-bench --properties [--seeds N] [--property NAME] [--every-failure]
           estimator-bench --property NAME --seed S [--trace [--part-rate HZ]]
    """
func fail(_ message: String) -> Never {
    print("estimator-bench: \(message)\n\(usage)")
    exit(2)
}
var json = false
var directory: String?
var recordingPath: String?
var labelsPath: String?
var recordingDirectories: [String] = []
var settings = EstimatorSettings()
var properties = false
var propertySeeds: UInt64 = 10_000
var propertyName: String?
var propertySeed: UInt64?
var propertyTrace = false
var partRate: Double?
var everyFailure = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json": json = true
    case "--properties": properties = true
    case "--trace": propertyTrace = true
    case "--every-failure": everyFailure = true
    case "--seeds", "--seed", "--property":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
        if argument == "--property" {
            propertyName = value
        } else {
            guard let number = UInt64(value), number > 0 else {
                fail("\(argument) \(value): expected a positive number")
            }
            if argument == "--seeds" { propertySeeds = number } else { propertySeed = number }
        }
    case "-h", "--help":
        print(usage)
        exit(0)
    case "--part-rate":
        guard let value = arguments.popFirst(), let rate = Double(value), rate > 0 else {
            fail("--part-rate needs a rate in Hz")
        }
        partRate = rate
    case "--set", "--recording", "--labels", "--recordings":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
        if argument == "--recordings" {
            recordingDirectories.append(value)
        } else if argument == "--recording" {
            recordingPath = value
        } else if argument == "--labels" {
            labelsPath = value
        } else {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let field = EstimatorSettings.field(named: parts[0]),
                let number = Double(parts[1]), field.range.contains(number)
            else { fail("--set \(value): expected NAME=VALUE with a known setting in its range") }
            settings[field] = number
        }
    default:
        if argument.hasPrefix("-") { fail("unknown option \(argument)") }
        directory = argument
    }
}

if properties || propertySeed != nil {
    exit(
        runProperties(
            seeds: propertySeeds, only: propertyName, seed: propertySeed, trace: propertyTrace, partRate: partRate,
            every: everyFailure)
            ? 0 : 1)
}

if let recordingPath {
    exit(reportRecording(recordingPath, labels: labelsPath, settings: settings) ? 0 : 1)
}
if !recordingDirectories.isEmpty {
    exit(reportRecordings(recordingDirectories, settings: settings, json: json) ? 0 : 1)
}

let trace = syntheticTrace(count: 500_000)
let throughput = measure(trace, passes: 5)
let rows = directory.map { corpusRows($0, settings: settings) } ?? []
let hinge = directory.map { hingeRows($0 + "/hinge") } ?? []
let failed = rows.filter { !$0.passed }.count + hinge.filter { !$0.passed }.count

if json {
    var out = "{\"throughput\":{"
    out += "\"samples\":\(throughput.samples),\"seconds\":\(fixed(throughput.seconds, 6)),"
    out += "\"samplesPerSecond\":\(fixed(throughput.samplesPerSecond, 0)),"
    out += "\"nanosecondsPerSample\":\(fixed(throughput.nanosecondsPerSample, 1)),"
    out += "\"decisions\":\(throughput.decisions),\"checksum\":\(throughput.checksum)}"
    if directory != nil {
        out += ",\"traces\":["
        out += rows.map { row in
            var item = "{\"name\":\(jsonString(row.name)),\"samples\":\(row.samples),\"decisions\":["
            item += row.decisions.map {
                "{\"t\":\(fixed($0.time, 4)),\"device\":\(jsonString($0.device.name)),"
                    + "\"interface\":\(jsonString($0.interface.name))}"
            }.joined(separator: ",")
            item += "],\"expected\":"
            item +=
                row.expectation.map { "[" + $0.devices.map { jsonString($0.name) }.joined(separator: ",") + "]" }
                ?? "null"
            item += ",\"delay\":\(row.delay.map { fixed($0, 4) } ?? "null")"
            item += ",\"maxDelay\":\(row.expectation?.maxDelay.map { fixed($0, 4) } ?? "null")"
            item += ",\"judge\":{\"decisions\":\(row.judged.count)"
            item += ",\"delay\":\(row.judgedDelay.map { fixed($0, 4) } ?? "null")}"
            item += ",\"ok\":\(row.passed)"
            if let error = row.error { item += ",\"error\":\(jsonString(error))" }
            return item + "}"
        }.joined(separator: ",")
        out += "],\"hingeTraces\":["
        out += hinge.map { row in
            "{\"name\":\(jsonString(row.outcome.name)),\"lid\":\(jsonString(row.outcome.lid.rawValue)),"
                + "\"expected\":\(jsonString(HingeOutcome.text(row.outcome.modes))),"
                + "\"decided\":\(jsonString(HingeOutcome.text(row.decided))),"
                + "\"state\":\(jsonString(row.changes.last?.state.name ?? "unknown")),"
                + "\"delay\":\(row.delay.map { fixed($0, 4) } ?? "null"),\"ok\":\(row.passed)}"
        }.joined(separator: ",")
        out += "],\"failed\":\(failed)"
    }
    print(out + "}")
} else {
    print("estimator throughput: \(throughput.samples) samples in \(fixed(throughput.seconds * 1000, 1)) ms")
    print(
        "  \(fixed(throughput.samplesPerSecond / 1e6, 2)) million samples/s, "
            + "\(fixed(throughput.nanosecondsPerSample, 1)) ns/sample "
            + "(\(throughput.decisions) decisions, checksum \(throughput.checksum))")
    // The settings given beside the same without the mid-turn commit.
    var filterOnly = settings
    filterOnly.midTurnSlowdown = 0
    print("")
    print("smooth quarter turns (0.5 deg tremor, 0.01 g noise; delay after the turn ends, s; 20 turns each):")
    print(
        padded("rate", 6) + padded("turn", 6) + padded("median", 8) + padded("worst", 8) + padded("wrong", 6)
            + padded("no mid-turn commit", 24) + "judge median/worst")
    for (row, slow) in zip(smoothTurnRows(settings: settings), smoothTurnRows(settings: filterOnly)) {
        print(
            padded(fixed(row.rate, 0), 6) + padded(fixed(row.duration, 2), 6) + padded(fixed(median(row.delays), 3), 8)
                + padded(fixed(row.delays.max() ?? .nan, 3), 8) + padded(String(row.wrong), 6)
                + padded(
                    fixed(median(slow.delays), 3) + "/" + fixed(slow.delays.max() ?? .nan, 3) + " wrong "
                        + String(slow.wrong), 24)
                + fixed(median(row.judged), 3) + "/" + fixed(row.judged.max() ?? .nan, 3))
    }
    if directory != nil {
        print("")
        print(
            padded("trace", 22) + padded("samples", 8) + padded("delay", 8) + padded("result", 7)
                + padded("judge", 14) + "decisions (t device)")
        for row in rows {
            let decisions =
                row.error ?? row.decisions.map { "\(fixed($0.time, 2)) \($0.device.name)" }.joined(separator: ", ")
            let delay = row.delay.map { fixed($0, 3) } ?? "-"
            let result = row.expectation == nil ? "?" : row.passed ? "ok" : "FAIL"
            // The judge: its number of decisions and its delay.
            let judge = "\(row.judged.count)/" + (row.judgedDelay.map { fixed($0, 3) } ?? "-")
            print(
                padded(row.name, 22) + padded(String(row.samples), 8) + padded(delay, 8) + padded(result, 7)
                    + padded(judge, 14) + decisions)
        }
        let failedRows = rows.filter { !$0.passed }.count
        print("\(rows.count - failedRows) of \(rows.count) traces met their expected outcome")
        print("(judge: decisions/delay of a per-sample judge like iio-sensor-proxy's, on the same trace)")
        if !hinge.isEmpty {
            print("")
            print(
                padded("two-sensor trace", 24) + padded("lid", 7) + padded("expected", 22) + padded("decided", 22)
                    + padded("state", 9) + padded("delay", 8) + "result")
            for row in hinge {
                print(
                    padded(row.outcome.name, 24) + padded(row.outcome.lid.rawValue, 7)
                        + padded(HingeOutcome.text(row.outcome.modes), 22)
                        + padded(row.error ?? HingeOutcome.text(row.decided), 22)
                        + padded(row.changes.last?.state.name ?? "-", 9)
                        + padded(row.delay.map { fixed($0, 3) } ?? "-", 8)
                        + (row.passed ? "ok" : "FAIL"))
            }
            let failedHinge = hinge.filter { !$0.passed }.count
            print("\(hinge.count - failedHinge) of \(hinge.count) two-sensor traces met their expected outcome")
        }
    }
}
exit(failed == 0 ? 0 : 1)

// MARK: - Whole recordings

/// Replays the recording at `path` and prints its decisions, and with `labels` the figures per
/// labelled activity and transition (see the header). Returns false when a device that does not
/// turn changed, or a flap occurred, or a file cannot be read.
func reportRecording(_ path: String, labels: String?, settings: EstimatorSettings) -> Bool {
    // A change undone within this many seconds is a flap.
    let flapWindow = 2.0
    guard let text = readFile(path) else {
        print("estimator-bench: cannot read \(path)")
        return false
    }
    let samples: [TraceSample]
    do { samples = try Trace.parse(text) } catch {
        print("estimator-bench: \(path): \(error)")
        return false
    }
    var decisions: [OrientationChange] = []
    for change in Trace.replay(samples, settings: settings) where change.device != decisions.last?.device {
        decisions.append(change)
    }
    print("recording \(path): \(samples.count) samples, \(decisions.count) decisions")
    print("  " + decisions.map { "\(fixed($0.time, 2)) \($0.device.name)" }.joined(separator: ", "))
    var flaps = 0
    for index in decisions.indices.dropFirst(2) {
        let (a, b, c) = (decisions[index - 2], decisions[index - 1], decisions[index])
        if a.device == c.device && c.time - b.time < flapWindow {
            flaps += 1
            print("  flap: \(fixed(b.time, 2)) \(b.device.name) undone at \(fixed(c.time, 2))")
        }
    }
    print("  flaps (a change undone within \(fixed(flapWindow, 1)) s): \(flaps)")
    guard let labels else { return flaps == 0 }
    guard let labelText = readFile(labels) else {
        print("estimator-bench: cannot read \(labels)")
        return false
    }
    var spurious = 0
    let labelEnds = labelText.split(separator: "\n").dropFirst().compactMap { line in
        line.split(separator: ",").dropFirst().first.flatMap { Double($0) }
    }
    print("")
    print(
        padded("activity", 20) + padded("from", 9) + padded("to", 9) + padded("changes", 8)
            + "first decision after it began")
    for line in labelText.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: ",").map(String.init)
        guard fields.count == 4, let start = Double(fields[0]), let end = Double(fields[1]),
            let code = Int(fields[2])
        else { continue }
        let inside = decisions.filter { $0.time >= start && $0.time < end }
        // Codes 1-5 (walking, stairs, sitting, standing): the device on the waist does not turn.
        let still = (1...5).contains(code)
        if still { spurious += inside.count }
        var note = ""
        // Codes 7-12: postural transitions; the first decision from their start until the next
        // labelled stretch ends, timed from their end (negative: before it ended). Sitting and
        // standing hold the phone alike: those transitions may change nothing.
        if (7...12).contains(code) {
            let horizon = labelEnds.first { $0 > end } ?? .infinity
            if let first = decisions.first(where: { $0.time >= start && $0.time < horizon }) {
                note = "\(fixed(first.time, 2)) \(first.device.name), \(fixed(first.time - end, 2)) s after its end"
            } else {
                note = "no change"
            }
        }
        print(
            padded(fields[3], 20) + padded(fixed(start, 2), 9) + padded(fixed(end, 2), 9)
                + padded(String(inside.count) + (still && !inside.isEmpty ? "!" : ""), 8) + note)
    }
    print("changes inside walking/stairs/sitting/standing: \(spurious); flaps: \(flaps)")
    return spurious == 0 && flaps == 0
}
