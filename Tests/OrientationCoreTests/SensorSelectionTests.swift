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

    @Test func pairsTheBaseSensorWithTheDisplaySensor() {
        var base = base
        base.udevLocation = "base"
        var display = display
        display.udevLocation = "display"
        let candidates = [base, display]
        let (index, reason) = SensorSelection.base(candidates, display: 1)
        #expect(index == 0)
        #expect(reason == "accel_3d (\(basePath)), the base accelerometer (udev property ACCEL_LOCATION=base)")
        // By label and by location attribute too; IIO before input.
        var labelled = self.base
        labelled.label = "accel-base"
        var inputBase = self.base
        inputBase.syspath = "/sys/devices/x/input/event3"
        inputBase.subsystem = .input
        inputBase.udevLocation = "base"
        #expect(SensorSelection.base([inputBase, self.display, labelled], display: 1).index == 2)
        var located = self.base
        located.sysfsLocation = "base"
        #expect(SensorSelection.base([self.display, located], display: 0).index == 1)
    }

    @Test func noBaseSensorWithoutOneOrWithoutADisplaySensor() {
        #expect(SensorSelection.base([display], display: 0) == (nil, "no base accelerometer"))
        // An unmarked second sensor is another display sensor, not a base.
        let other = AccelerometerCandidate(syspath: "/sys/devices/x/iio:device2", name: "lis3dh")
        #expect(SensorSelection.base([display, other], display: 0).index == nil)
        var base = base
        base.label = "accel-base"
        #expect(SensorSelection.base([base], display: nil).index == nil)
        // A base sensor pinned to drive rotation is not also its own pair.
        #expect(SensorSelection.base([base], display: 0).index == nil)
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

@Suite struct InputSubsystemChoiceTests {
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

@Suite struct OtherLabelChoiceTests {
    let camera = AccelerometerCandidate(
        syspath: "/sys/devices/platform/cros-ec-accel.0/iio:device0", name: "cros-ec-accel", label: "accel-camera")
    let unlabelled = AccelerometerCandidate(syspath: displayPath, name: "accel_3d")

    @Test func anotherLabelIsNeitherDisplayNorBaseWhenNothingPlacesIt() {
        #expect(SensorSelection.otherLabel(of: camera) == "accel-camera")
        #expect(SensorSelection.otherLabel(of: unlabelled) == nil)
        var display = unlabelled
        display.label = " Accel-Display\n"
        #expect(SensorSelection.otherLabel(of: display) == nil)
        var placed = camera
        placed.udevLocation = "display"
        #expect(SensorSelection.otherLabel(of: placed) == nil)
        placed = camera
        placed.sysfsLocation = "lid"
        #expect(SensorSelection.otherLabel(of: placed) == nil)
        // A location word that means nothing does not place it.
        placed.sysfsLocation = "camera"
        #expect(SensorSelection.otherLabel(of: placed) == "accel-camera")
    }

    @Test func aDisplaySensorComesFirstWhateverTheOrder() {
        var labelled = unlabelled
        labelled.label = "accel-display"
        for display in [labelled, unlabelled] {
            for candidates in [[camera, display], [display, camera]] {
                let (index, reason) = SensorSelection.choose(candidates, pin: nil)
                #expect(index.map { candidates[$0] } == display)
                #expect(reason.contains("not a display accelerometer: cros-ec-accel"))
                #expect(reason.contains("label accel-camera"))
            }
        }
        // Even an input-subsystem display sensor comes before it.
        let input = AccelerometerCandidate(
            syspath: "/sys/devices/platform/lis3lv02d/input/input5/event5", subsystem: .input, name: "lis3lv02d")
        #expect(SensorSelection.choose([camera, input], pin: nil).index == 1)
    }

    @Test func aloneItStillDrivesRotation() {
        var base = unlabelled
        base.label = "accel-base"
        for candidates in [[camera], [base, camera]] {
            let (index, reason) = SensorSelection.choose(candidates, pin: nil)
            #expect(index.map { candidates[$0] } == camera)
            #expect(reason.contains("labelled accel-camera, not accel-display"))
        }
    }

    @Test func aPinStillWins() {
        let (index, reason) = SensorSelection.choose(
            [unlabelled, camera], pin: SensorPin(configValue: "label:accel-camera"))
        #expect(index == 1)
        #expect(reason.contains("pinned"))
    }
}
