import OrientationCore
import Testing

@Suite struct SensorConfigTests {
    func interpret(_ text: String) -> (DaemonSettings, [ConfigDiagnostic]) {
        DaemonSettings.interpret(ConfigFile.parse(text, file: "test.conf").entries)
    }

    @Test func defaults() {
        let (settings, diagnostics) = interpret("")
        #expect(diagnostics.isEmpty)
        #expect(settings.sensorPin == nil)
        #expect(settings.mountMatrixOverride == nil)
        #expect(settings.preferBuffer == true)
    }

    @Test func readsDevicePins() {
        #expect(interpret("[Sensor]\nDevice=accel_3d\n").0.sensorPin == .name("accel_3d"))
        #expect(interpret("[Sensor]\nDevice=label:accel-display\n").0.sensorPin == .label("accel-display"))
        #expect(interpret("[Sensor]\nDevice=accel-display\n").0.sensorPin == .label("accel-display"))
        #expect(
            interpret("[Sensor]\nDevice=/sys/devices/platform/a/iio:device0\n").0.sensorPin
                == .path("/sys/devices/platform/a/iio:device0"))
        // Later wins; an empty value clears.
        #expect(interpret("[Sensor]\nDevice=accel_3d\nDevice=lis3dh\n").0.sensorPin == .name("lis3dh"))
        let (cleared, diagnostics) = interpret("[Sensor]\nDevice=accel_3d\nDevice=\n")
        #expect(cleared.sensorPin == nil)
        #expect(diagnostics.isEmpty)
    }

    @Test func badDevicePinKeepsThePreviousValue() {
        let (settings, diagnostics) = interpret("[Sensor]\nDevice=accel_3d\nDevice=/dev/iio:device0\nDevice=label:\n")
        #expect(settings.sensorPin == .name("accel_3d"))
        #expect(diagnostics.map(\.line) == [3, 4])
        #expect(diagnostics.allSatisfy { $0.key == "[Sensor] Device" && $0.file == "test.conf" })
        #expect(
            diagnostics[0].message
                == "expected an IIO name, a sysfs path under /sys/, label:<label> or name:<name>, "
                + "found '/dev/iio:device0'; keeping the previous value")
    }

    @Test func readsAMountMatrixOverride() throws {
        let (settings, diagnostics) = interpret("[Sensor]\nMountMatrix=0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        #expect(diagnostics.isEmpty)
        #expect(settings.mountMatrixOverride == (try MountMatrix(parsing: "0,1,0;-1,0,0;0,0,1")))
        #expect(interpret("[Sensor]\nMountMatrix=0,1,0;-1,0,0;0,0,1\nMountMatrix=\n").0.mountMatrixOverride == nil)
    }

    @Test(arguments: ["\"0, 1, 0; -1, 0, 0; 0, 0, 1\"", "'0, 1, 0; -1, 0, 0; 0, 0, 1'"])
    func readsAQuotedMountMatrixOverride(value: String) throws {
        let (settings, diagnostics) = interpret("[Sensor]\nMountMatrix=\(value)\n")
        #expect(diagnostics.isEmpty)
        #expect(settings.mountMatrixOverride == (try MountMatrix(parsing: "0,1,0;-1,0,0;0,0,1")))
        #expect(interpret("[Sensor]\nMountMatrix=\(value)\nMountMatrix=\"\"\n").0.mountMatrixOverride == nil)
    }

    @Test func unbalancedQuotesAreNotAMountMatrix() {
        for value in ["\"0, 1, 0; -1, 0, 0; 0, 0, 1", "\"0, 1, 0; -1, 0, 0; 0, 0, 1'", "\""] {
            let (settings, diagnostics) = interpret("[Sensor]\nMountMatrix=\(value)\n")
            #expect(settings.mountMatrixOverride == nil, "\(value)")
            #expect(diagnostics.count == 1, "\(value)")
        }
    }

    @Test func badMountMatrixKeepsThePreviousValue() throws {
        let (settings, diagnostics) = interpret(
            "[Sensor]\nMountMatrix=-1,0,0;0,-1,0;0,0,1\nMountMatrix=1,0,0;0,0,0;0,0,1\nMountMatrix=0,5;0;0\n")
        #expect(settings.mountMatrixOverride == (try MountMatrix(parsing: "-1,0,0;0,-1,0;0,0,1")))
        #expect(diagnostics.map(\.line) == [3, 4])
        #expect(diagnostics.allSatisfy { $0.key == "[Sensor] MountMatrix" })
        #expect(
            diagnostics[0].message
                == "mount matrix row 2 is all zeros, found '1,0,0;0,0,0;0,0,1'; keeping the previous value")
        // A decimal comma is not a decimal point, whatever the locale.
        let (_, comma) = interpret("[Sensor]\nMountMatrix=0,5, 0, 0; 0, 1, 0; 0, 0, 1\n")
        #expect(comma.count == 1)
    }

    @Test func preferBufferIsABoolean() {
        #expect(interpret("[Sensor]\nPreferBuffer=no\n").0.preferBuffer == false)
        #expect(interpret("[Sensor]\nPreferBuffer=off\nPreferBuffer=yes\n").0.preferBuffer == true)
        let (settings, diagnostics) = interpret("[Sensor]\nPreferBuffer=no\nPreferBuffer=sometimes\n")
        #expect(settings.preferBuffer == false)
        #expect(diagnostics.map(\.line) == [3])
        #expect(diagnostics.first?.key == "[Sensor] PreferBuffer")
        #expect(diagnostics.first?.message.hasPrefix("expected a boolean") == true)
    }

    @Test func unknownSensorKeysAreReported() {
        let (_, diagnostics) = interpret("[Sensor]\nDriver=bmc150\n")
        #expect(diagnostics.map(\.message) == ["unknown key, ignored"])
        #expect(diagnostics.first?.key == "[Sensor] Driver")
    }
}
