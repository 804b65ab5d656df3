import OrientationCore

/// The system's batteries, read from `/sys/class/power_supply` when udev reports a change.
/// Peripheral batteries (a mouse's, `scope` = `Device`) do not count.
public struct PowerSupplies {
    private var problems = ProblemLog()

    public init() {}

    public mutating func batteries() -> [BatteryReading] {
        var readings: [BatteryReading] = []
        for syspath in Udev.devices(subsystem: "power_supply") {
            guard (try? Sysfs.read("\(syspath)/type").trimmingWhitespace()) == "Battery",
                (try? Sysfs.read("\(syspath)/scope").trimmingWhitespace()) != "Device"
            else { continue }
            do {
                let status = try Sysfs.read("\(syspath)/status").trimmingWhitespace()
                var capacity: Int? = nil
                let capacityPath = "\(syspath)/capacity"
                if Sysfs.isReadable(capacityPath) {
                    let text = try Sysfs.read(capacityPath)
                    do {
                        capacity = Int(try SysfsNumber.parseInteger(text))
                    } catch {
                        problems.report(capacityPath, "\(capacityPath): ignoring battery capacity: \(error)")
                    }
                }
                problems.resolve(syspath)
                readings.append(BatteryReading(status: status, capacity: capacity))
            } catch {
                problems.report(syspath, "skipping battery: \(error)")
            }
        }
        return readings
    }
}
