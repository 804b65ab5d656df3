import Foundation
import OrientationCore
import Testing

/// The counterexamples of the scenario generator kept as named traces (`Tests/traces/generated`):
/// each file is its scenario regenerated bit for bit, and gives its expected outcome. The ones the
/// estimators do not meet yet are known issues naming who fixes them; the wrapper goes when the
/// fix merges.
@Suite("Generated counterexample traces")
struct GeneratedTraceTests {
    static let directory = CorpusFiles.directory + "/generated"

    static let manifest: [ExpectedOutcome] =
        (try? String(contentsOfFile: directory + "/expected.txt", encoding: .utf8)).map(ExpectedOutcome.parse) ?? []

    static let hingeManifest: [HingeOutcome] =
        (try? String(contentsOfFile: directory + "/hinge/expected.txt", encoding: .utf8)).map(HingeOutcome.parse) ?? []

    /// Traces the current estimators fail, and who fixes them.
    static let knownFailing: [String: String] = [:]

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: directory + "/" + path, encoding: .utf8)
    }

    @Test func manifestsListEveryFile() throws {
        for (folder, names) in [("", Self.manifest.map(\.name)), ("/hinge", Self.hingeManifest.map(\.name))] {
            let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory + folder)
                .filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }
            #expect(Set(names) == Set(files), "\(folder)")
            #expect(Set(names).count == names.count)
        }
        #expect(Self.manifest.count >= 3 && Self.hingeManifest.count >= 2)
    }

    /// Every file is its scenario: the first line's property, seed, intensity and part rate (when
    /// it names one) give it again.
    @Test(arguments: manifest.map(\.name) + hingeManifest.map { "hinge/" + $0.name })
    func fileIsItsScenario(path: String) throws {
        let text = try Self.read(path + ".csv")
        let words = text.prefix { $0 != "\n" }.split(separator: " ").map { $0.trimmingCharacters(in: [","]) }
        try #require(words.count >= 6 && words[2] == "seed" && words[4] == "intensity")
        let seed = try #require(UInt64(words[3]))
        let intensity = try #require(Double(words[5]))
        let partRate = words.count >= 8 && words[6] == "part-rate" ? Double(words[7]) : nil
        #expect(
            ScenarioTraces.text(property: words[1], seed: seed, intensity: intensity, partRate: partRate) == text)
    }

    @Test(arguments: manifest)
    func traceGivesItsExpectedOutcome(outcome: ExpectedOutcome) throws {
        let changes = Trace.replay(try Trace.parse(Self.read(outcome.name + ".csv")))
        let check = { #expect(outcome.problems(changes).isEmpty, "\(outcome.problems(changes)) \(changes)") }
        if let owner = Self.knownFailing[outcome.name] {
            withKnownIssue("\(outcome.name): fixed by \(owner)", check)
        } else {
            check()
        }
    }

    @Test(arguments: hingeManifest)
    func hingeTraceGivesItsExpectedOutcome(outcome: HingeOutcome) throws {
        let changes = Trace.replayHinge(try Trace.parse(Self.read("hinge/" + outcome.name + ".csv")), lid: outcome.lid)
        let check = { #expect(outcome.problems(changes).isEmpty, "\(outcome.problems(changes)) \(changes)") }
        if let owner = Self.knownFailing[outcome.name] {
            withKnownIssue("\(outcome.name): fixed by \(owner)", check)
        } else {
            check()
        }
    }
}
