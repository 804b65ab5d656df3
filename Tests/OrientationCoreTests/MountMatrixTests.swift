import OrientationCore
import Testing

@Suite("Mount matrix parsing and application")
struct MountMatrixTests {
    @Test(arguments: [
        "1, 0, 0; 0, 1, 0; 0, 0, 1",
        "1, 0, 0; 0, 1, 0; 0, 0, 1\n",
        "1,0,0;0,1,0;0,0,1",
        "  1 ,0,  0 ;\t0, 1,0;0 , 0,1  ",
        "1.0, 0.0, 0.0; 0.0, 1.0, 0.0; 0.0, 0.0, 1.0",
        "+1, -0, 0; 0, 1e0, 0; 0, 0, 10e-1",
    ])
    func identityForms(text: String) throws {
        #expect(try MountMatrix(parsing: text) == .identity)
    }

    @Test func quarterTurnMatrix() throws {
        let matrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(matrix.rows.0 == Vector3(0, 1, 0))
        #expect(matrix.rows.1 == Vector3(-1, 0, 0))
        #expect(matrix.rows.2 == Vector3(0, 0, 1))
        #expect(matrix.apply(Vector3(1, 2, 3)) == Vector3(2, -1, 3))
        #expect(matrix != .identity)
    }

    @Test func decimalEntries() throws {
        let matrix = try MountMatrix(parsing: "0.5, 0, 0; 0, -0.5, 0; 0, 0, 1.25")
        #expect(matrix == MountMatrix(Vector3(0.5, 0, 0), Vector3(0, -0.5, 0), Vector3(0, 0, 1.25)))
        #expect(matrix.apply(Vector3(2, 4, 8)) == Vector3(1, -2, 10))
    }

    @Test func applyMultipliesRowsAsWritten() throws {
        // Asymmetric, so M * v and M^T * v differ.
        let matrix = try MountMatrix(parsing: "1, 2, 3; 4, 5, 6; 7, 8, 10")
        #expect(matrix.apply(Vector3(1, -1, 2)) == Vector3(5, 11, 19))
        #expect(MountMatrix.identity.apply(Vector3(1, -1, 2)) == Vector3(1, -1, 2))
    }

    @Test func descriptionReadsBack() throws {
        let matrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 0.25")
        #expect(try MountMatrix(parsing: matrix.description) == matrix)
    }

    @Test(arguments: [
        ("1, 0, 0; 0, 1, 0; 0, 0", MountMatrixError.wrongCount(found: 8)),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1, 0", .wrongCount(found: 10)),
        ("", .wrongCount(found: 0)),
        (" \n", .wrongCount(found: 0)),
        ("a, b, c; 0, 1, 0; 0, 0, 1", .notANumber("a")),
        ("1, 0, 0; 0, 1, 0; 0, 0, x1", .notANumber("x1")),
        ("1,, 0; 0, 1, 0; 0, 0, 1", .notANumber("")),
        ("1, 0, 0; 0, 0, 0; 0, 0, 1", .allZeroRow(1)),
        ("0, 0, 0; 0, 1, 0; 0, 0, 1", .allZeroRow(0)),
        ("1, 0, 0, 0, 1, 0, 0, 0, 1", .wrongRowCount(found: 1)),
        ("1, 0; 0, 1, 0, 0; 0, 0, 1", .wrongRowLength(row: 0, found: 2)),
        ("nan, 0, 0; 0, 1, 0; 0, 0, 1", .notFinite),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1e999", .notFinite),
        ("0,5, 0, 0; 0, 1, 0; 0, 0, 1", .wrongCount(found: 10)),
        ("1, 0, 0; -1, 0, 0; 0, 0, 1", .parallelUprightRows),
        ("0, 1, 0; 0, 2, 0; 1, 0, 0", .parallelUprightRows),
    ])
    func malformed(text: String, error: MountMatrixError) {
        #expect(throws: error) { try MountMatrix(parsing: text) }
    }

    @Test func errorDescriptionsSayWhatIsWrong() {
        #expect(MountMatrixError.wrongCount(found: 8).description.contains("found 8"))
        #expect(MountMatrixError.allZeroRow(1).description.contains("row 2"))
        #expect(MountMatrixError.notANumber("a").description.contains("\"a\""))
        #expect(MountMatrixError.parallelUprightRows.description.contains("parallel"))
    }

    /// The two singular entries of systemd's 60-sensor.hwdb: the Bush Windows tablet repeats
    /// its x row as the z row, the Hometech Wi101 its y row.
    static let bush = "1, 0, 0; 0, -1, 0; 1, 0, 0"
    static let hometech = "0, 1, 0; -1, 0, 0; -1, 0, 0"

    @Test func fullRankMatricesTellFaceUpFromFaceDown() throws {
        #expect(MountMatrix.identity.tellsFaceUpFromFaceDown)
        #expect(try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, -1").tellsFaceUpFromFaceDown)
        #expect(try MountMatrix(parsing: "1, 2, 3; 4, 5, 6; 7, 8, 10").tellsFaceUpFromFaceDown)
        #expect(try MountMatrix(parsing: "0.01, 0, 0; 0, 0.01, 0; 0, 0, 0.01").tellsFaceUpFromFaceDown)
    }

    @Test(arguments: [bush, hometech, "1, 0, 0; 0, 1, 0; 1, 1, 0"])
    func singularMatricesDoNot(text: String) throws {
        #expect(!(try MountMatrix(parsing: text)).tellsFaceUpFromFaceDown)
    }

    @Test func singularMatrixKeepsXAndYAndMakesUpTheSizeOfZ() throws {
        let bush = try MountMatrix(parsing: Self.bush)
        // x and y as the rows say; z is the raw reading's part off the screen plane, negated,
        // whichever sign it had.
        #expect(bush.apply(Vector3(3, 4, 5)) == Vector3(3, -4, -5))
        #expect(bush.apply(Vector3(3, 4, -5)) == Vector3(3, -4, -5))
        #expect(bush.apply(Vector3(9.81, 0, 0)) == Vector3(9.81, 0, 0))
        #expect(bush.apply(Vector3(0, 0, 9.81)) == Vector3(0, 0, -9.81))
        let hometech = try MountMatrix(parsing: Self.hometech)
        #expect(hometech.apply(Vector3(1, 2, 3)) == Vector3(2, -1, -3))
        #expect(hometech.apply(Vector3(1, 2, -3)) == Vector3(2, -1, -3))
        // Rows scaled alike keep their scale in z.
        let scaled = MountMatrix(Vector3(2, 0, 0), Vector3(0, 2, 0), Vector3(2, 0, 0))
        #expect(scaled.apply(Vector3(1, 1, 1)) == Vector3(2, 2, -2))
        // A matrix built with parallel x and y rows (parsing refuses it) gives no z rather than
        // dividing by zero.
        let flat = MountMatrix(Vector3(1, 0, 0), Vector3(1, 0, 0), Vector3(1, 0, 0))
        #expect(flat.apply(Vector3(1, 2, 3)) == Vector3(1, 1, 0))
    }
}
