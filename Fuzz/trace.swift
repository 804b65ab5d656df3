// libFuzzer target: trace CSV (`t,x,y,z`), Trace.parse, and a replay of what parsed through
// the estimator and the interface policy (the client's `replay`; the estimator is the
// daemon's). Parsed samples are finite and format back to the same samples; a replay of any
// finite samples (huge, tiny, time going backwards) must not trap and is deterministic.
import OrientationCore

/// Replays stay cheap: libFuzzer's -max_len bounds the text, this bounds the work.
let maximumReplayedSamples = 512

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = fuzzText(fuzzBytes(data, size))
    let samples: [TraceSample]
    do {
        samples = try Trace.parse(text)
    } catch {
        _ = error.description
        return 0
    }
    for sample in samples {
        fuzzCheck(
            sample.time.isFinite && sample.reading.x.isFinite && sample.reading.y.isFinite
                && sample.reading.z.isFinite, "non-finite sample \(sample)")
    }
    let formatted = Trace.format(samples)
    let again = try? Trace.parse(formatted)
    fuzzCheck(again == samples, "formatted trace does not read back:\n\(formatted)")

    let replayed = Array(samples.prefix(maximumReplayedSamples))
    let first = Trace.replay(replayed)
    let second = Trace.replay(replayed)
    fuzzCheck(first == second, "replay is not deterministic")
    let kiosk = Trace.replay(replayed, allowed: [.landscapeLeft, .landscapeRight])
    for change in kiosk {
        fuzzCheck(
            change.interface == .unknown || change.interface == .landscapeLeft || change.interface == .landscapeRight,
            "kiosk interface \(change.interface)")
    }
    return 0
}
