// estimator-bench --recordings DIRECTORY: every real recording in a folder scored at once.
//
// Each `NAME.csv` in the folder (a trace, `t,x,y,z`) is replayed, with `NAME.labels.csv` beside it
// when there is one (`start,end,label,name` rows). Per recording and in total it counts, for the
// estimator and for the per-sample judge (`PerSampleJudge`, the iio-sensor-proxy baseline):
//
// - decisions: device orientation changes, the first one (from unknown) included (with --json,
//   also the estimator's decisions themselves);
// - spurious: decisions inside a stretch labelled steady (see `RecordingLabel.isSteady`), but
//   the first decision of the recording and the decision answering a transition (below);
// - flaps: a decision undone within `flapWindow` seconds (A, B, A with B shorter than the window);
// - flips: a decision straight to the opposite orientation (portrait and upside down, the two
//   landscapes, face up and face down); also counted per arm-motion set (a stretch labelled 13,
//   such as one set of shoulder exercises): the sets, the flips inside them, the sets with one
//   and the most in one set;
// - delays after labelled postural transitions (codes 7-12): the first decision from the
//   transition's start until the next labelled activity ends (consecutive stretches with the same
//   code are one activity), timed from the transition's end
//   (negative: before it ended); a transition with no decision in that span counts as quiet. That
//   decision answers the transition: a late one is slow, not spurious.
//
// The exit status is 1 when a folder or a recording cannot be read; the counts are figures, not a
// verdict.

import OrientationCore
import TraceCorpus

/// A labelled stretch of a recording.
struct RecordingLabel {
    var start: Double
    var end: Double
    var code: Int
    var name: String

    /// HAPT's codes (Tests/recordings/README.md) and three more for the recordings collected
    /// since: 13 swinging arm, 14 jogging, 15 riding in a vehicle with the device mounted.
    /// Steady: walking, stairs, sitting, standing (1-5), jogging and a mounted ride, during which
    /// the device does not turn against the body or the vehicle holding it.
    var isSteady: Bool { (1...5).contains(code) || code == 14 || code == 15 }
    /// Postural transitions (stand-to-sit ... lie-to-stand).
    var isTransition: Bool { (7...12).contains(code) }
    /// Arm motion (13): a swinging arm, or one set of arm exercises with the device on the wrist.
    var isArmMotion: Bool { code == 13 }

    /// The rows of a labels file after its header; rows that do not parse are skipped.
    static func parse(_ text: String) -> [RecordingLabel] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 4, let start = Double(fields[0]), let end = Double(fields[1]),
                let code = Int(fields[2])
            else { return nil }
            return RecordingLabel(start: start, end: end, code: code, name: fields[3])
        }
    }
}

/// The counts of one decider (the estimator or the judge) on one or more recordings.
struct DecisionScore {
    var decisions = 0
    var spurious = 0
    var flaps = 0
    var flips = 0
    /// Arm-motion stretches (sets), and the flips inside each, in label order.
    var setFlips: [Int] = []
    var transitions = 0
    var quiet = 0
    var delays: [Double] = []

    /// Scores the device decisions (one per change, in time order) against `labels`.
    init(decisions: [OrientationChange], labels: [RecordingLabel], flapWindow: Double) {
        self.decisions = decisions.count
        // The decision answering each transition, by index: timed as its delay, not spurious.
        var answers: Set<Int> = []
        for label in labels where label.isTransition {
            transitions += 1
            let horizon = Self.horizon(after: label, in: labels)
            if let first = decisions.firstIndex(where: { $0.time >= label.start && $0.time < horizon }) {
                answers.insert(first)
                delays.append(decisions[first].time - label.end)
            } else {
                quiet += 1
            }
        }
        for label in labels where label.isSteady {
            spurious +=
                decisions.indices.dropFirst().filter {
                    !answers.contains($0) && decisions[$0].time >= label.start && decisions[$0].time < label.end
                }.count
        }
        // A decision straight to the opposite of the one before it.
        let flipped = decisions.indices.dropFirst().filter {
            decisions[$0].device == decisions[$0 - 1].device.opposite
        }
        flips = flipped.count
        setFlips = labels.filter(\.isArmMotion).map { set in
            flipped.filter { decisions[$0].time >= set.start && decisions[$0].time < set.end }.count
        }
        for index in decisions.indices.dropFirst(2) {
            let (before, after) = (decisions[index - 1], decisions[index])
            if decisions[index - 2].device == after.device, after.time - before.time < flapWindow {
                flaps += 1
            }
        }
    }

    init() {}

    /// The end of the labelled activity after `transition`: of the next stretch, joined with those
    /// that follow it with the same code (walking, turning, walking: one activity).
    static func horizon(after transition: RecordingLabel, in labels: [RecordingLabel]) -> Double {
        let after = labels.filter { $0.start >= transition.end - 1e-9 }.sorted { $0.start < $1.start }
        guard let next = after.first else { return .infinity }
        var horizon = next.end
        for label in after.dropFirst() {
            guard label.code == next.code, label.start <= horizon + 1e-9 else { break }
            horizon = label.end
        }
        return horizon
    }

    static func + (lhs: DecisionScore, rhs: DecisionScore) -> DecisionScore {
        var sum = lhs
        sum.decisions += rhs.decisions
        sum.spurious += rhs.spurious
        sum.flaps += rhs.flaps
        sum.flips += rhs.flips
        sum.setFlips += rhs.setFlips
        sum.transitions += rhs.transitions
        sum.quiet += rhs.quiet
        sum.delays += rhs.delays
        return sum
    }

    /// Arm-motion sets: "flips in them/sets, sets with a flip, most in one set", or "-" with none.
    var setText: String {
        setFlips.isEmpty
            ? "-"
            : "\(setFlips.reduce(0, +))/\(setFlips.count) \(setFlips.filter { $0 > 0 }.count) \(setFlips.max() ?? 0)"
    }

    var delayText: String {
        delays.isEmpty ? "-" : fixed(median(delays), 2) + "/" + fixed(delays.max() ?? .nan, 2)
    }

    var json: String {
        "{\"decisions\":\(decisions),\"spurious\":\(spurious),\"flaps\":\(flaps),\"flips\":\(flips),"
            + "\"sets\":\(setFlips.count),\"setFlips\":\(setFlips.reduce(0, +)),"
            + "\"setsWithFlips\":\(setFlips.filter { $0 > 0 }.count),\"mostSetFlips\":\(setFlips.max() ?? 0),"
            + "\"transitions\":\(transitions),\"quiet\":\(quiet),"
            + "\"delayMedian\":\(delays.isEmpty ? "null" : fixed(median(delays), 4)),"
            + "\"delayWorst\":\(delays.max().map { fixed($0, 4) } ?? "null")}"
    }
}

/// One recording of a folder, replayed and scored.
struct RecordingScore {
    var name: String
    var samples = 0
    var seconds = 0.0
    var labelled = false
    var estimator = DecisionScore()
    var judge = DecisionScore()
    /// The estimator's device decisions.
    var decisions: [OrientationChange] = []
    var error: String?

    /// A change undone within this many seconds is a flap (as for --recording).
    static let flapWindow = 2.0

    init(directory: String, name: String, settings: EstimatorSettings) {
        self.name = name
        guard let text = readFile(directory + "/" + name + ".csv") else {
            error = "cannot read"
            return
        }
        let trace: [TraceSample]
        do { trace = try Trace.parse(text) } catch {
            self.error = "\(error)"
            return
        }
        samples = trace.count
        seconds = (trace.last?.time ?? 0) - (trace.first?.time ?? 0)
        let labelText = readFile(directory + "/" + name + ".labels.csv")
        labelled = labelText != nil
        let labels = labelText.map(RecordingLabel.parse) ?? []
        for change in Trace.replay(trace, settings: settings) where change.device != decisions.last?.device {
            decisions.append(change)
        }
        estimator = DecisionScore(decisions: decisions, labels: labels, flapWindow: Self.flapWindow)
        judge = DecisionScore(
            decisions: PerSampleJudge.replay(trace), labels: labels, flapWindow: Self.flapWindow)
    }
}

/// Scores every recording in `directories` and prints one table (or JSON); false when a folder
/// or a recording cannot be read.
func reportRecordings(_ directories: [String], settings: EstimatorSettings, json: Bool) -> Bool {
    var rows: [(directory: String, score: RecordingScore)] = []
    var unreadable: [String] = []
    for directory in directories {
        let names = traceNames(in: directory).filter { !$0.hasSuffix(".labels") }
        if names.isEmpty { unreadable.append(directory) }
        for name in names {
            rows.append((directory, RecordingScore(directory: directory, name: name, settings: settings)))
        }
    }
    let scored = rows.map(\.score).filter { $0.error == nil }
    let total = (
        estimator: scored.map(\.estimator).reduce(DecisionScore(), +),
        judge: scored.map(\.judge).reduce(DecisionScore(), +)
    )
    let failed = unreadable.count + rows.filter { $0.score.error != nil }.count
    if json {
        var out = "{\"recordings\":["
        out += rows.map { directory, row in
            var item = "{\"directory\":\(jsonString(directory)),\"name\":\(jsonString(row.name)),"
            item += "\"samples\":\(row.samples),\"seconds\":\(fixed(row.seconds, 3)),\"labelled\":\(row.labelled)"
            if let error = row.error { return item + ",\"error\":\(jsonString(error))}" }
            item += ",\"estimator\":\(row.estimator.json),\"judge\":\(row.judge.json),\"decisions\":["
            item += row.decisions.map { "{\"t\":\(fixed($0.time, 4)),\"device\":\(jsonString($0.device.name))}" }
                .joined(separator: ",")
            return item + "]}"
        }.joined(separator: ",")
        out += "],\"total\":{\"recordings\":\(scored.count),"
        out += "\"seconds\":\(fixed(scored.map(\.seconds).reduce(0, +), 3)),"
        out += "\"estimator\":\(total.estimator.json),\"judge\":\(total.judge.json)}"
        out += ",\"unreadable\":[" + unreadable.map(jsonString).joined(separator: ",") + "],\"failed\":\(failed)}"
        print(out)
        return failed == 0
    }
    for directory in unreadable { print("estimator-bench: no recordings in \(directory)") }
    if rows.isEmpty { return false }
    print("recordings (decisions, spurious changes in steady labels, flaps within 2 s, direct 180-degree flips,")
    print("transitions with a change / all, delay after them median/worst s; arm-motion sets: flips in them/sets,")
    print("sets with a flip, most in one set); judge: the per-sample judge")
    let header =
        padded("recording", 44) + padded("time s", 8) + padded("dec", 5) + padded("spur", 5) + padded("flap", 5)
        + padded("flip", 5) + padded("trans", 6) + padded("delay", 12) + padded("sets", 11)
        + "judge dec/spur/flap/flip delay sets"
    func line(_ name: String, _ seconds: Double, _ estimator: DecisionScore, _ judge: DecisionScore) -> String {
        padded(name, 44) + padded(fixed(seconds, 0), 8) + padded(String(estimator.decisions), 5)
            + padded(String(estimator.spurious), 5) + padded(String(estimator.flaps), 5)
            + padded(String(estimator.flips), 5)
            + padded("\(estimator.transitions - estimator.quiet)/\(estimator.transitions)", 6)
            + padded(estimator.delayText, 12) + padded(estimator.setText, 11)
            + "\(judge.decisions)/\(judge.spurious)/\(judge.flaps)/\(judge.flips) \(judge.delayText)"
            + (judge.setFlips.isEmpty ? "" : " " + judge.setText)
    }
    var shown: String?
    for (directory, row) in rows {
        if directory != shown {
            print("")
            print(directory + ":")
            print(header)
            shown = directory
        }
        if let error = row.error {
            print(padded(row.name, 44) + error)
        } else {
            print(line(row.name + (row.labelled ? "" : " (no labels)"), row.seconds, row.estimator, row.judge))
        }
    }
    print("")
    print(line("total (\(scored.count) recordings)", scored.map(\.seconds).reduce(0, +), total.estimator, total.judge))
    return failed == 0
}
