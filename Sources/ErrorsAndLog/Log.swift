import Glibc

/// Syslog priorities, most severe first (the order of the cases is the order of the levels),
/// written as sd-daemon prefixes (`<3>`) so journald keeps the level.
public enum LogLevel: Comparable, Sendable {
    case error
    case warning
    case notice
    case info
    case debug

    /// The sd-daemon prefix, spelled out: formatting the number would bring the standard
    /// library's integer printing into every daemon that logs a line.
    var prefix: String {
        switch self {
        case .error: "<3>"
        case .warning: "<4>"
        case .notice: "<5>"
        case .info: "<6>"
        case .debug: "<7>"
        }
    }
}

/// Line-oriented logging to stderr, one `write(2)` per line so lines never interleave.
public enum Log {
    /// The most verbose level written; `--verbose` lowers it to `.debug`.
    nonisolated(unsafe) public static var threshold: LogLevel = .info
    /// When set, lines start with `program: ` instead of the `<N>` priority prefix: for the
    /// client, whose messages a person reads on a terminal.
    nonisolated(unsafe) public static var plainPrefix: String? = nil

    /// Writes `message` when `level` is within the threshold; the message is only built then
    /// (most debug lines format numbers, which a daemon without `--verbose` never needs).
    public static func write(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= threshold else { return }
        if let plainPrefix {
            writeAll(STDERR_FILENO, plainPrefix + ": " + message() + "\n")
        } else {
            writeAll(STDERR_FILENO, level.prefix + message() + "\n")
        }
    }

    public static func error(_ message: @autoclosure () -> String) { write(.error, message()) }
    public static func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    public static func notice(_ message: @autoclosure () -> String) { write(.notice, message()) }
    public static func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    public static func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }
}

/// Writes `text` to a file descriptor unbuffered, in as few `write(2)` calls as it
/// takes, so a line reaches a pipe at once and lines from one process never interleave.
public func writeAll(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            // Nowhere to report a failed write of a log line: the line is dropped.
            guard
                let n = try? retryingInterrupted(
                    "write", { write(fd, bytes.baseAddress! + offset, bytes.count - offset) }),
                n > 0
            else { return }
            offset += n
        }
    }
}

/// Reports each ongoing problem once: the first failure of a source (a channel file, a
/// thermal zone, a battery) is logged, repeats are not, and recovery is noted once.
public struct ProblemLog {
    private var open: Set<String> = []

    public init() {}

    /// Logs `message` at warning level unless the problem with `source` is already known.
    public mutating func report(_ source: String, _ message: @autoclosure () -> String) {
        if open.insert(source).inserted { Log.warning(message()) }
    }

    /// Marks `source` as working again, noting it when it had a known problem.
    public mutating func resolve(_ source: String) {
        // The common case (nothing wrong) costs no hashing: this runs on every read.
        if !open.isEmpty, open.remove(source) != nil { Log.info("\(source): readable again") }
    }
}
