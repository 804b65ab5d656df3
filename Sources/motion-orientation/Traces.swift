import Glibc
import MotionOrientationDaemon
import OrientationCore
import SystemdBus

/// `motion-orientation replay FILE [--rate HZ] [--config PATH]`: runs the estimator over a
/// trace with the daemon's settings and prints `t,device,interface` for each decision.
func replay(_ arguments: [String]) throws(ClientError) {
    var file: String? = nil
    var rate: Double? = nil
    var options = DaemonOptions()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--rate":
            guard let text = rest.popFirst(), let value = Double(text), value > 0, value.isFinite else {
                usageFailure("--rate needs a positive number of samples per second")
            }
            rate = value
        case "--config":
            guard let path = rest.popFirst() else { usageFailure("--config needs a path") }
            options.configPath = path
            options.configPathGiven = true
        default:
            guard file == nil, !argument.hasPrefix("-") else {
                usageFailure("unexpected argument '\(argument)' for replay")
            }
            file = argument
        }
    }
    guard let file else { usageFailure("replay needs a trace file (CSV with header t,x,y,z)") }
    let text: String
    do {
        text = try Sysfs.read(file == "-" ? "/dev/stdin" : file)
    } catch {
        throw ClientError("cannot read the trace: \(error)")
    }
    var samples: [TraceSample]
    do {
        samples = try Trace.parse(text)
    } catch {
        throw ClientError("\(file): \(error)")
    }
    if let rate { samples = Trace.resample(samples, rate: rate) }
    guard let settings = loadSettings(options) else { throw ClientError("cannot read the configuration") }
    let changes = Trace.replay(
        samples, settings: settings.estimator, allowed: settings.allowedInterfaceOrientations)
    writeAll(STDOUT_FILENO, changes.map { "\($0.time),\($0.device.name),\($0.interface.name)\n" }.joined())
}

/// `motion-orientation record [--seconds N] [--rate HZ] [--output FILE]`: captures the local
/// accelerometer, straight from sysfs with the daemon's own discovery, scale and mount
/// matrix, as a trace. Nothing goes over the bus.
func record(_ arguments: [String]) throws(ClientError) {
    var seconds = 10.0
    var rate = 50.0
    var output: String? = nil
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--seconds":
            guard let text = rest.popFirst(), let value = Double(text), value > 0, value <= 3600 else {
                usageFailure("--seconds needs a duration between 0 and 3600")
            }
            seconds = value
        case "--rate":
            guard let text = rest.popFirst(), let value = Double(text), value > 0, value <= 1000 else {
                usageFailure("--rate needs samples per second between 0 and 1000")
            }
            rate = value
        case "--output", "-o":
            guard let path = rest.popFirst() else { usageFailure("--output needs a path") }
            output = path
        default:
            usageFailure("unexpected argument '\(argument)' for record")
        }
    }
    let settings = loadSettings(DaemonOptions()) ?? DaemonSettings()
    let choice = AccelerometerDiscovery.choose(settings)
    guard let info = choice.info else {
        throw ClientError("no accelerometer found: \(choice.reason)")
    }
    let reader: any AccelerometerSource
    do {
        reader = try AccelerometerDiscovery.reader(for: info)
    } catch {
        throw ClientError("cannot read the accelerometer: \(error)")
    }
    Log.info("recording \(info.syspath) for \(seconds) s at \(rate) Hz")
    let start = monotonicSeconds()
    let period = 1 / rate
    var samples: [TraceSample] = []
    var step = 0.0
    while step * period <= seconds {
        sleepUntil(start + step * period)
        step += 1
        if let reading = reader.read() {
            // Microseconds are plenty, and keep the file readable.
            let time = Double(Int64((monotonicSeconds() - start) * 1e6)) / 1e6
            samples.append(TraceSample(time: time, reading: reading))
        }
    }
    let text = Trace.format(samples)
    guard let output, output != "-" else {
        writeAll(STDOUT_FILENO, text)
        return
    }
    let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw ClientError("\(SystemError("open", path: output, errno: errno))") }
    writeAll(fd, text)
    if close(fd) != 0 { throw ClientError("\(SystemError("close", path: output, errno: errno))") }
    Log.info("wrote \(samples.count) samples to \(output)")
}

/// Sleeps until a time on the monotonic clock (seconds).
func sleepUntil(_ time: Double) {
    var target = timespec(tv_sec: Int(time), tv_nsec: Int((time - Double(Int(time))) * 1e9))
    // clock_nanosleep returns its error instead of setting errno; with an absolute time and
    // a valid clock the only one is EINTR, after which it sleeps on.
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
}
