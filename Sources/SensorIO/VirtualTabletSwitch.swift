import CInputDevice
import ErrorsAndLog
import Glibc

/// The virtual tablet-mode switch: a uinput device with `EV_SW`/`SW_TABLET_MODE` and
/// nothing else, on `BUS_VIRTUAL`, that libinput, GNOME and KDE treat like a hardware
/// switch. It exists while the hinge decides tablet mode (`[TabletMode] VirtualSwitch=`);
/// dropping the object destroys the device, and lets go first: libinput resumes the
/// keyboard and touchpad it suspended only at a switch event to 0, never when the switch
/// disappears, so a switch that is not known to be at 0 sends 0 before it goes.
public final class VirtualTabletSwitch {
    public static let devnode = "/dev/uinput"
    public static let name = "Motion Orientation tablet-mode switch"
    static let phys = "motion-orientationd/hinge"
    /// How long the 0 sent at teardown stays readable before the device goes: a reader
    /// (libinput) that has not read it by then gets ENODEV and never sees it.
    public static let releaseSettleUsec: UInt32 = 300_000

    private var fd: Int32
    /// The state last written.
    public private(set) var state: Bool?

    /// Creates the device and sends `tabletMode` (a fresh device reads 0).
    public init(tabletMode: Bool) throws(SystemError) {
        fd = open(VirtualTabletSwitch.devnode, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", path: VirtualTabletSwitch.devnode, errno: errno) }
        var failed: UnsafePointer<CChar>? = nil
        let r = mo_uinput_create_tablet_mode_switch(fd, VirtualTabletSwitch.name, VirtualTabletSwitch.phys, &failed)
        guard r >= 0 else {
            close(fd)  // nothing was created: close(2) has nothing to undo or report
            fd = -1
            throw SystemError(
                failed.map { String(cString: $0) } ?? "uinput", path: VirtualTabletSwitch.devnode, errno: -r)
        }
        try send(tabletMode)
    }

    deinit {
        guard fd >= 0 else { return }
        if state != false {
            if let error = write(false) {
                Log.warning("letting go of the virtual tablet-mode switch (state 0): \(error)")
            } else {
                usleep(VirtualTabletSwitch.releaseSettleUsec)
            }
        }
        let r = mo_uinput_destroy(fd)
        if r < 0 {
            Log.warning(
                "destroying the virtual tablet-mode switch: \(SystemError("UI_DEV_DESTROY", path: VirtualTabletSwitch.devnode, errno: -r)); closing it does the same"
            )
        }
        close(fd)  // the close also destroys the device; nothing left to report
    }

    /// Writes the state (`EV_SW` `SW_TABLET_MODE`, then `SYN_REPORT`) if it changed.
    public func send(_ tabletMode: Bool) throws(SystemError) {
        guard tabletMode != state else { return }
        if let error = write(tabletMode) { throw error }
    }

    /// Writes the state and `SYN_REPORT`; the error, if any.
    private func write(_ tabletMode: Bool) -> SystemError? {
        // The time is left zero: the kernel stamps its own.
        var events = [
            input_event(time: timeval(), type: UInt16(EV_SW), code: UInt16(SW_TABLET_MODE), value: tabletMode ? 1 : 0),
            input_event(time: timeval(), type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0),
        ]
        let size = MemoryLayout<input_event>.stride * events.count
        let n = events.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, size) }
        guard n == size else {
            return SystemError(
                n < 0 ? "write" : "write (short)", path: VirtualTabletSwitch.devnode, errno: n < 0 ? errno : EIO)
        }
        state = tabletMode
        return nil
    }
}
