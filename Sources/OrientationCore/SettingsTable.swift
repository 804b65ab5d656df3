/// One numeric setting of a settings table (`EstimatorSettings`, `TabletModeSettings`): its
/// property name, unit and allowed range, and the property itself, reached through a pair of
/// plain closures rather than a key path (as `SamplingPolicy.Field`, and for the same reason: key
/// paths pull in runtime code that would stay resident in the daemon). The default is the
/// property's initial value.
public struct SettingsField<Settings: Sendable>: Sendable {
    /// The property's name, e.g. "switchAngle".
    public let name: String
    /// What the value measures.
    public let unit: EstimatorSettings.Unit
    /// The allowed range; `clamped()` brings values back into it.
    public let range: ClosedRange<Double>
    let get: @Sendable (Settings) -> Double
    let set: @Sendable (inout Settings, Double) -> Void

    init(
        _ name: String, _ unit: EstimatorSettings.Unit, _ range: ClosedRange<Double>,
        _ get: @escaping @Sendable (Settings) -> Double,
        _ set: @escaping @Sendable (inout Settings, Double) -> Void
    ) {
        self.name = name
        self.unit = unit
        self.range = range
        self.get = get
        self.set = set
    }
}

/// Settings whose numbers are listed, each once, in one table of fields with unit and range.
public protocol SettingsTable: Sendable {
    /// The defaults.
    init()
    /// Every numeric setting, in declaration order.
    static var fields: [SettingsField<Self>] { get }
}

extension SettingsTable {
    /// The value of `field`.
    public subscript(field: SettingsField<Self>) -> Double {
        get { field.get(self) }
        set { field.set(&self, newValue) }
    }

    /// The setting called `name`, nil for an unknown name.
    public static func field(named name: String) -> SettingsField<Self>? {
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
