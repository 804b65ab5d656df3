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

    /// The one place where raw counts become a reading in the DESIGN.md frame, for every
    /// kind of reader: each channel's scale and offset, then the mount matrix.
    public func reading(_ sample: RawSample) -> Vector3 {
        mountMatrix.apply(
            Vector3(calibration[0].apply(sample.x), calibration[1].apply(sample.y), calibration[2].apply(sample.z)))
    }

    /// Whether an IIO device can be polled (it has the three `in_accel_*_raw` files); a
    /// device without them is read through its buffer only.
    public var hasRawChannels: Bool {
        subsystem == .iio && AccelerometerDiscovery.axes.allSatisfy { Sysfs.isReadable(rawChannelPath($0)) }
    }
}

/// The x, y and z counts of one sample as the device reports them, before scale, offset
/// and mount matrix (`AccelerometerInfo.reading(_:)`).
public struct RawSample: Equatable, Sendable {
    public var x: Int64
    public var y: Int64
    public var z: Int64

    public init(_ x: Int64, _ y: Int64, _ z: Int64) {
        self.x = x
        self.y = y
        self.z = z
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
    /// in udev's order. Throws when udev cannot be asked; a device that went away meanwhile
    /// is left out.
    public static func candidates() throws(SystemError) -> [AccelerometerCandidate] {
        var found: [AccelerometerCandidate] = []
        for syspath in try Udev.devices(subsystem: "iio") {
            let hasAxes = { (file: (Character) -> String) in
                axes.allSatisfy { Sysfs.isReadable("\(syspath)/\(file($0))") }
            }
            guard hasAxes({ "in_accel_\($0)_raw" }) || hasAxes({ "scan_elements/in_accel_\($0)_en" }) else { continue }
            let location: String?
            do {
                location = try Udev.withDevice(syspath) { Udev.property($0, "ACCEL_LOCATION") }
            } catch {
                leftOut(error)
                continue
            }
            found.append(
                AccelerometerCandidate(
                    syspath: syspath, name: attribute(syspath, "name"), label: attribute(syspath, "label"),
                    udevLocation: location, sysfsLocation: attribute(syspath, "location")))
        }
        for syspath in try Udev.devices(
            subsystem: "input", sysname: "event*", property: ("ID_INPUT_ACCELEROMETER", "1"))
        {
            let (hasDevnode, location): (Bool, String?)
            do {
                (hasDevnode, location) = try Udev.withDevice(syspath) {
                    (udev_device_get_devnode($0) != nil, Udev.property($0, "ACCEL_LOCATION"))
                }
            } catch {
                leftOut(error)
                continue
            }
            guard hasDevnode else { continue }
            found.append(
                AccelerometerCandidate(
                    syspath: syspath, subsystem: .input, name: attribute(syspath, "device/name"),
                    udevLocation: location))
        }
        return found
    }

    /// A device that went away after udev listed it is no candidate (its remove event follows).
    private static func leftOut(_ error: SystemError) {
        Log.debug("left out: \(error)")
    }

    /// The accelerometer that drives rotation (DESIGN.md: never a base sensor unless
    /// pinned), described with its calibration and mount matrix.
    public static func choose(_ settings: DaemonSettings) -> AccelerometerChoice {
        let found: [AccelerometerCandidate]
        do {
            found = try candidates()
        } catch {
            Log.error("cannot look for accelerometers: \(error)")
            return AccelerometerChoice(info: nil, reason: "cannot look for accelerometers: \(error)")
        }
        let (index, reason) = SensorSelection.choose(found, pin: settings.sensorPin)
        guard let index else { return AccelerometerChoice(info: nil, reason: reason) }
        return AccelerometerChoice(info: describe(found[index], settings: settings), reason: reason)
    }

    /// Reads what turns raw counts into the DESIGN.md frame: per-channel scale and offset
    /// (an input accelerometer's from its axes' resolution), and the mount matrix from the
    /// first source that parses. Problems are logged.
    public static func describe(_ candidate: AccelerometerCandidate, settings: DaemonSettings) -> AccelerometerInfo {
        let syspath = candidate.syspath
        var devnode: String? = nil
        var udevMatrix: String? = nil
        do {
            (devnode, udevMatrix) = try Udev.withDevice(syspath) { device in
                (udev_device_get_devnode(device).map { String(cString: $0) }, Udev.property(device, "ACCEL_MOUNT_MATRIX"))
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

    /// A sysfs attribute's text, trimmed; nil when absent. One that exists and cannot be
    /// read (EACCES, EIO, a directory) is logged with its errno and taken as absent.
    static func attribute(_ syspath: String, _ file: String) -> String? {
        Sysfs.readIfPresent("\(syspath)/\(file)", consequence: "ignoring")?.trimmingWhitespace()
    }
}

extension String {
    /// The string without leading and trailing ASCII whitespace (no Foundation here).
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }),
            let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}

/// A sensor the daemon polls: an IIO device's raw channels, or an input device's axes.
public protocol AccelerometerSource: AnyObject {
    /// What discovery found out about the sensor.
    var info: AccelerometerInfo { get }
    /// One sample's raw counts (`info.reading(_:)` turns them into m/s^2 in the DESIGN.md
    /// frame), or nil when it failed (reported once per bad period).
    func read() -> RawSample?
    /// Sets the device's own rate for sampling every `msec` (when it has one).
    func setSamplingInterval(msec: UInt32)
    /// Sampling stopped: lets go of what only sampling needs.
    func stopSampling()
    /// Gives the device its own rate back (on exit; also when the reader goes).
    func restoreSamplingFrequency()
}

/// Reads one IIO accelerometer: the three raw channel files kept open. Each failing channel is reported once per bad period. A device
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

    public func read() -> RawSample? {
        guard !channels.isEmpty else {
            let why = "\(info.syspath) has no in_accel_*_raw channels to poll; it is read through its buffer only"
            problems.report(info.syspath, why)
            return nil
        }
        guard let x = readChannel(0), let y = readChannel(1), let z = readChannel(2) else { return nil }
        return RawSample(x, y, z)
    }

    private func readChannel(_ index: Int) -> Int64? {
        let channel = channels[index]
        do {
            let value = try SysfsNumber.parseInteger(try channel.read())
            problems.resolve(channel.path)
            return value
        } catch let error as SysfsValueError {
            problems.report(channel.path, "\(channel.path): skipping sample: malformed value: \(error)")
        } catch {
            problems.report(channel.path, "skipping sample: \(error)")
        }
        return nil
    }
}
