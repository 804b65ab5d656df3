import OrientationCore

/// One line of a corpus manifest, `Tests/traces/expected.txt` (its columns are described at the
/// top of that file): read by the corpus tests and by estimator-bench.
public struct ExpectedOutcome: Sendable, CustomStringConvertible {
    public var name: String
    /// Device orientations in decision order.
    public var devices: [DeviceOrientation]
    /// End of the main motion, seconds.
    public var end: Double?
    /// Largest delay from `end` to the last decision, seconds.
    public var maxDelay: Double?

    public var description: String { name }

    public init(name: String, devices: [DeviceOrientation], end: Double? = nil, maxDelay: Double? = nil) {
        self.name = name
        self.devices = devices
        self.end = end
        self.maxDelay = maxDelay
    }

    /// The outcomes of a manifest's text; a line that does not have the four columns gives an
    /// outcome named "bad line: ..." with no devices, which matches no trace.
    public static func parse(_ text: String) -> [ExpectedOutcome] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = words.first, !first.hasPrefix("#") else { return nil }
            guard words.count == 4 else { return ExpectedOutcome(name: "bad line: \(line)", devices: []) }
            let devices = words[1].split(separator: ">").map {
                DeviceOrientation(name: String($0)) ?? .unknown
            }
            return ExpectedOutcome(
                name: String(words[0]), devices: devices, end: Double(words[2]), maxDelay: Double(words[3]))
        }
    }

    /// The interface orientations these device decisions imply (docs/dbus-api.md, Orientations): a change
    /// whenever an upright device orientation differs from the last upright one.
    public var interfaces: [InterfaceOrientation] {
        var result: [InterfaceOrientation] = []
        for device in devices {
            if let interface = InterfaceOrientation(following: device), interface != result.last {
                result.append(interface)
            }
        }
        return result
    }

    /// What is wrong with `changes` (a replay of the trace) against this outcome; empty when
    /// nothing is. `slack` widens the delay bound (for resampled traces).
    public func problems(_ changes: [OrientationChange], slack: Double = 0) -> [String] {
        var problems: [String] = []
        var seenDevices: [DeviceOrientation] = []
        var seenInterfaces: [InterfaceOrientation] = []
        for change in changes {
            if change.device != seenDevices.last { seenDevices.append(change.device) }
            if change.interface != .unknown && change.interface != seenInterfaces.last {
                seenInterfaces.append(change.interface)
            }
        }
        if seenDevices != devices { problems.append("devices \(seenDevices), expected \(devices)") }
        if seenInterfaces != interfaces {
            problems.append("interfaces \(seenInterfaces), expected \(interfaces)")
        }
        if let delay = delay(changes), let maxDelay, delay > maxDelay + slack + 1e-9 {
            problems.append("delay \(delay) s > \(maxDelay + slack) s")
        }
        return problems
    }

    /// Time from `end` to the last change of the device orientation, when the trace has an `end`.
    public func delay(_ changes: [OrientationChange]) -> Double? {
        guard let end else { return nil }
        var last: OrientationChange?
        for change in changes where change.device != last?.device { last = change }
        return last.map { $0.time - end }
    }
}

/// One line of a two-sensor manifest, `Tests/traces/hinge/expected.txt` (columns described at the
/// top of that file): read by the hinge corpus tests and by estimator-bench.
public struct HingeOutcome: Sendable, CustomStringConvertible {
    public var name: String
    public var lid: LidState
    /// Tablet-mode decisions in order (false: laptop, true: tablet), starting with the initial
    /// laptop mode.
    public var modes: [Bool]
    public var finalState: HingeState
    public var end: Double?
    public var maxDelay: Double?
    public var description: String { name }

    public init(
        name: String, lid: LidState, modes: [Bool], finalState: HingeState, end: Double? = nil,
        maxDelay: Double? = nil
    ) {
        self.name = name
        self.lid = lid
        self.modes = modes
        self.finalState = finalState
        self.end = end
        self.maxDelay = maxDelay
    }

    /// The outcomes of a manifest's text; a line without the six columns gives an outcome named
    /// "bad line: ..." with no modes, which matches no trace.
    public static func parse(_ text: String) -> [HingeOutcome] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = words.first, !first.hasPrefix("#") else { return nil }
            guard words.count == 6, let lid = LidState(rawValue: words[1]), let state = HingeState(name: words[3])
            else {
                return HingeOutcome(name: "bad line: \(line)", lid: .unknown, modes: [], finalState: .unknown)
            }
            return HingeOutcome(
                name: first, lid: lid, modes: words[2].split(separator: ">").map { $0 == "tablet" },
                finalState: state, end: Double(words[4]), maxDelay: Double(words[5]))
        }
    }

    /// The tablet-mode sequence of a replay, starting with the initial laptop mode.
    public static func decided(_ changes: [TabletModeChange]) -> [Bool] {
        [false] + TabletModeChange.modeChanges(changes).map(\.tabletMode)
    }

    /// Modes as written in the manifest ("laptop>tablet").
    public static func text(_ modes: [Bool]) -> String {
        modes.map { $0 ? "tablet" : "laptop" }.joined(separator: ">")
    }

    /// What is wrong with a replay against this outcome.
    public func problems(_ changes: [TabletModeChange]) -> [String] {
        var problems: [String] = []
        let seen = Self.decided(changes)
        if seen != modes { problems.append("modes \(seen), expected \(modes)") }
        if changes.last?.state != finalState {
            problems.append("final state \(changes.last?.state.name ?? "none"), expected \(finalState.name)")
        }
        if let delay = delay(changes), let maxDelay, delay > maxDelay + 1e-9 || delay < 0 {
            problems.append("delay \(delay) s outside 0...\(maxDelay) s")
        }
        return problems
    }

    /// Time from `end` to the last tablet-mode change.
    public func delay(_ changes: [TabletModeChange]) -> Double? {
        guard let end else { return nil }
        return TabletModeChange.modeChanges(changes).last.map { $0.time - end }
    }

    /// The modes as written in the manifest.
    public var expectedText: String { Self.text(modes) }
}
