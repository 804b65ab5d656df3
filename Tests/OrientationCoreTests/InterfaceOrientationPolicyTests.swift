import OrientationCore
import Testing

@Suite struct InterfaceOrientationPolicyTests {
    @Test func policyKeepsLastValueThroughFaceUpFaceDownAndUnknown() {
        var policy = InterfaceOrientationPolicy()
        #expect(policy.orientation == .unknown)
        #expect(policy.update(device: .faceUp) == .unknown)
        #expect(policy.update(device: .landscapeLeft) == .landscapeRight)
        #expect(policy.update(device: .faceUp) == .landscapeRight)
        #expect(policy.update(device: .faceDown) == .landscapeRight)
        #expect(policy.update(device: .unknown) == .landscapeRight)
        #expect(policy.update(device: .landscapeRight) == .landscapeLeft)
        #expect(policy.update(device: .portraitUpsideDown) == .portraitUpsideDown)
        #expect(policy.update(device: .portrait) == .portrait)
        #expect(policy.orientation == .portrait)
        policy.reset()
        #expect(policy.orientation == .unknown)
    }

    @Test func landscapeOnlyKioskNeverReportsPortrait() {
        var policy = InterfaceOrientationPolicy(allowed: [.landscapeLeft, .landscapeRight])
        var reported: [InterfaceOrientation] = []
        let devices: [DeviceOrientation] = [
            .portrait, .faceUp, .portraitUpsideDown, .landscapeLeft, .portrait, .faceDown,
            .portraitUpsideDown, .landscapeRight, .portrait, .unknown, .portrait,
        ]
        for device in devices { reported.append(policy.update(device: device)) }
        #expect(!reported.contains(.portrait))
        #expect(!reported.contains(.portraitUpsideDown))
        #expect(
            reported == [
                .unknown, .unknown, .unknown, .landscapeRight, .landscapeRight, .landscapeRight,
                .landscapeRight, .landscapeLeft, .landscapeLeft, .landscapeLeft, .landscapeLeft,
            ])
    }

    @Test func defaultPolicyAllowsTheFourUprightOrientationsOnly() {
        #expect(
            InterfaceOrientationPolicy().allowed == [
                .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight,
            ])
        #expect(InterfaceOrientationPolicy(allowed: [.unknown, .portrait]).allowed == [.portrait])
        var empty = InterfaceOrientationPolicy(allowed: [])
        #expect(empty.update(device: .portrait) == .unknown)
    }
}
