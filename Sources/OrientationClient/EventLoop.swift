// An sd-event loop, for a client's follower and the sources that go with it.
import CSystemd
import ErrorsAndLog
import Glibc
import SystemdBus

/// An sd-event loop of its own (not the thread's default one), released with this object.
public final class EventLoop {
    public let event: OpaquePointer

    public init() throws(SystemError) { event = try made("making an event loop") { sd_event_new(&$0) } }

    deinit { sd_event_unref(event) }

    /// Runs until `exit(_:)`; returns the status it was ended with.
    public func run() throws(SystemError) -> Int32 {
        let r = sd_event_loop(event)
        guard r >= 0 else { throw SystemError("running the event loop", errno: r) }
        return r
    }

    /// Runs until `done()` holds (nil then) or until the loop is ended (its status then).
    public func run(until done: () -> Bool) throws(SystemError) -> Int32? {
        while !done() {
            if Int(sd_event_get_state(event)) == SD_EVENT_FINISHED {
                var status: Int32 = 0
                // Cannot fail for a finished loop.
                _ = sd_event_get_exit_code(event, &status)
                return status
            }
            let r = sd_event_run(event, UInt64.max)
            guard r >= 0 else { throw SystemError("running the event loop", errno: r) }
        }
        return nil
    }

    /// Ends the loop with a status.
    public func exit(_ status: Int32) {
        // Fails only when the loop has already ended, which is what was asked.
        _ = sd_event_exit(event, status)
    }
}

/// The object a libsystemd constructor makes (`sd_event_new`, `sd_bus_open_system`), or its
/// failure as a `SystemError` of `what`.
func made(_ what: String, _ make: (inout OpaquePointer?) -> Int32) throws(SystemError) -> OpaquePointer {
    var object: OpaquePointer? = nil
    let r = make(&object)
    guard r >= 0, let object else { throw SystemError(what, errno: r < 0 ? r : ENOMEM) }
    return object
}
