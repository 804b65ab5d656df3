import CSystemd
import ErrorsAndLog
import Glibc
import OrientationCore
import SensorIO
import SystemdBus

/// What the rest of the system says about energy: power-profiles-daemon's profile, the
/// batteries, logind's suspend and lid, UPower's lid. All followed through signals and
/// udev events, none polled. What changes is reported through the two callbacks.
final class EnergySources {
    private var powerProfiles: [RemoteProperty] = []
    private var logindLid: RemoteProperty?
    private var upowerLid: RemoteProperty?
    private var sleepSlot: OpaquePointer?
    private var udevMonitor: UdevMonitor?
    private var powerSupplies = PowerSupplies()

    /// A power-profiles-daemon (under either of its names) has `power-saver` active.
    var powerSaver: Bool { powerProfiles.contains { $0.value == .string("power-saver") } }
    /// A battery is discharging at or below the configured percentage.
    private(set) var batteryLow = false
    /// Between logind's `PrepareForSleep(true)` and `PrepareForSleep(false)`.
    private(set) var suspended = false
    /// The lid is closed: logind's `LidClosed`, else UPower's `LidIsClosed`.
    var lidClosed: Bool {
        if let value = logindLid?.value { return value == .boolean(true) }
        return upowerLid?.value == .boolean(true)
    }

    /// Whether logind or UPower says anything about a lid (a machine without one: neither).
    var reportsLid: Bool { logindLid?.value != nil || upowerLid?.value != nil }

    /// The battery percentage at or below which a discharging battery is low; setting it
    /// re-reads the batteries (a reload may change it).
    var batteryLowPercent: Int {
        didSet { refreshBatteries() }
    }
    /// The power profile or the batteries changed what `powerSaver` or `batteryLow` say.
    private let onEnergyChange: () -> Void
    /// Suspend or the lid changed; `resumed`: the system has just woken up.
    private let onPauseChange: (_ resumed: Bool) -> Void

    init(
        bus: OpaquePointer, event: OpaquePointer, batteryLowPercent: Int,
        onEnergyChange: @escaping () -> Void, onPauseChange: @escaping (_ resumed: Bool) -> Void
    ) throws(SystemError) {
        self.batteryLowPercent = batteryLowPercent
        self.onEnergyChange = onEnergyChange
        self.onPauseChange = onPauseChange
        for peer in [
            BusPeer(name: "org.freedesktop.UPower.PowerProfiles", path: "/org/freedesktop/UPower/PowerProfiles"),
            BusPeer(name: "net.hadess.PowerProfiles", path: "/net/hadess/PowerProfiles"),
        ] {
            let profile = try RemoteProperty(bus: bus, peer: peer, property: "ActiveProfile", kind: .string)
            profile.onChange = onEnergyChange
            powerProfiles.append(profile)
        }
        let login = BusPeer(
            name: "org.freedesktop.login1", path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager"
        )
        logindLid = try RemoteProperty(bus: bus, peer: login, property: "LidClosed", kind: .boolean)
        upowerLid = try RemoteProperty(
            bus: bus, peer: BusPeer(name: "org.freedesktop.UPower", path: "/org/freedesktop/UPower"),
            property: "LidIsClosed", kind: .boolean)
        for lid in [logindLid, upowerLid] {
            lid?.onChange = { [unowned self] in self.lidChanged() }
        }
        sleepSlot = try Bus.matchSignal(
            bus, sender: login.name, path: login.path, interface: login.interface, member: "PrepareForSleep"
        ) { [unowned self] message in
            do {
                self.sleepChanged(try Bus.readBool(message))
            } catch {
                Log.warning("ignoring a PrepareForSleep signal without its boolean: \(error)")
            }
        }
        udevMonitor = try UdevMonitor(event: event, subsystems: ["power_supply"]) { [unowned self] _, _, _, _ in
            self.refreshBatteries()
            self.onEnergyChange()
        }
        refreshBatteries()
    }

    deinit { sd_bus_slot_unref(sleepSlot) }

    /// Re-reads the batteries (on a udev event, and when the threshold is set).
    private func refreshBatteries() {
        let low = BatteryPolicy.isLow(powerSupplies.batteries(), thresholdPercent: batteryLowPercent)
        if low != batteryLow { Log.info(low ? "battery low" : "battery no longer low") }
        batteryLow = low
    }

    private func sleepChanged(_ sleeping: Bool) {
        guard sleeping != suspended else { return }
        suspended = sleeping
        Log.info(sleeping ? "system going to sleep: pausing" : "system resumed")
        onPauseChange(!sleeping)
    }

    private func lidChanged() {
        Log.info(lidClosed ? "lid closed" : "lid open")
        onPauseChange(false)
    }
}
