import OrientationCore
import Testing

@Suite("Orientation names and values")
struct OrientationNameTests {
    @Test func deviceOrientationNamesAndRawValues() {
        let expected: [(DeviceOrientation, UInt32, String)] = [
            (.unknown, 0, "unknown"),
            (.portrait, 1, "portrait"),
            (.portraitUpsideDown, 2, "portrait-upside-down"),
            (.landscapeLeft, 3, "landscape-left"),
            (.landscapeRight, 4, "landscape-right"),
            (.faceUp, 5, "face-up"),
            (.faceDown, 6, "face-down"),
        ]
        #expect(DeviceOrientation.allCases.count == expected.count)
        for (orientation, raw, name) in expected {
            #expect(orientation.rawValue == raw)
            #expect(orientation.name == name)
            #expect(orientation.description == name)
            #expect(DeviceOrientation(name: name) == orientation)
            #expect(DeviceOrientation(rawValue: raw) == orientation)
        }
        #expect(DeviceOrientation(name: "Portrait") == nil)
        #expect(DeviceOrientation(name: "normal") == nil)
        #expect(DeviceOrientation(name: "") == nil)
        #expect(DeviceOrientation(rawValue: 7) == nil)
    }

    @Test func deviceOrientationClassification() {
        let upright: Set<DeviceOrientation> = [
            .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight,
        ]
        for orientation in DeviceOrientation.allCases {
            #expect(orientation.isUpright == upright.contains(orientation))
            #expect(orientation.isFlat == (orientation == .faceUp || orientation == .faceDown))
        }
        #expect(DeviceOrientation.unknown.gravityDirection == nil)
        #expect(DeviceOrientation.landscapeLeft.gravityDirection == Vector3(-1, 0, 0))
        #expect(DeviceOrientation.faceUp.gravityDirection == Vector3(0, 0, -1))
    }

    @Test func interfaceOrientationNamesAndRawValues() {
        let expected: [(InterfaceOrientation, UInt32, String)] = [
            (.unknown, 0, "unknown"),
            (.portrait, 1, "portrait"),
            (.portraitUpsideDown, 2, "portrait-upside-down"),
            (.landscapeRight, 3, "landscape-right"),
            (.landscapeLeft, 4, "landscape-left"),
        ]
        #expect(InterfaceOrientation.allCases.count == expected.count)
        for (orientation, raw, name) in expected {
            #expect(orientation.rawValue == raw)
            #expect(orientation.name == name)
            #expect(InterfaceOrientation(name: name) == orientation)
            #expect(InterfaceOrientation(rawValue: raw) == orientation)
        }
        #expect(InterfaceOrientation(name: "face-up") == nil)
        #expect(InterfaceOrientation(rawValue: 5) == nil)
    }

    @Test func interfaceFollowsDeviceWithLandscapeSwapped() {
        #expect(InterfaceOrientation(following: .portrait) == .portrait)
        #expect(InterfaceOrientation(following: .portraitUpsideDown) == .portraitUpsideDown)
        #expect(InterfaceOrientation(following: .landscapeLeft) == .landscapeRight)
        #expect(InterfaceOrientation(following: .landscapeRight) == .landscapeLeft)
        #expect(InterfaceOrientation(following: .faceUp) == nil)
        #expect(InterfaceOrientation(following: .faceDown) == nil)
        #expect(InterfaceOrientation(following: .unknown) == nil)
    }
}
