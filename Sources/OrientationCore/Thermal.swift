/// How hot the machine is, in the four steps of the iOS `ProcessInfo.ThermalState` that the
/// MotionOrientation library reports (bus property `ThermalState`). Ordered from cool to hot.
public enum ThermalState: String, Sendable, CaseIterable, Comparable {
    /// Within normal limits.
    case nominal
    /// Slightly warm: close to where the kernel starts passive cooling.
    case fair
    /// Hot: at or past a `passive` trip point, the kernel throttles. Turns on low energy mode
    /// in `auto` (reason `thermal`).
    case serious
    /// At or past a `hot` or `critical` trip point: the kernel may shut the machine down soon.
    case critical

    /// Position in the order nominal < fair < serious < critical.
    var rank: Int {
        switch self {
        case .nominal: 0
        case .fair: 1
        case .serious: 2
        case .critical: 3
        }
    }

    public static func < (lhs: ThermalState, rhs: ThermalState) -> Bool { lhs.rank < rhs.rank }
}

/// The kind of a thermal zone trip point, as written in `trip_point_N_type`.
public enum TripPointType: Equatable, Sendable {
    /// The kernel shuts the machine down at this temperature.
    case critical
    /// The kernel tells user space the machine is about to overheat.
    case hot
    /// The kernel starts passive cooling (throttling) at this temperature.
    case passive
    /// The kernel turns on a fan or another active cooling device. Says nothing about how
    /// hot the machine is for its user, so it never decides a thermal state.
    case active
    /// Any other word (kept trimmed, as found).
    case other(String)

    /// Reads the text of a `trip_point_N_type` file, e.g. `"passive\n"`. Surrounding
    /// whitespace and trailing NULs are ignored; the words are the kernel's, lower case.
    public init(sysfs text: String) {
        let trimmed = text.trimmingASCIIWhitespace()
        switch trimmed {
        case "critical": self = .critical
        case "hot": self = .hot
        case "passive": self = .passive
        case "active": self = .active
        default: self = .other(String(trimmed))
        }
    }
}

/// One trip point of a thermal zone.
public struct TripPoint: Equatable, Sendable {
    /// In degrees Celsius (sysfs `trip_point_N_temp` is in millidegrees; the caller divides).
    public var temperature: Double
    /// What the kernel does at this temperature.
    public var type: TripPointType

    public init(temperature: Double, type: TripPointType) {
        self.temperature = temperature
        self.type = type
    }

    /// Whether the temperature is a real threshold rather than a firmware placeholder.
    ///
    /// Firmware fills unused trip points with 0 (Intel `x86_pkg_temp`), large negative values
    /// (-273.2 °C, -32768 °C from some Wi-Fi drivers) or values beyond any real silicon limit
    /// (255 °C, or a millidegree value written in the wrong unit). A trip is usable when it is
    /// finite, above 0 °C and at most 200 °C (`ThermalSettings.usableTripTemperatures`); no
    /// passive, hot or critical trip is meaningful at or below freezing. A placeholder such as
    /// 127 °C is within range and kept: it only sets a threshold the machine never reaches.
    public var isUsable: Bool {
        temperature.isFinite && temperature > ThermalSettings.usableTripTemperatures.lowerBound
            && temperature <= ThermalSettings.usableTripTemperatures.upperBound
    }
}

/// One reading of a thermal zone (`/sys/class/thermal/thermal_zoneN`).
public struct ThermalZoneReading: Equatable, Sendable {
    /// The zone's `type` file, e.g. `acpitz`, `x86_pkg_temp`, `cpu-thermal`.
    public var type: String
    /// The zone's `temp`, in degrees Celsius (sysfs gives millidegrees; the caller divides).
    public var temperature: Double
    /// The zone's trip points, in any order; placeholders are allowed and ignored.
    public var tripPoints: [TripPoint]

    public init(type: String, temperature: Double, tripPoints: [TripPoint]) {
        self.type = type
        self.temperature = temperature
        self.tripPoints = tripPoints
    }
}

/// Where a zone's thermal states start, in degrees Celsius, lowest first.
public struct ThermalThresholds: Equatable, Sendable {
    /// Where a zone's thresholds come from.
    public enum Source: Equatable, Sendable {
        /// A usable `passive` trip point (and possibly `hot`/`critical` ones).
        case passiveTrip
        /// Only `hot`/`critical` trip points: `serious` is derived from them.
        case hotOrCriticalTrip
        /// No usable passive, hot or critical trip point: the configured fallbacks.
        case fallback
    }

    /// Entry temperature of `fair`.
    public var fair: Double
    /// Entry temperature of `serious`; never above `critical`.
    public var serious: Double
    /// Entry temperature of `critical`; infinity when the zone cannot become critical.
    public var critical: Double
    /// Which rule gave these numbers (for log messages).
    public var source: Source

    public init(fair: Double, serious: Double, critical: Double, source: Source) {
        self.fair = fair
        self.serious = serious
        self.critical = critical
        self.source = source
    }

    /// The entry temperature of `state` (`nominal` starts at minus infinity).
    public func entry(of state: ThermalState) -> Double {
        switch state {
        case .nominal: -Double.infinity
        case .fair: fair
        case .serious: serious
        case .critical: critical
        }
    }

    /// The state a zone at `temperature` is in, without hysteresis: the hottest state whose
    /// entry temperature it has reached.
    public func state(at temperature: Double) -> ThermalState {
        if temperature >= critical { return .critical }
        if temperature >= serious { return .serious }
        if temperature >= fair { return .fair }
        return .nominal
    }
}

/// The tunables of the thermal state (`[Thermal]` section of the config).
public struct ThermalSettings: Equatable, Sendable {
    /// Degrees Celsius below a zone's passive trip where `fair` starts: a warning before the
    /// kernel throttles. Also the distance below the lowest hot/critical trip where `serious`
    /// starts in a zone without a passive trip (`FairMarginCelsius=`).
    public var fairMargin = 10.0
    /// Degrees Celsius a zone must cool below a state's entry temperature before it leaves that
    /// state, so a zone hovering at a trip point does not flip the state (and low energy mode)
    /// on every reading (`HysteresisCelsius=`).
    public var hysteresis = 3.0
    /// Entry temperature of `fair`, in °C, for zones without usable trip points
    /// (`FallbackFairCelsius=`).
    public var fallbackFair = 70.0
    /// Entry temperature of `serious`, in °C, for zones without usable trip points: where a
    /// laptop or tablet SoC typically starts throttling (`FallbackSeriousCelsius=`).
    public var fallbackSerious = 85.0
    /// Entry temperature of `critical`, in °C, for zones without usable trip points: close to
    /// the junction limit of common CPUs (`FallbackCriticalCelsius=`).
    public var fallbackCritical = 95.0
    /// Zone `type`s to use; empty means every zone (`IncludeZones=`). Entries may hold the
    /// wildcards `*` (any run of characters) and `?` (one character), e.g. `cpu*-thermal`.
    public var includeTypes: [String] = []
    /// Zone `type`s to ignore, with the same wildcards; wins over `includeTypes`
    /// (`ExcludeZones=`).
    public var excludeTypes: [String] = []

    /// Trip temperatures outside this range (°C, lower bound excluded) are firmware placeholders
    /// and ignored; see `TripPoint.isUsable`.
    public static let usableTripTemperatures: ClosedRange<Double> = 0...200
    /// Zone temperatures outside this range (°C) are not believed: such a reading is skipped and
    /// the zone keeps its previous state (a broken sensor reading 255 °C must not force
    /// `critical` forever).
    public static let plausibleZoneTemperatures: ClosedRange<Double> = -50...200

    public init() {}

    /// Whether a zone of this `type` counts: not matched by `excludeTypes`, and matched by
    /// `includeTypes` when that is not empty. Matching is case-sensitive, on the whole type.
    public func uses(zoneType: String) -> Bool {
        if excludeTypes.contains(where: { Self.matches(pattern: $0, zoneType) }) { return false }
        if includeTypes.isEmpty { return true }
        return includeTypes.contains(where: { Self.matches(pattern: $0, zoneType) })
    }

    /// Where the states of a zone with these trip points start.
    ///
    /// Only usable `passive`, `hot` and `critical` trips count (`active` trips drive fans and say
    /// nothing about throttling). With P the lowest passive trip and H the lowest hot/critical one:
    /// - P and H: critical = H, serious = min(P, H), fair = serious - `fairMargin`;
    /// - P only: serious = P, fair = P - `fairMargin`, and no `critical` (infinity): the
    ///   firmware names no emergency temperature, and a fallback could sit below P;
    /// - H only: critical = H, serious = H - `fairMargin` (as if a passive trip sat one margin
    ///   below it), fair = serious - `fairMargin`;
    /// - neither: the fallbacks `fallbackFair`, `fallbackSerious`, `fallbackCritical`.
    public func thresholds(for tripPoints: [TripPoint]) -> ThermalThresholds {
        var passive: Double? = nil
        var hot: Double? = nil
        for trip in tripPoints where trip.isUsable {
            switch trip.type {
            case .passive: passive = min(passive ?? trip.temperature, trip.temperature)
            case .hot, .critical: hot = min(hot ?? trip.temperature, trip.temperature)
            case .active, .other: break
            }
        }
        switch (passive, hot) {
        case (let passive?, let hot?):
            let serious = min(passive, hot)
            return ThermalThresholds(fair: serious - fairMargin, serious: serious, critical: hot, source: .passiveTrip)
        case (let passive?, nil):
            return ThermalThresholds(
                fair: passive - fairMargin, serious: passive, critical: .infinity, source: .passiveTrip)
        case (nil, let hot?):
            let serious = hot - fairMargin
            return ThermalThresholds(
                fair: serious - fairMargin, serious: serious, critical: hot, source: .hotOrCriticalTrip)
        case (nil, nil):
            return ThermalThresholds(
                fair: fallbackFair, serious: fallbackSerious, critical: fallbackCritical, source: .fallback)
        }
    }

    /// Shell-style match of `text` against `pattern` with `*` and `?`, on Unicode scalars.
    static func matches(pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars)
        let t = Array(text.unicodeScalars)
        var pi = 0
        var ti = 0
        var star: Int? = nil
        var resume = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || (p[pi] != "*" && p[pi] == t[ti])) {
                pi += 1
                ti += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi
                resume = ti
                pi += 1
            } else if let star {
                pi = star + 1
                resume += 1
                ti = resume
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}

/// Per-zone thermal states with hysteresis; the overall state is the worst zone's.
///
/// A zone enters a hotter state as soon as its temperature reaches that state's entry
/// temperature (several states at once if need be). It leaves a state only when its temperature
/// is below that state's entry temperature minus `hysteresis`, and then keeps dropping while the
/// same holds for the next state down, so a zone far below its thresholds returns to `nominal` in
/// one reading. Pure value: the daemon reads the zones and calls `update` every few seconds.
public struct ThermalMonitor: Sendable {
    /// The tunables; settable on reload, the per-zone states are kept (the next `update`
    /// applies the new thresholds and drops zones no longer used).
    public var settings: ThermalSettings
    /// The worst zone's state after the last `update`; `nominal` initially and when no zone is
    /// used.
    public private(set) var state: ThermalState = .nominal
    /// Each used zone's state, keyed by zone id.
    private var zones: [String: ThermalState] = [:]

    public init(settings: ThermalSettings = ThermalSettings()) {
        self.settings = settings
    }

    /// Takes one reading of every zone and returns the overall state.
    ///
    /// `readings` is keyed by zone id (e.g. `thermal_zone0`); zones missing from it are forgotten,
    /// and so are zones whose type `settings` does not use. A zone whose temperature is not finite
    /// or outside `ThermalSettings.plausibleZoneTemperatures` keeps its previous state (a new zone
    /// with such a reading stays unknown and does not count).
    public mutating func update(_ readings: [String: ThermalZoneReading]) -> ThermalState {
        var next: [String: ThermalState] = [:]
        for (id, reading) in readings where settings.uses(zoneType: reading.type) {
            let temperature = reading.temperature
            guard temperature.isFinite, ThermalSettings.plausibleZoneTemperatures.contains(temperature) else {
                if let previous = zones[id] { next[id] = previous }
                continue
            }
            let thresholds = settings.thresholds(for: reading.tripPoints)
            next[id] = Self.step(from: zones[id] ?? .nominal, temperature: temperature, thresholds, settings.hysteresis)
        }
        zones = next
        state = next.values.max() ?? .nominal
        return state
    }

    /// The state of one zone after the last `update`, nil when the zone is unknown or not used.
    public func zoneState(_ id: String) -> ThermalState? {
        zones[id]
    }

    /// One zone's next state: up at once to the raw state, down only past the hysteresis.
    static func step(
        from current: ThermalState, temperature: Double, _ thresholds: ThermalThresholds, _ hysteresis: Double
    ) -> ThermalState {
        let raw = thresholds.state(at: temperature)
        if raw >= current { return raw }
        var state = current
        while state > raw, temperature < thresholds.entry(of: state) - hysteresis {
            state = ThermalState.allCases[state.rank - 1]
        }
        return state
    }
}
