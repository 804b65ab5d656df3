import CUdev
import ErrorsAndLog
import Glibc
import SystemdBus

/// The udev context of the process, and the devices of a subsystem.
public enum Udev {
    /// The sysfs paths of the devices of `subsystem` (whose sysname matches `sysname`, a
    /// glob, and which have the udev `property` with that value, when given), in udev's order,
    /// whether udev has set them up or not (`isSetUp`). Throws when udev cannot be asked (no
    /// devices is an empty list, not an error).
    public static func devices(
        subsystem: String, sysname: String? = nil, property: (name: String, value: String)? = nil
    ) throws(SystemError) -> [String] {
        guard let udev = udev_new() else { throw SystemError("udev_new", errno: errno) }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else {
            throw SystemError("udev_enumerate_new (\(subsystem) devices)", errno: errno)
        }
        defer { udev_enumerate_unref(enumerate) }
        var r = udev_enumerate_add_match_subsystem(enumerate, subsystem)
        if r >= 0, let sysname { r = udev_enumerate_add_match_sysname(enumerate, sysname) }
        if r >= 0, let property { r = udev_enumerate_add_match_property(enumerate, property.name, property.value) }
        if r >= 0 { r = udev_enumerate_scan_devices(enumerate) }
        if r < 0 { throw SystemError("enumerating \(subsystem) devices", errno: r) }
        var paths: [String] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) { paths.append(String(cString: name)) }
            entry = udev_list_entry_get_next(current)
        }
        return paths
    }

    /// Runs `body` with a fresh udev device for `syspath` (fresh, so a `change` event's new
    /// properties are seen). Throws when udev has no such device.
    static func withDevice<T>(_ syspath: String, _ body: (OpaquePointer) -> T) throws(SystemError) -> T {
        guard let udev = udev_new() else { throw SystemError("udev_new", errno: errno) }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_syspath(udev, syspath) else {
            throw SystemError("udev_device_new_from_syspath", path: syspath, errno: errno)
        }
        defer { udev_device_unref(device) }
        return body(device)
    }

    /// Whether udev has set `device` up: its rules' properties, owner and mode and its RUN
    /// programs done. libudev's rule, as `udev_enumerate_add_match_is_initialized` applies it:
    /// a device with a node is set up once udev has written its database entry (`udevd`
    /// writes it before it announces the device); one without a node counts as set up. The
    /// sysfs directory comes with the kernel's event, before udev has processed it; and where
    /// udev does not run (a container, `umockdev-run -d` and its recorded devices, which have
    /// nodes and no database entry) no device with a node is ever set up.
    static func isSetUp(_ device: OpaquePointer) -> Bool {
        udev_device_get_is_initialized(device) > 0 || udev_device_get_devnum(device) == 0
    }

    /// A udev property of `device`, if it has it.
    static func property(_ device: OpaquePointer, _ name: String) -> String? {
        udev_device_get_property_value(device, name).map { String(cString: $0) }
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
    private var source: IOSource?
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
        let r = udev_monitor_enable_receiving(monitor)
        if r < 0 { throw SystemError("udev_monitor_enable_receiving", errno: r) }
        source = try IOSource(event: event, fd: udev_monitor_get_fd(monitor), what: "the udev monitor") {
            [unowned self] _ in self.receive()
        }
    }

    deinit {
        source = nil  // off the loop before the monitor closes its socket
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
