import DaemonConfiguration
import ErrorsAndLog
import Glibc
import OrientationClient
import OrientationCore
import SensorIO
import SystemdBus

/// `motion-orientation replay FILE [--rate HZ] [--config PATH]`: runs the estimator over a
/// trace with the daemon's settings and prints `t,device,interface` for each decision; over a
/// two-sensor trace also the hinge's (`HingeReplay`, the lid open throughout), as
/// `t,hinge,tablet|laptop,STATE,ANGLE` (angle in degrees, -1 unknown).
func replay(_ arguments: [String]) throws(ClientError) {
    var file: String? = nil
    var rate: Double? = nil
    var config = ConfigLocation()
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
            config = ConfigLocation(mainFile: path, named: true)
        default:
            guard file == nil, argument == "-" || !argument.hasPrefix("-") else {
                usageFailure("unexpected argument '\(argument)' for replay")
            }
            file = argument
        }
    }
    guard let file else { usageFailure("replay needs a trace file (CSV with header t,x,y,z), or - for standard input") }
    guard let settings = loadSettings(config) else { throw ClientError("cannot read the configuration") }
    var replay = TraceReplay(settings: settings.estimator, allowed: settings.allowedInterfaceOrientations)
    var hinge = HingeReplay(settings: settings.tabletMode, lid: .open)
    func show(_ sample: TraceSample) {
        if let change = replay.update(sample) {
            writeAll(STDOUT_FILENO, "\(change.time),\(change.device.name),\(change.interface.name)\n")
        }
        if let change = hinge.update(sample) {
            let mode = change.tabletMode ? "tablet" : "laptop"
            writeAll(
                STDOUT_FILENO, "\(change.time),hinge,\(mode),\(change.state.name),\(degreesText(change.angle ?? -1))\n")
        }
    }
    // Resampling needs the whole trace (the grid ends at its last time): the samples are kept,
    // not the text. Without it each decision is printed as soon as its line is read.
    var kept: [TraceSample] = []
    try readTrace(file) { sample in
        if rate != nil {
            kept.append(sample)
        } else {
            show(sample)
        }
    }
    if let rate { Trace.resample(kept, rate: rate).forEach(show) }
}

/// Reads a trace file (`-`: standard input; a pipe, a FIFO and a file of any length alike)
/// line by line through `TraceReader`, handing each sample to `each` as it is read.
func readTrace(_ file: String, _ each: (TraceSample) -> Void) throws(ClientError) {
    let path = file == "-" ? "standard input" : file
    let fd = file == "-" ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ClientError("cannot read the trace: \(SystemError("open", path: file, errno: errno))") }
    defer { if fd != STDIN_FILENO { close(fd) } }  // read-only: close(2) has nothing to report
    var reader = TraceReader()
    var line: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    func take(line bytes: ArraySlice<UInt8>) throws(ClientError) {
        do {
            if let sample = try reader.read(line: String(decoding: bytes, as: UTF8.self)[...]) { each(sample) }
        } catch {
            throw ClientError("\(file): \(error)")
        }
    }
    while true {
        let n: Int
        do {
            n = try retryingInterrupted("read", path: path) {
                chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            }
        } catch {
            throw ClientError("cannot read the trace: \(error)")
        }
        if n == 0 { break }
        var start = 0
        for index in 0..<n where chunk[index] == UInt8(ascii: "\n") {
            if line.isEmpty {
                try take(line: chunk[start..<index])
            } else {
                line.append(contentsOf: chunk[start..<index])
                try take(line: line[...])
                line.removeAll(keepingCapacity: true)
            }
            start = index + 1
        }
        line.append(contentsOf: chunk[start..<n])
        // A line is a few dozen bytes; one without an end this long is not a trace.
        if line.count > 4096 {
            throw ClientError("\(file): line \(reader.lineNumber + 1): longer than 4096 bytes")
        }
    }
    // The last line, even an empty one (the line numbers match Trace.parse's).
    try take(line: line[...])
    do {
        try reader.finish()
    } catch {
        throw ClientError("\(file): \(error)")
    }
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
    let settings = loadSettings(ConfigLocation()) ?? DaemonSettings()
    let choice = AccelerometerDiscovery.choose(settings)
    guard let info = choice.info else {
        throw ClientError("no accelerometer found: \(choice.reason)")
    }
    let reader: any AccelerometerSource
    // A convertible's base accelerometer, paired as the daemon pairs it: a two-sensor trace.
    let base: (info: AccelerometerInfo, reader: any AccelerometerSource)?
    do {
        reader = try AccelerometerDiscovery.reader(for: info)
        base = try choice.base.map { ($0, try AccelerometerDiscovery.reader(for: $0)) }
    } catch {
        throw ClientError("cannot read the accelerometer: \(error)")
    }
    // Each sample is written as it is taken, so a pipe (`record | replay -`) sees it live
    // and an hour's capture is never held in memory.
    let fd: Int32
    if let output, output != "-" {
        fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ClientError("\(SystemError("open", path: output, errno: errno))") }
    } else {
        fd = STDOUT_FILENO
    }
    let name = fd == STDOUT_FILENO ? "standard output" : output!
    func put(_ text: String) throws(ClientError) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            do {
                offset += try retryingInterrupted("write", path: name) {
                    bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                }
            } catch {
                throw ClientError("\(error)")
            }
        }
    }
    if let base {
        Log.info("recording \(info.syspath) and the base \(base.info.syspath) for \(seconds) s at \(rate) Hz")
    } else {
        Log.info("recording \(info.syspath) for \(seconds) s at \(rate) Hz")
    }
    try put((base == nil ? Trace.header : Trace.twoSensorHeader) + "\n")
    let start = monotonicSeconds()
    let period = 1 / rate
    var count = 0
    var step = 0.0
    while step * period <= seconds {
        sleepUntil(start + step * period)
        step += 1
        guard let sample = reader.read() else { continue }
        // A two-sensor line needs both readings of the wakeup.
        var baseReading: Vector3? = nil
        if let base {
            guard let raw = base.reader.read() else { continue }
            baseReading = base.info.reading(raw)
        }
        // Microseconds are plenty, and keep the file readable.
        let time = Double(Int64((monotonicSeconds() - start) * 1e6)) / 1e6
        let taken = TraceSample(time: time, reading: info.reading(sample), base: baseReading)
        try put(Trace.line(taken, twoSensor: base != nil))
        count += 1
    }
    guard fd != STDOUT_FILENO else { return }
    if close(fd) != 0 { throw ClientError("\(SystemError("close", path: name, errno: errno))") }
    Log.info("wrote \(count) samples to \(name)")
}

/// Sleeps until a time on the monotonic clock (seconds).
func sleepUntil(_ time: Double) {
    var target = timespec(tv_sec: Int(time), tv_nsec: Int((time - Double(Int(time))) * 1e9))
    // clock_nanosleep returns its error instead of setting errno; with an absolute time and
    // a valid clock the only one is EINTR, after which it sleeps on.
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
}
