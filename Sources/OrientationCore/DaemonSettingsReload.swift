extension DaemonSettings {
    /// Interprets a re-read configuration the way a reload should: like `interpret(_:)`,
    /// except that a key whose every new assignment is bad keeps its value from `previous`
    /// (the entries accepted last time) instead of falling back to the default. A key that
    /// is gone from the files returns to its default.
    ///
    /// Returns the settings, the entries now in force (for the next reload), and the
    /// diagnostics of the new entries.
    public static func interpret(_ entries: [ConfigEntry], keeping previous: [ConfigEntry]) -> (
        settings: DaemonSettings, accepted: [ConfigEntry], diagnostics: [ConfigDiagnostic]
    ) {
        func key(_ entry: ConfigEntry) -> String { "[\(entry.section)] \(entry.key)" }
        var probe = DaemonSettings()
        var good = Set<String>()
        var bad = Set<String>()
        var accepted: [ConfigEntry] = []
        for entry in entries {
            if probe.apply(entry) == nil {
                good.insert(key(entry))
                accepted.append(entry)
            } else {
                bad.insert(key(entry))
            }
        }
        let kept = previous.filter { bad.contains(key($0)) && !good.contains(key($0)) }
        let (settings, diagnostics) = interpret(kept + entries)
        return (settings, kept + accepted, diagnostics)
    }
}
