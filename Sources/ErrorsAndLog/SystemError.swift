import Glibc

/// A failed system call: what was attempted, on which path, and the errno.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var path: String?
    public var errno: Int32

    public init(_ operation: String, path: String? = nil, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno < 0 ? -errno : errno
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        if let path { return "\(path): \(operation) failed: \(reason) (errno \(errno))" }
        return "\(operation) failed: \(reason) (errno \(errno))"
    }
}

/// Runs a system call that returns -1 and sets `errno` on failure, again as long as it
/// fails with EINTR (a signal arrived), the way swift-system's
/// `valueOrErrno(retryOnInterrupt:)` does; any other failure is thrown with `operation`,
/// `path` and the errno.
@inlinable
public func retryingInterrupted<Result: FixedWidthInteger>(
    _ operation: @autoclosure () -> String, path: @autoclosure () -> String? = nil, _ call: () -> Result
) throws(SystemError) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = errno
        if error != EINTR { throw SystemError(operation(), path: path(), errno: error) }
    }
}
