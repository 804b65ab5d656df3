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

    @Test func tiltFromTheEstimateWithZTheRightWayRound() {
        let g = 9.81
        func tilt(leaningBack degrees: Double) -> String {
            let (s, c) = TestMath.sinCos(degrees: degrees)
            return SensorProxyCompatibility.tilt(device: .portrait, gravity: Vector3(0, -g * c, -g * s))
        }
        #expect(tilt(leaningBack: 0) == "vertical")
        #expect(tilt(leaningBack: 15) == "vertical")
        #expect(tilt(leaningBack: 35) == "tilted-up")
        #expect(tilt(leaningBack: -35) == "tilted-down")
        #expect(SensorProxyCompatibility.tilt(device: .faceUp, gravity: Vector3(0, 0, -g)) == "face-up")
        #expect(SensorProxyCompatibility.tilt(device: .faceDown, gravity: Vector3(0, 0, g)) == "face-down")
        #expect(SensorProxyCompatibility.tilt(device: .unknown, gravity: nil) == "undefined")
        #expect(SensorProxyCompatibility.tilt(device: .portrait, gravity: nil) == "undefined")
    }
}
