import OrientationCore
import Testing

private let displayPath = "/sys/devices/platform/display/iio:device0"
private let basePath = "/sys/devices/platform/base/iio:device1"

@Suite struct AccelerometerLocationTests {
    @Test func udevPropertyComesFirst() {
        let candidate = AccelerometerCandidate(
            syspath: basePath, label: "accel-display", udevLocation: "base", sysfsLocation: "lid")
        let (location, reason) = SensorSelection.location(of: candidate)
        #expect(location == .base)
        #expect(reason == "udev property ACCEL_LOCATION=base")
        #expect(
            SensorSelection.location(of: .init(syspath: displayPath, udevLocation: " display\n")).location == .display)
    }

    @Test func labelComesSecond() {
        let (location, reason) = SensorSelection.location(
            of: .init(syspath: basePath, label: "accel-base", sysfsLocation: "lid"))
        #expect(location == .base)
        #expect(reason == "label accel-base")
        #expect(SensorSelection.location(of: .init(syspath: displayPath, label: "accel-display")).location == .display)
    }

    @Test func locationAttributeComesThird() {
        let base = SensorSelection.location(
            of: .init(syspath: basePath, label: "proximity-wifi", sysfsLocation: "base"))
        #expect(base.location == .base)
        #expect(base.reason == "location attribute base")
        // The kernel ABI's word for the display half is "lid".
        let lid = SensorSelection.location(of: .init(syspath: displayPath, sysfsLocation: "lid\n"))
        #expect(lid.location == .display)
        #expect(lid.reason == "location attribute lid")
    }

    @Test func withoutHintsASensorIsTheDisplays() {
        let (location, reason) = SensorSelection.location(of: .init(syspath: displayPath, name: "accel_3d"))
        #expect(location == .display)
        #expect(reason.contains("taken as the display's"))
        // Empty attributes count as absent.
        #expect(
            SensorSelection.location(of: .init(syspath: displayPath, label: "", udevLocation: " ", sysfsLocation: ""))
                .reason == reason)
    }

    @Test func unknownWordsFallThroughWithANote() {
        let fromLabel = SensorSelection.location(
            of: .init(syspath: basePath, label: "accel-base", udevLocation: "keyboard"))
        #expect(fromLabel.location == .base)
        #expect(
            fromLabel.reason
                == "label accel-base (ignored: udev property ACCEL_LOCATION=keyboard is not display or base)")

        let fromAttribute = SensorSelection.location(
            of: .init(syspath: basePath, label: "accel-hinge", udevLocation: "lid", sysfsLocation: "base"))
        #expect(fromAttribute.location == .base)
        #expect(
            fromAttribute.reason
                == "location attribute base (ignored: udev property ACCEL_LOCATION=lid is not display or base)")

        let fallback = SensorSelection.location(
            of: .init(syspath: basePath, udevLocation: "keyboard", sysfsLocation: "hinge"))
        #expect(fallback.location == .display)
        #expect(fallback.reason.contains("ACCEL_LOCATION=keyboard is not display or base"))
        #expect(fallback.reason.contains("location attribute hinge is not lid or base"))
    }
}

@Suite struct SensorChoiceTests {
    let display = AccelerometerCandidate(syspath: displayPath, name: "accel_3d")
    let base = AccelerometerCandidate(syspath: basePath, name: "accel_3d")

    @Test func takesTheDisplaySensorByProperty() {
        var base = base
        base.udevLocation = "base"
        var display = display
        display.udevLocation = "display"
        for candidates in [[base, display], [display, base]] {
            let (index, reason) = SensorSelection.choose(candidates, pin: nil)
            #expect(index.map { candidates[$0] } == display)
            #expect(reason.contains("the display accelerometer (udev property ACCEL_LOCATION=display)"))
        }
        let reason = SensorSelection.choose([base, display], pin: nil).reason
        #expect(
            reason.contains("base accelerometer ignored: accel_3d (\(basePath)): udev property ACCEL_LOCATION=base"))
    }

    @Test func takesTheDisplaySensorByLabel() {
        var base = base
        base.label = "accel-base"
        var display = display
        display.label = "accel-display"
        let (index, reason) = SensorSelection.choose([base, display], pin: nil)
        #expect(index == 1)
        #expect(reason.contains("label accel-display"))
    }

    @Test func takesTheDisplaySensorByLocationAttribute() {
        var base = base
        base.sysfsLocation = "base"
        var display = display
        display.sysfsLocation = "lid"
        #expect(SensorSelection.choose([base, display], pin: nil).index == 1)
        // An unmarked sensor next to a marked base one is the display's.
        #expect(SensorSelection.choose([base, self.display], pin: nil).index == 1)
    }

    @Test func takesTheFirstDisplaySensorInOrder() {
        let other = AccelerometerCandidate(syspath: "/sys/devices/x/iio:device2", name: "lis3dh")
        #expect(SensorSelection.choose([display, other], pin: nil).index == 0)
        #expect(SensorSelection.choose([other, display], pin: nil).index == 0)
    }

    @Test func neverTakesABaseSensorUnasked() {
        var base = base
        base.label = "accel-base"
        let (index, reason) = SensorSelection.choose([base], pin: nil)
        #expect(index == nil)
        #expect(reason.hasPrefix("only a base accelerometer (accel_3d (\(basePath)): label accel-base) was found"))
        var second = base
        second.syspath = "/sys/devices/x/iio:device5"
        #expect(SensorSelection.choose([base, second], pin: nil).reason.hasPrefix("only base accelerometers ("))
        #expect(SensorSelection.choose([], pin: nil) == (nil, "no accelerometer was found"))
    }

    @Test func pinsByName() {
        let lis = AccelerometerCandidate(syspath: "/sys/devices/x/iio:device2", name: "lis3dh")
        let (index, reason) = SensorSelection.choose([display, lis], pin: .name("lis3dh"))
        #expect(index == 1)
        #expect(reason == "lis3dh (/sys/devices/x/iio:device2), pinned by [Sensor] Device=name:lis3dh")
    }

    @Test func pinsByPathEvenABaseSensor() {
        var base = base
        base.udevLocation = "base"
        let (index, reason) = SensorSelection.choose([display, base], pin: .path(basePath))
        #expect(index == 1)
        #expect(reason.contains("pinned by [Sensor] Device=\(basePath)"))
        #expect(
            reason.contains(
                "it is a base accelerometer (udev property ACCEL_LOCATION=base), used because the configuration asks"))
    }

    @Test func pinsByLabel() {
        var base = base
        base.label = "accel-base"
        var display = display
        display.label = "accel-display"
        #expect(SensorSelection.choose([display, base], pin: .label("accel-base")).index == 1)
        #expect(SensorSelection.choose([base, display], pin: .label("accel-display")).index == 1)
    }

    @Test func aPinThatMatchesNothingFallsBackAndSaysSo() {
        var base = base
        base.label = "accel-base"
        let (index, reason) = SensorSelection.choose([base, display], pin: .name("bmc150_accel"))
        #expect(index == 1)
        #expect(reason.hasPrefix("[Sensor] Device=name:bmc150_accel matches no accelerometer (accel_3d (\(basePath))"))
        #expect(reason.contains("the display accelerometer"))
        let none = SensorSelection.choose([], pin: .label("accel-display"))
        #expect(none.index == nil)
        #expect(
            none.reason
                == "[Sensor] Device=label:accel-display matches no accelerometer (none found); no accelerometer was found"
        )
    }
}

@Suite struct SensorPinTests {
    @Test(arguments: [
        ("/sys/devices/platform/x/iio:device0", SensorPin.path("/sys/devices/platform/x/iio:device0")),
        ("  /sys/bus/iio/devices/iio:device1 ", .path("/sys/bus/iio/devices/iio:device1")),
        ("path:/sys/devices/a", .path("/sys/devices/a")),
        ("label:accel-display", .label("accel-display")),
        ("label:my-sensor", .label("my-sensor")),
        ("accel-display", .label("accel-display")),
        ("accel-base", .label("accel-base")),
        ("name:accel_3d", .name("accel_3d")),
        ("accel_3d", .name("accel_3d")),
        ("bmc150_accel", .name("bmc150_accel")),
    ])
    func readsConfigValues(_ text: String, _ pin: SensorPin) {
        #expect(SensorPin(configValue: text) == pin)
    }

    @Test(arguments: ["", "  ", "label:", "name:", "/dev/iio:device0", "/sys/", "path:/dev/x", "two words", "a\tb"])
    func refusesBadValues(_ text: String) {
        #expect(SensorPin(configValue: text) == nil)
    }

    @Test func matchesExactly() {
        let candidate = AccelerometerCandidate(
            syspath: "/sys/devices/pci0000:00/INT33D8:00/iio:device3", name: "accel_3d\n", label: "accel-display")
        #expect(SensorPin.name("accel_3d").matches(candidate))
        #expect(!SensorPin.name("Accel_3d").matches(candidate))
        #expect(SensorPin.label("accel-display").matches(candidate))
        #expect(!SensorPin.label("accel-base").matches(candidate))
        #expect(SensorPin.path("/sys/devices/pci0000:00/INT33D8:00/iio:device3").matches(candidate))
        #expect(SensorPin.path("/sys/devices/pci0000:00/INT33D8:00/iio:device3/").matches(candidate))
        #expect(!SensorPin.path("/sys/devices/pci0000:00/INT33D8:00").matches(candidate))
        // The bus and class links name the device node.
        #expect(SensorPin.path("/sys/bus/iio/devices/iio:device3").matches(candidate))
        #expect(SensorPin.path("/sys/class/iio/iio:device3").matches(candidate))
        #expect(!SensorPin.path("/sys/bus/iio/devices/iio:device30").matches(candidate))
        #expect(!SensorPin.label("x").matches(AccelerometerCandidate(syspath: "/sys/devices/a")))
    }

    @Test func describesItselfInConfigForm() {
        for text in ["name:accel_3d", "label:accel-base", "/sys/devices/a/iio:device0"] {
            #expect(SensorPin(configValue: text)?.description == text)
        }
    }
}

@Suite struct MountMatrixResolutionTests {
    let swapped = "0, 1, 0; 1, 0, 0; 0, 0, 1"
    let flipped = "-1, 0, 0; 0, -1, 0; 0, 0, 1"

    func sources(udev: String?, sysfs: String? = nil, accel: String? = nil, generic: String? = nil)
        -> [(source: String, text: String?)]
    {
        [
            ("udev property ACCEL_MOUNT_MATRIX", udev), ("sysfs mount_matrix", sysfs),
            ("sysfs in_accel_mount_matrix", accel), ("sysfs in_mount_matrix", generic),
        ]
    }

    @Test func takesTheFirstSourceInOrder() throws {
        let result = MountMatrixResolution.resolve(override: nil, sources: sources(udev: swapped, sysfs: flipped))
        #expect(result.matrix == (try MountMatrix(parsing: swapped)))
        #expect(result.source == "udev property ACCEL_MOUNT_MATRIX")
        #expect(result.problems.isEmpty)
        for (index, name) in ["sysfs mount_matrix", "sysfs in_accel_mount_matrix", "sysfs in_mount_matrix"].enumerated()
        {
            var texts: [String?] = [nil, nil, nil]
            texts[index] = flipped
            let found = MountMatrixResolution.resolve(
                override: nil, sources: sources(udev: nil, sysfs: texts[0], accel: texts[1], generic: texts[2]))
            #expect(found.source == name)
            #expect(found.matrix == (try MountMatrix(parsing: flipped)))
            #expect(found.problems.isEmpty)
        }
    }

    @Test func malformedSourcesFallThroughWithAProblemEach() throws {
        let result = MountMatrixResolution.resolve(
            override: nil, sources: sources(udev: "1, 0, 0; 0, 1, 0", sysfs: "1,0,0;0,0,0;0,0,1", accel: flipped))
        #expect(result.source == "sysfs in_accel_mount_matrix")
        #expect(result.matrix == (try MountMatrix(parsing: flipped)))
        #expect(
            result.problems == [
                "ignoring the mount matrix from udev property ACCEL_MOUNT_MATRIX: mount matrix needs 9 numbers, found 6",
                "ignoring the mount matrix from sysfs mount_matrix: mount matrix row 2 is all zeros",
            ])
    }

    @Test func identityWhenNothingUsable() {
        let none = MountMatrixResolution.resolve(override: nil, sources: sources(udev: nil))
        #expect(none.matrix == .identity)
        #expect(none.source == MountMatrixResolution.identitySource)
        #expect(none.problems.isEmpty)
        let bad = MountMatrixResolution.resolve(override: nil, sources: sources(udev: "", generic: "0,5 0 0"))
        #expect(bad.matrix == .identity)
        #expect(bad.problems.count == 2)
        #expect(bad.problems[1].contains("sysfs in_mount_matrix"))
        #expect(MountMatrixResolution.resolve(override: nil, sources: []).matrix == .identity)
    }

    @Test func theOverrideWins() throws {
        let override = try MountMatrix(parsing: flipped)
        let result = MountMatrixResolution.resolve(override: override, sources: sources(udev: swapped, sysfs: "junk"))
        #expect(result.matrix == override)
        #expect(result.source == "[Sensor] MountMatrix=")
        #expect(result.problems.isEmpty)
    }
}

@Suite struct ChannelCalibrationTests {
    func scales(_ x: String?, _ shared: String?, _ generic: String?) -> [(source: String, text: String?)] {
        [("in_accel_x_scale", x), ("in_accel_scale", shared), ("scale", generic)]
    }

    func offsets(_ x: String?, _ shared: String?) -> [(source: String, text: String?)] {
        [("in_accel_x_offset", x), ("in_accel_offset", shared)]
    }

    @Test func appliesOffsetThenScale() {
        let calibration = ChannelCalibration(scale: 0.5, offset: -10)
        #expect(calibration.apply(30) == 10)
        #expect(calibration.apply(-30) == -20)
        #expect(ChannelCalibration.identity.apply(-512) == -512)
    }

    @Test func prefersPerChannelThenSharedThenGeneric() {
        let perChannel = ChannelCalibration.resolve(
            scales: scales("0.009576806\n", "0.5", "2"), offsets: offsets(nil, nil))
        #expect(perChannel.calibration == ChannelCalibration(scale: 0.009576806, offset: 0))
        #expect(perChannel.problems.isEmpty)
        let shared = ChannelCalibration.resolve(scales: scales(nil, "0.5", "2"), offsets: offsets(nil, nil))
        #expect(shared.calibration.scale == 0.5)
        #expect(shared.problems.isEmpty)
        let generic = ChannelCalibration.resolve(scales: scales(nil, nil, "2"), offsets: [])
        #expect(generic.calibration.scale == 2)
        #expect(generic.problems.isEmpty)
    }

    @Test func refusesZeroNegativeAndNonFiniteScales() {
        let result = ChannelCalibration.resolve(
            scales: [
                ("in_accel_x_scale", "0"), ("in_accel_scale", "-0.01"), ("scale", "nan"), ("extra", "1e999"),
                ("last", "0.25"),
            ], offsets: [])
        #expect(result.calibration.scale == 0.25)
        #expect(
            result.problems == [
                "ignoring the scale from in_accel_x_scale: must be positive, found \"0\"",
                "ignoring the scale from in_accel_scale: must be positive, found \"-0.01\"",
                "ignoring the scale from scale: not a number: \"nan\"",
                "ignoring the scale from extra: number out of range: \"1e999\"",
            ])
    }

    @Test func defaultsToOneWithANote() {
        let none = ChannelCalibration.resolve(scales: scales(nil, nil, nil), offsets: offsets(nil, nil))
        #expect(none.calibration == .identity)
        #expect(none.problems == ["no usable scale (tried in_accel_x_scale, in_accel_scale, scale); using 1"])
        let refused = ChannelCalibration.resolve(scales: scales("0", nil, nil), offsets: [])
        #expect(refused.calibration.scale == 1)
        #expect(refused.problems.count == 2)
        #expect(
            ChannelCalibration.resolve(scales: [], offsets: []).problems == ["no usable scale (none given); using 1"])
    }

    @Test func refusesADecimalComma() {
        let result = ChannelCalibration.resolve(
            scales: scales("0,009576806", "0.009576806", nil), offsets: offsets("1,5", "-2.5"))
        #expect(result.calibration == ChannelCalibration(scale: 0.009576806, offset: -2.5))
        #expect(
            result.problems == [
                "ignoring the scale from in_accel_x_scale: not a number: \"0,009576806\"",
                "ignoring the offset from in_accel_x_offset: not a number: \"1,5\"",
            ])
    }

    @Test func readsOffsetsPerChannelThenShared() {
        let perChannel = ChannelCalibration.resolve(scales: scales("1", nil, nil), offsets: offsets("-12", "7"))
        #expect(perChannel.calibration.offset == -12)
        #expect(perChannel.problems.isEmpty)
        let shared = ChannelCalibration.resolve(scales: scales("1", nil, nil), offsets: offsets(nil, "7\n"))
        #expect(shared.calibration.offset == 7)
        // Any finite offset, zero and negative included.
        #expect(ChannelCalibration.resolve(scales: [], offsets: offsets("0", "7")).calibration.offset == 0)
        let refused = ChannelCalibration.resolve(scales: scales("1", nil, nil), offsets: offsets("inf", nil))
        #expect(refused.calibration.offset == 0)
        #expect(
            refused.problems == [
                "ignoring the offset from in_accel_x_offset: not a number: \"inf\"", "no usable offset; using 0",
            ])
    }

    @Test func calibratesAReading() {
        let (calibration, problems) = ChannelCalibration.resolve(
            scales: scales(nil, "0.009806650", nil), offsets: offsets(nil, "-24"))
        #expect(problems.isEmpty)
        #expect(abs(calibration.apply(1024) - 9.80665) < 1e-9)
    }
}

@Suite struct InputAccelerometerTests {
    let iio = AccelerometerCandidate(syspath: displayPath, name: "accel_3d")
    let input = AccelerometerCandidate(
        syspath: "/sys/devices/platform/lis3lv02d/input/input5/event5", subsystem: .input,
        name: "ST LIS3LV02DL Accelerometer")

    @Test func iioDisplaySensorsComeFirstWhateverTheOrder() {
        for candidates in [[input, iio], [iio, input]] {
            let (index, reason) = SensorSelection.choose(candidates, pin: nil)
            #expect(index.map { candidates[$0] } == iio)
            #expect(!reason.contains("input-subsystem"))
        }
    }

    @Test func inputIsTheFallbackWhenNoIIOSensorQualifies() {
        var base = iio
        base.udevLocation = "base"
        let (index, reason) = SensorSelection.choose([base, input], pin: nil)
        #expect(index == 1)
        #expect(reason.contains("ST LIS3LV02DL Accelerometer (\(input.syspath)), the display accelerometer"))
        #expect(reason.contains("an input-subsystem accelerometer, used because no IIO accelerometer qualifies"))
        #expect(reason.contains("base accelerometer ignored: accel_3d"))
        #expect(SensorSelection.choose([input], pin: nil).index == 0)
    }

    @Test func anInputSensorInTheBaseNeverDrivesRotation() {
        var input = input
        input.udevLocation = "base"
        let (index, reason) = SensorSelection.choose([input], pin: nil)
        #expect(index == nil)
        #expect(reason.hasPrefix("only a base accelerometer ("))
    }

    @Test func pinnedByTheClassPathOrName() {
        #expect(SensorPin(configValue: "/sys/class/input/event5")?.matches(input) == true)
        #expect(SensorPin(configValue: "/sys/class/input/event50")?.matches(input) == false)
        #expect(SensorPin(configValue: "/sys/class/input/event5")?.matches(iio) == false)
        let (index, _) = SensorSelection.choose([iio, input], pin: .name("ST LIS3LV02DL Accelerometer"))
        #expect(index == 1)
    }

    @Test func scaleFromTheResolutionInCountsPerG() {
        let (calibration, problem) = ChannelCalibration.inputAxis(resolution: 1000)
        #expect(problem == nil)
        #expect(calibration.offset == 0)
        #expect(abs(calibration.apply(1000) - 9.80665) < 1e-12)
        #expect(abs(calibration.apply(-500) + 9.80665 / 2) < 1e-12)
    }

    @Test func noResolutionAssumes256CountsPerG() {
        for resolution: Int32 in [0, -4, Int32.min] {
            let (calibration, problem) = ChannelCalibration.inputAxis(resolution: resolution)
            #expect(abs(calibration.apply(256) - 9.80665) < 1e-12)
            #expect(problem == "no resolution given (\(resolution)); assuming 256 counts per g")
        }
    }
}
