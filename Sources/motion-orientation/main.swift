// motion-orientation: the command-line client of motion-orientationd.
import ErrorsAndLog
import Glibc
import OrientationClient
import OrientationCore
import SystemdBus

let usage = """
    Usage: motion-orientation COMMAND [OPTIONS]

    Commands:
      get               take a fresh reading; print device=NAME and interface=NAME
      status            print every property of the daemon, one per line (with tablet
                        mode: TabletMode, TabletModeSource, HingeAngle, HingeState)
      monitor [--device|--interface|--tablet-mode] [--json]
                        claim the sensor and print the current state, then one line
                        per change ("device NAME", "interface NAME", and where the
                        machine has tablet mode "tablet-mode tablet|laptop" and
                        "hinge-state STATE"); a stream option prints that stream only
      exec [--interface|--device|--tablet-mode] [--] COMMAND [ARGS...]
                        claim the sensor and run COMMAND for the current orientation
                        (or tablet mode) and on every change of it (interface by
                        default), one run at a time; the state is in MOTION_ORIENTATION,
                        MOTION_ORIENTATION_VALUE, MOTION_ORIENTATION_DEVICE,
                        MOTION_ORIENTATION_INTERFACE, MOTION_ORIENTATION_TABLET_MODE
                        (see motion-orientation(1))
      wait [--device|--interface] ORIENTATION [--timeout SECONDS]
      wait tablet|laptop [--timeout SECONDS]
                        claim the sensor until the device orientation (or with
                        --interface the interface orientation, or tablet mode) is the
                        one named; the timeout holds even when the daemon does not answer
      replay FILE|- [--rate HZ] [--config PATH]
                        run the daemon's estimator over a trace (CSV t,x,y,z; - reads
                        standard input) and print t,device,interface for each decision
                        as it is read; for a two-sensor trace also
                        t,hinge,tablet|laptop,HINGE-STATE,ANGLE for each hinge
                        decision; --rate resamples first
      record [--seconds N] [--rate HZ] [--output FILE]
                        capture the local accelerometer (straight from sysfs, needs
                        read access to it, usually root) as a trace; default 10 s at 50 Hz;
                        with a base accelerometer too, a two-sensor trace
                        (t,x,y,z,base_x,base_y,base_z)
      help              print this help
      version           print the version

    Exit status: 0 on success (wait: the orientation was reached), 1 when the daemon
    cannot be reached or fails, 2 on a usage error, 3 when wait timed out.
    """

/// Prints one line on stderr and exits; status 1 unless told otherwise.
func fail(_ message: String, status: Int32 = 1) -> Never {
    writeAll(STDERR_FILENO, "motion-orientation: \(message)\n")
    exit(status)
}

/// Prints a usage mistake and exits with status 2.
func usageFailure(_ message: String) -> Never {
    fail(message, status: 2)
}

/// The system bus, for the daemon's methods.
func connect() throws(ClientError) -> DaemonConnection {
    do throws(SystemError) {
        return try DaemonConnection()
    } catch {
        throw ClientError("\(error)")
    }
}

/// Runs one command; returns its exit status.
func run(_ arguments: [String]) -> Int32 {
    var arguments = arguments
    let command = arguments.isEmpty ? "status" : arguments.removeFirst()
    func noMoreArguments() {
        if let extra = arguments.first { fail("unexpected argument '\(extra)' for \(command)", status: 2) }
    }
    do {
        switch command {
        case "get":
            noMoreArguments()
            let reading = try connect().readOrientation()
            writeAll(STDOUT_FILENO, "device=\(reading.device)\ninterface=\(reading.interface)\n")
        case "status":
            noMoreArguments()
            let lines = try connect().allProperties().map { "\($0.name): \($0.value.text)\n" }
            writeAll(STDOUT_FILENO, lines.joined())
        case "monitor":
            return try monitor(arguments)
        case "exec":
            return try execCommand(arguments)
        case "wait":
            return try waitCommand(arguments)
        case "replay":
            try replay(arguments)
        case "record":
            try record(arguments)
        case "help", "--help", "-h":
            writeAll(STDOUT_FILENO, usage + "\n")
        case "version", "--version":
            writeAll(STDOUT_FILENO, "motion-orientation \(motionOrientationVersion)\n")
        default:
            fail("unknown command '\(command)'; try 'motion-orientation help'", status: 2)
        }
    } catch {
        fail("\(error)")
    }
    return 0
}

Log.plainPrefix = "motion-orientation"
exit(run(Array(CommandLine.arguments.dropFirst())))
