import ErrorsAndLog
import OrientationCore
import SensorIO
import SystemdBus

/// The system's batteries, read from `/sys/class/power_supply` when udev reports a change.
/// Peripheral batteries (a mouse's, `scope` = `Device`) do not count.
struct PowerSupplies {
    private var problems = ProblemLog()

    init() {}

    mutating func batteries() -> [BatteryReading] {
        var readings: [BatteryReading] = []
        let supplies: [String]
        do {
            supplies = try Udev.devices(subsystem: "power_supply")
            problems.resolve("power_supply")
        } catch {
            problems.report("power_supply", "cannot list the batteries: \(error)")
            return []
        }
        for syspath in supplies {
            do {
                guard try Sysfs.read("\(syspath)/type").trimmingASCIIWhitespace() == "Battery" else { continue }
                // No scope (most batteries): the system's.
                let scopePath = "\(syspath)/scope"
                if Sysfs.isReadable(scopePath), try Sysfs.read(scopePath).trimmingASCIIWhitespace() == "Device" {
                    continue
                }
                let status = try String(Sysfs.read("\(syspath)/status").trimmingASCIIWhitespace())
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
