import CSystemd
import CUdev
import Glibc
import SystemdBus

/// The udev context of the process, and the devices of a subsystem.
public enum Udev {
    /// The sysfs paths of the devices of `subsystem` (whose sysname matches `sysname`, a
    /// glob, and which have the udev `property` with that value, when given), in udev's order.
    public static func devices(
        subsystem: String, sysname: String? = nil, property: (name: String, value: String)? = nil
    ) -> [String] {
        guard let udev = udev_new() else { return [] }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, subsystem)
        if let sysname { udev_enumerate_add_match_sysname(enumerate, sysname) }
        if let property { udev_enumerate_add_match_property(enumerate, property.name, property.value) }
        let r = udev_enumerate_scan_devices(enumerate)
        if r < 0 {
            Log.error("enumerating \(subsystem) devices: \(SystemError("udev_enumerate_scan_devices", errno: r))")
            return []
        }
        var paths: [String] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) { paths.append(String(cString: name)) }
            entry = udev_list_entry_get_next(current)
        }
        return paths
    }
}

/// A udev monitor on the event loop: calls `handler(action, subsystem, syspath, property)` for
/// each uevent of the watched subsystems (hotplug and `change` events, never polled);
/// `property` looks up the event's udev properties during the call (also on `remove`, when
/// the device is gone from sysfs).
public final class UdevMonitor {
    public typealias Handler = (
        _ action: String, _ subsystem: String, _ syspath: String, _ property: (String) -> String?
    ) -> Void
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    private var source: OpaquePointer?
    private let handler: Handler

    public init(event: OpaquePointer, subsystems: [String], handler: @escaping Handler) throws(SystemError) {
        guard let udev = udev_new() else { throw SystemError("udev_new", errno: errno) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            let error = errno
            udev_unref(udev)
            throw SystemError("udev_monitor_new_from_netlink", errno: error)
        }
        self.udev = udev
        self.monitor = monitor
        self.handler = handler
        for subsystem in subsystems {
            let r = udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
            if r < 0 { throw SystemError("watching \(subsystem) uevents", errno: r) }
        }
        var r = udev_monitor_enable_receiving(monitor)
        if r < 0 { throw SystemError("udev_monitor_enable_receiving", errno: r) }
        r = sd_event_add_io(
            event, &source, udev_monitor_get_fd(monitor), UInt32(EPOLLIN.rawValue),
            { _, _, _, context in
                Unmanaged<UdevMonitor>.fromOpaque(context!).takeUnretainedValue().receive()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        if r < 0 { throw SystemError("watching the udev monitor", errno: r) }
    }

    deinit {
        sd_event_source_disable_unref(source)
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    private func receive() {
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? "change"
            let subsystem = udev_device_get_subsystem(device).map { String(cString: $0) } ?? ""
            guard let syspath = udev_device_get_syspath(device).map({ String(cString: $0) }) else { continue }
            handler(action, subsystem, syspath) { name in
                udev_device_get_property_value(device, name).map { String(cString: $0) }
            }
        }
    }
}
