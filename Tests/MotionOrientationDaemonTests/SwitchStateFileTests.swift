import ErrorsAndLog
import Glibc
import SensorIO
import Testing

@Suite("The virtual switch's state file")
struct SwitchStateFileTests {
    /// A fresh directory under /tmp, removed with its files by `clean`.
    func directory() -> String {
        var template = Array("/tmp/mo-switch-state-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        #expect(made != nil)
        return String(cString: made!)
    }

    func clean(_ directory: String, _ names: [String]) {
        for name in names { unlink("\(directory)/\(name)") }
        rmdir(directory)
    }

    func write(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        var text = text
        _ = text.withUTF8 { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test("no file is no state; a stored state reads back, and no temporary file stays")
    func roundTrip() throws {
        let dir = directory()
        defer { clean(dir, [SwitchStateFile.name, SwitchStateFile.name + ".new"]) }
        let file = SwitchStateFile(path: "\(dir)/\(SwitchStateFile.name)")
        #expect(try file.load() == nil)
        try file.store(true)
        #expect(try file.load() == true)
        #expect(try Sysfs.read(file.path) == "1\n")
        try file.store(false)
        #expect(try file.load() == false)
        #expect(access(file.path + ".new", F_OK) != 0)
    }

    @Test("anything but 0 or 1 is refused with EINVAL and the path")
    func badContent() {
        let dir = directory()
        defer { clean(dir, [SwitchStateFile.name]) }
        let file = SwitchStateFile(path: "\(dir)/\(SwitchStateFile.name)")
        for text in ["", "2\n", "1 1\n", "on\n"] {
            write(text, to: file.path)
            #expect(throws: SystemError.self) { try file.load() }
            do {
                _ = try file.load()
            } catch {
                #expect(error.errno == EINVAL && error.path == file.path)
            }
        }
        write(" 1\n", to: file.path)
        #expect((try? file.load()) == true)
    }

    @Test("a file that cannot be written is an error with the path and errno")
    func unwritable() {
        let file = SwitchStateFile(path: "/tmp/mo-switch-state-missing-directory/\(SwitchStateFile.name)")
        do {
            try file.store(true)
            Issue.record("stored into a missing directory")
        } catch {
            #expect(error.errno == ENOENT && error.path == file.path + ".new")
        }
    }
}
