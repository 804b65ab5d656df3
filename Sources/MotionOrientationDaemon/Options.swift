import DaemonConfiguration
import ErrorsAndLog
import SensorIO

/// The daemon's command line.
public struct DaemonOptions: Equatable, Sendable {
    /// The configuration files; `--config` replaces the main one.
    public var config = ConfigLocation()
    public var verbose = false

    public init() {}

    public enum Action: Equatable, Sendable {
        case run(DaemonOptions)
        case help
        case version
    }

    public static let usage = """
        Usage: motion-orientationd [OPTIONS]

        Serves the device and interface orientation of the display accelerometer as
        io.github.MotionOrientation1 on the system bus.

          --config PATH   read PATH instead of /etc/motion-orientationd.conf
                          (drop-ins in /etc/motion-orientationd.conf.d/ still apply)
          --verbose       log debug messages
          --version       print the version and exit
          --help          print this help and exit
        """

    /// Parses arguments (without the program name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> Action {
        var options = DaemonOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--verbose", "-v": options.verbose = true
            case "--config":
                guard let path = rest.popFirst(), !path.isEmpty else { throw UsageError("--config needs a path") }
                options.config = ConfigLocation(mainFile: path, named: true)
            default:
                if argument.hasPrefix("--config=") {
                    let path = String(argument.dropFirst("--config=".count))
                    guard !path.isEmpty else { throw UsageError("--config needs a path") }
                    options.config = ConfigLocation(mainFile: path, named: true)
                } else {
                    throw UsageError("unknown argument '\(argument)'")
                }
            }
        }
        return .run(options)
    }
}
