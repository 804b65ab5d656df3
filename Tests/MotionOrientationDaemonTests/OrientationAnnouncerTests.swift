import OrientationCore
import Testing

@testable import MotionOrientationDaemon

@Suite("What the bus shows of the orientation")
struct OrientationAnnouncerTests {
    let sink = RecordingSink()

    @Test("a decision: PropertiesChanged, the compatibility surface, then the change signals")
    func order() {
        var followed: [DeviceOrientation] = []
        let announcer = OrientationAnnouncer(policy: InterfaceOrientationPolicy(), sink: sink) {
            followed.append($0)
            self.sink.events.append(.changed([]))  // where the surface heard of it
        }
        announcer.decided(.landscapeLeft, laptopLock: false)
        #expect(
            sink.take() == [
                .changed([.deviceOrientation, .interfaceOrientation]), .changed([]),
                .signal(.deviceOrientationChanged, "landscape-left"),
                .signal(.interfaceOrientationChanged, "landscape-right"),
            ])
        #expect(followed == [.landscapeLeft])
        announcer.decided(.landscapeLeft, laptopLock: false)
        announcer.decided(.unknown, laptopLock: false)
        #expect(sink.take() == [])
    }

    @Test("face up keeps the interface orientation; the laptop lock holds it upright, its end lets it follow")
    func faceUpAndLock() {
        let announcer = OrientationAnnouncer(policy: InterfaceOrientationPolicy(), sink: sink) { _ in }
        announcer.decided(.portrait, laptopLock: false)
        announcer.decided(.faceUp, laptopLock: false)
        #expect(announcer.interface.name == "portrait")
        _ = sink.take()
        announcer.decided(.landscapeLeft, laptopLock: true)
        #expect(announcer.device == .landscapeLeft)
        let locked = announcer.interface
        announcer.applyLaptopLock(false, lastUpright: .landscapeLeft)
        #expect(announcer.interface == .landscapeRight)
        #expect(locked != announcer.interface)
        announcer.forget()
        #expect(announcer.device == .unknown && announcer.interface == .unknown)
    }
}
