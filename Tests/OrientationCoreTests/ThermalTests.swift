import OrientationCore
import Testing

@Suite struct ThermalStateTests {
    @Test func statesAreOrderedFromCoolToHot() {
        #expect(ThermalState.allCases == [.nominal, .fair, .serious, .critical])
        #expect(ThermalState.nominal < .fair && ThermalState.fair < .serious && ThermalState.serious < .critical)
        #expect(ThermalState.allCases.max() == .critical)
        #expect(ThermalState.allCases.map(\.rawValue) == ["nominal", "fair", "serious", "critical"])
    }

    @Test func tripPointTypesParseTheKernelWords() {
        #expect(TripPointType(sysfs: "critical\n") == .critical)
        #expect(TripPointType(sysfs: "hot") == .hot)
        #expect(TripPointType(sysfs: " passive \n") == .passive)
        #expect(TripPointType(sysfs: "active\n\0") == .active)
        #expect(TripPointType(sysfs: "Passive\n") == .other("Passive"))
        #expect(TripPointType(sysfs: "wake\n") == .other("wake"))
        #expect(TripPointType(sysfs: "\n") == .other(""))
    }

    @Test func placeholderTripsAreNotUsable() {
        for placeholder in [0, -273.2, -32768, 255, 1000, Double.nan, Double.infinity] {
            #expect(!TripPoint(temperature: placeholder, type: .passive).isUsable, "\(placeholder)")
        }
        for real in [0.5, 45, 90, 127, 200] {
            #expect(TripPoint(temperature: real, type: .critical).isUsable, "\(real)")
        }
    }
}

@Suite struct ThermalThresholdTests {
    let settings = ThermalSettings()

    @Test func passiveAndCriticalTrips() {
        let thresholds = settings.thresholds(for: [
            TripPoint(temperature: 105, type: .critical), TripPoint(temperature: 90, type: .passive),
            TripPoint(temperature: 60, type: .active),
        ])
        #expect(thresholds == ThermalThresholds(fair: 80, serious: 90, critical: 105, source: .passiveTrip))
    }

    @Test func lowestTripOfEachKindCounts() {
        let thresholds = settings.thresholds(for: [
            TripPoint(temperature: 95, type: .passive), TripPoint(temperature: 85, type: .passive),
            TripPoint(temperature: 110, type: .critical), TripPoint(temperature: 100, type: .hot),
        ])
        #expect(thresholds == ThermalThresholds(fair: 75, serious: 85, critical: 100, source: .passiveTrip))
    }

    @Test func passiveAboveCriticalIsCappedAtCritical() {
        let thresholds = settings.thresholds(for: [
            TripPoint(temperature: 100, type: .passive), TripPoint(temperature: 95, type: .critical),
        ])
        #expect(thresholds == ThermalThresholds(fair: 85, serious: 95, critical: 95, source: .passiveTrip))
    }

    @Test func passiveOnlyNeverBecomesCritical() {
        let thresholds = settings.thresholds(for: [TripPoint(temperature: 100, type: .passive)])
        #expect(thresholds.serious == 100 && thresholds.fair == 90)
        #expect(thresholds.critical == .infinity)
        #expect(thresholds.state(at: 150) == .serious)
    }

    @Test func hotOrCriticalOnlyDerivesSeriousOneMarginBelow() {
        let thresholds = settings.thresholds(for: [TripPoint(temperature: 100, type: .critical)])
        #expect(thresholds == ThermalThresholds(fair: 80, serious: 90, critical: 100, source: .hotOrCriticalTrip))
        let hot = settings.thresholds(for: [
            TripPoint(temperature: 110, type: .critical), TripPoint(temperature: 98, type: .hot),
        ])
        #expect(hot == ThermalThresholds(fair: 78, serious: 88, critical: 98, source: .hotOrCriticalTrip))
    }

    @Test func activeOnlyPlaceholdersOrNoTripsUseTheFallbacks() {
        let fallback = ThermalThresholds(fair: 70, serious: 85, critical: 95, source: .fallback)
        #expect(settings.thresholds(for: []) == fallback)
        #expect(settings.thresholds(for: [TripPoint(temperature: 50, type: .active)]) == fallback)
        #expect(settings.thresholds(for: [TripPoint(temperature: 80, type: .other("wake"))]) == fallback)
        // x86_pkg_temp writes 0, iwlwifi -32768, broken firmware 255.
        #expect(
            settings.thresholds(for: [
                TripPoint(temperature: 0, type: .passive), TripPoint(temperature: -32768, type: .passive),
                TripPoint(temperature: 255, type: .critical),
            ]) == fallback)
    }

    @Test func placeholderAmongRealTripsIsSkipped() {
        let thresholds = settings.thresholds(for: [
            TripPoint(temperature: 0, type: .passive), TripPoint(temperature: 92, type: .passive),
            TripPoint(temperature: 0, type: .critical), TripPoint(temperature: 103, type: .critical),
        ])
        #expect(thresholds == ThermalThresholds(fair: 82, serious: 92, critical: 103, source: .passiveTrip))
    }

    @Test func configuredMarginAndFallbacksApply() {
        var settings = ThermalSettings()
        settings.fairMargin = 4
        settings.fallbackFair = 60
        settings.fallbackSerious = 75
        settings.fallbackCritical = 90
        #expect(settings.thresholds(for: [TripPoint(temperature: 90, type: .passive)]).fair == 86)
        #expect(
            settings.thresholds(for: []) == ThermalThresholds(fair: 60, serious: 75, critical: 90, source: .fallback))
    }

    @Test func zoneTypesByIncludeAndExclude() {
        var settings = ThermalSettings()
        #expect(settings.uses(zoneType: "acpitz") && settings.uses(zoneType: "iwlwifi_1"))
        settings.excludeTypes = ["iwlwifi_1"]
        #expect(!settings.uses(zoneType: "iwlwifi_1") && settings.uses(zoneType: "acpitz"))
        settings.includeTypes = ["x86_pkg_temp", "iwlwifi_1"]
        #expect(settings.uses(zoneType: "x86_pkg_temp"))
        #expect(!settings.uses(zoneType: "acpitz"))
        #expect(!settings.uses(zoneType: "iwlwifi_1"))  // exclude wins
        #expect(!settings.uses(zoneType: "X86_PKG_TEMP"))  // case-sensitive
        #expect(!settings.uses(zoneType: "x86_pkg_temp2"))  // whole type
    }

    @Test func zoneTypesMatchWildcards() {
        var settings = ThermalSettings()
        settings.includeTypes = ["cpu*-thermal", "soc?"]
        #expect(settings.uses(zoneType: "cpu-thermal"))
        #expect(settings.uses(zoneType: "cpu0-thermal"))
        #expect(settings.uses(zoneType: "cpu-big1-thermal"))
        #expect(settings.uses(zoneType: "soc1"))
        #expect(!settings.uses(zoneType: "soc"))
        #expect(!settings.uses(zoneType: "soc12"))
        #expect(!settings.uses(zoneType: "gpu-thermal"))
        settings.excludeTypes = ["*big*"]
        #expect(!settings.uses(zoneType: "cpu-big1-thermal"))
        settings.includeTypes = []
        settings.excludeTypes = ["*"]
        #expect(!settings.uses(zoneType: "acpitz"))
    }
}

@Suite struct ThermalMonitorTests {
    /// A zone with a passive trip at 90 °C and a critical one at 105 °C.
    static func cpu(_ temperature: Double, type: String = "cpu-thermal") -> ThermalZoneReading {
        ThermalZoneReading(
            type: type, temperature: temperature,
            tripPoints: [
                TripPoint(temperature: 90, type: .passive), TripPoint(temperature: 105, type: .critical),
            ])
    }

    /// Feeds `temperatures` to one zone and returns the state after each.
    static func run(_ temperatures: [Double], _ monitor: inout ThermalMonitor) -> [ThermalState] {
        temperatures.map { monitor.update(["thermal_zone0": cpu($0)]) }
    }

    @Test func startsNominal() {
        let monitor = ThermalMonitor()
        #expect(monitor.state == .nominal)
        #expect(monitor.zoneState("thermal_zone0") == nil)
    }

    @Test func eachStateFromTheTrips() {
        let cases: [(Double, ThermalState)] = [
            (40, .nominal), (79.9, .nominal), (80, .fair), (89.9, .fair), (90, .serious), (104.9, .serious),
            (105, .critical), (130, .critical),
        ]
        for (temperature, expected) in cases {
            var monitor = ThermalMonitor()  // fresh: no hysteresis from an earlier state
            #expect(monitor.update(["z": Self.cpu(temperature)]) == expected, "\(temperature)")
            #expect(monitor.state == expected)
            #expect(monitor.zoneState("z") == expected)
        }
    }

    @Test func hysteresisOnTheWayDown() {
        var monitor = ThermalMonitor()
        let states = Self.run([80, 90, 88, 87, 86.9, 78, 77, 76.9, 80], &monitor)
        #expect(states == [.fair, .serious, .serious, .serious, .fair, .fair, .fair, .nominal, .fair])
    }

    @Test func risingIsImmediateAndMaySkipStates() {
        var monitor = ThermalMonitor()
        #expect(Self.run([50, 106], &monitor) == [.nominal, .critical])
        // Back down from critical: stays until below 105 - 3.
        #expect(Self.run([102, 101.9], &monitor) == [.critical, .serious])
    }

    @Test func farBelowDropsSeveralStatesAtOnce() {
        var monitor = ThermalMonitor()
        #expect(Self.run([110, 50], &monitor) == [.critical, .nominal])
        #expect(Self.run([110, 85], &monitor) == [.critical, .fair])
        #expect(Self.run([110, 95], &monitor) == [.critical, .serious])
    }

    @Test func configuredHysteresisAndMargin() {
        var settings = ThermalSettings()
        settings.hysteresis = 0
        settings.fairMargin = 5
        var monitor = ThermalMonitor(settings: settings)
        #expect(Self.run([84.9, 85, 90, 89.9, 84.9], &monitor) == [.nominal, .fair, .serious, .fair, .nominal])
    }

    @Test func fallbackThresholdsForZonesWithoutTrips() {
        var monitor = ThermalMonitor()
        let states = [60, 70, 85, 95, 92.5, 91.9, 81.9, 66.9].map { temperature in
            monitor.update(["z": ThermalZoneReading(type: "x86_pkg_temp", temperature: temperature, tripPoints: [])])
        }
        #expect(states == [.nominal, .fair, .serious, .critical, .critical, .serious, .fair, .nominal])
    }

    @Test func placeholderTripsFallBack() {
        var monitor = ThermalMonitor()
        let zone = ThermalZoneReading(
            type: "x86_pkg_temp", temperature: 72,
            tripPoints: [TripPoint(temperature: 0, type: .passive), TripPoint(temperature: 0, type: .passive)])
        // With the 0 °C trips taken at face value this would be serious; the fallbacks say fair.
        #expect(monitor.update(["thermal_zone3": zone]) == .fair)
    }

    @Test func worstZoneWins() {
        var monitor = ThermalMonitor()
        let readings = [
            "thermal_zone0": Self.cpu(50),
            "thermal_zone1": ThermalZoneReading(type: "acpitz", temperature: 96, tripPoints: []),
            "thermal_zone2": Self.cpu(82, type: "gpu-thermal"),
        ]
        #expect(monitor.update(readings) == .critical)
        #expect(monitor.zoneState("thermal_zone0") == .nominal)
        #expect(monitor.zoneState("thermal_zone1") == .critical)
        #expect(monitor.zoneState("thermal_zone2") == .fair)
        var cooler = readings
        cooler["thermal_zone1"] = ThermalZoneReading(type: "acpitz", temperature: 40, tripPoints: [])
        #expect(monitor.update(cooler) == .fair)
    }

    @Test func vanishingZoneIsForgotten() {
        var monitor = ThermalMonitor()
        #expect(monitor.update(["a": Self.cpu(95), "b": Self.cpu(50)]) == .serious)
        #expect(monitor.update(["b": Self.cpu(50)]) == .nominal)
        #expect(monitor.zoneState("a") == nil)
        // Coming back it starts afresh: 88 is fair for a new zone (no remembered serious).
        #expect(monitor.update(["a": Self.cpu(88), "b": Self.cpu(50)]) == .fair)
        #expect(monitor.update([:]) == .nominal)
        #expect(monitor.state == .nominal)
    }

    @Test func zonesNotUsedAreIgnored() {
        var settings = ThermalSettings()
        settings.excludeTypes = ["iwlwifi_1"]
        var monitor = ThermalMonitor(settings: settings)
        let readings = [
            "thermal_zone0": Self.cpu(50),
            "thermal_zone7": ThermalZoneReading(type: "iwlwifi_1", temperature: 120, tripPoints: []),
        ]
        #expect(monitor.update(readings) == .nominal)
        #expect(monitor.zoneState("thermal_zone7") == nil)

        var onlyGPU = ThermalSettings()
        onlyGPU.includeTypes = ["gpu-thermal"]
        var included = ThermalMonitor(settings: onlyGPU)
        #expect(included.update(["a": Self.cpu(100), "b": Self.cpu(82, type: "gpu-thermal")]) == .fair)
        #expect(included.zoneState("a") == nil)
    }

    @Test func reloadKeepsZoneStatesAndAppliesNewSettings() {
        var monitor = ThermalMonitor()
        #expect(monitor.update(["z": Self.cpu(95)]) == .serious)
        monitor.settings.hysteresis = 10
        // 86 would leave serious with 3 °C of hysteresis; with 10 it stays.
        #expect(monitor.update(["z": Self.cpu(86)]) == .serious)
        #expect(monitor.update(["z": Self.cpu(79.9)]) == .fair)
        monitor.settings.excludeTypes = ["cpu-thermal"]
        #expect(monitor.update(["z": Self.cpu(95)]) == .nominal)
        #expect(monitor.zoneState("z") == nil)
    }

    @Test func implausibleReadingKeepsThePreviousState() {
        var monitor = ThermalMonitor()
        #expect(monitor.update(["z": Self.cpu(95)]) == .serious)
        for bad in [Double.nan, 255, -60, Double.infinity] {
            #expect(monitor.update(["z": Self.cpu(bad)]) == .serious, "\(bad)")
        }
        #expect(monitor.update(["z": Self.cpu(40)]) == .nominal)
        // A new zone with a bad first reading does not count.
        #expect(monitor.update(["z": Self.cpu(40), "new": Self.cpu(.nan)]) == .nominal)
        #expect(monitor.zoneState("new") == nil)
    }
}
