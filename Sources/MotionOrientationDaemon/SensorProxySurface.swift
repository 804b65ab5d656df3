import CSystemd
import ErrorsAndLog
import OrientationCore
import SystemdBus

/// What the compatibility surface needs of the daemon.
protocol SensorProxyHost: AnyObject {
    var hasAccelerometer: Bool { get }
    /// `ClaimAccelerometer()`: the same claim as `Start()`, answered at once (the reply's
    /// result) or, nil, once the orientation is known (as `ReadOrientation()`).
    func claimAccelerometer(_ call: OpaquePointer) -> Int32?
    /// `ReleaseAccelerometer()`: the same as `Stop()`.
    func releaseAccelerometer(_ call: OpaquePointer)
}

/// iio-sensor-proxy's `net.hadess.SensorProxy` (`[Compatibility] SensorProxy=`): its name
/// and objects while served, the accelerometer as it reports it (the last upright
/// orientation, the tilt of the latest reading) and its claim-time order: a claim answered
/// at the first decision announces `AccelerometerOrientation`, then `AccelerometerTilt`, in
/// separate signals, as iio-sensor-proxy 3.9 does for its first reading.
final class SensorProxySurface {
    private unowned let host: any SensorProxyHost
    private unowned let sink: any BusSink
    private var main: BusObject?
    private var compass: BusObject?
    /// The last upright device orientation announced (iio-sensor-proxy knows no face-up).
    private(set) var lastUprightDevice: DeviceOrientation = .unknown
    /// `AccelerometerTilt` as served.
    private(set) var tilt = "undefined"
    /// While a claim waits for its first decision: the tilt of the latest reading, announced
    /// once the orientation is.
    private var heldTilt: String?
    private var holding = false

    var served: Bool { main != nil }

    init(host: any SensorProxyHost, sink: any BusSink) {
        self.host = host
        self.sink = sink
    }

    /// Serves or withdraws iio-sensor-proxy's name and objects (at start and on reload).
    func serve(_ wanted: Bool, on bus: OpaquePointer) {
        guard wanted != served else { return }
        if !wanted {
            main = nil
            compass = nil
            let r = sd_bus_release_name(bus, BusPeer.sensorProxy.name)
            if r < 0 {
                Log.warning("releasing \(BusPeer.sensorProxy.name): \(SystemError("sd_bus_release_name", errno: r))")
            }
            Log.info("no longer serving \(BusPeer.sensorProxy.name)")
            return
        }
        do {
            main = try BusObject(
                bus: bus, serving: .sensorProxy,
                properties: SensorProxyProperty.self, methods: SensorProxyMethod.self,
                onMethod: { [unowned self] method, call, _ in self.handle(method, call) },
                onProperty: { [unowned self] property, reply in self.append(property, to: reply) })
            // No compass: HasCompass false, iio-sensor-proxy's "unset" heading; claims change nothing.
            compass = try BusObject(
                bus: bus, serving: .sensorProxyCompass,
                properties: SensorProxyCompassProperty.self, methods: SensorProxyCompassMethod.self,
                onMethod: { _, call, _ in Bus.reply(to: call) },
                onProperty: { (property: SensorProxyCompassProperty, reply) in
                    property == .hasCompass ? Bus.append(reply, bool: false) : Bus.append(reply, double: -1)
                })
        } catch {
            Log.error("cannot serve \(BusPeer.sensorProxy.name): \(error)")
        }
        let r = sd_bus_request_name(bus, BusPeer.sensorProxy.name, 0)
        if r < 0 {
            Log.error(
                "cannot own \(BusPeer.sensorProxy.name) (is iio-sensor-proxy running?): \(SystemError("sd_bus_request_name", errno: r))"
            )
        } else {
            Log.info("also serving \(BusPeer.sensorProxy.name) for iio-sensor-proxy clients")
        }
    }

    private func handle(_ method: SensorProxyMethod, _ call: OpaquePointer) -> Int32 {
        switch method {
        case .claimAccelerometer:
            guard let answered = host.claimAccelerometer(call) else {
                claimWaits()
                return 1
            }
            return answered
        case .releaseAccelerometer:
            host.releaseAccelerometer(call)
            return Bus.reply(to: call)
        // No light or proximity sensor: claiming one succeeds and changes nothing.
        case .claimLight, .releaseLight, .claimProximity, .releaseProximity:
            return Bus.reply(to: call)
        }
    }

    /// The accelerometer from our decisions; no light or proximity sensor.
    private func append(_ property: SensorProxyProperty, to reply: OpaquePointer) -> Int32 {
        switch property {
        case .hasAccelerometer: Bus.append(reply, bool: host.hasAccelerometer)
        case .accelerometerOrientation:
            Bus.append(reply, string: SensorProxyCompatibility.orientation(lastUprightDevice))
        case .accelerometerTilt: Bus.append(reply, string: tilt)
        case .hasAmbientLight, .hasProximity, .proximityNear: Bus.append(reply, bool: false)
        case .lightLevelUnit: Bus.append(reply, string: "lux")
        case .lightLevel: Bus.append(reply, double: 0)
        }
    }

    private func announce(_ properties: [SensorProxyProperty]) {
        if served { sink.changed(properties) }
    }

    /// A device orientation was announced: an upright one becomes `AccelerometerOrientation`.
    func deviceOrientationAnnounced(_ device: DeviceOrientation) {
        guard device.isUpright, device != lastUprightDevice else { return }
        lastUprightDevice = device
        // Some iio-sensor-proxy clients read only the first entry: the orientation alone.
        announce([.accelerometerOrientation])
    }

    /// Keeps `AccelerometerTilt` up to date from the latest reading, as iio-sensor-proxy 3.9
    /// computes it; held while a claim waits for its first decision.
    func take(_ reading: Vector3) {
        let next = SensorProxyCompatibility.tilt(reading: reading)
        guard next != "undefined" else { return }
        if holding {
            heldTilt = next
            return
        }
        guard next != tilt else { return }
        tilt = next
        announce([.accelerometerTilt])
    }

    /// A claim waits for its first decision: the tilt is held until the orientation is
    /// announced and the claim answered.
    func claimWaits() { holding = true }

    /// The waiting claims are about to be answered (a decision, or the wait ended): the
    /// held tilt follows the orientation announced before it.
    func claimsAnswered() {
        holding = false
        guard let held = heldTilt else { return }
        heldTilt = nil
        guard held != tilt else { return }
        tilt = held
        announce([.accelerometerTilt])
    }

    /// `HasAccelerometer` changed.
    func hasAccelerometerChanged() { announce([.hasAccelerometer]) }

    /// The sensor is gone: `AccelerometerOrientation` and `AccelerometerTilt` become
    /// `undefined` (iio-sensor-proxy 3.9 keeps them, or exits: see
    /// docs/migrating-from-iio-sensor-proxy.md).
    func forgetReadings() {
        var changed: [SensorProxyProperty] = []
        heldTilt = nil
        if lastUprightDevice != .unknown {
            lastUprightDevice = .unknown
            changed.append(.accelerometerOrientation)
        }
        if tilt != "undefined" {
            tilt = "undefined"
            changed.append(.accelerometerTilt)
        }
        announce(changed)
    }
}
