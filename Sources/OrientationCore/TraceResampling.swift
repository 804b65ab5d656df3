extension Trace {
    /// The samples a sensor polled every `1 / rate` seconds would have given: the trace is
    /// read at `t0, t0 + 1/rate, ...` up to its last time, each reading interpolated linearly
    /// between the two recorded samples around it (the base reading of a two-sensor trace
    /// too). Used to show that decisions do not depend on the sample rate. Returns the input unchanged for fewer than two samples or a rate
    /// that is not positive and finite.
    public static func resample(_ samples: [TraceSample], rate: Double) -> [TraceSample] {
        guard samples.count >= 2, rate > 0, rate.isFinite, let first = samples.first, let last = samples.last
        else { return samples }
        var result: [TraceSample] = []
        var index = 0
        var step = 0
        while true {
            let time = first.time + Double(step) / rate
            if time > last.time { break }
            step += 1
            while index + 1 < samples.count - 1 && samples[index + 1].time <= time { index += 1 }
            let before = samples[index]
            let after = samples[index + 1]
            let span = after.time - before.time
            let fraction = span > 0 ? min(max((time - before.time) / span, 0), 1) : 0
            let reading = before.reading + (after.reading - before.reading) * fraction
            var base: Vector3? = nil
            if let from = before.base, let to = after.base { base = from + (to - from) * fraction }
            result.append(TraceSample(time: time, reading: reading, base: base))
        }
        return result
    }
}
