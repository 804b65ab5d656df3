// Shared by every fuzz target (compiled into each binary next to the target's file).
// No Foundation: the core does not use it, and libFuzzer targets stay small and fast.

/// The fuzzer's input as bytes (libFuzzer may pass a null pointer with size 0).
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
    guard let data, size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: data, count: size)
}

/// The input as text, the way the daemon makes text of a file it read: invalid UTF-8
/// becomes U+FFFD (`String(decoding:as:)`, as `Sysfs.read` does).
func fuzzText(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// Whether the bytes are valid UTF-8 (then the text holds exactly these bytes).
func isValidUTF8(_ bytes: UnsafeRawBufferPointer, _ text: String) -> Bool {
    text.utf8.elementsEqual(bytes)
}

/// Fields of a structured input, split at the unit separator byte 0x1F. Seeds are written
/// with `printf 'a\x1fb'`; libFuzzer learns the separator from the comparisons below.
let fieldSeparator: UInt8 = 0x1F

func fuzzFields(_ bytes: UnsafeRawBufferPointer) -> [UnsafeRawBufferPointer] {
    var fields: [UnsafeRawBufferPointer] = []
    var start = 0
    for index in 0..<bytes.count where bytes[index] == fieldSeparator {
        fields.append(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        start = index + 1
    }
    fields.append(UnsafeRawBufferPointer(rebasing: bytes[start..<bytes.count]))
    return fields
}

/// An invariant of the code under test: a violation is a finding (libFuzzer saves the input).
func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fatalError("invariant violated: \(message())", file: file, line: line) }
}
