import ErrorsAndLog
import Glibc
import OrientationCore
import SystemdBus

/// A device attribute we set while we use the device and give back when we let go of it
/// (on exit, or when the device object goes). A device that refuses the write (or a read-only
/// /sys) is left alone after one message.
final class DeviceSetting {
    let path: String
    /// What the attribute is, for the message: "sampling frequency".
    private let what: String
    private let original: String
    private var current: String
    private var failed = false

    init(path: String, original: String, what: String) {
        self.path = path
        self.what = what
        self.original = original
        self.current = original
    }

    deinit { restore() }

    /// Writes `value` unless it is already in force; true when it was written now.
    @discardableResult
    func set(_ value: String) -> Bool {
        guard value != current, !failed else { return false }
        do {
            try Sysfs.write(path, value)
        } catch {
            failed = true
            if error.errno != ENOENT {  // a device that is gone has nothing to keep
                Log.notice("leaving the \(what) as it is: \(error)")
            }
            return false
        }
        Log.debug("\(path) = \(value)")
        current = value
        return true
    }

    /// Puts back the value the device had when we took it.
    func restore() {
        set(original)
    }
}
