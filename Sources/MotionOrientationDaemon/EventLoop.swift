import CSystemd
import ErrorsAndLog
import Glibc
import SensorIO

/// The daemon's sd-event loop and the udev events it follows.
extension Daemon {
    /// The default loop: SIGTERM and SIGINT end it (blocked in main), SIGHUP runs `onReload`,
    /// and it pings systemd's watchdog when the unit asks for one.
    static func makeEventLoop(onReload: @escaping () -> Void) throws(SystemError) -> OpaquePointer {
        var event: OpaquePointer? = nil
        var r = sd_event_default(&event)
        guard r >= 0, let event else { throw SystemError("sd_event_default", errno: r) }
        for signal in [SIGTERM, SIGINT] {
            // A NULL handler makes the loop exit on the signal.
            r = sd_event_add_signal(event, nil, signal, nil, nil)
            guard r >= 0 else { throw SystemError("sd_event_add_signal(\(signal))", errno: r) }
        }
        let reload = EventAction(onReload)
        r = sd_event_add_signal(
            event, nil, SIGHUP,
            { _, _, context in
                Unmanaged<EventAction>.fromOpaque(context!).takeUnretainedValue().action()
                return 0
            }, Unmanaged.passRetained(reload).toOpaque())  // lives as long as the loop
        guard r >= 0 else { throw SystemError("sd_event_add_signal(SIGHUP)", errno: r) }
        r = sd_event_set_watchdog(event, 1)
        guard r >= 0 else { throw SystemError("sd_event_set_watchdog", errno: r) }
        return event
    }

    /// Follows udev's IIO and input devices: an accelerometer that came, went or changed goes
    /// to `onSensor`, any other input event device (a switch, perhaps) to `onInput`.
    /// Keyboards, mice and the like come and go: only accelerometers matter, and of one only
    /// its event device (its parent inputN carries the same property).
    static func watchDevices(
        event: OpaquePointer, onSensor: @escaping (_ action: String, _ syspath: String) -> Void,
        onInput: @escaping (_ action: String, _ syspath: String, _ property: (String) -> String?) -> Void
    ) throws(SystemError) -> UdevMonitor {
        try UdevMonitor(event: event, subsystems: ["iio", "input"]) { action, subsystem, syspath, property in
            if subsystem == "input" {
                let isEventDevice = syspath.split(separator: "/").last?.hasPrefix("event") ?? false
                if !isEventDevice { return }
                if property("ID_INPUT_ACCELEROMETER") != "1" { return onInput(action, syspath, property) }
            }
            onSensor(action, syspath)
        }
    }
}

/// A closure that a C callback can reach.
private final class EventAction {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
}
