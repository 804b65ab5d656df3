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

@Suite struct ParseBooleanTests {
    @Test func systemdWords() {
        for word in ["1", "yes", "y", "true", "t", "on", "YES", "True", "On", " yes "] {
            #expect(ConfigFile.parseBoolean(word) == true, "\(word)")
        }
        for word in ["0", "no", "n", "false", "f", "off", "NO", "False", "OFF"] {
            #expect(ConfigFile.parseBoolean(word) == false, "\(word)")
        }
        for word in ["", "2", "yess", "enabled", "-1", "nope", "o"] {
            #expect(ConfigFile.parseBoolean(word) == nil, "\(word)")
        }
    }
}
