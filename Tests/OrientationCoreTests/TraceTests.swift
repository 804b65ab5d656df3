import OrientationCore
import Testing

@Suite("Trace format and replay")
struct TraceTests {
    @Test func parsesHeaderCommentsBlankLinesAndCRLF() throws {
        let text =
            "# captured on a test tablet\r\n\r\nt,x,y,z\r\n0, 0.1, -9.8, 0.2\r\n 0.05 ,-1e-2,-9.81,0\r\n\n# end\n"
        let parsed = try Trace.parse(text)
        #expect(
            parsed == [
                TraceSample(time: 0, reading: Vector3(0.1, -9.8, 0.2)),
                TraceSample(time: 0.05, reading: Vector3(-0.01, -9.81, 0)),
            ])
        #expect(try Trace(parsing: text).samples == parsed)
    }

    @Test func headerOnlyIsAnEmptyTrace() throws {
        #expect(try Trace.parse("t,x,y,z\n").isEmpty)
        #expect(try Trace.parse("t,x,y,z").isEmpty)
    }

    @Test func formatRoundTripsExactly() throws {
        let samples = [
            TraceSample(time: 0, reading: Vector3(0.1 + 0.2, -9.80665, 1e-300)),
            TraceSample(
                time: 1234.567_890_123,
                reading: Vector3(-0.0, Double.leastNonzeroMagnitude, 1.7976931348623157e308)),
            TraceSample(time: 1234.6, reading: Vector3(1 / 3, -2 / 3, 100)),
        ]
        let text = Trace.format(samples)
        #expect(text.hasPrefix("t,x,y,z\n"))
        #expect(text.hasSuffix("\n"))
        #expect(text.split(separator: "\n").count == 4)
        #expect(try Trace.parse(text) == samples)
        #expect(Trace(samples: samples).text == text)
        #expect(Trace.format([]) == "t,x,y,z\n")
    }

    @Test(arguments: [
        ("", TraceError.missingHeader(line: 1)),
        ("\n\n", .missingHeader(line: 3)),
        ("time,x,y,z\n0,0,0,0\n", .missingHeader(line: 1)),
        ("# comment\n0,0,-9.8,0\n", .missingHeader(line: 2)),
        ("t,x,y,z\n0,0,-9.8,0\n0.05,0,-9.8\n", .wrongFieldCount(line: 3, found: 3)),
        ("t,x,y,z\n0,0,-9.8,0,1\n", .wrongFieldCount(line: 2, found: 5)),
        ("t,x,y,z\n0,0,-9.8,0\n\n0.1,0,-9,8,0\n", .wrongFieldCount(line: 4, found: 5)),
        ("t,x,y,z\n0,0,abc,0\n", .badNumber(line: 2, field: "y", text: "abc")),
        ("t,x,y,z\n0,0,-9.8,nan\n", .badNumber(line: 2, field: "z", text: "nan")),
        ("t,x,y,z\n,0,-9.8,0\n", .badNumber(line: 2, field: "t", text: "")),
        ("t,x,y,z\n0,1e999,-9.8,0\n", .badNumber(line: 2, field: "x", text: "1e999")),
    ])
    func errorsCarryLineNumbers(text: String, error: TraceError) {
        #expect(throws: error) { try Trace.parse(text) }
    }

    @Test func readerLineByLineIsParse() throws {
        let text = "# head\nt,x,y,z\r\n0,0,-9.8,0\n\n0.05,1,-9.7,0.5\n"
        var reader = TraceReader()
        var samples: [TraceSample] = []
        // As the client reads a file: bytes cut at each "\n", a "\r" left at the line's end.
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if let sample = try reader.read(line: String(decoding: line, as: UTF8.self)[...]) { samples.append(sample) }
        }
        try reader.finish()
        #expect(samples == (try Trace.parse(text)))
        #expect(reader.lineNumber == 6)
        var empty = TraceReader()
        _ = try empty.read(line: "# only a comment")
        #expect(throws: TraceError.missingHeader(line: 1)) { try empty.finish() }
    }

    @Test func replayOneSampleAtATimeIsReplay() {
        let trace = samples(rate: 20, duration: 4) { t in t < 2 ? Vector3(0, -9.81, 0) : Vector3(9.81, 0, 0) }
        var replay = TraceReplay()
        #expect(trace.compactMap { replay.update($0) } == Trace.replay(trace))
        #expect(Trace.replay(trace).count == 2)
    }

    @Test func errorDescriptionStartsWithTheLine() {
        #expect(
            TraceError.wrongFieldCount(line: 7, found: 3).description
                == "line 7: expected 4 fields, found 3")
        #expect(
            TraceError.badNumber(line: 2, field: "y", text: "abc").description.hasPrefix("line 2: y "))
    }

    @Test func replayReportsDeviceAndInterfaceChanges() throws {
        let trace = samples(rate: 20, duration: 6) { t in
            if t < 2 { return Vector3(0, -9.81, 0) }
            if t < 4 { return Vector3(-9.81, 0, 0) }
            return Vector3(0, 0, -9.81)
        }
        let parsed = try Trace.parse(Trace.format(trace))
        let changes = Trace.replay(parsed)
        #expect(changes.map(\.device) == [.portrait, .landscapeLeft, .faceUp])
        #expect(changes.map(\.interface) == [.portrait, .landscapeRight, .landscapeRight])
        #expect(changes.first?.time == 0.05)
        #expect(changes == Trace.replay(trace))

        let kiosk = Trace.replay(parsed, allowed: [.landscapeLeft, .landscapeRight])
        #expect(kiosk.map(\.device) == [.portrait, .landscapeLeft, .faceUp])
        #expect(kiosk.map(\.interface) == [.unknown, .landscapeRight, .landscapeRight])
        #expect(Trace.replay([]).isEmpty)
    }
}
