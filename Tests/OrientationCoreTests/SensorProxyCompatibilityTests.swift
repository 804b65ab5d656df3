import OrientationCore
import Testing

@Suite struct SensorProxyCompatibilityTests {
    @Test func orientationWordsFollowTheDesignTable() {
        #expect(SensorProxyCompatibility.orientation(.portrait) == "normal")
        #expect(SensorProxyCompatibility.orientation(.portraitUpsideDown) == "bottom-up")
        #expect(SensorProxyCompatibility.orientation(.landscapeLeft) == "right-up")
        #expect(SensorProxyCompatibility.orientation(.landscapeRight) == "left-up")
        #expect(SensorProxyCompatibility.orientation(.unknown) == "undefined")
    }

    @Test func tiltAsIioSensorProxy39ComputesItFromOneReading() {
        let g = 9.81
        func tilt(elevation degrees: Double, scale: Double = 1) -> String {
            let (s, c) = TestMath.sinCos(degrees: degrees)
            return SensorProxyCompatibility.tilt(reading: Vector3(0, -g * c, g * s) * scale)
        }
        // Its sign: a positive z is up (the screen facing the floor in docs/axes.md's frame).
        #expect(tilt(elevation: 0) == "vertical")
        #expect(tilt(elevation: 20.4) == "vertical")  // rounds to 20
        #expect(tilt(elevation: -20.4) == "vertical")
        #expect(tilt(elevation: 20.6) == "tilted-up")  // rounds to 21
        #expect(tilt(elevation: -45) == "tilted-down")
        #expect(tilt(elevation: 69.4) == "tilted-up")
        #expect(tilt(elevation: 69.6) == "face-up")  // rounds to 70
        #expect(tilt(elevation: -70) == "face-down")
        #expect(tilt(elevation: 90) == "face-up")
        #expect(tilt(elevation: -90) == "face-down")
        // No magnitude check: any scale, the latest reading alone...
        for scale in [0.1, 26.1, 100, 1e3] {
            #expect(tilt(elevation: 45, scale: scale) == "tilted-up", "x\(scale)")
            #expect(tilt(elevation: -75, scale: scale) == "face-down", "x\(scale)")
        }
        // ...down to where 3.9's whole units truncate every axis to zero (1 g read as 0.01 m/s^2).
        #expect(tilt(elevation: -75, scale: 1e-3) == "vertical")
        // iio-sensor-proxy's own test steps: x -25.6, z -25.6 at scale 10 is tilted-down; z 72.4 is
        // face-up (a 3 g reading). A zero reading is vertical; no reading yet is undefined.
        #expect(SensorProxyCompatibility.tilt(reading: Vector3(-256, 0, -256)) == "tilted-down")
        #expect(SensorProxyCompatibility.tilt(reading: Vector3(-256, 0, 724)) == "face-up")
        #expect(SensorProxyCompatibility.tilt(reading: Vector3(0, -256, 0)) == "vertical")
        #expect(SensorProxyCompatibility.tilt(reading: .zero) == "vertical")
        #expect(SensorProxyCompatibility.tilt(reading: nil) == "undefined")
        #expect(SensorProxyCompatibility.tilt(reading: Vector3(.nan, 0, 0)) == "undefined")
    }

    @Test func tiltUnitsAreTruncatedToWholeUnitsAsIn39() {
        // 0.02 m/s^2 is 0.52 units: truncated to 0, so a tiny z leaves the elevation at 0; and an
        // elevation just under 20.5 degrees before truncation can round differently after it.
        #expect(SensorProxyCompatibility.tilt(reading: Vector3(0, -0.03, 0.02)) == "vertical")
        // x = 1 unit (0.05 m/s^2), z = 0.8 units (0.031 m/s^2, truncated to 0): vertical in 3.9,
        // where the untruncated elevation (38.7 degrees) would be tilted-up.
        #expect(SensorProxyCompatibility.tilt(reading: Vector3(0.05, 0, 0.031)) == "vertical")
    }
}
