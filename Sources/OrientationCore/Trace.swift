/// One accelerometer reading of a trace.
public struct TraceSample: Equatable, Sendable {
    /// Monotonic time in seconds.
    public var time: Double
    /// Gravity reading in m/s^2 in the docs/axes.md frame (after mount matrix and scale).
    public var reading: Vector3
    /// The base accelerometer's reading taken with it (after its mount matrix, the hwdb's base
    /// frame: the same as the display's while the lid is closed); nil in a one-sensor trace.
    public var base: Vector3?

    /// Creates a sample.
    public init(time: Double, reading: Vector3, base: Vector3? = nil) {
        self.time = time
        self.reading = reading
        self.base = base
    }
}

/// Why a trace text could not be parsed. Line numbers are 1-based.
public enum TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first line that is neither blank nor a `#` comment is not the header `t,x,y,z` nor
    /// `t,x,y,z,base_x,base_y,base_z` (the line number; for a text without content, the number
    /// of its last, possibly empty, line).
    case missingHeader(line: Int)
    /// A data line of a one-sensor trace without exactly four comma-separated fields.
    case wrongFieldCount(line: Int, found: Int)
    /// A data line of a two-sensor trace without exactly seven comma-separated fields.
    case wrongTwoSensorFieldCount(line: Int, found: Int)
    /// A field that is not a finite decimal number (field name `t`, `x`, `y`, `z`, `base_x`,
    /// `base_y` or `base_z`; the text, trimmed and cut to 32 bytes).
    case badNumber(line: Int, field: String, text: String)

    /// A one-line English explanation starting with "line N: ".
    public var description: String {
        switch self {
        case .missingHeader(let line):
            "line \(line): expected the header \"t,x,y,z\" or \"t,x,y,z,base_x,base_y,base_z\""
        case .wrongFieldCount(let line, let found): "line \(line): expected 4 fields, found \(found)"
        case .wrongTwoSensorFieldCount(let line, let found): "line \(line): expected 7 fields, found \(found)"
        case .badNumber(let line, let field, let text):
            "line \(line): \(field) is not a finite number: \"\(text)\""
        }
    }
}

/// One change of the committed orientations during a replay.
public struct OrientationChange: Equatable, Sendable {
    /// Time of the sample after which the change was committed, seconds.
    public var time: Double
    /// Device orientation after the sample.
    public var device: DeviceOrientation
    /// Interface orientation after the sample.
    public var interface: InterfaceOrientation

    /// Creates a change record.
    public init(time: Double, device: DeviceOrientation, interface: InterfaceOrientation) {
        self.time = time
        self.device = device
        self.interface = interface
    }
}

/// The CSV trace format (docs/architecture.md, The estimator): a header line `t,x,y,z`, then one line per
/// reading, time in seconds and the gravity reading in m/s^2, e.g. `0.05,0.0,-9.81,0.0`.
///
/// A two-sensor trace (a convertible with a display and a base accelerometer) has the header
/// `t,x,y,z,base_x,base_y,base_z`: the display's reading, then the base's taken in the same
/// wakeup, both after their mount matrices (`HingeGeometry`'s frames).
///
/// Parsing tolerates blank lines, `#` comment lines, whitespace around fields and CRLF line ends;
/// numbers are locale-independent decimals and must be finite. Times are not required to
/// increase (the estimator copes with time going backwards, and a trace may test that).
public struct Trace: Equatable, Sendable {
    /// The header line.
    public static let header = "t,x,y,z"
    /// The header line of a two-sensor trace.
    public static let twoSensorHeader = "t,x,y,z,base_x,base_y,base_z"

    /// The readings, in file order.
    public var samples: [TraceSample]

    /// Creates a trace from samples.
    public init(samples: [TraceSample]) {
        self.samples = samples
    }

    /// Parses trace text (see the type's documentation for the format).
    public static func parse(_ text: String) throws(TraceError) -> [TraceSample] {
        var reader = TraceReader()
        var samples: [TraceSample] = []
        // "\r\n" is a single Character in Swift, so it is matched explicitly.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if let sample = try reader.read(line: line) { samples.append(sample) }
        }
        try reader.finish()
        return samples
    }

    /// One sample as a line of trace text, with its newline (the number form of `format`); the
    /// base reading's three fields only when `twoSensor` (and the sample has one).
    public static func line(_ sample: TraceSample, twoSensor: Bool = false) -> String {
        let r = sample.reading
        var text = "\(sample.time),\(r.x),\(r.y),\(r.z)"
        if twoSensor, let b = sample.base { text += ",\(b.x),\(b.y),\(b.z)" }
        return text + "\n"
    }

    /// Formats samples as trace text: the header, then one line per sample, each ending in a
    /// newline. A two-sensor trace when every sample has a base reading (and there is at least
    /// one sample), else a one-sensor trace (base readings dropped). Numbers use the shortest
    /// decimal form that reads back to the same Double, so `parse(format(s)) == s` for finite
    /// samples that all have, or all lack, a base reading.
    public static func format(_ samples: [TraceSample]) -> String {
        let twoSensor = !samples.isEmpty && samples.allSatisfy { $0.base != nil }
        var text = (twoSensor ? twoSensorHeader : header) + "\n"
        for sample in samples { text += line(sample, twoSensor: twoSensor) }
        return text
    }

    /// Parses trace text into a trace.
    public init(parsing text: String) throws(TraceError) {
        samples = try Self.parse(text)
    }

    /// The trace as text (`format(samples)`).
    public var text: String { Self.format(samples) }

    /// Replays samples through a fresh estimator and interface policy and returns every change of
    /// either committed orientation, in order. Deterministic: the same input gives the same
    /// output bit for bit.
    public static func replay(
        _ samples: [TraceSample],
        settings: EstimatorSettings = EstimatorSettings(),
        allowed: Set<InterfaceOrientation> = InterfaceOrientationPolicy.allUpright
    ) -> [OrientationChange] {
        var replay = TraceReplay(settings: settings, allowed: allowed)
        return samples.compactMap { replay.update($0) }
    }
}

/// Reads trace text one line at a time, so a trace of any length, or one still being
/// recorded (`record | replay -`), goes through in constant memory. `Trace.parse` is this
/// over a whole text.
public struct TraceReader: Sendable {
    private var sawHeader = false
    /// The field names of the header read: `t,x,y,z`, or the two-sensor header's seven.
    private var names = ["t", "x", "y", "z"]
    /// The number of lines read so far (the 1-based number of the last one).
    public private(set) var lineNumber = 0
    /// Whether the header read is the two-sensor one (`t,x,y,z,base_x,base_y,base_z`).
    public var isTwoSensor: Bool { names.count == 7 }

    /// A reader before the first line.
    public init() {}

    /// Reads the next line (without its "\n"; a trailing "\r" is trimmed as whitespace) and
    /// returns its sample; nil for the header, a blank or a comment line.
    public mutating func read(line rawLine: Substring) throws(TraceError) -> TraceSample? {
        lineNumber += 1
        let line = rawLine.trimmingASCIIWhitespace()
        if line.isEmpty || line.hasPrefix("#") { return nil }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingASCIIWhitespace() }
        if !sawHeader {
            let header = fields.map { String($0).lowercased() }
            if header.joined(separator: ",") == Trace.twoSensorHeader {
                names = header
            } else if header != names {
                throw .missingHeader(line: lineNumber)
            }
            sawHeader = true
            return nil
        }
        guard fields.count == names.count else {
            if names.count == 4 { throw .wrongFieldCount(line: lineNumber, found: fields.count) }
            throw .wrongTwoSensorFieldCount(line: lineNumber, found: fields.count)
        }
        var values: [Double] = []
        for (name, field) in zip(names, fields) {
            guard case .value(let value) = NumberText.decimal(field) else {
                throw .badNumber(line: lineNumber, field: name, text: NumberText.excerpt(field))
            }
            values.append(value)
        }
        return TraceSample(
            time: values[0], reading: Vector3(values[1], values[2], values[3]),
            base: values.count == 7 ? Vector3(values[4], values[5], values[6]) : nil)
    }

    /// Ends the text (its last line, even an empty one, read): a text without a header is
    /// refused.
    public func finish() throws(TraceError) {
        if !sawHeader { throw .missingHeader(line: lineNumber) }
    }
}

/// A replay one sample at a time: a fresh estimator and interface policy, and the change of
/// either committed orientation each sample makes. `Trace.replay` is this over an array.
public struct TraceReplay: Sendable {
    private var estimator: OrientationEstimator
    private var policy: InterfaceOrientationPolicy
    private var last: OrientationChange? = nil

    /// A replay with the daemon's settings and allowed interface orientations.
    public init(
        settings: EstimatorSettings = EstimatorSettings(),
        allowed: Set<InterfaceOrientation> = InterfaceOrientationPolicy.allUpright
    ) {
        estimator = OrientationEstimator(settings: settings)
        policy = InterfaceOrientationPolicy(allowed: allowed)
    }

    /// Feeds one sample; returns the change it committed, nil when both orientations stay
    /// (the first change is the first sample that leaves unknown).
    public mutating func update(_ sample: TraceSample) -> OrientationChange? {
        let device = estimator.update(sample.reading, at: sample.time)
        let interface = policy.update(device: device)
        let changed =
            last.map { $0.device != device || $0.interface != interface }
            ?? (device != .unknown || interface != .unknown)
        guard changed else { return nil }
        let change = OrientationChange(time: sample.time, device: device, interface: interface)
        last = change
        return change
    }
}

/// One change of the tablet-mode decision or of the hinge state during a hinge replay.
public struct TabletModeChange: Equatable, Sendable {
    /// Time of the sample after which the change happened, seconds.
    public var time: Double
    /// Tablet mode after the sample.
    public var tabletMode: Bool
    /// The hinge state after the sample.
    public var state: HingeState
    /// The hinge angle after the sample (nil: unknown).
    public var angle: Double?

    /// Creates a change record.
    public init(time: Double, tabletMode: Bool, state: HingeState, angle: Double?) {
        self.time = time
        self.tabletMode = tabletMode
        self.state = state
        self.angle = angle
    }

    /// The records of a replay's `changes` at which tablet mode itself changed, starting from
    /// laptop mode, in order (the others changed only the hinge state).
    public static func modeChanges(_ changes: [TabletModeChange]) -> [TabletModeChange] {
        var result: [TabletModeChange] = []
        for change in changes where change.tabletMode != (result.last?.tabletMode ?? false) {
            result.append(change)
        }
        return result
    }
}

extension Trace {
    /// Replays a two-sensor trace through a fresh `HingeEstimator` and `TabletModeDecision`
    /// (source `hinge`, the lid switch `lid` throughout) and returns every change of the tablet
    /// mode or the hinge state, in order, starting with the first known state. Samples without a
    /// base reading are skipped. Deterministic, bit for bit.
    public static func replayHinge(
        _ samples: [TraceSample], settings: TabletModeSettings = TabletModeSettings(), lid: LidState = .open
    ) -> [TabletModeChange] {
        var replay = HingeReplay(settings: settings, lid: lid)
        return samples.compactMap { replay.update($0) }
    }
}

/// A hinge replay one sample at a time (`Trace.replayHinge` is this over an array), so a
/// two-sensor trace of any length, or one still being recorded, streams through.
public struct HingeReplay: Sendable {
    private var estimator: HingeEstimator
    private var decision: TabletModeDecision
    private let lid: LidState
    private var last: TabletModeChange? = nil

    /// A replay with the given settings and the lid switch `lid` throughout.
    public init(settings: TabletModeSettings = TabletModeSettings(), lid: LidState = .open) {
        estimator = HingeEstimator(settings: settings)
        decision = TabletModeDecision(settings: settings)
        self.lid = lid
    }

    /// Feeds one sample; returns the change of tablet mode or hinge state it made (the first
    /// is the first known state), nil otherwise and for a sample without a base reading.
    public mutating func update(_ sample: TraceSample) -> TabletModeChange? {
        guard let base = sample.base else { return nil }
        let estimate = estimator.update(display: sample.reading, base: base, lid: lid, at: sample.time)
        let tablet = decision.update(source: .hinge, switchState: nil, hinge: estimate, lid: lid, at: sample.time)
        let changed =
            last.map { $0.tabletMode != tablet || $0.state != estimate.state }
            ?? (tablet || estimate.state != .unknown)
        guard changed else { return nil }
        let change = TabletModeChange(
            time: sample.time, tabletMode: tablet, state: estimate.state, angle: estimate.angle)
        last = change
        return change
    }
}
