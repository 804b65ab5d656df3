import CUdev
import ErrorsAndLog
import Glibc
import OrientationCore
import SystemdBus

/// The accelerometer chosen to drive rotation, and why.
public struct AccelerometerChoice: Sendable {
    /// Nil when no sensor qualifies.
    public var info: AccelerometerInfo?
    /// Which sensor, and why (or why none): for the log and `motion-orientation status`.
    public var reason: String
    /// The base accelerometer paired with the display's for the hinge angle; nil without one.
    public var base: AccelerometerInfo? = nil
    /// Which base sensor, and why (or why none).
    public var baseReason = "no base accelerometer"
    /// The accelerometers found that udev has not set up (`Udev.isSetUp`), taken or not.
    public var unprocessed: [String] = []
}

/// Finds accelerometers through libudev (IIO devices, then input-subsystem ones) and
/// chooses the display's.
///
/// A device udev has set up is taken when it is found. One udev has not (yet) processed is
/// taken only where no udev event is to be waited for: at start-up, and at its own udev
/// event. A device is in sysfs from the kernel's event on, before udev has given it its
/// properties (`ACCEL_LOCATION`), the rule's group and mode and its RUN's grants; udev
/// announces it once that is done. So a hub plugged in while the daemon runs is taken at
/// its own event, never at an earlier event of another device (its trigger, a second
/// sensor), where the daemon's first writes would fail with EACCES. At start-up nothing
/// tells a device udev is still at from one it will never process (udev does not run: a
/// container, `umockdev-run -d` and its recorded devices): both are taken, and the first
/// kind is taken again at its own event, which brings its properties and permissions (the
/// daemon watches udev before it looks, so that event is not missed).
public enum AccelerometerDiscovery {
    static let axes: [Character] = ["x", "y", "z"]

    /// Every IIO device with the three accelerometer channels (raw attributes or buffered scan
    /// elements), then every input event device udev marks `ID_INPUT_ACCELEROMETER=1`, each
    /// in udev's order, with whether udev has set it up. Throws when udev cannot be asked;
    /// a device that went away meanwhile is left out.
    static func candidates() throws(SystemError) -> [(candidate: AccelerometerCandidate, setUp: Bool)] {
        var found: [(candidate: AccelerometerCandidate, setUp: Bool)] = []
        for syspath in try Udev.devices(subsystem: "iio") {
            let hasAxes = { (file: (Character) -> String) in
                axes.allSatisfy { Sysfs.isReadable("\(syspath)/\(file($0))") }
            }
            guard hasAxes({ "in_accel_\($0)_raw" }) || hasAxes({ "scan_elements/in_accel_\($0)_en" }) else { continue }
            let (setUp, location): (Bool, String?)
            do {
                (setUp, location) = try Udev.withDevice(syspath) {
                    (Udev.isSetUp($0), Udev.property($0, "ACCEL_LOCATION"))
                }
            } catch {
                leftOut(error)
                continue
            }
            let candidate = AccelerometerCandidate(
                syspath: syspath, name: attribute(syspath, "name"), label: attribute(syspath, "label"),
                udevLocation: location, sysfsLocation: attribute(syspath, "location"))
            found.append((candidate, setUp))
        }
        for syspath in try Udev.devices(
            subsystem: "input", sysname: "event*", property: ("ID_INPUT_ACCELEROMETER", "1"))
        {
            let (hasDevnode, setUp, location): (Bool, Bool, String?)
            do {
                (hasDevnode, setUp, location) = try Udev.withDevice(syspath) {
                    (udev_device_get_devnode($0) != nil, Udev.isSetUp($0), Udev.property($0, "ACCEL_LOCATION"))
                }
            } catch {
                leftOut(error)
                continue
            }
            guard hasDevnode else { continue }
            let candidate = AccelerometerCandidate(
                syspath: syspath, subsystem: .input, name: attribute(syspath, "device/name"), udevLocation: location)
            found.append((candidate, setUp))
        }
        return found
    }

    /// A device that went away after udev listed it is no candidate (its remove event follows).
    private static func leftOut(_ error: SystemError) {
        Log.debug("left out: \(error)")
    }

    /// The accelerometer that drives rotation (motion-orientationd.conf(5), `[Sensor] Device=`:
    /// never a base sensor unless pinned), described with its calibration and mount matrix.
    /// Among the devices udev has not set up, only those in `unprocessed` are candidates;
    /// nil takes them all (at start-up, and for the client's `record`).
    public static func choose(_ settings: DaemonSettings, unprocessed: Set<String>? = nil) -> AccelerometerChoice {
        let all: [(candidate: AccelerometerCandidate, setUp: Bool)]
        do {
            all = try candidates()
        } catch {
            Log.error("cannot look for accelerometers: \(error)")
            return AccelerometerChoice(info: nil, reason: "cannot look for accelerometers: \(error)")
        }
        let notSetUp = all.filter { !$0.setUp }.map(\.candidate.syspath)
        let found = all.filter { $0.setUp || unprocessed?.contains($0.candidate.syspath) ?? true }.map(\.candidate)
        let (index, reason) = SensorSelection.choose(found, pin: settings.sensorPin)
        guard let index else { return AccelerometerChoice(info: nil, reason: reason, unprocessed: notSetUp) }
        var choice = AccelerometerChoice(
            info: describe(found[index], settings: settings), reason: reason, unprocessed: notSetUp)
        let (base, baseReason) = SensorSelection.base(found, display: index)
        choice.baseReason = baseReason
        // [Sensor] MountMatrix= is the display sensor's: the base keeps its own matrix.
        choice.base = base.map { describe(found[$0], settings: settings, mountMatrixOverride: nil) }
        return choice
    }

    /// Reads what turns raw counts into the docs/axes.md frame: per-channel scale and offset
    /// (an input accelerometer's from its axes' resolution), and the mount matrix from the
    /// first source that parses. Problems are logged.
    static func describe(_ candidate: AccelerometerCandidate, settings: DaemonSettings) -> AccelerometerInfo {
        describe(candidate, settings: settings, mountMatrixOverride: settings.mountMatrixOverride)
    }

    static func describe(
        _ candidate: AccelerometerCandidate, settings: DaemonSettings, mountMatrixOverride: MountMatrix?
    ) -> AccelerometerInfo {
        let syspath = candidate.syspath
        var devnode: String? = nil
        var udevMatrix: String? = nil
        do {
            (devnode, udevMatrix) = try Udev.withDevice(syspath) { device in
                (
                    udev_device_get_devnode(device).map { String(cString: $0) },
                    Udev.property(device, "ACCEL_MOUNT_MATRIX")
                )
            }
        } catch {
            Log.warning("\(syspath): no device node or udev mount matrix: \(error)")
        }
        let calibration: [ChannelCalibration]
        var matrixSources: [(source: String, text: String?)] = [("udev property ACCEL_MOUNT_MATRIX", udevMatrix)]
        // Each attribute read once (shared scales serve three axes), so a refusal is told once.
        var texts: [String: String?] = [:]
        func sources(_ files: [String]) -> [(source: String, text: String?)] {
            files.map { file in
                let text = texts[file] ?? attribute(syspath, file)
                texts[file] = text
                return ("\(syspath)/\(file)", text)
            }
        }
        switch candidate.subsystem {
        case .iio:
            calibration = axes.map { axis in
                let (channel, problems) = ChannelCalibration.resolve(
                    scales: sources(["in_accel_\(axis)_scale", "in_accel_scale", "scale"]),
                    offsets: sources(["in_accel_\(axis)_offset", "in_accel_offset"]))
                problems.forEach { Log.warning("\(syspath): \($0)") }
                return channel
            }
            matrixSources += sources(["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"])
        case .input:
            // An input device has no scale or mount matrix attributes: its axes say their resolution.
            calibration = InputAccelerometer.calibration(devnode: devnode, syspath: syspath)
        }
        let (matrix, source, problems) = MountMatrixResolution.resolve(
            override: mountMatrixOverride, sources: matrixSources)
        problems.forEach { Log.warning("\(syspath): \($0)") }
        var info = AccelerometerInfo(
            syspath: syspath, subsystem: candidate.subsystem, name: candidate.name, calibration: calibration,
            mountMatrix: matrix, mountMatrixSource: source, devnode: devnode)
        // HID sensor hubs name their change sensitivity so (newer kernels add a relative one).
        // hid-sensor-accel-3d makes the file on every hub; one without a sensitivity streams,
        // and a read of its file fails (EINVAL): only a sensitivity above 0 means change-only.
        info.reportsOnlyChanges =
            candidate.subsystem == .iio
            && ["in_accel_hysteresis", "in_accel_hysteresis_relative"].contains {
                guard let text = try? Sysfs.read("\(syspath)/\($0)") else { return false }
                return ((try? SysfsNumber.parseDecimal(text)) ?? 0) > 0
            }
        return info
    }

    /// The reader that polls the sensor described by `info`.
    public static func reader(for info: AccelerometerInfo) throws(SystemError) -> any AccelerometerSource {
        switch info.subsystem {
        case .iio: try AccelerometerReader(info: info)
        case .input: try InputAccelerometerReader(info: info)
        }
    }

    /// A sysfs attribute's text, trimmed; nil when absent. One that exists and cannot be
    /// read (EACCES, EIO, a directory) is logged with its errno and taken as absent.
    static func attribute(_ syspath: String, _ file: String) -> String? {
        Sysfs.readIfPresent("\(syspath)/\(file)", consequence: "ignoring").map { String($0.trimmingASCIIWhitespace()) }
    }
}
