import ErrorsAndLog
import Glibc

/// The state of the virtual tablet-mode switch, kept in a file of the service's runtime
/// directory (`0` or `1` and a newline) so that a daemon started after one that died with
/// its switch on can let go of what that switch suspended (libinput resumes a keyboard
/// only at a switch event to 0, not when the switch disappears).
public struct SwitchStateFile: Sendable {
    public static let name = "tablet-mode-switch"
    /// The runtime directory outside systemd (without `$RUNTIME_DIRECTORY`).
    public static let defaultDirectory = "/run/motion-orientationd"

    public let path: String

    public init(path: String) { self.path = path }

    /// The file in `$RUNTIME_DIRECTORY` (systemd's `RuntimeDirectory=`; the first when it
    /// lists several), else in `defaultDirectory`.
    public static func inRuntimeDirectory() -> SwitchStateFile {
        let directory = getenv("RUNTIME_DIRECTORY").map { String(cString: $0) }?
            .split(separator: ":", omittingEmptySubsequences: true).first.map(String.init)
        return SwitchStateFile(path: "\(directory ?? defaultDirectory)/\(name)")
    }

    /// The state kept; nil when there is no file. Anything but `0` or `1` (and white
    /// space) is refused with EINVAL.
    public func load() throws(SystemError) -> Bool? {
        let text: String
        do {
            text = try Sysfs.read(path)
        } catch {
            if error.errno == ENOENT { return nil }
            throw error
        }
        switch text.split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\t" }) {
        case ["0"]: return false
        case ["1"]: return true
        default: throw SystemError("read (neither 0 nor 1)", path: path, errno: EINVAL)
        }
    }

    /// Keeps `on`: written to a temporary file beside it, then renamed over it, so a reader
    /// finds the old state or the new one, never a part.
    public func store(_ on: Bool) throws(SystemError) {
        let temporary = path + ".new"
        let fd = try retryingInterrupted("open", path: temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        var text = on ? "1\n" : "0\n"
        let n = text.withUTF8 { bytes in Glibc.write(fd, bytes.baseAddress, bytes.count) }
        let writeError = errno
        let closed = close(fd)
        let closeError = errno
        guard n == 2, closed == 0 else {
            unlink(temporary)  // already failing: the write's or close's error is the one to report
            if n != 2 {
                throw SystemError(n < 0 ? "write" : "write (short)", path: temporary, errno: n < 0 ? writeError : EIO)
            }
            throw SystemError("close", path: temporary, errno: closeError)
        }
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)  // already failing: the rename's error is the one to report
            throw SystemError("rename to \(path)", path: temporary, errno: error)
        }
    }
}
