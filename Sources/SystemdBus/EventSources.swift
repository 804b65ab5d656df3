import CSystemd
import ErrorsAndLog
import Glibc

/// A one-shot timer on the monotonic clock of an sd-event loop that runs a closure when it
/// fires; `arm(afterUsec:)` (re-)arms it. The timer owns its event source: the source
/// goes with it. The closure should hold its owner weakly or unowned.
public final class EventTimer {
    /// sd-event coalesces timers to 250 ms unless given an accuracy (docs/architecture.md, Pitfalls).
    public static let defaultAccuracyUsec: UInt64 = 1_000

    private let event: OpaquePointer
    private let accuracyUsec: UInt64
    private let action: () -> Void
    private var source: OpaquePointer?

    public init(
        event: OpaquePointer, accuracyUsec: UInt64 = EventTimer.defaultAccuracyUsec, _ action: @escaping () -> Void
    ) {
        self.event = event
        self.accuracyUsec = accuracyUsec
        self.action = action
    }

    deinit { sd_event_source_disable_unref(source) }

    /// Fires once, `usec` microseconds from now; a timer already armed is moved.
    public func arm(afterUsec usec: UInt64) throws(SystemError) {
        if let source {
            var r = sd_event_source_set_time_relative(source, usec)
            if r >= 0 { r = sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT)) }
            guard r >= 0 else { throw SystemError("re-arming a timer", errno: r) }
            return
        }
        let r = sd_event_add_time_relative(
            event, &source, CLOCK_MONOTONIC, usec, accuracyUsec,
            { _, _, context in
                Unmanaged<EventTimer>.fromOpaque(context!).takeUnretainedValue().action()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        guard r >= 0 else {
            source = nil
            throw SystemError("sd_event_add_time_relative", errno: r)
        }
    }

    /// Stops the timer if it is armed.
    public func disarm() {
        // Disabling an existing source cannot fail (sd-event only checks its arguments).
        if let source { _ = sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF)) }
    }

    /// Whether the timer will fire.
    public var isArmed: Bool {
        guard let source else { return false }
        return sd_event_source_get_enabled(source, nil) > 0
    }
}

/// Watches a file descriptor on an sd-event loop and runs a closure with the poll events
/// (`EPOLLIN`, `EPOLLHUP`, ...) when it is ready. The source goes with the object; the
/// descriptor stays its owner's, to close after the source is gone.
public final class IOSource {
    private let handler: (UInt32) -> Void
    private var source: OpaquePointer?

    public init(
        event: OpaquePointer, fd: Int32, events: UInt32 = UInt32(EPOLLIN.rawValue), what: @autoclosure () -> String,
        _ handler: @escaping (_ revents: UInt32) -> Void
    ) throws(SystemError) {
        self.handler = handler
        let r = sd_event_add_io(
            event, &source, fd, events,
            { _, _, revents, context in
                Unmanaged<IOSource>.fromOpaque(context!).takeUnretainedValue().handler(revents)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        guard r >= 0 else { throw SystemError("watching \(what())", errno: r) }
    }

    deinit { sd_event_source_disable_unref(source) }
}
