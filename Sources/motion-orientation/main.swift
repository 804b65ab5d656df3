// motion-orientation: the command-line client of motion-orientationd.
import CSystemd
import Glibc
import MotionOrientationDaemon

let usage = """
    Usage: motion-orientation COMMAND [OPTIONS]

    Commands:
      get               take a fresh reading; print device=NAME and interface=NAME
      status            print every property of the daemon, one per line
      monitor [--json]  claim the sensor and print one line per orientation change
      replay FILE [--rate HZ] [--config PATH]
                        run the daemon's estimator over a trace (CSV t,x,y,z) and print
                        t,device,interface for each decision; --rate resamples first
      record [--seconds N] [--rate HZ] [--output FILE]
                        capture the local accelerometer (straight from sysfs, needs
                        read access to it, usually root) as a trace; default 10 s at 50 Hz
      help              print this help
      version           print the version

    Exit status: 0 on success, 1 when the daemon cannot be reached or fails,
    2 on a usage error.
    """

func fail(_ message: String, status: Int32 = 1) -> Never {
    writeAll(STDERR_FILENO, "motion-orientation: \(message)\n")
    exit(status)
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
            let connection = try DaemonConnection()
            let reply = try connection.call("ReadOrientation")
            defer { sd_bus_message_unref(reply) }
            guard let device = try? Bus.readString(reply), let interface = try? Bus.readString(reply) else {
                fail("ReadOrientation returned a malformed reply")
            }
            writeAll(STDOUT_FILENO, "device=\(device)\ninterface=\(interface)\n")
        case "status":
            noMoreArguments()
            let lines = try DaemonConnection().allProperties().map { "\($0.name): \($0.value)\n" }
            writeAll(STDOUT_FILENO, lines.joined())
        case "monitor":
            var json = false
            for argument in arguments {
                guard argument == "--json" else { fail("unknown option '\(argument)' for monitor", status: 2) }
                json = true
            }
            return try Monitor(connection: DaemonConnection(), json: json).run()
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
