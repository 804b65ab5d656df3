import OrientationCore
import Testing
// The trace-corpus helpers (generators, `g`, `SplitMix64`, `TestMath`, `gravity`, `ramp`,
// `samples`, `median`, the manifest outcomes) live in the TraceCorpus target, shared with
// estimator-bench; re-exported here so that every test file sees them.
@_exported import TraceCorpus

/// Feeds samples to `estimator` and returns each change of the committed orientation.
func feed(_ samples: [TraceSample], into estimator: inout OrientationEstimator)
    -> [(time: Double, orientation: DeviceOrientation)]
{
    var changes: [(time: Double, orientation: DeviceOrientation)] = []
    var last = estimator.orientation
    for sample in samples {
        let now = estimator.update(sample.reading, at: sample.time)
        #expect(now == estimator.orientation)
        if now != last {
            changes.append((sample.time, now))
            last = now
        }
    }
    return changes
}
