import CSystemd  // EPOLLHUP, EPOLLERR (sys/epoll.h)
import ErrorsAndLog
import Glibc
import OrientationCore
import SystemdBus

/// A buffered IIO accelerometer: the kernel pushes scans into `/dev/iio:deviceN` at the
/// device's rate, and the event loop reads every scan (never a blocking read), decodes it
/// from the `scan_elements` type descriptions and hands it on with its timestamp.
///
/// Its channels and timestamp are enabled when the sensor is taken (`prepare()`) and stay
/// enabled while idle, as iio-sensor-proxy leaves them; a trigger is picked and the buffer
/// enabled when sampling starts, the buffer disabled when it stops (`stop()`), and the
/// channels switched off when the sensor is let go of (`release()`, or dropping the object).
/// The kernel refuses a scan element's write while the buffer is enabled (EBUSY,
/// `iio_scan_el_store` in drivers/iio/industrialio-buffer.c): channels change only after
/// the buffer was switched off.
public final class BufferedAccelerometer {
    /// What a decoded scan becomes: its raw counts and its time on the monotonic clock
    /// (seconds).
    public typealias Sink = (_ sample: RawSample, _ time: Double) -> Void

    public let info: AccelerometerInfo
    public let devnode: String
    private let syspath: String
    private var layout: IIOScanLayout?
    private var fd: Int32 = -1
    private var source: IOSource?
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 4096)
    private var enabledFiles: [String] = []
    /// We enabled the buffer and have not switched it off since (a refusal keeps it so).
    private var bufferMayBeEnabled = false
    private var sink: Sink?
    private var onFailure: ((String) -> Void)?
    /// Attributes that refused to be switched off at stop, each reported once.
    private var stopProblems = ProblemLog()
    /// Whether scans have arrived since the buffer was enabled.
    public private(set) var delivered = false
    /// Starts counting `delivered` afresh (scans from now on).
    public func forgetDelivered() { delivered = false }
    /// Whether the buffer is enabled and being read.
    public var isRunning: Bool { fd >= 0 }

    /// A buffered interface for the device, or nil when it has none.
    public init?(info: AccelerometerInfo, devnode: String?) {
        let scan = "\(info.syspath)/scan_elements"
        guard let devnode,
            AccelerometerDiscovery.axes.allSatisfy({ Sysfs.isReadable("\(scan)/in_accel_\($0)_en") }),
            Sysfs.isReadable("\(info.syspath)/buffer/enable")
        else { return nil }
        self.info = info
        self.devnode = devnode
        self.syspath = info.syspath
    }

    deinit { release() }

    /// Enables the channels (and the timestamp) with the buffer off, and reads the scan layout:
    /// what iio-sensor-proxy does when it opens a buffered device.
    public func prepare() throws(SystemError) {
        guard layout == nil else { return }
        try Sysfs.write("\(syspath)/buffer/enable", "0")
        bufferMayBeEnabled = false
        layout = try enableChannels()
    }

    /// Enables the channels, the trigger and the buffer, and starts reading on `event`.
    /// `onFailure` is called (once) when the device stops delivering for good.
    public func start(event: OpaquePointer, sink: @escaping Sink, onFailure: @escaping (String) -> Void)
        throws(SystemError)
    {
        stop()
        self.sink = sink
        self.onFailure = onFailure
        delivered = false
        pending = []
        do throws(SystemError) {
            try prepare()
            try pickTrigger()
            fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw SystemError("open", path: devnode, errno: errno) }
            bufferMayBeEnabled = true  // even a refused write may have left it on
            try Sysfs.write("\(syspath)/buffer/enable", "1")
        } catch {
            stop()
            throw error
        }
        do {
            source = try IOSource(event: event, fd: fd, what: devnode) { [unowned self] revents in
                self.readable(revents)
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Disables the buffer and closes the device node; the channels stay enabled. A file that
    /// refuses is reported once (the device may keep scanning into its buffer); one that is
    /// gone belonged to a device that is gone; a buffer that refused is tried again at the
    /// next stop.
    public func stop() {
        source = nil  // off the loop before the descriptor closes
        if fd >= 0 {
            close(fd)  // read-only: close(2) has nothing to report
            fd = -1
        }
        if bufferMayBeEnabled && switchOff("\(syspath)/buffer/enable") { bufferMayBeEnabled = false }
        sink = nil
    }

    /// Stops, and switches off the channels we enabled (on exit, or when the sensor is let go)
    /// once the buffer is off: with the buffer still on, the kernel would refuse each channel,
    /// so they are left on, and that is said once.
    public func release() {
        stop()
        if bufferMayBeEnabled {
            if !enabledFiles.isEmpty {
                Log.warning("\(syspath): leaving the scan elements on: the buffer could not be switched off")
            }
        } else {
            for file in enabledFiles { switchOff(file) }
        }
        enabledFiles = []
        layout = nil
    }

    /// Writes 0 to `file`; true when it took (or the device is gone).
    @discardableResult
    private func switchOff(_ file: String) -> Bool {
        do {
            try Sysfs.write(file, "0")
            stopProblems.resolve(file)
            return true
        } catch {
            if error.errno == ENOENT { return true }
            stopProblems.report(file, "cannot switch off: \(error)")
            return false
        }
    }

    /// Turns on x, y, z (and the timestamp when there is one) and reads the scan layout.
    private func enableChannels() throws(SystemError) -> IIOScanLayout {
        let scan = "\(syspath)/scan_elements"
        var names = AccelerometerDiscovery.axes.map { "in_accel_\($0)" }
        if Sysfs.isReadable("\(scan)/in_timestamp_en") { names.append("in_timestamp") }
        var channels: [IIOScanLayout.Channel] = []
        for name in names {
            let typeText = try Sysfs.read("\(scan)/\(name)_type")
            let indexText = try Sysfs.read("\(scan)/\(name)_index")
            do {
                let type = try IIOScanType(parsing: typeText)
                let index = Int(try SysfsNumber.parseInteger(indexText))
                channels.append(IIOScanLayout.Channel(name: name, index: index, type: type))
            } catch {
                throw SystemError("\(scan)/\(name): \(error)", errno: EINVAL)
            }
            try Sysfs.write("\(scan)/\(name)_en", "1")
            enabledFiles.append("\(scan)/\(name)_en")
        }
        do {
            return try IIOScanLayout(channels: channels)
        } catch {
            throw SystemError("\(scan): \(error)", errno: EINVAL)
        }
    }

    /// Keeps a trigger already set; else the device's own (`<name>-dev<N>`), else one
    /// whose name starts with the device's name. Devices without `trigger/` need none; with
    /// no matching trigger the buffer is enabled without one (as iio-sensor-proxy does):
    /// drivers that fill their buffer themselves (a FIFO, an EC) accept that, and one that
    /// does not refuses `buffer/enable` or stays silent, which falls back to polling.
    private func pickTrigger() throws(SystemError) {
        let current = "\(syspath)/trigger/current_trigger"
        guard Sysfs.isReadable(current) else { return }
        if !(try Sysfs.read(current).trimmingASCIIWhitespace()).isEmpty { return }
        let deviceName = info.name ?? ""
        let number = syspath.split(separator: "/").last.map { $0.replacingPrefix("iio:device") } ?? ""
        var names: [String] = []
        for trigger in try Udev.devices(subsystem: "iio", sysname: "trigger*") {
            if let name = Sysfs.readIfPresent("\(trigger)/name", consequence: "ignoring the trigger:") {
                names.append(String(name.trimmingASCIIWhitespace()))
            }
        }
        guard
            let chosen = names.first(where: { $0 == "\(deviceName)-dev\(number)" })
                ?? names.first(where: { !deviceName.isEmpty && $0.hasPrefix(deviceName) })
        else {
            Log.notice(
                "\(syspath): no trigger named \(deviceName)-dev\(number) or \(deviceName)*; enabling the buffer without one"
            )
            return
        }
        try Sysfs.write(current, chosen)
        Log.info("\(syspath): trigger \(chosen)")
    }

    private func readable(_ revents: UInt32) {
        while fd >= 0 {
            let n: Int
            do throws(SystemError) {
                n = try retryingInterrupted("read", path: devnode) {
                    buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                }
            } catch {
                if error.errno == EAGAIN || error.errno == EWOULDBLOCK { break }
                fail("\(error)")
                return
            }
            if n == 0 {
                fail("\(devnode): end of data")
                return
            }
            pending.append(contentsOf: buffer[0..<n])
            // A short read drained what the kernel had: no second read just to hear EAGAIN
            // (the source is level-triggered, so anything arriving meanwhile wakes us again).
            if n < buffer.count { break }
        }
        deliverScans()
        if revents & UInt32(EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
            fail("\(devnode): the device hung up")
        }
    }

    /// Decodes every whole scan read so far, oldest first, with its time.
    private func deliverScans() {
        guard let layout, layout.scanSize > 0, let sink else { return }
        let (scans, _) = layout.scanCount(inBytes: pending.count)
        guard scans > 0 else { return }
        let now = monotonicSeconds()
        pending.withUnsafeBytes { bytes in
            // Scan times relative to the newest scan, which arrives now.
            let newest = layout.scan(scans - 1, in: bytes).flatMap { layout.value(of: "in_timestamp", in: $0) }
            for number in 0..<scans {
                // Taking a scan may end sampling (the last claim went): stop there.
                guard fd >= 0, let scan = layout.scan(number, in: bytes) else { break }
                guard let x = layout.value(of: "in_accel_x", in: scan),
                    let y = layout.value(of: "in_accel_y", in: scan),
                    let z = layout.value(of: "in_accel_z", in: scan)
                else { continue }
                var time = now
                if let newest, let stamp = layout.value(of: "in_timestamp", in: scan) {
                    time = now - Double(newest - stamp) / 1e9
                }
                sink((Double(x), Double(y), Double(z)), time)
            }
        }
        pending.removeFirst(scans * layout.scanSize)
        delivered = true
    }

    private func fail(_ why: String) {
        let report = onFailure
        stop()
        onFailure = nil
        report?(why)
    }
}

extension Substring {
    fileprivate func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : String(self)
    }
}
