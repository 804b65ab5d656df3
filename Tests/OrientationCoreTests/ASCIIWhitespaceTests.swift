import OrientationCore
import Testing

@Suite struct ASCIIWhitespaceTests {
    @Test func trimsASCIIWhitespaceAtBothEndsAndNULsAtTheEnd() {
        #expect(" \t passive \n\u{0B}\u{0C}\r".trimmingASCIIWhitespace() == "passive")
        #expect("active\n\0\0".trimmingASCIIWhitespace() == "active")
        #expect("a b".trimmingASCIIWhitespace() == "a b")
        #expect(" \n\0".trimmingASCIIWhitespace() == "")
        #expect("".trimmingASCIIWhitespace() == "")
        // Only trailing NULs are padding: a leading one is part of the text.
        #expect("\0x".trimmingASCIIWhitespace() == "\0x")
        // Other Unicode spaces are not ASCII whitespace.
        #expect("\u{A0}x\u{2003}".trimmingASCIIWhitespace() == "\u{A0}x\u{2003}")
        let line: Substring = "[ key = value ]".dropFirst().dropLast()
        #expect(line.trimmingASCIIWhitespace() == "key = value")
    }
}
