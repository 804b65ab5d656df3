import Glibc
import SensorIO
import Testing

@testable import MotionOrientationDaemon

@Suite("The resident set after start-up")
struct ResidentSetTests {
    /// Resident KiB of the process's read-only executable file mappings.
    func residentCode() throws -> Int {
        var total = 0
        var executable = false
        for line in try Sysfs.read("/proc/self/smaps").split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let first = fields.first, first.contains("-"), fields.count >= 2, !first.hasSuffix(":") {
                executable = fields[1] == "r-xp" && fields.count >= 6 && fields[5].hasPrefix("/")
            } else if executable, fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                total += kib
            }
        }
        return total
    }

    @Test("start-up code leaves the resident set, and the process runs on")
    func releases() throws {
        let before = try residentCode()
        ResidentSet.releaseStartUpPages()
        let after = try residentCode()
        #expect(before > 0)
        #expect(after < before, "resident code \(before) KiB before, \(after) KiB after")
    }
}
