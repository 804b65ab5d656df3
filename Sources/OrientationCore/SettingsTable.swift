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
    /// Degrees Celsius.
    case degreesCelsius = "degrees Celsius"
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
/// itself, reached through one plain closure that lends it to a body, `{ $1(&$0.name) }`, rather
/// than a key path (instantiating key paths at every start runs some 30 functions of the Swift
/// runtime that nothing else in the daemon needs, and their pages then stay resident). The
/// default is the property's initial value.
public struct SettingsField<Settings: Sendable, Value: SettingsValue>: Sendable {
    /// The property's name (e.g. "switchAngle") or configuration key (e.g. "StillIntervalMsec").
    public let name: String
    /// What the value measures.
    public let unit: SettingsUnit
    /// The allowed range; `clamped()` brings values back into it, a configuration value outside
    /// it is refused.
    public let range: ClosedRange<Value>
    /// Lends the property of the settings to the body, which reads or sets it.
    let access: @Sendable (inout Settings, (inout Value) -> Void) -> Void

    init(
        _ name: String, _ unit: SettingsUnit, _ range: ClosedRange<Value>,
        _ access: @escaping @Sendable (inout Settings, (inout Value) -> Void) -> Void
    ) {
        self.name = name
        self.unit = unit
        self.range = range
        self.access = access
    }

    /// The field's value in `settings`.
    func value(in settings: Settings) -> Value {
        var settings = settings
        var value = range.lowerBound
        access(&settings) { value = $0 }
        return value
    }

    /// Sets the field's value in `settings`.
    func set(_ value: Value, in settings: inout Settings) {
        access(&settings) { $0 = value }
    }

    /// Sets the field of `settings` from configuration text; returns what is wrong with it (the
    /// previous value then stays), or nil.
    func apply(_ text: String, to settings: inout Settings) -> String? {
        guard let value = Value(configText: text), range.contains(value) else {
            return "expected \(unit.rawValue) between \(range.lowerBound.boundText) and "
                + "\(range.upperBound.boundText), found '\(text)'; keeping the previous value"
        }
        set(value, in: &settings)
        return nil
    }
}

/// Settings whose numbers are listed, each once, in one table of fields with unit and range.
public protocol SettingsTable: Sendable {
    /// What the numbers are (`Double` unless the table says otherwise).
    associatedtype Value: SettingsValue = Double
    /// The defaults.
    init()
    /// Every numeric setting, in declaration order.
    static var fields: [SettingsField<Self, Value>] { get }
}

extension SettingsTable {
    /// The value of `field`.
    public subscript(field: SettingsField<Self, Value>) -> Value {
        get { field.value(in: self) }
        set { field.set(newValue, in: &self) }
    }

    /// The setting called `name`, nil for an unknown name.
    public static func field(named name: String) -> SettingsField<Self, Value>? {
        fields.first { $0.name == name }
    }
}

extension SettingsTable where Value == Double {

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

/// The 1 g reference's settings that the estimator's and tablet mode's tables share
/// (`GravityReference`, `HingeEstimator`), with the same units and ranges in both; each table
/// declares the properties with its own defaults and reasons, and lists these rows once.
public protocol GravityReferenceSettings: SettingsTable where Value == Double {
    /// Starting value of the 1 g reference, m/s^2.
    var nominalGravity: Double { get set }
    /// Smallest |a| that may calibrate the 1 g reference, a fraction.
    var minimumPlausibleScale: Double { get set }
    /// Largest |a| that may calibrate the 1 g reference, a fraction.
    var maximumPlausibleScale: Double { get set }
    /// Time constant of the running 1 g reference, seconds.
    var referenceTimeConstant: Double { get set }
}

extension GravityReferenceSettings {
    /// The rows of the shared settings, for the table's `fields`.
    static var gravityReferenceFields: [SettingsField<Self, Double>] {
        [
            SettingsField("nominalGravity", .metresPerSecondSquared, 1.0...100.0) { $1(&$0.nominalGravity) },
            SettingsField("minimumPlausibleScale", .fraction, 0.05...0.95) { $1(&$0.minimumPlausibleScale) },
            SettingsField("maximumPlausibleScale", .fraction, 1.05...20.0) { $1(&$0.maximumPlausibleScale) },
            SettingsField("referenceTimeConstant", .seconds, 0.1...600.0) { $1(&$0.referenceTimeConstant) },
        ]
    }
}
