import OrientationCore
import Testing

/// The hinge angle's geometry: the design note's worked numbers, scale and tilt invariance.
@Suite("Hinge geometry")
struct HingeGeometryTests {
    func angle(_ d: Vector3, _ b: Vector3) throws -> Double {
        try #require(HingeGeometry.angle(display: d, base: b)).degrees
    }

    @Test func baseFlatOnATable() throws {
        let b = Vector3(0, 0, g)
        #expect(abs(try angle(Vector3(0, 0, g), b)) < 1e-9)
        #expect(abs(try angle(Vector3(0, -g, 0), b) - 90) < 1e-9)
        #expect(abs(try angle(Vector3(0, 0, -g), b) - 180) < 1e-9)
        #expect(abs(try angle(Vector3(0, g, 0), b) - 270) < 1e-9)
    }

    @Test func physicalPoses() throws {
        // Tent, hinge on top; stand, keyboard down; tablet, keyboard down.
        #expect(abs(try angle(Vector3(0, 6.94, 6.94), Vector3(0, -6.94, 6.94)) - 270) < 1e-6)
        #expect(abs(try angle(Vector3(0, -g, 0), Vector3(0, 0, -g)) - 270) < 1e-9)
        #expect(abs(try angle(Vector3(0, 0, -g), Vector3(0, 0, -g))) < 1e-9)
    }

    @Test(arguments: [0.0, 30.0, 90.0, 120.0, 179.0, 200.0, 270.0, 300.0, 359.0])
    func tiltedBasesGiveTheSameAngle(theta: Double) throws {
        for (sideways, forward) in [(0.0, 0.0), (30, 0), (0, 30), (30, 30), (-45, -20), (60, 170)] {
            let pose = HingePose(angle: theta, sideways: sideways, forward: forward)
            let b = pose.baseDown * g
            let sample = try #require(HingeGeometry.angle(display: pose.display(from: b), base: b))
            var error = abs(sample.degrees - theta)
            error = min(error, 360 - error)
            #expect(error < 1e-6, "\(theta) \(sideways) \(forward): \(sample.degrees)")
            #expect(sample.axisMismatch < 1e-9)
            let projected = TestMath.sinCos(degrees: sideways).cos
            #expect(abs(sample.projected - abs(projected)) < 1e-9)
        }
    }

    @Test func misScaledSensorsGiveTheExactAngle() throws {
        let pose = HingePose(angle: 123, sideways: 20, forward: 10)
        let b = pose.baseDown * g
        let d = pose.display(from: b)
        let exact = try angle(d, b)
        #expect(abs(try angle(d * 1.8, b * 0.5) - exact) < 1e-9)
        #expect(abs(try angle(d * 1000, b * 0.001) - exact) < 1e-9)
        // The specific force (up) instead of gravity: the same.
        #expect(abs(try angle(-d, -b) - exact) < 1e-9)
    }

    @Test func hingeVerticalHasNoProjection() throws {
        let sample = try #require(HingeGeometry.angle(display: Vector3(g, 0, 0), base: Vector3(g, 0, 0)))
        #expect(sample.projected == 0)
        let limit = try #require(
            HingeGeometry.angle(display: Vector3(8.70, -3.92, -2.26), base: Vector3(8.70, 0, 4.53)))
        #expect(abs(limit.degrees - 120) < 0.1)
        #expect(abs(limit.projected - 0.462) < 0.002)
    }

    @Test func wrongBaseMatrixShowsAsAxisMismatch() throws {
        let sample = try #require(HingeGeometry.angle(display: Vector3(0, -g, 0), base: Vector3(g, 0, 0)))
        #expect(sample.axisMismatch > 0.9)
    }

    @Test func badReadingsGiveNothing() {
        let b = Vector3(0, 0, g)
        #expect(HingeGeometry.angle(display: .zero, base: b) == nil)
        #expect(HingeGeometry.angle(display: b, base: .zero) == nil)
        #expect(HingeGeometry.angle(display: Vector3(.nan, 0, 1), base: b) == nil)
        #expect(HingeGeometry.angle(display: b, base: Vector3(0, .infinity, 1)) == nil)
        #expect(HingeGeometry.angle(display: b, base: Vector3(1e300, 1e300, 0)) == nil)
    }

    @Test func stateRangesAndHysteresis() {
        let s = TabletModeSettings()
        #expect(HingeState.state(for: 0, settings: s) == .closed)
        #expect(HingeState.state(for: 15, settings: s) == .closed)
        #expect(HingeState.state(for: 16, settings: s) == .concave)
        #expect(HingeState.state(for: 170, settings: s) == .flat)
        #expect(HingeState.state(for: 190, settings: s) == .flat)
        #expect(HingeState.state(for: 191, settings: s) == .convex)
        #expect(HingeState.state(for: 345, settings: s) == .full)
        #expect(HingeState.state(for: 360, settings: s) == .full)
        #expect(HingeState.state(for: 168, previous: .concave, settings: s) == .concave)
        #expect(HingeState.state(for: 174, previous: .concave, settings: s) == .concave)
        #expect(HingeState.state(for: 176, previous: .concave, settings: s) == .flat)
        #expect(HingeState.state(for: 166, previous: .flat, settings: s) == .flat)
        #expect(HingeState.state(for: 164, previous: .flat, settings: s) == .concave)
        #expect(HingeState.state(for: 19, previous: .closed, settings: s) == .closed)
        #expect(HingeState.state(for: 21, previous: .closed, settings: s) == .concave)
        #expect(HingeState.state(for: 341, previous: .full, settings: s) == .full)
        #expect(HingeState.state(for: 339, previous: .full, settings: s) == .convex)
        #expect(HingeState.state(for: 100, previous: .unknown, settings: s) == .concave)
        #expect(HingeState.allCases.map(\.name) == ["unknown", "closed", "concave", "flat", "convex", "full"])
        #expect(HingeState.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
        #expect(HingeState(name: "convex") == .convex)
        #expect(HingeState(name: "tent") == nil)
    }
}
