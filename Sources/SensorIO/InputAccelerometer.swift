import CInputDevice
import ErrorsAndLog
import Glibc
import OrientationCore
import SystemdBus

/// An input-subsystem accelerometer (`ID_INPUT_ACCELEROMETER=1`), the fallback source for
/// older tablets whose driver reports through evdev (`/dev/input/eventN`) instead of IIO.
///
/// It is polled like an IIO device: each reading asks the kernel for the latest value of
/// `ABS_X`, `ABS_Y` and `ABS_Z` (`EVIOCGABS`). The event stream is not used, because evdev
/// drops a value equal to the previous one, so a device at rest sends nothing while the
/// estimator needs readings to decide. The device node is open only while sampling: opening
/// it is what starts a polled driver's own timer.
final class InputAccelerometerReader: AccelerometerSource {
    let info: AccelerometerInfo
    private let devnode: String
    private var fd: Int32 = -1
    private var problems = ProblemLog()
    /// The driver's own poll interval (`poll` of the input device), when it has one.
    private let pollInterval: InputPollInterval?

    init(info: AccelerometerInfo) throws(SystemError) {
        guard let devnode = info.devnode else {
            throw SystemError("input accelerometer without a device node", path: info.syspath, errno: ENODEV)
        }
        self.info = info
        self.devnode = devnode
        self.pollInterval = InputPollInterval(syspath: info.syspath)
    }

    deinit { stopSampling() }

    func read() -> RawSample? {
        if fd < 0 {
            fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if fd < 0 {
                problems.report(devnode, "skipping sample: \(SystemError("open", path: devnode, errno: errno))")
                return nil
            }
        }
        do {
            let axes = try InputAccelerometer.axes(fd: fd, devnode: devnode)
            problems.resolve(devnode)
            return (Double(axes[0].value), Double(axes[1].value), Double(axes[2].value))
        } catch {
            problems.report(devnode, "skipping sample: \(error)")
            // Open again at the next reading: the node may have been replaced.
            stopSampling()
            return nil
        }
    }

    func setSamplingInterval(msec: UInt32, polled: Bool) {
        pollInterval?.apply(intervalMsec: msec)
    }

    /// An input device has no buffer.
    func bufferedRate(forIntervalMsec msec: UInt32) -> Double? { nil }

    /// An input device reports by its own interval (set from the plan): nothing to raise.
    func prepareForPolling() {}

    func stopSampling() {
        // Read-only: close(2) has nothing to report.
        if fd >= 0 { close(fd) }
        fd = -1
    }

    func restoreSamplingFrequency() {
        pollInterval?.restore()
    }
}

/// Discovery's side of input accelerometers: the axes and what they mean.
enum InputAccelerometer {
    /// `ABS_X`, `ABS_Y`, `ABS_Z`.
    static let axisCodes: [UInt32] = [0, 1, 2]

    /// The state of the three axes of the evdev device open at `fd`.
    static func axes(fd: Int32, devnode: String) throws(SystemError) -> [input_absinfo] {
        var result: [input_absinfo] = []
        for code in axisCodes {
            var axis = input_absinfo()
            let r = mo_evdev_get_abs(fd, code, &axis)
            if r < 0 { throw SystemError("EVIOCGABS(\(code))", path: devnode, errno: -r) }
            result.append(axis)
        }
        return result
    }

    /// The calibration of each axis from its resolution (counts per g), read once from the
    /// device node; when it cannot be read, that is logged and 256 counts per g assumed.
    static func calibration(devnode: String?, syspath: String) -> [ChannelCalibration] {
        do throws(SystemError) {
            guard let devnode else { throw SystemError("no device node", path: syspath, errno: ENODEV) }
            let fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw SystemError("open", path: devnode, errno: errno) }
            defer { close(fd) }  // read-only: close(2) has nothing to report
            return try axes(fd: fd, devnode: devnode).enumerated().map { index, axis in
                let (calibration, problem) = ChannelCalibration.inputAxis(resolution: axis.resolution)
                if let problem { Log.notice("\(syspath): axis \(AccelerometerDiscovery.axes[index]): \(problem)") }
                return calibration
            }
        } catch {
            let perG = ChannelCalibration.assumedInputCountsPerG
            Log.warning("\(syspath): cannot read the axes' resolution: \(error); assuming \(perG) counts per g")
            return Array(repeating: ChannelCalibration.inputAxis(resolution: perG).calibration, count: 3)
        }
    }
}

/// The poll interval of a polled input driver (`poll`, in milliseconds, between `min` and
/// `max`, on the input device): set to the sampling interval, so the driver reads the chip
/// no more often than we ask, and restored when we let go.
final class InputPollInterval {
    private let setting: DeviceSetting
    private let range: ClosedRange<UInt32>

    /// Nil when the device has no poll interval (the driver reports by interrupt).
    init?(syspath: String) {
        let directory = "\(syspath)/device"
        func number(_ name: String) -> UInt32? {
            let path = "\(directory)/\(name)"
            guard let text = Sysfs.readIfPresent(path, consequence: "leaving the driver's poll interval as it is:")
            else { return nil }
            guard let value = UInt32(text.trimmingASCIIWhitespace()) else {
                Log.warning(
                    "\(path): ignoring '\(text.trimmingASCIIWhitespace().prefix(32))': not a number of milliseconds")
                return nil
            }
            return value
        }
        guard let original = number("poll") else { return nil }
        let low = number("min") ?? 1
        self.range = low...max(number("max") ?? UInt32.max, low)
        self.setting = DeviceSetting(path: "\(directory)/poll", original: "\(original)", what: "driver's poll interval")
    }

    /// Polls the chip every `intervalMsec` (within the driver's limits).
    func apply(intervalMsec: UInt32) {
        setting.set("\(min(max(intervalMsec, range.lowerBound), range.upperBound))")
    }

    /// Puts back the interval the driver had when we took it.
    func restore() {
        setting.restore()
    }
}
