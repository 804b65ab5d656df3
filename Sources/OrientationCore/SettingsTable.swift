/// What a setting's number measures.
public enum SettingsUnit: String, Sendable {
    /// Seconds.
    case seconds
    /// Milliseconds.
    case milliseconds
    /// Degrees.
    case degrees
    /// Degrees per second.
    case degreesPerSecond = "degrees per second"
    /// A fraction of a magnitude: of the 1 g reference unless the setting says otherwise.
    case fraction
    /// m/s^2.
    case metresPerSecondSquared = "m/s^2"
}

/// A number a setting holds: parsed from a configuration value, and shown in diagnostics.
public protocol SettingsValue: Comparable, Sendable, CustomStringConvertible {
    /// The value of configuration text, nil when it is none (not a whole number, not finite).
    init?(configText: String)
    /// The value as a diagnostic shows a range bound: integral values with no fraction.
    var boundText: String { get }
}

extension Double: SettingsValue {
    /// A decimal number, finite.
    public init?(configText: String) {
        guard let value = Double(configText), value.isFinite else { return nil }
        self = value
    }

    public var boundText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}

extension UInt32: SettingsValue {
    /// A whole number, no sign.
    public init?(configText: String) {
        guard let value = UInt32(configText) else { return nil }
        self = value
    }

    public var boundText: String { String(self) }
}

/// One numeric setting of a settings table (`EstimatorSettings`, `TabletModeSettings`,
/// `SamplingPolicy`, a configuration key): its name, unit and allowed range, and the property
/// itself, reached through a pair of plain closures rather than a key path (instantiating key
/// paths at every start runs some 30 functions of the Swift runtime that nothing else in the
/// daemon needs, and their pages then stay resident). The default is the property's initial
/// value.
public struct SettingsField<Settings: Sendable, Value: SettingsValue>: Sendable {
    /// The property's name (e.g. "switchAngle") or configuration key (e.g. "StillIntervalMsec").
    public let name: String
    /// What the value measures.
    public let unit: SettingsUnit
    /// The allowed range; `clamped()` brings values back into it, a configuration value outside
    /// it is refused.
    public let range: ClosedRange<Value>
    let get: @Sendable (Settings) -> Value
    let set: @Sendable (inout Settings, Value) -> Void

    init(
        _ name: String, _ unit: SettingsUnit, _ range: ClosedRange<Value>,
        _ get: @escaping @Sendable (Settings) -> Value,
        _ set: @escaping @Sendable (inout Settings, Value) -> Void
    ) {
        self.name = name
        self.unit = unit
        self.range = range
        self.get = get
        self.set = set
    }

    /// Sets the field of `settings` from configuration text; returns what is wrong with it (the
    /// previous value then stays), or nil.
    func apply(_ text: String, to settings: inout Settings) -> String? {
        guard let value = Value(configText: text), range.contains(value) else {
            return "expected \(unit.rawValue) between \(range.lowerBound.boundText) and "
                + "\(range.upperBound.boundText), found '\(text)'; keeping the previous value"
        }
        set(&settings, value)
        return nil
    }
}

/// Settings whose numbers are listed, each once, in one table of fields with unit and range.
public protocol SettingsTable: Sendable {
    /// The defaults.
    init()
    /// Every numeric setting, in declaration order.
    static var fields: [SettingsField<Self, Double>] { get }
}

extension SettingsTable {
    /// The value of `field`.
    public subscript(field: SettingsField<Self, Double>) -> Double {
        get { field.get(self) }
        set { field.set(&self, newValue) }
    }

    /// The setting called `name`, nil for an unknown name.
    public static func field(named name: String) -> SettingsField<Self, Double>? {
        fields.first { $0.name == name }
    }

    /// Every setting with its value and allowed range, in declaration order.
    public var entries: [(name: String, value: Double, allowed: ClosedRange<Double>)] {
        Self.fields.map { ($0.name, self[$0], $0.range) }
    }

    /// The settings outside their allowed range (NaN is always outside).
    func rangeProblems() -> [EstimatorSettings.Problem] {
        Self.fields.compactMap { field in
            field.range.contains(self[field])
                ? nil : EstimatorSettings.Problem(name: field.name, value: self[field], allowed: field.range)
        }
    }

    /// A copy with every setting brought into its allowed range (NaN becomes the default).
    func clampedToRanges() -> Self {
        let defaults = Self()
        var settings = self
        for field in Self.fields {
            let value = self[field]
            settings[field] =
                value.isNaN ? defaults[field] : min(max(value, field.range.lowerBound), field.range.upperBound)
        }
        return settings
    }
}
