import CSystemd
import ErrorsAndLog
import Foundation
import Glibc
import SystemdBus
import Testing

@Suite("The interface's property list")
struct PropertyListTests {
    /// The shipped introspection data, docs/io.github.MotionOrientation1.xml.
    static func documentedProperties() throws -> [(name: String, type: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(
            contentsOf: root.appendingPathComponent("docs/io.github.MotionOrientation1.xml"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<property name="([A-Za-z]+)" type="([a-z]+)""#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (String(text[Range(match.range(at: 1), in: text)!]), String(text[Range(match.range(at: 2), in: text)!]))
        }
    }

    @Test("names, signatures and order are the documented ones")
    func matchesTheDocumentation() throws {
        let documented = try PropertyListTests.documentedProperties()
        #expect(documented.count == OrientationProperty.allCases.count)
        #expect(documented.map(\.name) == OrientationProperty.allCases.map(\.rawValue))
        #expect(documented.map(\.type) == OrientationProperty.allCases.map(\.signature))
    }

    @Test("the compatibility interfaces have iio-sensor-proxy's names")
    func sensorProxyNames() {
        #expect(
            SensorProxyProperty.allCases.map(\.rawValue) == [
                "HasAccelerometer", "AccelerometerOrientation", "AccelerometerTilt", "HasAmbientLight",
                "LightLevelUnit", "LightLevel", "HasProximity", "ProximityNear",
            ])
        #expect(SensorProxyProperty.lightLevel.signature == "d")
        #expect(SensorProxyCompassProperty.allCases.map(\.rawValue) == ["HasCompass", "CompassHeading"])
    }
}

@Suite("Retrying interrupted system calls")
struct RetryTests {
    @Test("EINTR is retried until the call gives an answer")
    func retriesInterruptions() throws {
        var calls = 0
        let result = try retryingInterrupted("test") { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 3)
    }

    @Test("another failure is thrown once, with the operation, path and errno")
    func throwsOtherFailures() {
        var calls = 0
        #expect {
            _ = try retryingInterrupted("open", path: "/nowhere") { () -> Int32 in
                calls += 1
                errno = ENOENT
                return -1
            }
        } throws: { error in
            guard let error = error as? SystemError else { return false }
            return error.errno == ENOENT && error.path == "/nowhere"
                && error.description.hasPrefix("/nowhere: open failed: ")
        }
        #expect(calls == 1)
    }

    @Test("a real read retried through the helper")
    func realRead() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        var byte: UInt8 = 42
        #expect(write(fds[1], &byte, 1) == 1)
        var got: UInt8 = 0
        let n = try retryingInterrupted("read") { read(fds[0], &got, 1) }
        #expect(n == 1 && got == 42)
    }
}

@Suite("Event sources")
struct EventSourceTests {
    /// Runs `event` until `done()` or about a second has passed.
    static func run(_ event: OpaquePointer, until done: () -> Bool) {
        for _ in 0..<100 where !done() { _ = sd_event_run(event, 10_000) }
    }

    @Test("a timer fires once per arming, can be re-armed and disarmed")
    func timer() throws {
        var event: OpaquePointer? = nil
        #expect(sd_event_new(&event) >= 0)
        defer { sd_event_unref(event) }
        var fired = 0
        let timer = EventTimer(event: event!) { fired += 1 }
        #expect(!timer.isArmed)
        try timer.arm(afterUsec: 1_000)
        #expect(timer.isArmed)
        EventSourceTests.run(event!) { fired == 1 }
        #expect(fired == 1)
        #expect(!timer.isArmed)
        try timer.arm(afterUsec: 1_000)
        EventSourceTests.run(event!) { fired == 2 }
        #expect(fired == 2)
        try timer.arm(afterUsec: 1_000)
        timer.disarm()
        #expect(!timer.isArmed)
        EventSourceTests.run(event!) { false }
        #expect(fired == 2)
    }

    @Test("an I/O source reports a readable descriptor until it goes")
    func io() throws {
        var event: OpaquePointer? = nil
        #expect(sd_event_new(&event) >= 0)
        defer { sd_event_unref(event) }
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        var events: [UInt32] = []
        var source: IOSource? = try IOSource(event: event!, fd: fds[0], what: "a pipe") { revents in
            events.append(revents)
            var byte: UInt8 = 0
            _ = read(fds[0], &byte, 1)
        }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        EventSourceTests.run(event!) { !events.isEmpty }
        #expect(events.count == 1)
        #expect(events.first.map { $0 & UInt32(EPOLLIN.rawValue) != 0 } == true)
        source = nil
        #expect(write(fds[1], &byte, 1) == 1)
        EventSourceTests.run(event!) { false }
        #expect(events.count == 1)
        _ = source
    }

    @Test("an I/O source on a bad descriptor fails with its errno")
    func badDescriptor() {
        var event: OpaquePointer? = nil
        #expect(sd_event_new(&event) >= 0)
        defer { sd_event_unref(event) }
        #expect {
            _ = try IOSource(event: event!, fd: -1, what: "nothing") { _ in }
        } throws: { error in
            (error as? SystemError)?.errno == EBADF
        }
    }
}

@Suite("Bus errors")
struct BusErrorTests {
    @Test("a remote error is told by its message, then its name; a local one by its errno")
    func descriptions() {
        #expect(BusError(name: "org.example.Error", message: "it broke", errno: -EIO).description == "it broke")
        #expect(BusError(name: "org.example.Error", message: nil, errno: EIO).description == "org.example.Error")
        #expect(BusError(errno: -ENOENT).description == String(cString: strerror(ENOENT)))
        #expect(BusError(errno: -ENOENT).errno == ENOENT)
        #expect(
            BusError(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: nil, errno: 0).isServiceUnknown)
        #expect(!BusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: nil, errno: 0).isServiceUnknown)
    }
}
