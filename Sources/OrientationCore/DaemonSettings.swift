/// Everything the configuration decides, with the defaults of a fresh install.
public struct DaemonSettings: Equatable, Sendable {
    /// Interface orientations the UI may take (`[Orientation] AllowedInterfaceOrientations=`).
    public var allowedInterfaceOrientations: Set<InterfaceOrientation> = [
        .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight,
    ]
    /// The estimator's tunables (`[Orientation]` keys: `EstimatorSettings.configKeys`).
    public var estimator = EstimatorSettings()
    /// The forced low-energy flag (`[Energy] LowEnergyMode=`).
    public var lowEnergyMode = LowEnergySetting.auto
    /// Also serve iio-sensor-proxy's `net.hadess.SensorProxy` (`[Compatibility] SensorProxy=`).
    public var sensorProxyCompatibility = false
    /// A battery discharging at or below this percentage turns on low energy mode in `auto`
    /// (`[Energy] BatteryLowPercent=`, 1 to 99). 20 % is where desktops warn about the battery.
    public var batteryLowPercent = 20
    /// Whether a closed lid pauses sampling (`[Energy] PauseWhenLidClosed=`): with the lid shut
    /// nobody sees the screen, so its orientation serves no one.
    public var pauseWhenLidClosed = true
    /// A group whose members may call `SetLowEnergyMode()`, besides root
    /// (`[Energy] PrivilegedGroup=`); nil means root only. Only the name is checked here
    /// (`isValidGroupName`); whether the group exists is the daemon's business.
    public var privilegedGroup: String? = nil
    /// The thermal state's tunables (`[Thermal]`).
    public var thermal = ThermalSettings()
    /// How often to sample (`[Sampling]`).
    public var sampling = SamplingPolicy()
    /// The accelerometer to use whatever its location (`[Sensor] Device=`); nil lets
    /// `SensorSelection.choose` take the first display accelerometer.
    public var sensorPin: SensorPin? = nil
    /// A mount matrix that replaces udev's and the kernel's (`[Sensor] MountMatrix=`); nil uses
    /// `MountMatrixResolution`'s sources.
    public var mountMatrixOverride: MountMatrix? = nil
    /// Read the buffered interface (`/dev/iio:deviceN`) when the device has one
    /// (`[Sensor] PreferBuffer=`); `no` polls the `_raw` attributes instead. Buffered reads deliver
    /// every sample with its kernel timestamp and need no read per sample.
    public var preferBuffer = true
    /// The tablet-mode source and the hinge's numbers (`[TabletMode] Source=`, `EnterAngle=`,
    /// `ExitAngle=`, `VirtualSwitch=`).
    public var tabletMode = TabletModeSettings()
    /// Whether the interface orientation stays upright-as-a-laptop while not in tablet mode
    /// (`[Orientation] LockInLaptopMode=`); nil when the configuration does not say, which
    /// `locksInLaptopMode(tabletModeSource:)` resolves.
    public var lockInLaptopMode: Bool? = nil

    /// Allowed range of `batteryLowPercent`: 0 would never trigger, 100 always.
    public static let batteryLowPercentRange: ClosedRange<Int> = 1...99
    /// Allowed range of `ThermalSettings.fairMargin`, in °C.
    public static let fairMarginRange: ClosedRange<Double> = 0...50
    /// Allowed range of `ThermalSettings.hysteresis`, in °C.
    public static let hysteresisRange: ClosedRange<Double> = 0...20
    /// Allowed range of the fallback thresholds, in °C.
    public static let fallbackRange: ClosedRange<Double> = 1...200

    public init() {}

    /// Whether the laptop-mode lock is on: as configured, else yes when there is a tablet-mode
    /// source (without one, `TabletMode` is always false and a lock would stop every rotation).
    public func locksInLaptopMode(tabletModeSource: TabletModeSource) -> Bool {
        lockInLaptopMode ?? (tabletModeSource != .none)
    }

    /// Applies configuration entries in order (later wins) over the defaults. An unknown
    /// section or key, or a bad value, is reported with file, line and key, and the
    /// previous value stays.
    ///
    /// Values that must agree with each other are checked after every entry is applied: the
    /// fallback thresholds must rise strictly (fair < serious < critical), and each moving
    /// interval must be at most its still interval, `[TabletMode] ExitAngle=` must be at least
    /// `minimumAngleGap` (10) degrees under `EnterAngle=`. A group that does not is reported at the
    /// last line that set one of its keys and goes back to its defaults as a whole.
    public static func interpret(_ entries: [ConfigEntry]) -> (DaemonSettings, [ConfigDiagnostic]) {
        var settings = DaemonSettings()
        var diagnostics: [ConfigDiagnostic] = []
        // The entry that last set each key successfully, to locate consistency problems.
        var lastSet: [String: (order: Int, entry: ConfigEntry)] = [:]
        for (order, entry) in entries.enumerated() {
            let problem = settings.apply(entry)
            if let problem {
                diagnostics.append(
                    ConfigDiagnostic(
                        file: entry.file, line: entry.line, key: "[\(entry.section)] \(entry.key)", message: problem))
            } else {
                lastSet["[\(entry.section)] \(entry.key)"] = (order, entry)
            }
        }
        /// The latest of the entries that set any of `keys` (all in `section`).
        func culprit(_ section: String, _ keys: [String]) -> ConfigEntry? {
            keys.compactMap { lastSet["[\(section)] \($0)"] }.max(by: { $0.order < $1.order })?.entry
        }
        func report(_ entry: ConfigEntry?, _ message: String) {
            guard let entry else { return }
            diagnostics.append(
                ConfigDiagnostic(
                    file: entry.file, line: entry.line, key: "[\(entry.section)] \(entry.key)", message: message))
        }

        let thermal = settings.thermal
        if !(thermal.fallbackFair < thermal.fallbackSerious && thermal.fallbackSerious < thermal.fallbackCritical) {
            let defaults = ThermalSettings()
            report(
                culprit("Thermal", ["FallbackFairCelsius", "FallbackSeriousCelsius", "FallbackCriticalCelsius"]),
                "fallback thresholds must rise: FallbackFairCelsius (\(thermal.fallbackFair)) < "
                    + "FallbackSeriousCelsius (\(thermal.fallbackSerious)) < FallbackCriticalCelsius "
                    + "(\(thermal.fallbackCritical)); using the defaults \(defaults.fallbackFair), "
                    + "\(defaults.fallbackSerious) and \(defaults.fallbackCritical) for the three")
            settings.thermal.fallbackFair = defaults.fallbackFair
            settings.thermal.fallbackSerious = defaults.fallbackSerious
            settings.thermal.fallbackCritical = defaults.fallbackCritical
        }

        let defaults = SamplingPolicy()
        for (moving, still) in SamplingPolicy.pairs
        where settings.sampling[moving] > settings.sampling[still] {
            report(
                culprit("Sampling", [moving.name, still.name]),
                "\(moving.name) (\(settings.sampling[moving])) must not be longer than \(still.name) "
                    + "(\(settings.sampling[still])); using the defaults "
                    + "\(defaults[moving]) and \(defaults[still]) for both")
            settings.sampling[moving] = defaults[moving]
            settings.sampling[still] = defaults[still]
        }
        let tablet = settings.tabletMode
        if tablet.exitAngle > tablet.enterAngle - tablet.minimumAngleGap {
            let defaults = TabletModeSettings()
            report(
                culprit("TabletMode", ["EnterAngle", "ExitAngle"]),
                "ExitAngle (\(tablet.exitAngle)) must be at least \(tablet.minimumAngleGap) degrees under "
                    + "EnterAngle (\(tablet.enterAngle)); using the defaults \(defaults.enterAngle) and "
                    + "\(defaults.exitAngle) for both")
            settings.tabletMode.enterAngle = defaults.enterAngle
            settings.tabletMode.exitAngle = defaults.exitAngle
        }
        return (settings, diagnostics)
    }

    /// Applies one entry; returns what is wrong with it, or nil.
    mutating func apply(_ entry: ConfigEntry) -> String? {
        let keep = "; keeping the previous value"
        if entry.section == "Orientation", let key = EstimatorSettings.configKeys.first(where: { $0.name == entry.key })
        {
            return estimator.apply(key, value: entry.value)
        }
        switch (entry.section, entry.key) {
        case ("Orientation", "AllowedInterfaceOrientations"):
            var allowed: Set<InterfaceOrientation> = []
            for word in Self.words(entry.value) {
                guard let orientation = InterfaceOrientation(name: String(word)), orientation != .unknown else {
                    return "unknown interface orientation '\(word)' (expected portrait, portrait-upside-down, "
                        + "landscape-left, landscape-right)" + keep
                }
                allowed.insert(orientation)
            }
            guard !allowed.isEmpty else {
                return "needs at least one interface orientation" + keep
            }
            allowedInterfaceOrientations = allowed
        case ("Orientation", "LockInLaptopMode"):
            return Self.optional(
                entry.value, into: &lockInLaptopMode, ConfigFile.parseBoolean, problem: Self.notBoolean)
        case ("Energy", "LowEnergyMode"):
            guard let value = LowEnergySetting(rawValue: entry.value) else {
                return "expected auto, on or off, found '\(entry.value)'" + keep
            }
            lowEnergyMode = value
        case ("Energy", "BatteryLowPercent"):
            let range = Self.batteryLowPercentRange
            guard let value = Int(entry.value), range.contains(value) else {
                return "expected a percentage between \(range.lowerBound) and \(range.upperBound), "
                    + "found '\(entry.value)'" + keep
            }
            batteryLowPercent = value
        case ("Energy", "PauseWhenLidClosed"):
            return Self.boolean(entry.value, into: &pauseWhenLidClosed)
        case ("Energy", "PrivilegedGroup"):
            return Self.optional(entry.value, into: &privilegedGroup, { Self.isValidGroupName($0) ? $0 : nil }) {
                "not a valid group name: '\($0)' (expected up to 32 letters, digits, '_' or '-', not starting with "
                    + "a digit or '-')"
            }

        case ("Thermal", "FairMarginCelsius"):
            return Self.decimal(entry.value, .degreesCelsius, Self.fairMarginRange, into: &thermal.fairMargin)
        case ("Thermal", "HysteresisCelsius"):
            return Self.decimal(entry.value, .degreesCelsius, Self.hysteresisRange, into: &thermal.hysteresis)
        case ("Thermal", "FallbackFairCelsius"):
            return Self.decimal(entry.value, .degreesCelsius, Self.fallbackRange, into: &thermal.fallbackFair)
        case ("Thermal", "FallbackSeriousCelsius"):
            return Self.decimal(entry.value, .degreesCelsius, Self.fallbackRange, into: &thermal.fallbackSerious)
        case ("Thermal", "FallbackCriticalCelsius"):
            return Self.decimal(entry.value, .degreesCelsius, Self.fallbackRange, into: &thermal.fallbackCritical)
        case ("Thermal", "IncludeZones"):
            Self.appendList(entry.value, to: &thermal.includeTypes)
        case ("Thermal", "ExcludeZones"):
            Self.appendList(entry.value, to: &thermal.excludeTypes)

        case ("Sampling", let key):
            guard let field = SamplingPolicy.field(named: key) else { return "unknown key, ignored" }
            return field.apply(entry.value, to: &sampling)

        case ("TabletMode", "Source"):
            guard let value = TabletModeSetting(rawValue: entry.value) else {
                return "expected auto, switch, hinge or off, found '\(entry.value)'" + keep
            }
            tabletMode.source = value
        case ("TabletMode", "VirtualSwitch"):
            if let value = VirtualSwitchSetting(rawValue: entry.value) {
                tabletMode.virtualSwitch = value
            } else if let value = ConfigFile.parseBoolean(entry.value) {
                tabletMode.virtualSwitch = value ? .yes : .no
            } else {
                return "expected auto, yes or no, found '\(entry.value)'" + keep
            }
        case ("TabletMode", "EnterAngle"):
            return Self.decimal(entry.value, .degrees, TabletModeSettings.enterAngleRange, into: &tabletMode.enterAngle)
        case ("TabletMode", "ExitAngle"):
            return Self.decimal(entry.value, .degrees, TabletModeSettings.exitAngleRange, into: &tabletMode.exitAngle)

        case ("Compatibility", "SensorProxy"):
            return Self.boolean(entry.value, into: &sensorProxyCompatibility)

        case ("Sensor", "Device"):
            return Self.optional(entry.value, into: &sensorPin, SensorPin.init(configValue:)) {
                "expected an IIO name, a sysfs path under /sys/, label:<label> or name:<name>, found '\($0)'"
            }
        case ("Sensor", "MountMatrix"):
            // Taken with or without quotes: the README and udev's hwdb print the value quoted.
            var problem = ""
            return Self.optional(Self.unquoted(entry.value), into: &mountMatrixOverride) { text in
                do {
                    return try MountMatrix(parsing: text)
                } catch {
                    problem = "\(error)"
                    return nil
                }
            } problem: { _ in
                problem + ", found '\(entry.value)'"
            }
        case ("Sensor", "PreferBuffer"):
            return Self.boolean(entry.value, into: &preferBuffer)
        default:
            return "unknown key, ignored"
        }
        return nil
    }

    /// Parses a decimal number of `unit` (`.` as separator) within `range` into `target`;
    /// returns the problem, or nil.
    static func decimal(
        _ text: String, _ unit: SettingsUnit, _ range: ClosedRange<Double>, into target: inout Double
    ) -> String? {
        guard let value = try? SysfsNumber.parseDecimal(text), range.contains(value) else {
            return "expected \(unit.rawValue) between \(range.lowerBound) and \(range.upperBound), found '\(text)'; "
                + "keeping the previous value"
        }
        target = value
        return nil
    }

    /// Parses a systemd boolean into `target`; returns the problem, or nil.
    static func boolean(_ text: String, into target: inout Bool) -> String? {
        guard let value = ConfigFile.parseBoolean(text) else {
            return notBoolean(text) + "; keeping the previous value"
        }
        target = value
        return nil
    }

    /// What is wrong with `text` that is no systemd boolean.
    static func notBoolean(_ text: String) -> String {
        "expected a boolean (yes, no, true, false, on, off, 1, 0), found '\(text)'"
    }

    /// Sets a setting that may be unset: an empty value resets it to nil (as if the
    /// configuration did not say), any other is what `parse` makes of it; returns the problem
    /// (`problem` of the text when `parse` gives nil), or nil.
    static func optional<Value>(
        _ text: String, into target: inout Value?, _ parse: (String) -> Value?, problem: (String) -> String
    ) -> String? {
        if text.isEmpty {
            target = nil
        } else {
            guard let value = parse(text) else { return problem(text) + "; keeping the previous value" }
            target = value
        }
        return nil
    }

    /// `text` without one pair of surrounding double or single quotes, if it has them.
    static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else {
            return text
        }
        return String(text.dropFirst().dropLast())
    }

    /// The words of a list value, separated by spaces, tabs or commas.
    static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
    }

    /// systemd list semantics: each assignment appends its words (once each), an empty
    /// assignment clears the list, so a drop-in can add to or reset what the main file says.
    static func appendList(_ text: String, to list: inout [String]) {
        let words = Self.words(text)
        if words.isEmpty {
            list = []
            return
        }
        for word in words where !list.contains(String(word)) {
            list.append(String(word))
        }
    }

    /// Whether `name` is a group name that can be looked up safely: 1 to 32 ASCII letters,
    /// digits, `_` or `-`, the first a letter or `_` (the strict rule of systemd and shadow-utils;
    /// no `/`, `:`, spaces or all-digit names that could pass for a gid).
    public static func isValidGroupName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...32).contains(bytes.count) else { return false }
        func isLetter(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard isLetter(bytes[0]) else { return false }
        return bytes.dropFirst().allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
    }
}
