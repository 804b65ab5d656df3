import CSystemd
import Glibc

/// A one-shot monotonic timer on the event loop that runs a closure when it fires.
/// (Stands in for SystemdBus's timer until that module is merged.)
final class EventTimer {
    /// sd-event coalesces timers to 250 ms unless given an accuracy (DESIGN.md section 8).
    static let defaultAccuracyUsec: UInt64 = 1_000

    private let event: OpaquePointer
    private let action: () -> Void
    private var source: OpaquePointer?

    init(event: OpaquePointer, _ action: @escaping () -> Void) {
        self.event = event
        self.action = action
    }

    deinit { sd_event_source_disable_unref(source) }

    /// Fires once, `usec` microseconds from now; a timer already armed is moved.
    func arm(afterUsec usec: UInt64) throws(SystemError) {
        if let source {
            var r = sd_event_source_set_time_relative(source, usec)
            if r >= 0 { r = sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT)) }
            guard r >= 0 else { throw SystemError("re-arming a timer", errno: r) }
            return
        }
        let r = sd_event_add_time_relative(
            event, &source, CLOCK_MONOTONIC, usec, EventTimer.defaultAccuracyUsec,
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
    func disarm() {
        if let source { _ = sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF)) }
    }

    /// Whether the timer will fire.
    var isArmed: Bool {
        guard let source else { return false }
        return sd_event_source_get_enabled(source, nil) > 0
    }
}
