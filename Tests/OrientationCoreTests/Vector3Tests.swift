import OrientationCore
import Testing

@Suite struct Vector3Tests {
    @Test func vectorAngles() {
        #expect(Vector3(1, 0, 0).angle(to: Vector3(0, 1, 0)) == 90)
        #expect(abs(Vector3(1, 0, 0).angle(to: Vector3(1, 1, 0)) - 45) < 1e-12)
        #expect(Vector3(0, 0, 2).angle(to: Vector3(0, 0, -3)) == 180)
        #expect(Vector3(1, 2, 3).angle(to: Vector3(2, 4, 6)) == 0)
        #expect(abs(Vector3(1, 0, 0).angle(to: Vector3(0.5, 0.75.squareRoot(), 0)) - 60) < 1e-12)
        #expect(abs(Vector3(1, 0, 0).angle(to: Vector3(-0.5, -(0.75.squareRoot()), 0)) - 120) < 1e-12)
        for degrees in stride(from: 0.5, through: 179.5, by: 7.25) {
            let direction = TestMath.sinCos(degrees: degrees)
            let angle = Vector3(3, 0, 0).angle(to: Vector3(direction.cos, direction.sin, 0) * 7)
            #expect(abs(angle - degrees) < 1e-11, "\(degrees)")
        }
        #expect(Vector3.zero.angle(to: Vector3(1, 0, 0)) == 0)
        #expect(Vector3(3, 4, 12).magnitude == 13)
        #expect(Vector3(1, 2, 3).cross(Vector3(4, 5, 6)) == Vector3(-3, 6, -3))
        #expect(!Vector3(1, .nan, 0).isFinite)
    }
}
