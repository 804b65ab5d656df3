import Foundation
import OrientationCore
import Testing

/// The whole real recordings in `Tests/recordings` (see its README for provenance and labels).
@Suite("Real recordings")
struct RecordingTests {
    /// One labelled stretch of a recording.
    struct Label {
        var start: Double
        var end: Double
        var code: Int
        var name: String
    }

    static let directory: String = {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/recordings"
    }()

    static func labels(_ name: String) throws -> [Label] {
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count == 4, let start = Double(fields[0]), let end = Double(fields[1]),
                let code = Int(fields[2])
            else { return nil }
            return Label(start: start, end: end, code: code, name: String(fields[3]))
        }
    }

    @Test func waistWornPhoneMakesNoChangeWhileWalkingSittingOrStandingAndNoFlap() throws {
        let samples = try Trace.parse(String(contentsOfFile: Self.directory + "/hapt_u01_e0.csv", encoding: .utf8))
        let labels = try Self.labels("hapt_u01_e0.labels.csv")
        #expect(samples.count > 20_000 && labels.count > 30)
        let decisions = deviceDecisions(samples)
        // Codes 1-5: walking, stairs, sitting, standing; the phone on the waist does not turn.
        for label in labels where (1...5).contains(label.code) {
            let inside = decisions.filter { $0.time >= label.start && $0.time < label.end }
            #expect(inside.isEmpty, "\(label.name) \(label.start)-\(label.end): \(inside)")
        }
        // No change undone within 2 s.
        for index in decisions.indices.dropFirst(2) {
            let (a, b, c) = (decisions[index - 2], decisions[index - 1], decisions[index])
            #expect(!(a.device == c.device && c.time - b.time < 2), "flap: \(b) undone at \(c.time)")
        }
        // Lying down and getting up (codes 9-12; sitting and standing hold the phone alike) are
        // decided before the activity after them is a quarter-turn settle time old, and getting
        // up ends upright again.
        for label in labels where (9...12).contains(label.code) {
            let first = decisions.first { $0.time >= label.start }
            #expect(first.map { $0.time <= label.end + 0.25 } ?? false, "\(label.name): \(String(describing: first))")
        }
        #expect(decisions.first { $0.time >= 135.74 }?.device == .landscapeLeft)
    }
}
