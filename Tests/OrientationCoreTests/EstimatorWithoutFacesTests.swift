import OrientationCore
import Testing

/// The estimator behind a singular mount matrix (`MountMatrix.tellsFaceUpFromFaceDown` false):
/// upright decisions from x and y, no face-up or face-down.
@Suite struct EstimatorWithoutFacesTests {
    /// The raw readings a sensor behind `matrix` gives for the device-frame gravity `g`, when the
    /// true matrix (which the hwdb got wrong in its z row) has the z row `trueZ`.
    func raw(_ g: Vector3, matrix: MountMatrix, trueZ: Vector3) -> Vector3 {
        // The true matrix is a signed permutation, its inverse its transpose.
        let rows = [matrix.rows.0, matrix.rows.1, trueZ]
        return rows[0] * g.x + rows[1] * g.y + rows[2] * g.z
    }

    /// The committed orientation after two seconds at 20 Hz of `g` through `matrix`.
    func decide(
        _ g: Vector3, matrix: MountMatrix, trueZ: Vector3, into estimator: inout OrientationEstimator,
        from start: Double
    )
        -> DeviceOrientation
    {
        for step in 0..<40 {
            _ = estimator.update(matrix.apply(raw(g, matrix: matrix, trueZ: trueZ)), at: start + Double(step) * 0.05)
        }
        return estimator.orientation
    }

    static let matrices = [
        ("1, 0, 0; 0, -1, 0; 1, 0, 0", [Vector3(0, 0, 1), Vector3(0, 0, -1)]),  // Bush Windows tablet
        ("0, 1, 0; -1, 0, 0; -1, 0, 0", [Vector3(0, 0, 1), Vector3(0, 0, -1)]),  // Hometech Wi101
    ]

    @Test(arguments: matrices)
    func uprightDecisionsComeFromXAndY(text: String, trueZRows: [Vector3]) throws {
        let matrix = try MountMatrix(parsing: text)
        #expect(!matrix.tellsFaceUpFromFaceDown)
        for trueZ in trueZRows {
            var estimator = OrientationEstimator(facesAvailable: false)
            var time = 0.0
            // Upright, leaning back by 0, 30 and 55 degrees, in every order of quarter and half turns.
            let poses: [(Double, DeviceOrientation)] = [
                (0, .portrait), (90, .landscapeRight), (180, .portraitUpsideDown), (-90, .landscapeLeft),
                (0, .portrait), (180, .portraitUpsideDown), (90, .landscapeRight), (-90, .landscapeLeft),
            ]
            for tilt in [0.0, 30.0, 55.0] {
                for (angle, expected) in poses {
                    let g = gravity(angle: angle, tilt: tilt)
                    #expect(
                        decide(g, matrix: matrix, trueZ: trueZ, into: &estimator, from: time) == expected,
                        "\(text), true z row \(trueZ), \(angle) degrees, tilt \(tilt)")
                    time += 2
                }
            }
            // Lying flat, screen up or down: no face orientation, the last upright one stays.
            for g in [Vector3(0, 0, -g), Vector3(0, 0, g), gravity(angle: 90, tilt: 85)] {
                #expect(decide(g, matrix: matrix, trueZ: trueZ, into: &estimator, from: time) == .landscapeLeft)
                time += 2
            }
            // And from flat back to upright.
            #expect(decide(gravity(angle: 0), matrix: matrix, trueZ: trueZ, into: &estimator, from: time) == .portrait)
        }
    }

    @Test func withFacesTheSameReadingsGiveFaceUp() throws {
        // The device lies screen down, and without the flag the reading would say face-up: the
        // sign of z is lost, so the flag must keep face orientations out.
        let matrix = try MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 1, 0, 0")
        var estimator = OrientationEstimator()
        #expect(decide(Vector3(0, 0, g), matrix: matrix, trueZ: Vector3(0, 0, 1), into: &estimator, from: 0) == .faceUp)
    }

    @Test func resetKeepsTheFlag() {
        var estimator = OrientationEstimator(facesAvailable: false)
        estimator.reset()
        #expect(!estimator.facesAvailable)
        estimator.facesAvailable = true
        estimator.reset()
        #expect(estimator.facesAvailable)
    }
}
