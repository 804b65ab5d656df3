/// Everything the configuration decides, with the defaults of a fresh install.
public struct DaemonSettings: Equatable, Sendable {
    /// Interface orientations the UI may take (`[Orientation] AllowedInterfaceOrientations=`).
    public var allowedInterfaceOrientations: Set<InterfaceOrientation> = [
        .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight,
    ]
    /// The estimator's tunables (`SettleTimeMsec=`, `SwitchAngle=`).
    public var estimator = EstimatorSettings()
    /// The forced low-energy flag (`[Energy] LowEnergyMode=`).
    public var lowEnergyMode = LowEnergySetting.auto
    /// How often to sample.
    public var sampling = SamplingPolicy()

    public init() {}

    /// Applies configuration entries in order (later wins) over the defaults. An unknown
    /// section or key, or a bad value, is reported with file, line and key, and the
    /// previous value stays.
    public static func interpret(_ entries: [ConfigEntry]) -> (DaemonSettings, [ConfigDiagnostic]) {
        var settings = DaemonSettings()
        var diagnostics: [ConfigDiagnostic] = []
        for entry in entries {
            let problem = settings.apply(entry)
            if let problem {
                diagnostics.append(
                    ConfigDiagnostic(
                        file: entry.file, line: entry.line, key: "[\(entry.section)] \(entry.key)", message: problem))
            }
        }
        return (settings, diagnostics)
    }

    /// Applies one entry; returns what is wrong with it, or nil.
    mutating func apply(_ entry: ConfigEntry) -> String? {
        switch (entry.section, entry.key) {
        case ("Orientation", "AllowedInterfaceOrientations"):
            var allowed: Set<InterfaceOrientation> = []
            for word in entry.value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) {
                guard let orientation = InterfaceOrientation(name: String(word)), orientation != .unknown else {
                    return
                        "unknown interface orientation '\(word)' (expected portrait, portrait-upside-down, landscape-left, landscape-right); keeping the previous value"
                }
                allowed.insert(orientation)
            }
            guard !allowed.isEmpty else {
                return "needs at least one interface orientation; keeping the previous value"
            }
            allowedInterfaceOrientations = allowed
        case ("Orientation", "SettleTimeMsec"):
            guard let value = UInt32(entry.value), (20...1000).contains(value) else {
                return "expected milliseconds between 20 and 1000, found '\(entry.value)'; keeping the previous value"
            }
            // A half turn needs twice the evidence of a quarter turn.
            estimator.quarterTurnSettleTime = Double(value) / 1000
            estimator.halfTurnSettleTime = 2 * Double(value) / 1000
        case ("Orientation", "SwitchAngle"):
            guard let value = Double(entry.value), value.isFinite, (55...65).contains(value) else {
                return "expected degrees between 55 and 65, found '\(entry.value)'; keeping the previous value"
            }
            estimator.switchAngle = value
        case ("Energy", "LowEnergyMode"):
            guard let value = LowEnergySetting(rawValue: entry.value) else {
                return "expected auto, on or off, found '\(entry.value)'; keeping the previous value"
            }
            lowEnergyMode = value
        case ("Energy", _), ("Compatibility", _), ("Sensor", _):
            return "not supported by this version, ignored"
        default:
            return "unknown key, ignored"
        }
        return nil
    }
}
