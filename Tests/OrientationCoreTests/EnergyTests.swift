import OrientationCore
import Testing

@Suite struct EnergyPolicyTests {
    /// Every combination of the three triggers, with the reasons `auto` must give.
    static let triggerTable:
        [(powerSaver: Bool, batteryLow: Bool, thermal: ThermalState, expected: [LowEnergyReason])] = [
            (false, false, .nominal, []),
            (true, false, .nominal, [.powerSaver]),
            (false, true, .nominal, [.batteryLow]),
            (false, false, .serious, [.thermal]),
            (true, true, .nominal, [.powerSaver, .batteryLow]),
            (true, false, .critical, [.powerSaver, .thermal]),
            (false, true, .serious, [.batteryLow, .thermal]),
            (true, true, .critical, [.powerSaver, .batteryLow, .thermal]),
        ]

    @Test func autoFollowsTheTriggersInDeclarationOrder() {
        for row in Self.triggerTable {
            let inputs = EnergyInputs(
                setting: .auto, powerSaver: row.powerSaver, batteryLow: row.batteryLow, thermalState: row.thermal)
            #expect(EnergyPolicy.reasons(inputs) == row.expected, "\(row)")
            #expect(EnergyPolicy.isLowEnergy(inputs) == !row.expected.isEmpty)
        }
    }

    @Test func onIsForcedFollowedByTheActiveTriggers() {
        for row in Self.triggerTable {
            let inputs = EnergyInputs(
                setting: .on, powerSaver: row.powerSaver, batteryLow: row.batteryLow, thermalState: row.thermal)
            #expect(EnergyPolicy.reasons(inputs) == [.forced] + row.expected, "\(row)")
            #expect(EnergyPolicy.isLowEnergy(inputs))
        }
    }

    @Test func offHoldsAgainstEveryTrigger() {
        for row in Self.triggerTable {
            let inputs = EnergyInputs(
                setting: .off, powerSaver: row.powerSaver, batteryLow: row.batteryLow, thermalState: row.thermal)
            #expect(EnergyPolicy.reasons(inputs).isEmpty, "\(row)")
            #expect(!EnergyPolicy.isLowEnergy(inputs))
        }
    }

    @Test func thermalTriggerStartsAtSerious() {
        let expected: [ThermalState: [LowEnergyReason]] = [
            .nominal: [], .fair: [], .serious: [.thermal], .critical: [.thermal],
        ]
        for state in ThermalState.allCases {
            let inputs = EnergyInputs(setting: .auto, powerSaver: false, batteryLow: false, thermalState: state)
            #expect(EnergyPolicy.reasons(inputs) == expected[state], "\(state)")
        }
    }

    @Test func reasonNamesAreTheBusWords() {
        #expect(LowEnergyReason.allCases.map(\.rawValue) == ["forced", "power-saver", "battery-low", "thermal"])
        #expect(LowEnergySetting.allCases.map(\.rawValue) == ["auto", "on", "off"])
    }
}

@Suite struct BatteryPolicyTests {
    func isLow(_ batteries: [BatteryReading], _ threshold: Int = 20) -> Bool {
        BatteryPolicy.isLow(batteries, thresholdPercent: threshold)
    }

    @Test func dischargingAtOrBelowTheThresholdIsLow() {
        #expect(isLow([BatteryReading(status: "Discharging", capacity: 20)]))
        #expect(isLow([BatteryReading(status: "Discharging", capacity: 19)]))
        #expect(isLow([BatteryReading(status: "Discharging", capacity: 0)]))
        #expect(!isLow([BatteryReading(status: "Discharging", capacity: 21)]))
        #expect(!isLow([BatteryReading(status: "Discharging", capacity: 100)]))
    }

    @Test func thresholdIsTheConfiguredOne() {
        let battery = [BatteryReading(status: "Discharging", capacity: 35)]
        #expect(isLow(battery, 35))
        #expect(!isLow(battery, 34))
    }

    @Test func aBatteryOnMainsIsNeverLow() {
        for status in ["Charging", "Full", "Not charging", "Unknown", ""] {
            #expect(!isLow([BatteryReading(status: status, capacity: 5)]), "\(status)")
        }
    }

    @Test func unknownCapacityIsNotLow() {
        #expect(!isLow([BatteryReading(status: "Discharging", capacity: nil)]))
    }

    @Test func statusWithTheSysfsNewlineStillCounts() {
        #expect(isLow([BatteryReading(status: "Discharging\n", capacity: 10)]))
        #expect(!isLow([BatteryReading(status: "discharging", capacity: 10)]))
    }

    @Test func anyLowBatteryOfSeveralIsEnough() {
        #expect(!isLow([]))
        let full = BatteryReading(status: "Discharging", capacity: 80)
        let low = BatteryReading(status: "Discharging", capacity: 12)
        let chargingLow = BatteryReading(status: "Charging", capacity: 3)
        #expect(isLow([full, low]))
        #expect(isLow([low, full]))
        #expect(!isLow([full, chargingLow]))
        #expect(!isLow([full, BatteryReading(status: "Discharging", capacity: nil)]))
    }
}
