import OrientationCore
import TraceCorpus

// The scenario properties at large counts (`--properties`):
//
//     estimator-bench --properties [--seeds N] [--property NAME] [--every-failure]
//     estimator-bench --property NAME --seed S [--trace [--part-rate HZ]]
//
// Per property: seeds run, failures, the first failing seeds (each shrunk and described on one
// line; every one with --every-failure) and the time. With --seed, that one seed (described, and with --trace the scenario's
// readings as a trace file, for Tests/traces/generated; --part-rate reads an adaptive plan's sensor
// at that fixed rate, `SensorModel.partRate`). Seeds are 1...N (10,000 by default).

func runProperties(seeds: UInt64, only: String?, seed: UInt64?, trace: Bool, partRate: Double?, every: Bool) -> Bool {
    let chosen = ScenarioProperties.all.filter { only == nil || $0.name == only }
    guard !chosen.isEmpty else {
        print("estimator-bench: no property named \(only ?? "")")
        print("properties: " + ScenarioProperties.all.map(\.name).joined(separator: ", "))
        return false
    }
    if let seed {
        for property in chosen {
            print(property.describe(seed))
            if trace, let text = ScenarioTraces.text(property: property.name, seed: seed, partRate: partRate) {
                print(text, terminator: "")
            }
        }
        return true
    }
    let clock = ContinuousClock()
    var allHold = true
    print(
        padded("property", 24) + padded("seeds", 8) + padded("failures", 10) + padded("time", 9) + "first failing seeds"
    )
    var details: [String] = []
    for property in chosen {
        var failing: [UInt64] = []
        let elapsed = clock.measure { failing = property.run(1...seeds) }
        allHold = allHold && failing.isEmpty
        print(
            padded(property.name, 24) + padded(String(seeds), 8) + padded(String(failing.count), 10)
                + padded(fixed(seconds(elapsed), 1) + " s", 9)
                + failing.prefix(10).map(String.init).joined(separator: " "))
        details += failing.prefix(every ? failing.count : 3).map { property.describe($0) }
    }
    if !details.isEmpty {
        print("")
        for line in details { print(line) }
    }
    return allHold
}
