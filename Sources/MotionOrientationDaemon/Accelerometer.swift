import CUdev
import Glibc
import OrientationCore

/// An IIO accelerometer as found by discovery: where it is and how to turn its raw
/// counts into a gravity vector in the frame of DESIGN.md section 3.
public struct AccelerometerInfo: Sendable {
    /// The device's sysfs directory, e.g. `/sys/devices/.../iio:device0`.
    public var syspath: String
    /// The IIO `name` attribute (driver name), when present.
    public var name: String?
    /// Per-axis scale (m/s^2 per count).
    public var scale: (x: Double, y: Double, z: Double)
    /// The mount matrix in force and where it came from.
    public var mountMatrix: MountMatrix
    public var mountMatrixSource: String

    /// The raw channel file of an axis.
    public func rawChannelPath(_ axis: Character) -> String { "\(syspath)/in_accel_\(axis)_raw" }
}

/// Finds IIO accelerometers through libudev.
public enum AccelerometerDiscovery {
    static let axes: [Character] = ["x", "y", "z"]

    /// Every IIO device with readable `in_accel_{x,y,z}_raw`, in udev's order.
    public static func findAll() -> [AccelerometerInfo] {
        guard let udev = udev_new() else {
            Log.error("udev_new failed: \(SystemError("udev_new", errno: errno))")
            return []
        }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "iio")
        let r = udev_enumerate_scan_devices(enumerate)
        if r < 0 {
            Log.error("enumerating IIO devices: \(SystemError("udev_enumerate_scan_devices", errno: -r))")
            return []
        }
        var found: [AccelerometerInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let syspath = udev_list_entry_get_name(current).map({ String(cString: $0) }),
                axes.allSatisfy({ Sysfs.isReadable("\(syspath)/in_accel_\($0)_raw") }),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            found.append(describe(device: device, syspath: syspath))
        }
        return found
    }

    /// The accelerometer that drives rotation: the first one found, for now (base and
    /// display sensors are told apart later). Nil when there is none.
    public static func chooseDisplayAccelerometer() -> AccelerometerInfo? {
        findAll().first
    }

    static func describe(device: OpaquePointer, syspath: String) -> AccelerometerInfo {
        let name = try? Sysfs.read("\(syspath)/name").trimmingWhitespace()
        let (matrix, source) = mountMatrix(device: device, syspath: syspath)
        let scale = (
            x: channelScale(syspath: syspath, axis: "x"),
            y: channelScale(syspath: syspath, axis: "y"),
            z: channelScale(syspath: syspath, axis: "z")
        )
        return AccelerometerInfo(
            syspath: syspath, name: name, scale: scale, mountMatrix: matrix, mountMatrixSource: source)
    }

    /// `ACCEL_MOUNT_MATRIX` from udev (systemd's hwdb), else identity. A malformed
    /// matrix is reported and ignored.
    static func mountMatrix(device: OpaquePointer, syspath: String) -> (MountMatrix, String) {
        if let text = udev_device_get_property_value(device, "ACCEL_MOUNT_MATRIX").map({ String(cString: $0) }) {
            do {
                return (try MountMatrix(parsing: text), "udev property ACCEL_MOUNT_MATRIX")
            } catch {
                Log.warning("\(syspath): ignoring udev property ACCEL_MOUNT_MATRIX=\"\(text)\": \(error)")
            }
        }
        return (.identity, "identity (no mount matrix given)")
    }

    /// `in_accel_<axis>_scale`, else `in_accel_scale`, else `scale`, else 1.
    /// A file that exists but holds no usable scale is reported and skipped.
    static func channelScale(syspath: String, axis: Character) -> Double {
        for file in ["in_accel_\(axis)_scale", "in_accel_scale", "scale"] {
            let path = "\(syspath)/\(file)"
            guard Sysfs.isReadable(path) else { continue }
            do {
                let value = try SysfsNumber.parseDecimal(try Sysfs.read(path))
                if value > 0 && value.isFinite { return value }
                Log.warning("\(path): ignoring scale \(value): must be positive")
            } catch {
                Log.warning("\(path): ignoring scale: \(error)")
            }
        }
        return 1
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

/// Reads one accelerometer: the three raw channel files kept open, scaled and turned
/// by the mount matrix. Each failing channel is reported once per bad period.
public final class AccelerometerReader {
    public let info: AccelerometerInfo
    private let channels: [SysfsChannel]
    private var problems = ProblemLog()

    public init(info: AccelerometerInfo) throws(SystemError) {
        self.info = info
        var channels: [SysfsChannel] = []
        for axis in AccelerometerDiscovery.axes {
            channels.append(try SysfsChannel(path: info.rawChannelPath(axis)))
        }
        self.channels = channels
    }

    /// One reading in m/s^2 in the DESIGN.md frame, or nil when a channel failed.
    public func read() -> Vector3? {
        var raw: (Int64, Int64, Int64) = (0, 0, 0)
        for index in 0..<3 {
            guard let value = readChannel(index) else { return nil }
            switch index {
            case 0: raw.0 = value
            case 1: raw.1 = value
            default: raw.2 = value
            }
        }
        let scaled = Vector3(
            Double(raw.0) * info.scale.x, Double(raw.1) * info.scale.y, Double(raw.2) * info.scale.z)
        return info.mountMatrix.apply(scaled)
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
