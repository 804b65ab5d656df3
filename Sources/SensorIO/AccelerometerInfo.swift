import OrientationCore

/// An accelerometer as found by discovery: where it is and how to turn its raw counts into
/// a gravity vector in the frame of docs/axes.md.
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
    /// Whether the device reports only changes through its buffer: it has a change
    /// sensitivity (`in_accel_hysteresis` reads a value above 0, HID sensor hubs), so a still device sends
    /// nothing, and its silence means "unchanged", not a fault.
    public var reportsOnlyChanges = false

    /// The raw channel file of an axis.
    public func rawChannelPath(_ axis: Character) -> String { "\(syspath)/in_accel_\(axis)_raw" }

    /// The one place where raw counts become a reading in the docs/axes.md frame, for every
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
/// and mount matrix (`AccelerometerInfo.reading(_:)`). Counts are whole numbers on most
/// drivers; a raw file may also print a fraction ("-25.6"), which is kept.
public typealias RawSample = (x: Double, y: Double, z: Double)
