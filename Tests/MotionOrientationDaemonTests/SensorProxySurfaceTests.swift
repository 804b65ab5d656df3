import CSystemd
import OrientationCore
import SystemdBus
import Testing

@testable import MotionOrientationDaemon

/// A bus that is never started: objects can be added to it (so the surface is served, its
/// vtables built by the shim), nothing is sent.
final class UnstartedBus {
    let bus: OpaquePointer
    init() {
        var bus: OpaquePointer?
        precondition(sd_bus_new(&bus) >= 0)
        self.bus = bus!
    }
    deinit { sd_bus_unref(bus) }
}

@Suite("The iio-sensor-proxy surface")
struct SensorProxySurfaceTests {
    let host = FakeSensorProxyHost()
    let sink = RecordingSink()
    let bus = UnstartedBus()

    func served() -> SensorProxySurface {
        let surface = SensorProxySurface(host: host, sink: sink)
        surface.serve(true, on: bus.bus)
        return surface
    }

    /// Portrait, upright: iio-sensor-proxy's "vertical".
    let upright = Vector3(0, -9.81, 0)

    @Test("a claim waiting for its first decision announces the orientation, then the tilt, apart")
    func claimOrder() {
        let surface = served()
        #expect(surface.served)
        surface.claimWaits()
        // Readings come before the decision: the tilt is known, but held.
        surface.take(upright)
        surface.take(upright)
        #expect(sink.take() == [])
        #expect(surface.tilt == "undefined")
        surface.deviceOrientationAnnounced(.portrait)
        surface.claimsAnswered()
        #expect(
            sink.take() == [
                .sensorProxyChanged([.accelerometerOrientation]), .sensorProxyChanged([.accelerometerTilt]),
            ])
        #expect(surface.tilt == "vertical")
        #expect(surface.lastUprightDevice == .portrait)
    }

    @Test("a claim that times out without a decision still announces the tilt before its answer")
    func claimTimesOut() {
        let surface = served()
        surface.claimWaits()
        surface.take(Vector3(0, 0, 0))
        surface.claimsAnswered()
        #expect(sink.take() == [.sensorProxyChanged([.accelerometerTilt])])
        #expect(surface.tilt == "vertical")  // iio-sensor-proxy 3.9: a zero vector is vertical
    }

    @Test("without a waiting claim the tilt follows each reading, announced on change only")
    func tiltFollows() {
        let surface = served()
        surface.take(upright)
        surface.take(upright)
        surface.take(Vector3(0, 0, -9.81))
        #expect(
            sink.take() == [.sensorProxyChanged([.accelerometerTilt]), .sensorProxyChanged([.accelerometerTilt])])
        #expect(surface.tilt == "face-down")  // its sign: a negative z, our face-up
    }

    @Test("only upright orientations become AccelerometerOrientation, each once")
    func uprightOnly() {
        let surface = served()
        surface.deviceOrientationAnnounced(.landscapeLeft)
        surface.deviceOrientationAnnounced(.faceUp)
        surface.deviceOrientationAnnounced(.landscapeLeft)
        #expect(sink.take() == [.sensorProxyChanged([.accelerometerOrientation])])
        #expect(surface.lastUprightDevice == .landscapeLeft)
    }

    @Test("a sensor gone makes both undefined in one announcement; nothing when already so")
    func forget() {
        let surface = served()
        surface.take(upright)
        surface.deviceOrientationAnnounced(.portrait)
        _ = sink.take()
        surface.forgetReadings()
        #expect(sink.take() == [.sensorProxyChanged([.accelerometerOrientation, .accelerometerTilt])])
        surface.forgetReadings()
        #expect(sink.take() == [])
        #expect(surface.tilt == "undefined" && surface.lastUprightDevice == .unknown)
    }

    @Test("not served: the state is kept, nothing is announced")
    func notServed() {
        let surface = SensorProxySurface(host: host, sink: sink)
        surface.take(upright)
        surface.deviceOrientationAnnounced(.portrait)
        surface.hasAccelerometerChanged()
        #expect(sink.take() == [])
        #expect(surface.tilt == "vertical")
        surface.serve(true, on: bus.bus)
        surface.serve(false, on: bus.bus)
        #expect(!surface.served)
    }
}
