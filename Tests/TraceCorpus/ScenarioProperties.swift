import OrientationCore

/// A named invariant of the estimators, checked on generated scenarios: `check(seed, intensity)`
/// gives nil when the property holds for that seed's scenario, else one line saying what
/// happened. Run by `swift test` at a few hundred seeds and by `estimator-bench --properties` at
/// 10,000.
public struct ScenarioProperty: Sendable {
    public var name: String
    /// What the property says, one line.
    public var statement: String
    public var check: @Sendable (_ seed: UInt64, _ intensity: Double) -> String?
    /// Whether the scenario has an intensity to shrink (the hinge's steps have none: a failing
    /// step is as small as it gets).
    public var shrinks: Bool

    public init(
        name: String, shrinks: Bool = true, statement: String,
        check: @escaping @Sendable (_ seed: UInt64, _ intensity: Double) -> String?
    ) {
        self.name = name
        self.statement = statement
        self.shrinks = shrinks
        self.check = check
    }

    /// A failure shrunk: the smallest intensity (of 1, 1/2, 1/4, 1/8, 0) at which the seed still
    /// fails, and what happened there.
    public func shrink(_ seed: UInt64) -> (intensity: Double, failure: String)? {
        guard var found = check(seed, 1).map({ (1.0, $0) }) else { return nil }
        guard shrinks else { return found }
        for intensity in [0.5, 0.25, 0.125, 0] {
            guard let failure = check(seed, intensity) else { break }
            found = (intensity, failure)
        }
        return found
    }

    /// The report line of a failing seed.
    public func describe(_ seed: UInt64) -> String {
        guard let (intensity, failure) = shrink(seed) else { return "\(name) seed \(seed): holds" }
        let shrunk = shrinks ? " (shrunk to intensity \(fixed(intensity, 3)))" : ""
        return "\(name) seed \(seed)\(shrunk): \(failure)"
    }

    /// Runs `seeds`; returns the failing ones.
    public func run(_ seeds: some Sequence<UInt64>) -> [UInt64] {
        seeds.filter { check($0, 1) != nil }
    }
}

public enum ScenarioProperties {
    /// The orientation properties, then the hinge's.
    public static let all: [ScenarioProperty] = orientation + HingeProperties.all

    public static let orientation: [ScenarioProperty] = [
        ScenarioProperty(
            name: "held-still-decided",
            statement:
                "held still 1.5 s at a clear orientation under up to 0.5 g of 5-25 Hz vibration: decided "
                + "within 1 s of the hold's start and kept to its end; a turn under vibration is followed",
            check: { seed, intensity in checkHolds(ScenarioGenerator.heldStill(seed: seed, intensity: intensity)) }),
        ScenarioProperty(
            name: "bumpy-still-decided",
            statement: "the same with 0.5-2 g bumps every 2-4 s on top (a car mount on a bad road)",
            check: { seed, intensity in
                checkHolds(ScenarioGenerator.heldStill(seed: seed, intensity: intensity, bumps: true))
            }),
        ScenarioProperty(
            name: "no-direct-half-turn",
            statement:
                "swinging arms, exercises, walking and running: no direct 180-degree change unless the device was calm "
                + "(0.1 s under 20 deg/s and 0.1 g) in the new orientation in between",
            check: { seed, intensity in checkHalfTurns(ScenarioGenerator.swinging(seed: seed, intensity: intensity)) }),
        ScenarioProperty(
            name: "posture-decided",
            statement:
                "sitting down, standing up, lying down, getting up, put on a table, picked up: the new orientation "
                + "within 0.5 s of the change's end, and no change while it stays",
            check: { seed, intensity in
                let (scenario, end) = ScenarioGenerator.posture(seed: seed, intensity: intensity)
                return checkHolds(scenario, deadline: 0.5, from: [end])
            }),
    ]

    /// Each hold (those starting at `from` times, when given) is decided within `deadline` of its
    /// start and kept to its end. A decision can only come with a reading: the deadline is the
    /// first reading at or after `start + deadline`, and not before the second reading of the
    /// hold (an adaptive plan's still interval can leave the estimator no reading to decide on,
    /// which is the plan's matter, not the estimator's).
    static func checkHolds(_ scenario: DeviceScenario, deadline: Double = 1, from: [Double]? = nil) -> String? {
        let run = scenario.run()
        for hold in scenario.holds where from.map({ $0.contains(hold.start) }) ?? true {
            let readings = run.samples.lazy.map(\.time).filter { $0 >= hold.start - 1e-9 }
            let second = readings.dropFirst().first ?? hold.start
            let onTime = readings.first { $0 >= hold.start + deadline - 1e-9 } ?? hold.end
            let due = max(onTime, second)
            guard due < hold.end else { continue }
            let decided = run.orientation(at: due)
            let later = run.changes.filter { $0.time > due + 1e-9 && $0.time <= hold.end }
            if decided != hold.orientation || !later.isEmpty {
                return "hold \(fixed(hold.start, 2))-\(fixed(hold.end, 2)) s at \(hold.orientation.name): "
                    + "\(decided.name) at \(fixed(due, 2)) s" + (later.isEmpty ? "" : ", then changed")
                    + "; decisions: \(run.changesText); scenario: \(scenario.summary)"
            }
        }
        return nil
    }

    /// Every direct change to the opposite orientation has a calm stretch of `calmNeeded`
    /// (`DeviceScenario.isCalm`) between the change before it and it. The stretch may be in any
    /// pose: a device that rests half a turn away from where it was (an arm paused at the top of
    /// a raise) may be decided so, even from an off-axis pose whose orientation the hysteresis
    /// chose. 0.1 s: the estimator's own calm evidence for a sudden turn is `calmSettleTime`
    /// (0.08 s, two readings); what the property rules out is a flip with no rest at all.
    static let calmNeeded = 0.1

    static func checkHalfTurns(_ scenario: DeviceScenario) -> String? {
        let run = scenario.run()
        for (previous, change) in zip(run.changes, run.changes.dropFirst())
        where previous.orientation.opposite == change.orientation {
            var calm = 0.0
            var longest = 0.0
            for t in scenario.grid(previous.time, change.time) {
                calm = scenario.isCalm(from: t, to: t) ? calm + 0.01 : 0
                longest = max(longest, calm)
                if longest >= calmNeeded - 1e-9 { break }
            }
            if longest < calmNeeded - 1e-9 {
                return "\(previous.orientation.name) -> \(change.orientation.name) at \(fixed(change.time, 2)) s "
                    + "with no calm in between (longest \(fixed(longest, 2)) s); decisions: \(run.changesText); "
                    + "scenario: \(scenario.summary)"
            }
        }
        return nil
    }
}

/// A property's scenario for one seed written as a trace file (readings in the units the sensor
/// gave, its header naming the property, seed and scenario), for adding a counterexample to
/// Tests/traces/generated. `partRate` reads an adaptive plan's sensor at that fixed output rate
/// (`SensorModel.partRate`), named in the header.
public enum ScenarioTraces {
    public static func text(property: String, seed: UInt64, intensity: Double = 1, partRate: Double? = nil) -> String? {
        let header =
            "# \(property) seed \(seed) intensity \(fixed(intensity, 3))"
            + (partRate.map { " part-rate \(fixed($0, 0))" } ?? "") + ", from the TraceCorpus scenario generator\n"
        func lines(_ drawn: DeviceScenario) -> String {
            var scenario = drawn
            scenario.sensor.partRate = partRate
            let holds = scenario.holds.map { "\(fixed($0.start, 2))-\(fixed($0.end, 2)) s \($0.orientation.name)" }
            return header + "# " + scenario.summary + "\n# holds: " + holds.joined(separator: ", ") + "\n"
                + Trace.format(scenario.run().samples)
        }
        switch property {
        case "held-still-decided", "bumpy-still-decided":
            return lines(
                ScenarioGenerator.heldStill(seed: seed, intensity: intensity, bumps: property == "bumpy-still-decided"))
        case "no-direct-half-turn":
            return lines(ScenarioGenerator.swinging(seed: seed, intensity: intensity))
        case "posture-decided":
            return lines(ScenarioGenerator.posture(seed: seed, intensity: intensity).0)
        case "hinge-step", "hinge-side-step", "hinge-closed-agree", "hinge-guess-corrected":
            let scenario = HingeScenario.draw(
                seed: seed, ambiguousB: property == "hinge-guess-corrected" ? true : nil,
                thenTo: property == "hinge-closed-agree" || property == "hinge-guess-corrected",
                lid: property == "hinge-guess-corrected" ? false : nil, onSide: property == "hinge-side-step")
            return header + "# " + scenario.summary + "\n" + Trace.format(scenario.run().map(\.sample))
        default:
            return nil
        }
    }
}
