import Foundation
import OrientationCore
import Testing

enum CorpusFiles {
    /// `Tests/traces`, found from this source file (tests run in the source tree).
    static let directory: String = {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/traces"
    }()

    static func read(_ name: String) throws -> String {
        try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    /// The manifest lines.
    static let manifest: [ExpectedOutcome] = (try? read("expected.txt")).map(ExpectedOutcome.parse) ?? []

    static func outcome(_ name: String) -> ExpectedOutcome? { manifest.first { $0.name == name } }
}

/// Replays of the trace corpus (`Tests/traces`) against its manifest.
@Suite("Trace corpus")
struct CorpusTests {
    static let writing = ProcessInfo.processInfo.environment["MOTION_ORIENTATION_WRITE_TRACES"] == "1"

    /// Regenerates the corpus files from `Corpus.entries` (only with
    /// MOTION_ORIENTATION_WRITE_TRACES=1 in the environment).
    @Test(.enabled(if: CorpusTests.writing)) func writeCorpus() throws {
        for entry in Corpus.entries {
            try Corpus.fileText(entry).write(
                toFile: CorpusFiles.directory + "/\(entry.name).csv", atomically: true, encoding: .utf8)
        }
    }

    @Test func manifestListsEveryFileAndRecipe() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: CorpusFiles.directory)
            .filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }
        let names = CorpusFiles.manifest.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Set(names) == Set(files))
        #expect(Set(Corpus.entries.map(\.name)).isSubset(of: Set(names)))
        #expect(names.count >= 17)
        for outcome in CorpusFiles.manifest {
            #expect(!outcome.devices.isEmpty && !outcome.devices.contains(.unknown), "\(outcome.name)")
            #expect((outcome.end == nil) == (outcome.maxDelay == nil), "\(outcome.name)")
        }
    }

    @Test(.disabled(if: CorpusTests.writing), arguments: Corpus.entries.map(\.name))
    func fileMatchesItsRecipe(name: String) throws {
        let entry = try #require(Corpus.entries.first { $0.name == name })
        let text = try CorpusFiles.read(name + ".csv")
        #expect(text == Corpus.fileText(entry), "regenerate: see Corpus.swift")
        #expect(text.utf8.count < 100_000)
    }

    @Test(arguments: CorpusFiles.manifest)
    func traceGivesItsExpectedOutcome(outcome: ExpectedOutcome) throws {
        let samples = try Trace.parse(CorpusFiles.read(outcome.name + ".csv"))
        let changes = Trace.replay(samples)
        #expect(outcome.problems(changes).isEmpty, "\(outcome.problems(changes)) \(changes)")
        // Bit-for-bit deterministic.
        #expect(Trace.replay(samples) == changes)
    }

    /// The recipes replayed in memory (the glitch recipe with its real NaN samples) and resampled
    /// at the daemon's 10 Hz and at 25 and 50 Hz, each from two sampling phases: the same outcome,
    /// the delay bound widened by one sample period.
    @Test(arguments: Corpus.entries.map(\.name))
    func recipeGivesItsOutcomeAtEveryRate(name: String) throws {
        let entry = try #require(Corpus.entries.first { $0.name == name })
        let outcome = try #require(CorpusFiles.outcome(name))
        for rate in [10.0, 25.0, 50.0] {
            for phase in [0.0, 0.5] {
                var recipe = entry.recipe
                recipe.rate = rate
                recipe.start = phase / rate
                let changes = Trace.replay(recipe.samples())
                let problems = outcome.problems(changes, slack: 1 / rate)
                #expect(problems.isEmpty, "\(rate) Hz, phase \(phase): \(problems) \(changes)")
            }
        }
    }
}
