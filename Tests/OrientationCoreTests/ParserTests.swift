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
    ])
    func malformed(text: String, error: MountMatrixError) {
        #expect(throws: error) { try MountMatrix(parsing: text) }
    }

    @Test func errorDescriptionsSayWhatIsWrong() {
        #expect(MountMatrixError.wrongCount(found: 8).description.contains("found 8"))
        #expect(MountMatrixError.allZeroRow(1).description.contains("row 2"))
        #expect(MountMatrixError.notANumber("a").description.contains("\"a\""))
    }
}

@Suite("Sysfs number parsing")
struct SysfsNumberTests {
    @Test(arguments: [
        ("  -512\n", Int64(-512)),
        ("0", 0),
        ("+7", 7),
        ("-0", 0),
        ("42\n", 42),
        ("\t 2147483647 \r\n", 2_147_483_647),
        ("-2147483648", -2_147_483_648),
        ("9223372036854775807", Int64.max),
        ("-9223372036854775808", Int64.min),
    ])
    func goodIntegers(text: String, value: Int64) throws {
        #expect(try SysfsNumber.parseInteger(text) == value)
        let bytes = Array(text.utf8)
        let fromBuffer = try bytes.withUnsafeBytes { buffer throws(SysfsValueError) in
            try SysfsNumber.parseInteger(buffer)
        }
        #expect(fromBuffer == value)
    }

    @Test(arguments: [
        ("abc", SysfsValueError.notANumber("abc")),
        ("", .empty),
        ("\n", .empty),
        ("   \t", .empty),
        ("12abc", .notANumber("12abc")),
        ("1 2", .notANumber("1 2")),
        ("-", .notANumber("-")),
        ("+-1", .notANumber("+-1")),
        ("0x10", .notANumber("0x10")),
        ("1.5", .notANumber("1.5")),
        ("99999999999999999999999", .outOfRange("99999999999999999999999")),
        ("9223372036854775808", .outOfRange("9223372036854775808")),
        ("-9223372036854775809", .outOfRange("-9223372036854775809")),
    ])
    func badIntegers(text: String, error: SysfsValueError) {
        #expect(throws: error) { try SysfsNumber.parseInteger(text) }
    }

    @Test func bufferWithTrailingNulsAndNoTerminator() throws {
        var buffer = [UInt8](repeating: 0, count: 16)
        for (index, byte) in "-1234\n".utf8.enumerated() { buffer[index] = byte }
        let value = try buffer.withUnsafeBytes { raw throws(SysfsValueError) in
            try SysfsNumber.parseInteger(raw)
        }
        #expect(value == -1234)
        let empty = [UInt8](repeating: 0, count: 8)
        #expect(throws: SysfsValueError.empty) {
            try empty.withUnsafeBytes { raw throws(SysfsValueError) in try SysfsNumber.parseInteger(raw) }
        }
    }

    @Test func longOffendingTextIsCut() {
        let text = String(repeating: "x", count: 100)
        #expect(throws: SysfsValueError.notANumber(String(repeating: "x", count: 32) + "...")) {
            try SysfsNumber.parseInteger(text)
        }
    }

    @Test(arguments: [
        ("0.009576806\n", 0.009576806),
        ("1", 1.0),
        ("9.8e-3", 0.0098),
        ("1e-3", 0.001),
        ("  -0.5 ", -0.5),
        ("+.25", 0.25),
        ("3.", 3.0),
        ("1E2", 100.0),
    ])
    func goodDecimals(text: String, value: Double) throws {
        #expect(try SysfsNumber.parseDecimal(text) == value)
    }

    @Test(arguments: [
        ("nan", SysfsValueError.notANumber("nan")),
        ("inf", .notANumber("inf")),
        ("-Infinity", .notANumber("-Infinity")),
        ("0,0095", .notANumber("0,0095")),
        ("abc", .notANumber("abc")),
        ("", .empty),
        ("\n", .empty),
        (".", .notANumber(".")),
        ("1e", .notANumber("1e")),
        ("0x1p3", .notANumber("0x1p3")),
        ("1.5.2", .notANumber("1.5.2")),
        ("1e999", .outOfRange("1e999")),
    ])
    func badDecimals(text: String, error: SysfsValueError) {
        #expect(throws: error) { try SysfsNumber.parseDecimal(text) }
    }

    @Test func errorDescriptions() {
        #expect(SysfsValueError.empty.description == "empty value")
        #expect(SysfsValueError.notANumber("12abc").description == "not a number: \"12abc\"")
        #expect(SysfsValueError.outOfRange("9e99999").description.contains("out of range"))
    }
}
