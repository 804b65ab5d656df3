/// Why a sysfs attribute's text is not an acceptable number.
public enum SysfsValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing but whitespace (or nothing at all).
    case empty
    /// Not a number in the accepted grammar. Carries the offending text, trimmed and cut to
    /// 32 bytes ("..." appended when cut).
    case notANumber(String)
    /// A well-formed number that does not fit: beyond the Int64 range for integers, beyond the
    /// finite Double range for decimals. Carries the text like `notANumber`.
    case outOfRange(String)

    /// A one-line English explanation, e.g. `not a number: "12abc"`.
    public var description: String {
        switch self {
        case .empty: "empty value"
        case .notANumber(let text): "not a number: \"\(text)\""
        case .outOfRange(let text): "number out of range: \"\(text)\""
        }
    }
}

/// Locale-independent parsers for the text of sysfs attributes (IIO channel `_raw`, `_offset` and
/// `_scale` files), e.g. "  -512\n" or "0.009576806\n".
///
/// Leading and trailing ASCII whitespace (space, tab, newline, vertical tab, form feed, carriage
/// return) is ignored, and so are trailing NUL bytes (a zero-filled read buffer). Nothing else is
/// tolerated: no thousands separators, no decimal comma, no hex, no trailing garbage.
public enum SysfsNumber {
    /// Parses a decimal integer: optional sign (`+` or `-`), then one or more ASCII digits.
    ///
    /// Accepts the whole Int64 range; anything beyond gives `outOfRange`. IIO raw values are at
    /// most 32 bits wide, so every real channel value fits; narrowing is the caller's choice.
    /// Does not allocate unless it throws, so the daemon can call it on a `pread` buffer for
    /// every sample.
    public static func parseInteger(_ bytes: UnsafeRawBufferPointer) throws(SysfsValueError) -> Int64 {
        let range = NumberText.trimmedRange(bytes)
        if range.isEmpty { throw .empty }
        var index = range.lowerBound
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        if index == range.upperBound { throw .notANumber(NumberText.excerpt(bytes, range)) }
        // Accumulate negatively so that Int64.min is reachable.
        var value: Int64 = 0
        var overflow = false
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
                throw .notANumber(NumberText.excerpt(bytes, range))
            }
            if !overflow {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(Int64(byte &- UInt8(ascii: "0")))
                if o1 || o2 { overflow = true } else { value = next }
            }
            index += 1
        }
        if overflow { throw .outOfRange(NumberText.excerpt(bytes, range)) }
        if negative { return value }
        if value == Int64.min { throw .outOfRange(NumberText.excerpt(bytes, range)) }
        return -value
    }

    /// Parses a decimal integer from text; same grammar and range as the buffer form.
    public static func parseInteger(_ text: String) throws(SysfsValueError) -> Int64 {
        var text = text
        let result: Result<Int64, SysfsValueError> = text.withUTF8 { utf8 in
            Result { () throws(SysfsValueError) -> Int64 in
                try parseInteger(UnsafeRawBufferPointer(utf8))
            }
        }
        return try result.get()
    }

    /// Parses a finite decimal number such as "0.009576806", "1", "+.5", "9.8e-3".
    ///
    /// Grammar: optional sign, digits with an optional decimal point (at least one digit in all),
    /// optional exponent `e`/`E` with optional sign and digits. The decimal separator is always
    /// `.`, whatever the locale. "nan", "inf", hex floats and "0,0095" give `notANumber`; a
    /// number too large for a Double (e.g. "1e999") gives `outOfRange`.
    public static func parseDecimal(_ text: String) throws(SysfsValueError) -> Double {
        let token = text.trimmingASCIIWhitespace()
        if token.isEmpty { throw .empty }
        switch NumberText.decimal(token) {
        case .value(let value): return value
        case .notFinite: throw .outOfRange(NumberText.excerpt(token))
        case .malformed, .nonFiniteWord: throw .notANumber(NumberText.excerpt(token))
        }
    }
}

/// Shared lexical helpers for the number parsers of this module (sysfs, mount matrix, traces).
enum NumberText {
    /// Longest excerpt of offending text kept in an error, in UTF-8 bytes.
    static let excerptLimit = 32

    /// Outcome of reading one decimal token.
    enum Decimal: Equatable {
        /// A finite value.
        case value(Double)
        /// Well-formed, but overflows to infinity.
        case notFinite
        /// "nan", "inf" or "infinity" (any case, optional sign).
        case nonFiniteWord
        /// Anything else outside the grammar.
        case malformed
    }

    /// The index range of `bytes` without leading whitespace and trailing whitespace or NULs.
    static func trimmedRange(_ bytes: UnsafeRawBufferPointer) -> Range<Int> {
        var start = 0
        var end = bytes.count
        while end > start && (ASCIIWhitespace.contains(bytes[end - 1]) || bytes[end - 1] == 0) { end -= 1 }
        while start < end && ASCIIWhitespace.contains(bytes[start]) { start += 1 }
        return start..<end
    }

    /// The bytes in `range` as text for an error message, cut to `excerptLimit` bytes.
    static func excerpt(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        let cut = range.count > excerptLimit
        let end = cut ? range.lowerBound + excerptLimit : range.upperBound
        let text = String(decoding: bytes[range.lowerBound..<end], as: UTF8.self)
        return cut ? text + "..." : text
    }

    /// `text` for an error message, cut to `excerptLimit` bytes.
    static func excerpt(_ text: Substring) -> String {
        let utf8 = text.utf8
        guard utf8.count > excerptLimit else { return String(text) }
        return String(decoding: utf8.prefix(excerptLimit), as: UTF8.self) + "..."
    }

    /// Reads one already trimmed decimal token (grammar of `SysfsNumber.parseDecimal`).
    static func decimal(_ token: Substring) -> Decimal {
        let bytes = Array(token.utf8)
        var index = 0
        if index < bytes.count
            && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
        {
            index += 1
        }
        // ASCII case folding is enough for these words (and keeps Unicode case mapping out).
        let word = bytes[index...].map { $0 | 0x20 }
        if ["nan", "inf", "infinity"].contains(where: { word.elementsEqual($0.utf8) }) { return .nonFiniteWord }
        var digits = 0
        while index < bytes.count && isDigit(bytes[index]) {
            digits += 1
            index += 1
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count && isDigit(bytes[index]) {
                digits += 1
                index += 1
            }
        }
        if digits == 0 { return .malformed }
        if index < bytes.count
            && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E"))
        {
            index += 1
            if index < bytes.count
                && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
            {
                index += 1
            }
            var exponentDigits = 0
            while index < bytes.count && isDigit(bytes[index]) {
                exponentDigits += 1
                index += 1
            }
            if exponentDigits == 0 { return .malformed }
        }
        if index != bytes.count { return .malformed }
        // The token is now plain decimal ASCII; the standard library's conversion is correctly
        // rounded and independent of the C locale.
        guard let value = Double(token) else { return .malformed }
        return value.isFinite ? .value(value) : .notFinite
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
