import Foundation
import OrientationCore
import Testing

@Suite struct DaemonSettingsTests {
    func interpret(_ text: String) -> (DaemonSettings, [ConfigDiagnostic]) {
        DaemonSettings.interpret(ConfigFile.parse(text, file: "test.conf").entries)
    }

    @Test func defaultsAllowEveryUprightInterfaceOrientation() {
        let (settings, diagnostics) = interpret("")
        #expect(diagnostics.isEmpty)
        #expect(
            settings.allowedInterfaceOrientations == [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight])
        #expect(settings.estimator == EstimatorSettings())
    }

    @Test func readsAllowedOrientationsSettleTimeAndSwitchAngle() {
        let (settings, diagnostics) = interpret(
            "[Orientation]\nAllowedInterfaceOrientations=landscape-left landscape-right\nSettleTimeMsec=300\nSwitchAngle=58\n"
        )
        #expect(diagnostics.isEmpty)
        #expect(settings.allowedInterfaceOrientations == [.landscapeLeft, .landscapeRight])
        #expect(settings.estimator.quarterTurnSettleTime == 0.3)
        #expect(settings.estimator.halfTurnSettleTime == 0.6)
        #expect(settings.estimator.switchAngle == 58)
    }

    @Test func readsTheForcedLowEnergyFlag() {
        #expect(interpret("").0.lowEnergyMode == .auto)
        #expect(interpret("[Energy]\nLowEnergyMode=on\n").0.lowEnergyMode == .on)
        #expect(interpret("[Energy]\nLowEnergyMode=off\n").0.lowEnergyMode == .off)
        let (settings, diagnostics) = interpret("[Energy]\nLowEnergyMode=on\nLowEnergyMode=sometimes\n")
        #expect(settings.lowEnergyMode == .on)
        #expect(diagnostics.map(\.line) == [3])
        #expect(diagnostics.first?.key == "[Energy] LowEnergyMode")
    }

    @Test func laterAssignmentsWin() {
        let (settings, _) = interpret("[Orientation]\nSwitchAngle=56\nSwitchAngle=64\n")
        #expect(settings.estimator.switchAngle == 64)
    }

    @Test func badValuesKeepThePreviousValueAndSayWhere() {
        let text = """
            [Orientation]
            SwitchAngle=57
            SwitchAngle=45
            SettleTimeMsec=fast
            AllowedInterfaceOrientations=portrait sideways
            AllowedInterfaceOrientations=
            Colour=blue
            [Nonsense]
            Key=1
            """
        let (settings, diagnostics) = interpret(text)
        #expect(settings.estimator.switchAngle == 57)
        #expect(settings.estimator.quarterTurnSettleTime == EstimatorSettings().quarterTurnSettleTime)
        #expect(settings.allowedInterfaceOrientations.count == 4)
        #expect(diagnostics.map(\.line) == [3, 4, 5, 6, 7, 9])
        #expect(diagnostics.allSatisfy { $0.file == "test.conf" })
        #expect(diagnostics[0].key == "[Orientation] SwitchAngle")
        #expect(diagnostics[2].message.contains("'sideways'"))
        #expect(diagnostics[5].key == "[Nonsense] Key")
    }

    @Test func unknownOrientationWordIsRefusedEvenAmongGoodOnes() {
        let (settings, diagnostics) = interpret("[Orientation]\nAllowedInterfaceOrientations=portrait,unknown\n")
        #expect(diagnostics.count == 1)
        #expect(settings.allowedInterfaceOrientations.count == 4)
    }
}

@Suite struct EnergyConfigTests {
    func interpret(_ text: String) -> (DaemonSettings, [ConfigDiagnostic]) {
        DaemonSettings.interpret(ConfigFile.parse(text, file: "energy.conf").entries)
    }

    @Test func defaults() {
        let settings = DaemonSettings()
        #expect(settings.lowEnergyMode == .auto)
        #expect(settings.batteryLowPercent == 20)
        #expect(settings.pauseWhenLidClosed)
        #expect(settings.privilegedGroup == nil)
        #expect(settings.thermal == ThermalSettings())
        #expect(settings.sampling == SamplingPolicy())
    }

    @Test func readsEveryEnergyKey() {
        let (settings, diagnostics) = interpret(
            "[Energy]\nLowEnergyMode=on\nBatteryLowPercent=35\nPauseWhenLidClosed=no\nPrivilegedGroup=motion-admin\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(settings.lowEnergyMode == .on)
        #expect(settings.batteryLowPercent == 35)
        #expect(!settings.pauseWhenLidClosed)
        #expect(settings.privilegedGroup == "motion-admin")
    }

    @Test func batteryPercentRange() {
        #expect(interpret("[Energy]\nBatteryLowPercent=1\n").0.batteryLowPercent == 1)
        #expect(interpret("[Energy]\nBatteryLowPercent=99\n").0.batteryLowPercent == 99)
        let text = "[Energy]\nBatteryLowPercent=30\nBatteryLowPercent=0\nBatteryLowPercent=100\nBatteryLowPercent=15%\n"
        let (settings, diagnostics) = interpret(text)
        #expect(settings.batteryLowPercent == 30)
        #expect(diagnostics.map(\.line) == [3, 4, 5])
        #expect(diagnostics.allSatisfy { $0.key == "[Energy] BatteryLowPercent" && $0.file == "energy.conf" })
        #expect(diagnostics[2].message.contains("'15%'"))
        #expect(diagnostics[2].message.contains("keeping the previous value"))
    }

    @Test func pauseWhenLidClosedTakesBooleans() {
        #expect(!interpret("[Energy]\nPauseWhenLidClosed=false\n").0.pauseWhenLidClosed)
        #expect(!interpret("[Energy]\nPauseWhenLidClosed=0\n").0.pauseWhenLidClosed)
        #expect(interpret("[Energy]\nPauseWhenLidClosed=off\nPauseWhenLidClosed=on\n").0.pauseWhenLidClosed)
        let (settings, diagnostics) = interpret("[Energy]\nPauseWhenLidClosed=no\nPauseWhenLidClosed=maybe\n")
        #expect(!settings.pauseWhenLidClosed)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.line == 3)
        #expect(diagnostics.first?.description.hasPrefix("energy.conf:3: [Energy] PauseWhenLidClosed: ") == true)
    }

    @Test func privilegedGroupNamesAreChecked() {
        for good in ["wheel", "_motion", "sudo", "a", "Motion-Admins_2", String(repeating: "g", count: 32)] {
            #expect(DaemonSettings.isValidGroupName(good), "\(good)")
        }
        for bad in [
            "", "1000", "-wheel", "whe el", "wheel:x", "../etc", "grüppe", "a.b", String(repeating: "g", count: 33),
        ] {
            #expect(!DaemonSettings.isValidGroupName(bad), "\(bad)")
        }
        let (settings, diagnostics) = interpret("[Energy]\nPrivilegedGroup=wheel\nPrivilegedGroup=root;rm\n")
        #expect(settings.privilegedGroup == "wheel")
        #expect(diagnostics.map(\.line) == [3])
        #expect(diagnostics.first?.key == "[Energy] PrivilegedGroup")
        // An empty value goes back to root only.
        #expect(interpret("[Energy]\nPrivilegedGroup=wheel\nPrivilegedGroup=\n").0.privilegedGroup == nil)
    }

    @Test func unknownEnergyKeyIsReportedAsUnknown() {
        let (_, diagnostics) = interpret("[Energy]\nLowEnergy=on\n[Sensor]\nMountMatrix=1,0,0;0,1,0;0,0,1\n")
        // [Sensor] MountMatrix= is a real key now (SensorConfigTests); only the Energy key is unknown.
        #expect(diagnostics.map(\.line) == [2])
        #expect(diagnostics.first?.message == "unknown key, ignored")
    }

    @Test func sensorProxyCompatibilityIsOffByDefaultAndABoolean() {
        #expect(interpret("").0.sensorProxyCompatibility == false)
        #expect(interpret("[Compatibility]\nSensorProxy=yes\n").0.sensorProxyCompatibility == true)
        let (settings, diagnostics) = interpret("[Compatibility]\nSensorProxy=true\nSensorProxy=maybe\nGnome=1\n")
        #expect(settings.sensorProxyCompatibility == true)
        #expect(diagnostics.map(\.line) == [3, 4])
        #expect(diagnostics[0].key == "[Compatibility] SensorProxy")
        #expect(diagnostics[1].message == "unknown key, ignored")
    }
}

@Suite struct ThermalConfigTests {
    func interpret(_ text: String) -> (DaemonSettings, [ConfigDiagnostic]) {
        DaemonSettings.interpret(ConfigFile.parse(text, file: "thermal.conf").entries)
    }

    @Test func readsEveryThermalKey() {
        let (settings, diagnostics) = interpret(
            """
            [Thermal]
            FairMarginCelsius=7.5
            HysteresisCelsius=2
            FallbackFairCelsius=65
            FallbackSeriousCelsius=80.5
            FallbackCriticalCelsius=92
            IncludeZones=x86_pkg_temp cpu*-thermal
            ExcludeZones=iwlwifi_1
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(settings.thermal.fairMargin == 7.5)
        #expect(settings.thermal.hysteresis == 2)
        #expect(settings.thermal.fallbackFair == 65)
        #expect(settings.thermal.fallbackSerious == 80.5)
        #expect(settings.thermal.fallbackCritical == 92)
        #expect(settings.thermal.includeTypes == ["x86_pkg_temp", "cpu*-thermal"])
        #expect(settings.thermal.excludeTypes == ["iwlwifi_1"])
    }

    @Test func badTemperaturesKeepThePreviousValue() {
        let text = """
            [Thermal]
            FairMarginCelsius=5
            FairMarginCelsius=-1
            FairMarginCelsius=51
            HysteresisCelsius=21
            HysteresisCelsius=warm
            FallbackFairCelsius=nan
            FallbackSeriousCelsius=0
            FallbackCriticalCelsius=250
            FallbackCriticalCelsius=92,5
            """
        let (settings, diagnostics) = interpret(text)
        #expect(settings.thermal.fairMargin == 5)
        #expect(settings.thermal.hysteresis == 3)
        #expect(settings.thermal.fallbackFair == 70)
        #expect(settings.thermal.fallbackSerious == 85)
        #expect(settings.thermal.fallbackCritical == 95)
        #expect(diagnostics.map(\.line) == [3, 4, 5, 6, 7, 8, 9, 10])
        #expect(
            diagnostics.map { $0.key ?? "" } == [
                "[Thermal] FairMarginCelsius", "[Thermal] FairMarginCelsius", "[Thermal] HysteresisCelsius",
                "[Thermal] HysteresisCelsius", "[Thermal] FallbackFairCelsius", "[Thermal] FallbackSeriousCelsius",
                "[Thermal] FallbackCriticalCelsius", "[Thermal] FallbackCriticalCelsius",
            ])
        #expect(diagnostics[7].message.contains("'92,5'"))
        // The unit and the range, as the decimal parser shared with the tablet-mode angles says them.
        #expect(
            diagnostics[0].message
                == "expected degrees Celsius between 0.0 and 50.0, found '-1'; keeping the previous value")
    }

    @Test func fallbackThresholdsMustRise() {
        // Fair above the default serious: reported at its line, all three back to defaults.
        let (settings, diagnostics) = interpret(
            "[Thermal]\nFallbackCriticalCelsius=99\nFallbackFairCelsius=88\nHysteresisCelsius=4\n")
        #expect(settings.thermal.fallbackFair == 70)
        #expect(settings.thermal.fallbackSerious == 85)
        #expect(settings.thermal.fallbackCritical == 95)
        #expect(settings.thermal.hysteresis == 4)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.line == 3)
        #expect(diagnostics.first?.key == "[Thermal] FallbackFairCelsius")
        #expect(diagnostics.first?.message.contains("must rise") == true)
    }

    @Test func equalFallbacksAreRefusedAtTheLastLineInvolved() {
        let entries =
            ConfigFile.parse("[Thermal]\nFallbackSeriousCelsius=90\n", file: "main.conf").entries
            + ConfigFile.parse("[Thermal]\nFallbackCriticalCelsius=90\n", file: "drop-in.conf").entries
        let (settings, diagnostics) = DaemonSettings.interpret(entries)
        #expect(settings.thermal == ThermalSettings())
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.file == "drop-in.conf")
        #expect(diagnostics.first?.line == 2)
        #expect(diagnostics.first?.key == "[Thermal] FallbackCriticalCelsius")
    }

    @Test func consistentFallbacksSetTogetherAreKept() {
        let (settings, diagnostics) = interpret(
            "[Thermal]\nFallbackFairCelsius=90\nFallbackSeriousCelsius=100\nFallbackCriticalCelsius=110\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(settings.thermal.fallbackFair == 90)
        #expect(settings.thermal.fallbackCritical == 110)
    }

    @Test func zoneListsAppendAndAnEmptyValueClears() {
        let (settings, diagnostics) = interpret(
            """
            [Thermal]
            ExcludeZones=iwlwifi_1 pch_cannonlake
            ExcludeZones=iwlwifi_1,acpitz
            IncludeZones=cpu-thermal
            IncludeZones=
            IncludeZones=\tx86_pkg_temp\t
            """)
        #expect(diagnostics.isEmpty)
        #expect(settings.thermal.excludeTypes == ["iwlwifi_1", "pch_cannonlake", "acpitz"])
        #expect(settings.thermal.includeTypes == ["x86_pkg_temp"])
        #expect(interpret("[Thermal]\nExcludeZones=a\nExcludeZones=\n").0.thermal.excludeTypes.isEmpty)
    }
}

@Suite struct SamplingConfigTests {
    func interpret(_ text: String) -> (DaemonSettings, [ConfigDiagnostic]) {
        DaemonSettings.interpret(ConfigFile.parse(text, file: "sampling.conf").entries)
    }

    @Test func readsEverySamplingKey() {
        let (settings, diagnostics) = interpret(
            """
            [Sampling]
            StillIntervalMsec=1000
            MovingIntervalMsec=50
            MotionLingerMsec=0
            LowEnergyStillIntervalMsec=2000
            LowEnergyMovingIntervalMsec=150
            CriticalStillIntervalMsec=5000
            CriticalMovingIntervalMsec=500
            AcquisitionIntervalMsec=25
            ThermalIntervalMsec=10000
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        var expected = SamplingPolicy()
        expected.stillIntervalMsec = 1000
        expected.movingIntervalMsec = 50
        expected.motionLingerMsec = 0
        expected.lowEnergyStillIntervalMsec = 2000
        expected.lowEnergyMovingIntervalMsec = 150
        expected.criticalStillIntervalMsec = 5000
        expected.criticalMovingIntervalMsec = 500
        expected.acquisitionIntervalMsec = 25
        expected.thermalIntervalMsec = 10000
        #expect(settings.sampling == expected)
    }

    @Test func rangeEdgesAreAccepted() {
        let (settings, diagnostics) = interpret(
            "[Sampling]\nStillIntervalMsec=5000\nMovingIntervalMsec=10\nThermalIntervalMsec=1000\nMotionLingerMsec=60000\n"
        )
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(settings.sampling.stillIntervalMsec == 5000)
        #expect(settings.sampling.movingIntervalMsec == 10)
        #expect(settings.sampling.thermalIntervalMsec == 1000)
        #expect(settings.sampling.motionLingerMsec == 60000)
    }

    @Test func badIntervalsKeepThePreviousValue() {
        let text = """
            [Sampling]
            StillIntervalMsec=900
            StillIntervalMsec=9
            StillIntervalMsec=5001
            MovingIntervalMsec=-40
            MovingIntervalMsec=fast
            MotionLingerMsec=60001
            ThermalIntervalMsec=99
            AcquisitionIntervalMsec=1001
            LowEnergyStillIntervalMsec=1.5
            CriticalMovingIntervalMsec=
            SampleRate=10
            """
        let (settings, diagnostics) = interpret(text)
        var expected = SamplingPolicy()
        expected.stillIntervalMsec = 900
        #expect(settings.sampling == expected)
        #expect(diagnostics.map(\.line) == Array(3...12))
        #expect(diagnostics[0].key == "[Sampling] StillIntervalMsec")
        #expect(diagnostics[0].message.contains("between 10 and 5000"))
        #expect(diagnostics[4].message.contains("between 0 and 60000"))
        #expect(diagnostics[5].message.contains("between 100 and 60000"))
        #expect(diagnostics[9].key == "[Sampling] SampleRate")
        #expect(diagnostics[9].message == "unknown key, ignored")
    }

    @Test func movingLongerThanStillIsReportedAndThePairReset() {
        let text = """
            [Sampling]
            MovingIntervalMsec=600
            LowEnergyStillIntervalMsec=80
            CriticalStillIntervalMsec=4000
            StillIntervalMsec=500
            """
        let (settings, diagnostics) = interpret(text)
        #expect(settings.sampling.stillIntervalMsec == 750)
        #expect(settings.sampling.movingIntervalMsec == 40)
        #expect(settings.sampling.lowEnergyStillIntervalMsec == 1500)
        #expect(settings.sampling.lowEnergyMovingIntervalMsec == 100)
        #expect(settings.sampling.criticalStillIntervalMsec == 4000)  // its pair is consistent
        #expect(settings.sampling.problems().isEmpty)
        #expect(diagnostics.map(\.line) == [5, 3])
        #expect(
            diagnostics.map { $0.key ?? "" } == [
                "[Sampling] StillIntervalMsec", "[Sampling] LowEnergyStillIntervalMsec",
            ])
        #expect(
            diagnostics[0].message.contains("MovingIntervalMsec (600) must not be longer than StillIntervalMsec (500)"))
    }

    @Test func equalMovingAndStillIsAllowed() {
        let (settings, diagnostics) = interpret("[Sampling]\nStillIntervalMsec=100\nMovingIntervalMsec=100\n")
        #expect(diagnostics.isEmpty)
        #expect(settings.sampling.stillIntervalMsec == 100)
    }
}

@Suite struct ShippedConfigTests {
    /// The default file in `systemd/`, next to the sources of this test.
    static func shippedText() throws -> String {
        let here = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        return try String(contentsOfFile: "/\(here)/systemd/motion-orientationd.conf")
    }

    @Test func everyCommentedDefaultIsTheBuiltInDefault() throws {
        var uncommented = ""
        for line in try Self.shippedText().split(separator: "\n", omittingEmptySubsequences: false) {
            let isKey =
                line.hasPrefix("#") && line.dropFirst().first.map { $0.isUppercase } == true
                && line.contains("=")
            uncommented += (isKey ? String(line.dropFirst()) : String(line)) + "\n"
        }
        let (entries, syntax) = ConfigFile.parse(uncommented, file: "motion-orientationd.conf")
        let (settings, diagnostics) = DaemonSettings.interpret(entries)
        #expect(syntax.isEmpty && diagnostics.isEmpty, "\(syntax) \(diagnostics)")
        #expect(entries.count >= 20)
        #expect(settings == DaemonSettings())
    }
}
