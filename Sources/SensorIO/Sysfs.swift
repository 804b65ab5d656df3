import ErrorsAndLog
import Glibc
import SystemdBus

/// Reading sysfs attribute files directly. libudev's `udev_device_get_sysattr_value`
/// caches values, so files that change (channel readings) are read here instead.
public enum Sysfs {
    /// The most a whole-file read takes (configuration files, attributes).
    public static let readLimit = 1 << 20

    /// Opens a file for reading without ever blocking: a FIFO, socket or directory in place
    /// of an attribute (or of the configuration) is refused instead of hanging the loop.
    /// Character devices are let through (`--config /dev/null`); they are read non-blocking.
    static func openRegularFile(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", path: path, errno: errno) }
        var info = stat()
        if fstat(fd, &info) != 0 {
            let error = errno
            close(fd)  // read-only, and already failing: the fstat error is the one to report
            throw SystemError("fstat", path: path, errno: error)
        }
        guard info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFCHR else {
            close(fd)  // read-only: close(2) has nothing to report
            throw SystemError(
                "open (not a regular file)", path: path, errno: info.st_mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL)
        }
        return fd
    }

    /// Reads a whole (small) file once, e.g. a scale, a name or the configuration. A file
    /// larger than `readLimit` is refused, never cut short.
    public static func read(_ path: String) throws(SystemError) -> String {
        let fd = try openRegularFile(path)
        defer { close(fd) }  // read-only: close(2) has nothing to report
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try retryingInterrupted("read", path: path) {
                chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(bytes.count)) }
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > readLimit {
                throw SystemError("read (larger than \(readLimit) bytes)", path: path, errno: EFBIG)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text of an optional attribute: nil when it does not exist (ENOENT); any other
    /// failure is logged (a warning with errno and path, after `consequence`: "ignoring") and
    /// also gives nil, so a refused file never passes for a missing one silently.
    public static func readIfPresent(_ path: String, consequence: String) -> String? {
        do {
            return try read(path)
        } catch {
            if error.errno != ENOENT { Log.warning("\(consequence) \(error)") }
            return nil
        }
    }

    /// Writes an attribute (one `write(2)`, as sysfs expects), the value as it is: the kernel's
    /// parsers take it with or without a newline, and a file that only stores it (a test bed)
    /// then reads back exactly what iio-sensor-proxy would have written.
    public static func write(_ path: String, _ value: String) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open for writing", path: path, errno: errno) }
        // sysfs takes the value at write(2); close(2) reports nothing about it.
        defer { close(fd) }
        let count = value.utf8.count
        let n = value.withCString { Glibc.write(fd, $0, count) }
        if n != count { throw SystemError("write", path: path, errno: n < 0 ? errno : EIO) }
    }

    /// Whether an attribute file exists and can be read.
    public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }
}

/// An attribute file kept open and re-read with `pread` at offset 0, so each sample
/// costs one system call (and an `fstat`) and no allocation.
///
/// Real sysfs rewrites an attribute in place, and its inode lives as long as the device. A
/// file replaced underneath (a new inode at the path, the old one unlinked: umockdev's
/// `Testbed.set_attribute`, a tool that writes with rename) would go on giving the old
/// value for ever, so a descriptor whose file has no link left is opened again.
final class SysfsChannel {
    let path: String
    private var fd: Int32
    private let buffer: UnsafeMutableRawBufferPointer

    init(path: String) throws(SystemError) {
        let fd = try Sysfs.openRegularFile(path)
        self.path = path
        self.fd = fd
        self.buffer = .allocate(byteCount: 64, alignment: 8)
    }

    deinit {
        close(fd)  // read-only: close(2) has nothing to report
        buffer.deallocate()
    }

    /// The current text of the attribute, valid until the next read.
    func read() throws(SystemError) -> UnsafeRawBufferPointer {
        var info = stat()
        if fstat(fd, &info) == 0 && info.st_nlink == 0 {
            // Replaced: read the file now at the path. If that fails, the old one still reads.
            if let fresh = try? Sysfs.openRegularFile(path) {
                close(fd)  // read-only: close(2) has nothing to report
                fd = fresh
            }
        }
        let n = try retryingInterrupted("read", path: path) { pread(fd, buffer.baseAddress, buffer.count, 0) }
        return UnsafeRawBufferPointer(rebasing: buffer[0..<n])
    }
}
