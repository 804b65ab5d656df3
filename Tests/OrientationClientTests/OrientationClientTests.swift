import OrientationClient
import OrientationCore
import SystemdBus
import Testing

/// A `PropertiesChanged` entry of the daemon's interface.
private func entry(_ property: OrientationProperty, _ value: PropertyValue) -> PropertyEntry {
    (property.rawValue, value)
}

@Suite("What the daemon's news means to a client")
struct OrientationNewsTests {
    @Test("a PropertiesChanged naming both orientations changes both streams, device first")
    func bothOrientations() {
        let news = OrientationState().taking([
            entry(.interfaceOrientation, .string("landscape-right")),
            entry(.deviceOrientation, .string("landscape-left")),
        ])
        #expect(news.state.device == .landscapeLeft)
        #expect(news.state.interface == .landscapeRight)
        #expect(news.heard == [.interface, .device])
        #expect(news.changed == [.device, .interface])
    }

    @Test("a value that repeats the state is heard but is no change")
    func repeatIsNoChange() {
        var state = OrientationState()
        state.device = .portrait
        let news = state.taking([entry(.deviceOrientation, .string("portrait"))])
        #expect(news.heard == [.device])
        #expect(news.changed.isEmpty)
        #expect(news.state == state)
    }

    @Test("properties a client does not follow, and values of the wrong type, are not taken")
    func othersIgnored() {
        let news = OrientationState().taking([
            entry(.active, .bool(true)), entry(.sampleIntervalMsec, .uint32(20)), entry(.tabletMode, .string("yes")),
            ("SomethingNew", .string("x")), entry(.hingeAngle, .string("180")),
        ])
        #expect(news.heard.isEmpty)
        #expect(news.state == OrientationState())
    }

    @Test("an orientation name the client does not know reads as unknown")
    func unknownName() {
        var state = OrientationState()
        state.device = .faceUp
        #expect(state.taking([entry(.deviceOrientation, .string("sideways"))]).state.device == .unknown)
    }

    @Test("tablet mode is unknown without a source, tablet or laptop with one; the hinge carries its angle")
    func tabletMode() {
        let start = OrientationState()
        #expect(start.name(.tabletMode) == "unknown")
        #expect(!start.isKnown(.tabletMode))
        let news = start.taking([
            entry(.tabletMode, .bool(true)), entry(.tabletModeSource, .string("hinge")),
            entry(.hingeState, .string("full")), entry(.hingeAngle, .double(352.26)),
        ])
        #expect(news.heard == [.tabletMode, .hingeState])
        #expect(news.changed == [.tabletMode, .hingeState])
        #expect(news.state.name(.tabletMode) == "tablet")
        #expect(news.state.value(.tabletMode) == 1)
        #expect(news.state.value(.hingeState) == 5)
        #expect(news.state.hingeAngle == 352.26)
        // The angle alone is heard as the hinge stream but changes no name.
        let angle = news.state.taking([entry(.hingeAngle, .double(340))])
        #expect(angle.heard == [.hingeState])
        #expect(angle.changed.isEmpty)
        let laptop = news.state.taking([entry(.tabletMode, .bool(false))]).state
        #expect(laptop.name(.tabletMode) == "laptop")
        #expect(laptop.value(.tabletMode) == 0)
    }

    @Test("a GetAll reply gives tablet mode and the hinge, not the orientations it last announced")
    func getAllSkipsOrientations() {
        let news = OrientationState().takingTabletMode(fromAll: [
            entry(.deviceOrientation, .string("face-down")), entry(.interfaceOrientation, .string("portrait")),
            entry(.hasAccelerometer, .bool(true)), entry(.tabletModeSource, .string("switch")),
            entry(.tabletMode, .bool(false)),
        ])
        #expect(news.state.device == .unknown)
        #expect(news.state.interface == .unknown)
        #expect(news.heard == [.tabletMode])
        #expect(news.changed == [.tabletMode])
        #expect(news.state.name(.tabletMode) == "laptop")
    }

    @Test("a ReadOrientation reply speaks of both orientations")
    func readOrientation() {
        let news = OrientationState().taking(device: "face-up", interface: "unknown")
        #expect(news.heard == [.device, .interface])
        #expect(news.changed == [.device])
        #expect(news.state.value(.device) == 5)
    }

    @Test("the streams a property belongs to")
    func streams() {
        #expect(OrientationStream(property: .tabletModeSource) == .tabletMode)
        #expect(OrientationStream(property: .hingeAngle) == .hingeState)
        #expect(OrientationStream(property: .lowEnergyMode) == nil)
        #expect(OrientationStream.allCases.map(\.rawValue) == ["device", "interface", "tablet-mode", "hinge-state"])
    }
}

@Suite("Property values as text")
struct PropertyTextTests {
    @Test("each type as status shows it")
    func text() {
        #expect(PropertyValue.string("portrait").text == "portrait")
        #expect(PropertyValue.bool(true).text == "yes")
        #expect(PropertyValue.bool(false).text == "no")
        #expect(PropertyValue.uint32(40).text == "40")
        #expect(PropertyValue.strings(["thermal", "battery"]).text == "thermal battery")
        #expect(PropertyValue.strings([]).text == "")
        #expect(PropertyValue.other(signature: "a{sv}").text == "(a{sv})")
    }

    @Test("angles to a tenth, whole ones without a fraction")
    func degrees() {
        #expect(degreesText(-1) == "-1")
        #expect(degreesText(180) == "180")
        #expect(degreesText(179.64) == "179.6")
        #expect(degreesText(179.96) == "180")
        #expect(degreesText(.infinity) == "inf")
        #expect(PropertyValue.double(92.25).text == "92.3")
    }
}

@Suite("When a client claims, lets go and claims again")
struct ClaimPlanTests {
    @Test("a claim is read and made once, however often it is wanted")
    func wantedOnce() {
        var plan = ClaimPlan()
        #expect(plan.want(true) == .readAndClaim)
        #expect(plan.want(true) == nil)
        #expect(plan.held)
        #expect(plan.want(false) == .release)
        #expect(plan.want(false) == nil)
        #expect(!plan.held)
    }

    @Test("nothing is released that was never claimed")
    func noReleaseWithoutClaim() {
        var plan = ClaimPlan()
        #expect(plan.want(false) == nil)
    }

    @Test("a daemon that comes back is read and claimed again; one that leaves takes the claim along")
    func restart() {
        var plan = ClaimPlan()
        _ = plan.want(true)
        #expect(plan.ownerChanged(present: false) == nil)
        #expect(!plan.held)
        #expect(plan.ownerChanged(present: true) == .readAndClaim)
        #expect(plan.held)
        // A new owner without the old one leaving (a replacement) starts with no claim too.
        #expect(plan.ownerChanged(present: true) == .readAndClaim)
    }

    @Test("a daemon that comes while no claim is wanted is left alone, and claimed once one is")
    func appearsUnwanted() {
        var plan = ClaimPlan()
        #expect(plan.ownerChanged(present: true) == nil)
        _ = plan.want(true)
        _ = plan.want(false)
        #expect(plan.ownerChanged(present: true) == nil)
        #expect(plan.want(true) == .readAndClaim)
    }

    @Test("stopping after the daemon left sends nothing: it has no claim of ours")
    func stopAfterLeaving() {
        var plan = ClaimPlan()
        _ = plan.want(true)
        _ = plan.ownerChanged(present: false)
        #expect(plan.want(false) == nil)
        #expect(plan.ownerChanged(present: true) == nil)
    }
}
