import ErrorsAndLog
import OrientationCore
import SensorIO
import SystemdBus

/// The thermal zones of `/sys/class/thermal`, read on demand (only while sampling).
/// An unreadable zone is skipped with one message.
struct ThermalZones {
    private var problems = ProblemLog()
    /// Trip points are numbered from 0; no zone has anywhere near this many.
    static let maximumTripPoints = 32

    init() {}

    /// Readings keyed by zone name (`thermal_zone0`).
    mutating func read() -> [String: ThermalZoneReading] {
        var readings: [String: ThermalZoneReading] = [:]
        let zones: [String]
        do {
            zones = try Udev.devices(subsystem: "thermal", sysname: "thermal_zone*")
            problems.resolve("thermal")
        } catch {
            problems.report("thermal", "cannot list the thermal zones: \(error)")
            return [:]
        }
        for syspath in zones {
            let zone = String(syspath.split(separator: "/").last ?? "")
            do {
                let type = try String(Sysfs.read("\(syspath)/type").trimmingASCIIWhitespace())
                let temperature = try millidegrees("\(syspath)/temp")
                var trips: [TripPoint] = []
                for index in 0..<ThermalZones.maximumTripPoints {
                    let tempPath = "\(syspath)/trip_point_\(index)_temp"
                    guard Sysfs.isReadable(tempPath) else { break }
                    let tripType = try String(
                        Sysfs.read("\(syspath)/trip_point_\(index)_type").trimmingASCIIWhitespace())
                    trips.append(
                        TripPoint(temperature: try millidegrees(tempPath), type: TripPointType(sysfs: tripType)))
                }
                problems.resolve(syspath)
                readings[zone] = ThermalZoneReading(type: type, temperature: temperature, tripPoints: trips)
            } catch {
                problems.report(syspath, "skipping thermal zone \(zone): \(error)")
            }
        }
        return readings
    }

    /// A temperature file (millidegrees Celsius) in degrees Celsius.
    private func millidegrees(_ path: String) throws(ZoneError) -> Double {
        let text: String
        do { text = try Sysfs.read(path) } catch { throw ZoneError(description: "\(error)") }
        do {
            return Double(try SysfsNumber.parseInteger(text)) / 1000
        } catch {
            throw ZoneError(description: "\(path): \(error)")
        }
    }

    struct ZoneError: Error, CustomStringConvertible { var description: String }
}
