// libFuzzer target: the configuration file, as the daemon reads it at start and on SIGHUP.
// ConfigFile.parse (text -> entries + diagnostics), DaemonSettings.interpret (entries ->
// settings), and the reload form interpret(_:keeping:) with the first half of the input as
// the configuration in force. Checks that the settings stay inside their documented ranges
// whatever the text says, and that every line number given points into the text.
import OrientationCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = fuzzText(fuzzBytes(data, size))
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count

    let parsed = ConfigFile.parse(text, file: "/etc/motion-orientationd.conf")
    for entry in parsed.entries {
        fuzzCheck((1...lineCount).contains(entry.line), "entry line \(entry.line) of \(lineCount)")
        fuzzCheck(!entry.key.isEmpty && !entry.key.contains("="), "bad key \(entry.key)")
        fuzzCheck(!entry.section.isEmpty, "empty section for \(entry.key)")
    }
    for diagnostic in parsed.diagnostics {
        fuzzCheck((1...lineCount).contains(diagnostic.line), "diagnostic line \(diagnostic.line) of \(lineCount)")
        _ = diagnostic.description
    }

    let (settings, diagnostics) = DaemonSettings.interpret(parsed.entries)
    checkSettings(settings)
    for diagnostic in diagnostics {
        fuzzCheck((1...lineCount).contains(diagnostic.line), "diagnostic line \(diagnostic.line) of \(lineCount)")
        _ = diagnostic.description
    }

    // A reload: the configuration in force came from the first half of the text.
    let half = String(text.prefix(text.count / 2))
    let before = DaemonSettings.interpret(ConfigFile.parse(half, file: "old.conf").entries, keeping: [])
    checkSettings(before.settings)
    let reloaded = DaemonSettings.interpret(parsed.entries, keeping: before.accepted)
    checkSettings(reloaded.settings)
    // Reloading the same text again changes nothing (what a second SIGHUP does).
    let again = DaemonSettings.interpret(parsed.entries, keeping: reloaded.accepted)
    fuzzCheck(again.settings == reloaded.settings, "a second reload of the same text changed the settings")
    return 0
}

func checkSettings(_ settings: DaemonSettings) {
    let defaults = DaemonSettings()
    fuzzCheck(!settings.allowedInterfaceOrientations.isEmpty, "no allowed interface orientation")
    fuzzCheck(!settings.allowedInterfaceOrientations.contains(.unknown), "unknown is allowed")
    let settle = settings.estimator.quarterTurnSettleTime
    fuzzCheck(
        settle == defaults.estimator.quarterTurnSettleTime || (0.02...1.0).contains(settle),
        "settle time \(settle)")
    fuzzCheck(
        settings.estimator.halfTurnSettleTime == 2 * settle
            || settings.estimator.halfTurnSettleTime == defaults.estimator.halfTurnSettleTime,
        "half turn \(settings.estimator.halfTurnSettleTime) for quarter \(settle)")
    fuzzCheck(
        settings.estimator.switchAngle.isFinite && (55...65).contains(settings.estimator.switchAngle),
        "switch angle \(settings.estimator.switchAngle)")
    fuzzCheck(
        DaemonSettings.batteryLowPercentRange.contains(settings.batteryLowPercent),
        "battery low \(settings.batteryLowPercent)")
    let thermal = settings.thermal
    fuzzCheck(
        thermal.fallbackFair < thermal.fallbackSerious && thermal.fallbackSerious < thermal.fallbackCritical,
        "fallbacks \(thermal.fallbackFair) \(thermal.fallbackSerious) \(thermal.fallbackCritical)")
    for value in [thermal.fallbackFair, thermal.fallbackSerious, thermal.fallbackCritical] {
        fuzzCheck(DaemonSettings.fallbackRange.contains(value), "fallback \(value)")
    }
    fuzzCheck(DaemonSettings.fairMarginRange.contains(thermal.fairMargin), "fair margin \(thermal.fairMargin)")
    fuzzCheck(DaemonSettings.hysteresisRange.contains(thermal.hysteresis), "hysteresis \(thermal.hysteresis)")
    fuzzCheck(settings.sampling.problems().isEmpty, "sampling: \(settings.sampling.problems())")
    if let group = settings.privilegedGroup {
        fuzzCheck(DaemonSettings.isValidGroupName(group), "group \(group)")
    }
    if let pin = settings.sensorPin {
        // The pin as written back reads back the same (the daemon logs it that way).
        fuzzCheck(SensorPin(configValue: pin.description) == pin, "sensor pin \(pin) does not read back")
    }
    if let matrix = settings.mountMatrixOverride {
        fuzzCheck((try? MountMatrix(parsing: matrix.description)) == matrix, "matrix \(matrix) does not read back")
    }
}
