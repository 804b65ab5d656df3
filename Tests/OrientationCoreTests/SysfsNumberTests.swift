import OrientationCore
import Testing

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
