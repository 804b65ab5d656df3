import Foundation
import OrientationCore
import Testing

// Temporary exploration: prints measured values.
@Suite struct Explore {
    func decisions(_ s: [TraceSample], settings: EstimatorSettings = EstimatorSettings()) -> [(Double, DeviceOrientation)] {
        var last = DeviceOrientation.unknown
        var out: [(Double, DeviceOrientation)] = []
        for c in Trace.replay(s, settings: settings) where c.device != last {
            out.append((c.time, c.device))
            last = c.device
        }
        return out
    }

    @Test func holdsOff() {
        var off = EstimatorSettings()
        off.flatHoldTime = 0; off.swingHoldTime = 0; off.overheadHoldTime = 0; off.overheadTilt = 65; off.swingTiltSpeed = 720
        for e in Corpus.entries {
            for rate in [10.0, 25.0, 50.0] {
                var r = e.recipe
                r.rate = rate
                let a = decisions(r.samples()).map { "\($0.0) \($0.1)" }
                let b = decisions(r.samples(), settings: off).map { "\($0.0) \($0.1)" }
                if a != b { print("DIFF", e.name, rate, a, b) }
            }
        }
        // in-plane angle and tilt along the put-down
        let e = Corpus.entries.first { $0.name == "put-down-wrist-roll" }!
        for t in stride(from: 2.0, through: 3.2, by: 0.1) {
            let v = e.recipe.motion.attitude(at: t).gravityDirection
            let tilt = atan2(-v.z, (v.x*v.x+v.y*v.y).squareRoot()) * 180 / .pi
            let ang = atan2(v.x, -v.y) * 180 / .pi
            print("putdown", t, Int(ang), Int(tilt))
        }
        let p = Corpus.entries.first { $0.name == "pick-up-portrait" }!
        for t in stride(from: 2.0, through: 3.1, by: 0.1) {
            let v = p.recipe.motion.attitude(at: t).gravityDirection
            let tilt = atan2(-v.z, (v.x*v.x+v.y*v.y).squareRoot()) * 180 / .pi
            let ang = atan2(v.x, -v.y) * 180 / .pi
            print("pickup", t, Int(ang), Int(tilt))
        }
        let o = Corpus.entries.first { $0.name == "overhead-wobble" }!
        var minT = 0.0, maxT = -90.0, maxA = 0.0
        for s in o.recipe.samples() where s.time > 4 {
            let v = s.reading
            let tilt = atan2(-v.z, (v.x*v.x+v.y*v.y).squareRoot()) * 180 / .pi
            let ang = atan2(v.x, -v.y) * 180 / .pi
            minT = min(minT, tilt); maxT = max(maxT, tilt); maxA = max(maxA, abs(ang))
        }
        print("overhead tilt", minT, maxT, "max in-plane", maxA)
    }
}
