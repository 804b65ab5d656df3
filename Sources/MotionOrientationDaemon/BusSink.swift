import CSystemd
import ErrorsAndLog
import SystemdBus

/// Where the daemon's parts announce what changed: the system bus, or a test's recorder.
protocol BusSink: AnyObject {
    /// `PropertiesChanged` of `io.github.MotionOrientation1` naming `properties`.
    func changed(_ properties: [OrientationProperty])
    /// `PropertiesChanged` of `net.hadess.SensorProxy` naming `properties`.
    func changed(_ properties: [SensorProxyProperty])
    /// `DeviceOrientationChanged` or `InterfaceOrientationChanged`.
    func emit(_ signal: OrientationSignal, orientation name: String, value: UInt32)
    /// `TabletModeChanged`.
    func emitTabletModeChanged(_ tabletMode: Bool)
}

/// The bus as a `BusSink`: a failed emission is logged once (until one succeeds again): a
/// client misses news, the daemon goes on. Nothing is sent before the bus is connected.
final class BusEmitter: BusSink {
    var bus: OpaquePointer?
    private var problems = ProblemLog()

    func changed(_ properties: [OrientationProperty]) { changed(properties, of: .motionOrientation) }

    func changed(_ properties: [SensorProxyProperty]) { changed(properties, of: .sensorProxy) }

    /// The one `PropertiesChanged` emission, of either interface.
    private func changed<Property: BusProperty>(_ properties: [Property], of peer: BusPeer) {
        guard let bus, !properties.isEmpty else { return }
        report(Bus.emitPropertiesChanged(bus, peer, properties), "PropertiesChanged of \(peer.interface)")
    }

    func emit(_ signal: OrientationSignal, orientation name: String, value: UInt32) {
        guard let bus else { return }
        report(
            Bus.emitSignal(bus, .motionOrientation, member: signal.rawValue, name: name, value: value),
            signal.rawValue)
    }

    func emitTabletModeChanged(_ tabletMode: Bool) {
        guard let bus else { return }
        let member = OrientationSignal.tabletModeChanged.rawValue
        report(Bus.emitSignal(bus, .motionOrientation, member: member, bool: tabletMode), member)
    }

    private func report(_ r: Int32, _ what: String) {
        if r < 0 {
            problems.report(what, "cannot emit \(what): \(SystemError("sd_bus_send", errno: r))")
        } else {
            problems.resolve(what)
        }
    }
}
