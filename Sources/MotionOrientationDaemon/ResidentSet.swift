import Glibc
import SensorIO

/// The resident set after start-up. Start-up runs code that the idle and sampling daemon
/// never runs again (the configuration parser, udev enumeration, sensor discovery, the bus
/// set-up), scattered over the binary and the libraries, and frees what it allocated. Once
/// the loop is about to run, the process's executable mappings are dropped from its page
/// tables (`MADV_DONTNEED`: the pages stay in the page cache, and those the loop runs fault
/// back in at once, without I/O). Only read-only executable mappings of files are touched:
/// their pages hold nothing the process wrote, so dropping them loses nothing.
enum ResidentSet {
    static func releaseStartUpPages() {
        guard let maps = try? Sysfs.read("/proc/self/maps") else { return }
        for line in maps.split(separator: "\n") {
            // address perms offset dev inode path
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "r-xp", fields[5].hasPrefix("/") else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                end > start
            else { continue }
            // Advice, not a duty: a mapping that refuses it just stays resident.
            _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_DONTNEED)
        }
    }
}
