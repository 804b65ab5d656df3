import CUdev
import Glibc
import OrientationCore
import SystemdBus

/// An accelerometer as found by discovery: where it is and how to turn its raw counts into
/// a gravity vector in the frame of DESIGN.md section 3.
public struct AccelerometerInfo: Sendable {
    /// The device's sysfs directory, e.g. `/sys/devices/.../iio:device0`, or the event
    /// device of an input accelerometer.
    public var syspath: String
    /// IIO, or the input subsystem (the fallback).
    public var subsystem: SensorSubsystem
    /// The IIO `name` attribute (driver name), when present.
    public var name: String?
    /// Scale and offset of the x, y and z channels.
    public var calibration: [ChannelCalibration]
    /// The mount matrix in force and where it came from.
    public var mountMatrix: MountMatrix
    public var mountMatrixSource: String
    /// The character device: `/dev/iio:deviceN` of a buffered IIO device, `/dev/input/eventN`
    /// of an input accelerometer; nil when udev names none.
    public var devnode: String?

    /// The raw channel file of an axis.
    public func rawChannelPath(_ axis: Character) -> String { "\(syspath)/in_accel_\(axis)_raw" }

    /// Whether an IIO device can be polled (it has the three `in_accel_*_raw` files); a
    /// device without them is read through its buffer only.
    public var hasRawChannels: Bool {
        subsystem == .iio && AccelerometerDiscovery.axes.allSatisfy { Sysfs.isReadable(rawChannelPath($0)) }
    }
}

/// The accelerometer chosen to drive rotation, and why.
public struct AccelerometerChoice: Sendable {
    /// Nil when no sensor qualifies.
    public var info: AccelerometerInfo?
    /// Which sensor, and why (or why none): for the log and `motion-orientation status`.
    public var reason: String
}

/// Finds accelerometers through libudev (IIO devices, then input-subsystem ones) and
/// chooses the display's.
public enum AccelerometerDiscovery {
    static let axes: [Character] = ["x", "y", "z"]

    /// Every IIO device with the three accelerometer channels (raw attributes or buffered scan
    /// elements), then every input event device udev marks `ID_INPUT_ACCELEROMETER=1`, each
    /// in udev's order.
    public static func candidates() -> [AccelerometerCandidate] {
        guard let udev = udev_new() else {
            Log.error("udev_new failed: \(SystemError("udev_new", errno: errno))")
            return []
        }
        defer { udev_unref(udev) }
        var found: [AccelerometerCandidate] = []
        for syspath in Udev.devices(subsystem: "iio") {
            let hasAxes = { (file: (Character) -> String) in
                axes.allSatisfy { Sysfs.isReadable("\(syspath)/\(file($0))") }
            }
            guard hasAxes({ "in_accel_\($0)_raw" }) || hasAxes({ "scan_elements/in_accel_\($0)_en" }),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            found.append(
                AccelerometerCandidate(
                    syspath: syspath, name: attribute(syspath, "name"), label: attribute(syspath, "label"),
                    udevLocation: property(device, "ACCEL_LOCATION"), sysfsLocation: attribute(syspath, "location")))
        }
        for syspath in Udev.devices(subsystem: "input", sysname: "event*", property: ("ID_INPUT_ACCELEROMETER", "1")) {
            guard let device = udev_device_new_from_syspath(udev, syspath) else { continue }
            defer { udev_device_unref(device) }
            guard udev_device_get_devnode(device) != nil else { continue }
            found.append(
                AccelerometerCandidate(
                    syspath: syspath, subsystem: .input, name: attribute(syspath, "device/name"),
                    udevLocation: property(device, "ACCEL_LOCATION")))
        }
        return found
    }

    /// The accelerometer that drives rotation (DESIGN.md: never a base sensor unless
    /// pinned), described with its calibration and mount matrix.
    public static func choose(_ settings: DaemonSettings) -> AccelerometerChoice {
        let found = candidates()
        let (index, reason) = SensorSelection.choose(found, pin: settings.sensorPin)
        guard let index else { return AccelerometerChoice(info: nil, reason: reason) }
        return AccelerometerChoice(info: describe(found[index], settings: settings), reason: reason)
    }

    /// Reads what turns raw counts into the DESIGN.md frame: per-channel scale and offset
    /// (an input accelerometer's from its axes' resolution), and the mount matrix from the
    /// first source that parses. Problems are logged.
    public static func describe(_ candidate: AccelerometerCandidate, settings: DaemonSettings) -> AccelerometerInfo {
        let syspath = candidate.syspath
        let devnode = udevDevnode(syspath)
        let calibration: [ChannelCalibration]
        var matrixSources: [(source: String, text: String?)] = [
            ("udev property ACCEL_MOUNT_MATRIX", udevProperty(syspath, "ACCEL_MOUNT_MATRIX"))
        ]
        switch candidate.subsystem {
        case .iio:
            calibration = axes.map { axis in
                let (channel, problems) = ChannelCalibration.resolve(
                    scales: sources(syspath, ["in_accel_\(axis)_scale", "in_accel_scale", "scale"]),
                    offsets: sources(syspath, ["in_accel_\(axis)_offset", "in_accel_offset"]))
                problems.forEach { Log.warning("\(syspath): \($0)") }
                return channel
            }
            matrixSources += sources(syspath, ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"])
        case .input:
            // An input device has no scale or mount matrix attributes: its axes say their resolution.
            calibration = InputAccelerometer.calibration(devnode: devnode, syspath: syspath)
        }
        let (matrix, source, problems) = MountMatrixResolution.resolve(
            override: settings.mountMatrixOverride, sources: matrixSources)
        problems.forEach { Log.warning("\(syspath): \($0)") }
        return AccelerometerInfo(
            syspath: syspath, subsystem: candidate.subsystem, name: candidate.name, calibration: calibration,
            mountMatrix: matrix, mountMatrixSource: source, devnode: devnode)
    }

    /// The reader that polls the sensor described by `info`.
    public static func reader(for info: AccelerometerInfo) throws(SystemError) -> any AccelerometerSource {
        switch info.subsystem {
        case .iio: try AccelerometerReader(info: info)
        case .input: try InputAccelerometerReader(info: info)
        }
    }

    /// `(source, text)` pairs for sysfs attributes of a device; text nil when absent.
    static func sources(_ syspath: String, _ files: [String]) -> [(source: String, text: String?)] {
        files.map { ("\(syspath)/\($0)", attribute(syspath, $0)) }
    }

    /// A sysfs attribute's text, trimmed; nil when absent or unreadable.
    static func attribute(_ syspath: String, _ file: String) -> String? {
        let path = "\(syspath)/\(file)"
        guard Sysfs.isReadable(path) else { return nil }
        return try? String(Sysfs.read(path).trimmingASCIIWhitespace())
    }

    /// The device node of the device at `syspath`, if any.
    static func udevDevnode(_ syspath: String) -> String? {
        guard let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_syspath(udev, syspath) else { return nil }
        defer { udev_device_unref(device) }
        return udev_device_get_devnode(device).map { String(cString: $0) }
    }

    static func property(_ device: OpaquePointer, _ name: String) -> String? {
        udev_device_get_property_value(device, name).map { String(cString: $0) }
    }

    /// A udev property of the device at `syspath` (a fresh udev device, so a `change`
    /// event's new properties are seen).
    static func udevProperty(_ syspath: String, _ name: String) -> String? {
        guard let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_syspath(udev, syspath) else { return nil }
        defer { udev_device_unref(device) }
        return property(device, name)
    }
}

/// A sensor the daemon polls: an IIO device's raw channels, or an input device's axes.
public protocol AccelerometerSource: AnyObject {
    /// What discovery found out about the sensor.
    var info: AccelerometerInfo { get }
    /// One reading in m/s^2 in the DESIGN.md frame, or nil when it failed (reported once
    /// per bad period).
    func read() -> Vector3?
    /// Sets the device's own rate for sampling every `msec` (when it has one).
    func setSamplingInterval(msec: UInt32)
    /// Sampling stopped: lets go of what only sampling needs.
    func stopSampling()
    /// Gives the device its own rate back (on exit; also when the reader goes).
    func restoreSamplingFrequency()
}

/// Reads one IIO accelerometer: the three raw channel files kept open, calibrated and turned
/// by the mount matrix. Each failing channel is reported once per bad period. A device
/// without raw channels (read through its buffer only) gives no polled readings.
public final class AccelerometerReader: AccelerometerSource {
    public let info: AccelerometerInfo
    private let channels: [SysfsChannel]
    private var problems = ProblemLog()
    /// The device's sampling frequency, when it offers a choice.
    private let rate: SensorRate?

    public init(info: AccelerometerInfo) throws(SystemError) {
        self.info = info
        var channels: [SysfsChannel] = []
        if info.hasRawChannels {
            for axis in AccelerometerDiscovery.axes {
                channels.append(try SysfsChannel(path: info.rawChannelPath(axis)))
            }
        }
        self.channels = channels
        self.rate = SensorRate(syspath: info.syspath)
    }

    public func setSamplingInterval(msec: UInt32) {
        rate?.apply(intervalMsec: msec)
    }

    public func stopSampling() {}

    public func restoreSamplingFrequency() {
        rate?.restore()
    }

    public func read() -> Vector3? {
        guard !channels.isEmpty else {
            let why = "\(info.syspath) has no in_accel_*_raw channels to poll; it is read through its buffer only"
            problems.report(info.syspath, why)
            return nil
        }
        guard let x = readChannel(0), let y = readChannel(1), let z = readChannel(2) else { return nil }
        return info.mountMatrix.apply(Vector3(x, y, z))
    }

    private func readChannel(_ index: Int) -> Double? {
        let channel = channels[index]
        do {
            let value = try SysfsNumber.parseInteger(try channel.read())
            problems.resolve(channel.path)
            return info.calibration[index].apply(value)
        } catch let error as SysfsValueError {
            problems.report(channel.path, "\(channel.path): skipping sample: malformed value: \(error)")
        } catch {
            problems.report(channel.path, "skipping sample: \(error)")
        }
        return nil
    }
}
