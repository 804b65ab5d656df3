import ErrorsAndLog
import OrientationCore
import SystemdBus

/// The orientations the bus shows: the device orientation decided, and the interface
/// orientation the policy makes of it (with the laptop-mode lock), each announced when it
/// changes: `PropertiesChanged`, then the change signals.
final class OrientationAnnouncer {
    private unowned let sink: any BusSink
    /// A device orientation was announced (the compatibility surface follows it), after
    /// `PropertiesChanged` and before the change signals.
    private let onDevice: (DeviceOrientation) -> Void
    private var policy: InterfaceOrientationPolicy
    private(set) var device: DeviceOrientation = .unknown
    private(set) var interface: InterfaceOrientation = .unknown

    init(policy: InterfaceOrientationPolicy, sink: any BusSink, onDevice: @escaping (DeviceOrientation) -> Void) {
        self.policy = policy
        self.sink = sink
        self.onDevice = onDevice
    }

    /// A decided device orientation, and the interface orientation it implies.
    func decided(_ next: DeviceOrientation, laptopLock: Bool) {
        guard next != .unknown, next != device else { return }
        announce(device: next, interface: policy.update(device: next, laptopLock: laptopLock))
    }

    /// A new policy (a reload changed the allowed orientations), applied at once to the last
    /// upright orientation.
    func replace(_ next: InterfaceOrientationPolicy, lastUpright: DeviceOrientation?) {
        policy = next
        policy.update(device: lastUpright ?? device)
        announce(device: device, interface: policy.orientation)
    }

    /// Applies the laptop-mode lock, or its end, to the interface orientation at once (once
    /// there is a device orientation to follow; the device orientation is never locked).
    func applyLaptopLock(_ laptopLock: Bool, lastUpright: DeviceOrientation?) {
        guard let upright = lastUpright ?? (device.isUpright ? device : nil) else { return }
        announce(device: device, interface: policy.update(device: upright, laptopLock: laptopLock))
    }

    /// No sensor: both unknown.
    func forget() { announce(device: .unknown, interface: .unknown) }

    private func announce(device: DeviceOrientation, interface: InterfaceOrientation) {
        let deviceChanged = device != self.device
        let interfaceChanged = interface != self.interface
        guard deviceChanged || interfaceChanged else { return }
        self.device = device
        self.interface = interface
        Log.info("device orientation \(device.name), interface orientation \(interface.name)")
        sink.changed(
            (deviceChanged ? [OrientationProperty.deviceOrientation] : [])
                + (interfaceChanged ? [.interfaceOrientation] : []))
        onDevice(device)
        if deviceChanged { sink.emit(.deviceOrientationChanged, orientation: device.name, value: device.rawValue) }
        if interfaceChanged {
            sink.emit(.interfaceOrientationChanged, orientation: interface.name, value: interface.rawValue)
        }
    }
}
