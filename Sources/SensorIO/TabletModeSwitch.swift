import CInputDevice
import ErrorsAndLog
import Glibc
import SystemdBus

/// A hardware tablet-mode switch: an evdev device that reports `SW_TABLET_MODE` (intel-vbtn,
/// intel-hid, thinkpad_acpi, asus-wmi, cros_ec, ...), read event-driven on the loop: its state
/// at start (`EVIOCGSW`), then each `EV_SW` event, applied at `SYN_REPORT`. A device that also
/// has `SW_LID` reports the lid too. Never polled.
public final class TabletModeSwitch {
    /// Event types and codes of `linux/input-event-codes.h`, as `input_event` carries them.
    static let evSyn = UInt16(EV_SYN)
    static let evSwitch = UInt16(EV_SW)
    static let synReport = UInt16(SYN_REPORT)
    static let synDropped = UInt16(SYN_DROPPED)
    static let switchLid = UInt16(SW_LID)
    static let switchTabletMode = UInt16(SW_TABLET_MODE)
    /// Bytes asked for the switch bitmaps (SW_CNT is 17 codes: 3 bytes).
    static let bitmapBytes = 8

    public let syspath: String
    public let devnode: String
    /// The device's name (`device/name`), for the log.
    public let name: String
    /// Whether the switch says tablet mode.
    public private(set) var tabletMode = false
    /// Whether its lid switch says closed; nil when the device has no `SW_LID`.
    public private(set) var lidClosed: Bool?
    private var fd: Int32
    private var source: IOSource?
    /// Switch values seen since the last `SYN_REPORT`.
    private var pending: [UInt16: Bool] = [:]
    private let onChange: (TabletModeSwitch) -> Void
    private let onGone: (TabletModeSwitch, SystemError) -> Void

    /// Opens `devnode` and reads its state; `onChange` runs after an event changed
    /// `tabletMode` or `lidClosed`, `onGone` once when the device can no longer be read (the
    /// reader is then off the loop).
    public init(
        syspath: String, devnode: String, event: OpaquePointer, onChange: @escaping (TabletModeSwitch) -> Void,
        onGone: @escaping (TabletModeSwitch, SystemError) -> Void
    ) throws(SystemError) {
        self.syspath = syspath
        self.devnode = devnode
        self.name = String(
            (Sysfs.readIfPresent("\(syspath)/device/name", consequence: "unnamed switch:") ?? "")
                .trimmingASCIIWhitespace())
        self.onChange = onChange
        self.onGone = onGone
        fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", path: devnode, errno: errno) }
        do throws(SystemError) {
            var bits = [UInt8](repeating: 0, count: TabletModeSwitch.bitmapBytes)
            let r = mo_evdev_get_bits(fd, UInt32(TabletModeSwitch.evSwitch), &bits, bits.count)
            guard r >= 0 else { throw SystemError("EVIOCGBIT(EV_SW)", path: devnode, errno: -r) }
            guard TabletModeSwitch.bit(TabletModeSwitch.switchTabletMode, of: bits) else {
                throw SystemError("no SW_TABLET_MODE in EVIOCGBIT(EV_SW)", path: devnode, errno: ENOTTY)
            }
            let hasLid = TabletModeSwitch.bit(TabletModeSwitch.switchLid, of: bits)
            try readState(hasLid: hasLid)
            source = try IOSource(event: event, fd: fd, what: devnode) { [unowned self] _ in self.receive() }
        } catch {
            close(fd)  // read-only: close(2) has nothing to report
            fd = -1
            throw error
        }
    }

    deinit { stop() }

    /// Takes the reader off the loop and closes the device.
    public func stop() {
        source = nil
        if fd >= 0 { close(fd) }  // read-only: close(2) has nothing to report
        fd = -1
    }

    static func bit(_ code: UInt16, of bits: [UInt8]) -> Bool {
        let index = Int(code) / 8
        return index < bits.count && bits[index] & (1 << (code % 8)) != 0
    }

    /// The switch state from the kernel (at start and after `SYN_DROPPED`).
    private func readState(hasLid: Bool) throws(SystemError) {
        var bits = [UInt8](repeating: 0, count: TabletModeSwitch.bitmapBytes)
        let r = mo_evdev_get_switches(fd, &bits, bits.count)
        guard r >= 0 else { throw SystemError("EVIOCGSW", path: devnode, errno: -r) }
        tabletMode = TabletModeSwitch.bit(TabletModeSwitch.switchTabletMode, of: bits)
        lidClosed = hasLid ? TabletModeSwitch.bit(TabletModeSwitch.switchLid, of: bits) : nil
    }

    /// Reads whole events until the device has no more, applying each report.
    private func receive() {
        var events = [input_event](repeating: input_event(), count: 32)
        while fd >= 0 {
            let n = events.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                let error = errno
                if error == EAGAIN || error == EINTR { return }
                gone(SystemError("read", path: devnode, errno: error))
                return
            }
            if n == 0 {
                gone(SystemError("read (end of file)", path: devnode, errno: ENODEV))
                return
            }
            // evdev delivers whole events only.
            for event in events.prefix(n / MemoryLayout<input_event>.stride) {
                handle(type: event.type, code: event.code, value: event.value)
            }
        }
    }

    private func handle(type: UInt16, code: UInt16, value: Int32) {
        switch (type, code) {
        case (TabletModeSwitch.evSwitch, _):
            pending[code] = value != 0
        case (TabletModeSwitch.evSyn, TabletModeSwitch.synDropped):
            // Events were lost: what came since the last report is partial; ask the kernel.
            pending = [:]
            let before = (tabletMode, lidClosed)
            do {
                try readState(hasLid: lidClosed != nil)
            } catch {
                gone(error)
                return
            }
            if before != (tabletMode, lidClosed) { onChange(self) }
        case (TabletModeSwitch.evSyn, TabletModeSwitch.synReport):
            let before = (tabletMode, lidClosed)
            if let tablet = pending[TabletModeSwitch.switchTabletMode] { tabletMode = tablet }
            if lidClosed != nil, let lid = pending[TabletModeSwitch.switchLid] { lidClosed = lid }
            pending = [:]
            if before != (tabletMode, lidClosed) { onChange(self) }
        default:
            break  // other event types (EV_MSC, ...) say nothing about the switches
        }
    }

    private func gone(_ error: SystemError) {
        stop()
        onGone(self, error)
    }

    // MARK: - Finding switches

    /// Whether an input device is a tablet-mode switch to read, and if not, why.
    public enum Suitability: Equatable {
        case tabletModeSwitch(devnode: String)
        /// Not a switch with `SW_TABLET_MODE` (most input devices): nothing to say.
        case other
        /// A tablet-mode switch deliberately left alone, and why (logged once).
        case skipped(String)
    }

    /// Judges the input device at `syspath` from its udev properties (`property`) and its
    /// switch capabilities (`device/capabilities/sw`): only event devices with
    /// `ID_INPUT_SWITCH=1` and `SW_TABLET_MODE`; virtual devices (uinput: other daemons' and
    /// our own switch, which would feed back) and keyboards (keystrokes are private) skipped.
    public static func suitability(syspath: String, property: (String) -> String?) -> Suitability {
        guard syspath.split(separator: "/").last?.hasPrefix("event") ?? false, property("ID_INPUT_SWITCH") == "1",
            let devnode = property("DEVNAME")
        else { return .other }
        let capabilities = "\(syspath)/device/capabilities/sw"
        guard let text = Sysfs.readIfPresent(capabilities, consequence: "skipping a switch:"),
            let lowest = text.trimmingASCIIWhitespace().split(separator: " ").last,
            let bits = UInt64(lowest, radix: 16), bits & (1 << UInt64(switchTabletMode)) != 0
        else { return .other }
        if syspath.hasPrefix("/sys/devices/virtual/") {
            return .skipped("\(syspath) is a virtual tablet-mode switch (uinput): not ours to follow")
        }
        if property("ID_INPUT_KEYBOARD") == "1" {
            return .skipped("\(syspath) is a keyboard with a tablet-mode switch: not read (its keystrokes are private)")
        }
        return .tabletModeSwitch(devnode: devnode)
    }

    /// The input event devices that udev calls switches, to judge with `suitability`.
    public static func candidates() throws(SystemError) -> [(syspath: String, property: (String) -> String?)] {
        try Udev.devices(subsystem: "input", sysname: "event*", property: ("ID_INPUT_SWITCH", "1")).map { syspath in
            // A device gone between the enumeration and this look-up is no switch to read
            // (its udev remove event follows): no properties, judged `.other`.
            let properties =
                (try? Udev.withDevice(syspath) { device in
                    ["ID_INPUT_SWITCH", "ID_INPUT_KEYBOARD", "DEVNAME"].reduce(into: [String: String]()) {
                        $0[$1] = Udev.property(device, $1)
                    }
                }) ?? [:]
            return (syspath, { properties[$0] })
        }
    }
}
