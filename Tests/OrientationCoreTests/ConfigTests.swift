import OrientationCore
import Testing

@Suite struct ConfigFileTests {
    @Test func parsesSectionsKeysCommentsAndBlankLines() {
        let text = """
            # a comment
            ; another comment

            [Orientation]
              SettleTimeMsec = 150  
            SwitchAngle=62
            [Energy]
            LowEnergyMode=on
            """
        let (entries, diagnostics) = ConfigFile.parse(text, file: "/etc/x.conf")
        #expect(diagnostics.isEmpty)
        #expect(
            entries == [
                ConfigEntry(section: "Orientation", key: "SettleTimeMsec", value: "150", file: "/etc/x.conf", line: 5),
                ConfigEntry(section: "Orientation", key: "SwitchAngle", value: "62", file: "/etc/x.conf", line: 6),
                ConfigEntry(section: "Energy", key: "LowEnergyMode", value: "on", file: "/etc/x.conf", line: 8),
            ])
    }

    @Test func reportsMalformedLinesWithFileAndLine() {
        let text = "Key=outside\n[Orientation\n[Orientation]\njust words\n=value\nGood=1\n"
        let (entries, diagnostics) = ConfigFile.parse(text, file: "f.conf")
        #expect(entries.map(\.key) == ["Good"])
        #expect(diagnostics.map(\.line) == [1, 2, 4, 5])
        #expect(diagnostics[0].description == "f.conf:1: Key: assignment outside of any section, ignored")
        #expect(diagnostics[2].description.hasPrefix("f.conf:4: expected Key=Value"))
    }

    @Test func keepsEqualsSignsInsideValues() {
        let (entries, _) = ConfigFile.parse("[A]\nKey=a=b\n", file: "f")
        #expect(entries.first?.value == "a=b")
    }
}

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

@Suite struct SamplingPolicyTests {
    let policy = SamplingPolicy()

    @Test func noClaimNoReadMeansOff() {
        #expect(policy.plan(SamplingInputs(claims: 0, pendingReads: 0, hasAccelerometer: true)) == .off)
        #expect(SamplingPlan.off.intervalMsec == 0)
    }

    @Test func claimsSampleAtTheClaimedInterval() {
        let plan = policy.plan(SamplingInputs(claims: 3, pendingReads: 0, hasAccelerometer: true))
        #expect(plan == .every(intervalMsec: policy.claimedIntervalMsec))
        #expect(plan.intervalMsec > 0)
    }

    @Test func aWaitingReadSamplesFasterThanClaims() {
        let plan = policy.plan(SamplingInputs(claims: 1, pendingReads: 1, hasAccelerometer: true))
        #expect(plan == .every(intervalMsec: policy.acquisitionIntervalMsec))
        #expect(policy.acquisitionIntervalMsec < policy.claimedIntervalMsec)
    }

    @Test func noAccelerometerMeansOffWhateverIsAsked() {
        #expect(policy.plan(SamplingInputs(claims: 2, pendingReads: 1, hasAccelerometer: false)) == .off)
    }
}
