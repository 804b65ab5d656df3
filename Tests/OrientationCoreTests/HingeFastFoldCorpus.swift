import Foundation
import OrientationCore
import Testing

/// The one-step folds and 0/360 band cases of the two-sensor corpus (`Tests/traces/hinge`,
/// outcomes in its `expected.txt`, replayed by `HingeCorpusTests`): recipes sampled the way
/// the daemon samples the hinge, once a second while still and every 0.1 s from the first
/// reading after a fold (`[Sampling] HingeIntervalMsec=`, `HingeMovingIntervalMsec=`). To
/// regenerate after changing a recipe:
///
///     MOTION_ORIENTATION_WRITE_TRACES=1 swift test --filter HingeFastFoldCorpusTests
enum HingeFastFoldCorpus {
    struct Entry: Sendable {
        var name: String
        var summary: String
        var recipe: HingeTraceGenerator
        /// The times of the folds: the readings are 1 s apart before the first, and 0.1 s apart
        /// from the first reading after each fold for 5 s (the motion linger).
        var folds: [Double]
    }

    /// A pose held until `time`, then `to` from the next reading on (a step between readings).
    static func step(_ from: HingePose, _ to: HingePose, at time: Double) -> [(Double, HingePose)] {
        [(time, from), (time + 0.0001, to)]
    }

    static let entries: [Entry] = [
        Entry(
            name: "one-step-110-330",
            summary: "laptop at 110 folded to 330 between two readings at 3.05 s (read 0.8 and closed before)",
            recipe: HingeTraceGenerator(
                duration: 9, motion: HingeMotion(step(HingePose(angle: 110), HingePose(angle: 330), at: 3.05)),
                seed: 201),
            folds: [3.05]),
        Entry(
            name: "one-step-30-300",
            summary: "nearly closed at 30 folded to 300 between two readings at 3.05 s, keyboard tilted 20 forward",
            recipe: HingeTraceGenerator(
                duration: 9,
                motion: HingeMotion(
                    step(HingePose(angle: 30, forward: 20), HingePose(angle: 300, forward: 20), at: 3.05)),
                seed: 202),
            folds: [3.05]),
        Entry(
            name: "one-step-330-110",
            summary: "tent at 330 opened back to a laptop at 110 between two readings at 3.05 s",
            recipe: HingeTraceGenerator(
                duration: 9,
                motion: HingeMotion(
                    step(HingePose(angle: 330, forward: 60), HingePose(angle: 110, forward: 60), at: 3.05)),
                seed: 203),
            folds: [3.05]),
        Entry(
            name: "one-step-across-180-tilted",
            summary: "laptop at 120 to 250 between two readings at 3.05 s, the base tilted 35 sideways and 25 forward",
            recipe: HingeTraceGenerator(
                duration: 9,
                motion: HingeMotion(
                    step(
                        HingePose(angle: 120, sideways: 35, forward: 25),
                        HingePose(angle: 250, sideways: 35, forward: 25),
                        at: 3.05)),
                seed: 204),
            folds: [3.05]),
        Entry(
            name: "one-step-into-band-lid-open",
            summary: "laptop at 110 folded flat to 355 between two readings at 3.05 s, the lid switch open: folded",
            recipe: HingeTraceGenerator(
                duration: 9,
                motion: HingeMotion(
                    step(HingePose(angle: 110, forward: 180), HingePose(angle: 355, forward: 180), at: 3.05)),
                seed: 205),
            folds: [3.05]),
        Entry(
            name: "band-guess-corrected-no-lid",
            summary: "no lid switch: 110 to 355 at 3.05 s (guessed closed, the nearer side), to 300 at 6.05 s",
            recipe: HingeTraceGenerator(
                duration: 10,
                motion: HingeMotion(
                    step(HingePose(angle: 110), HingePose(angle: 355), at: 3.05)
                        + step(HingePose(angle: 355), HingePose(angle: 300), at: 6.05)), seed: 206),
            folds: [3.05, 6.05]),
        Entry(
            name: "band-guess-corrected-lid-open",
            summary: "ajar at 8 from the start, lid switch open: taken as folded after 2 s; opened to 100 (4-5 s)",
            recipe: HingeTraceGenerator(
                duration: 8, motion: HingeMotion([(4, HingePose(angle: 8)), (5, HingePose(angle: 100))]), seed: 207),
            folds: [4]),
    ]

    /// The readings the daemon would take: every 1 s while still, every 0.1 s for 5 s from the
    /// first reading after each fold.
    static func samples(_ entry: Entry) -> [TraceSample] {
        let all = entry.recipe.samples()
        let rate = entry.recipe.rate
        var fastFrom: [Double] = []
        for fold in entry.folds {
            if let first = all.first(where: { $0.time > fold && Int(($0.time * rate).rounded()) % Int(rate) == 0 }) {
                fastFrom.append(first.time)
            }
        }
        return all.filter { sample in
            if Int((sample.time * rate).rounded()) % Int(rate) == 0 { return true }
            return fastFrom.contains { sample.time >= $0 && sample.time < $0 + 5 }
        }
    }

    static func fileText(_ entry: Entry) -> String {
        var text = "# \(entry.name): \(entry.summary)\n"
        text += "# synthetic, generated from Tests/OrientationCoreTests/HingeFastFoldCorpus.swift (seed "
        text += "\(entry.recipe.seed), 1 Hz still, 10 Hz from a fold); expected outcome in expected.txt\n"
        return text + Trace.format(samples(entry))
    }
}

@Suite("Two-sensor trace corpus: one-step folds")
struct HingeFastFoldCorpusTests {
    @Test(.enabled(if: CorpusTests.writing)) func writeCorpus() throws {
        for entry in HingeFastFoldCorpus.entries {
            try HingeFastFoldCorpus.fileText(entry).write(
                toFile: HingeCorpus.directory + "/\(entry.name).csv", atomically: true, encoding: .utf8)
        }
    }

    @Test(.disabled(if: CorpusTests.writing), arguments: HingeFastFoldCorpus.entries.map(\.name))
    func fileMatchesItsRecipe(name: String) throws {
        let entry = try #require(HingeFastFoldCorpus.entries.first { $0.name == name })
        let text = try String(contentsOfFile: HingeCorpus.directory + "/\(name).csv", encoding: .utf8)
        #expect(text == HingeFastFoldCorpus.fileText(entry), "regenerate: see HingeFastFoldCorpus.swift")
        #expect(HingeCorpus.manifest.contains { $0.name == name }, "\(name) needs a line in expected.txt")
    }
}
