import ErrorsAndLog
import Glibc
import OrientationCore
import SystemdBus

/// A sensor the daemon polls: an IIO device's raw channels, or an input device's axes.
public protocol AccelerometerSource: AnyObject {
    /// What discovery found out about the sensor.
    var info: AccelerometerInfo { get }
    /// One sample's raw counts (`info.reading(_:)` turns them into m/s^2 in the docs/axes.md
    /// frame), or nil when it failed (reported once per bad period).
    func read() -> RawSample?
    /// Sets the device's own rate for sampling every `msec` (when it has one); `polled`:
    /// its channels are read one by one (not through a buffer).
    func setSamplingInterval(msec: UInt32, polled: Bool)
    /// The rate, in Hz, `setSamplingInterval(msec:polled:)` would give a buffered device for
    /// sampling every `msec`: the slowest it offers that serves that interval. Nil when it has
    /// no rate of its own.
    func bufferedRate(forIntervalMsec msec: UInt32) -> Double?
    /// The device is taken to be polled: a rate too slow for a raw read to answer promptly
    /// is raised now (`SamplingFrequency.polledFloor`), before anything is read.
    func prepareForPolling()
    /// Sampling stopped: lets go of what only sampling needs.
    func stopSampling()
    /// Gives the device its own rate back (on exit; also when the reader goes).
    func restoreSamplingFrequency()
}

/// Reads one IIO accelerometer: the three raw channel files kept open. Each failing channel
/// is reported once per bad period. A device without raw channels (read through its buffer
/// only) gives no polled readings.
final class AccelerometerReader: AccelerometerSource {
    let info: AccelerometerInfo
    private let channels: [SysfsChannel]
    private var problems = ProblemLog()
    /// The device's sampling frequency, when it offers a choice.
    private let rate: SensorRate?

    init(info: AccelerometerInfo) throws(SystemError) {
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

    func setSamplingInterval(msec: UInt32, polled: Bool) {
        rate?.apply(intervalMsec: msec, polled: polled)
    }

    func bufferedRate(forIntervalMsec msec: UInt32) -> Double? {
        rate?.rate(forIntervalMsec: msec, polled: false)
    }

    func prepareForPolling() {
        if !channels.isEmpty { rate?.raiseToPolledFloor() }
    }

    func stopSampling() {}

    func restoreSamplingFrequency() {
        rate?.restore()
    }

    func read() -> RawSample? {
        guard !channels.isEmpty else {
            let why = "\(info.syspath) has no in_accel_*_raw channels to poll; it is read through its buffer only"
            problems.report(info.syspath, why)
            return nil
        }
        guard let x = readChannel(0), let y = readChannel(1), let z = readChannel(2) else { return nil }
        return (x, y, z)
    }

    private func readChannel(_ index: Int) -> Double? {
        let channel = channels[index]
        do {
            let text = try channel.read()
            let value: Double
            do {
                value = Double(try SysfsNumber.parseInteger(text))
            } catch .notANumber(_) {
                // A raw value with a fraction ("-25.6"): rare, so the allocating parser will do.
                value = try SysfsNumber.parseDecimal(String(decoding: text, as: UTF8.self))
            }
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
