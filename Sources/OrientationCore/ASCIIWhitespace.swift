/// ASCII whitespace as sysfs, udev and configuration files write it: space, tab, newline,
/// vertical tab, form feed, carriage return. No Foundation here, so no `CharacterSet`.
enum ASCIIWhitespace {
    /// Whether `byte` is ASCII whitespace.
    static func contains(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}

extension Substring {
    /// The text without leading ASCII whitespace and without trailing ASCII whitespace or NULs
    /// (a zero-filled read buffer), e.g. `"passive\n\0"` gives `"passive"`. The one trim of the
    /// project: sysfs attributes, udev properties, configuration lines and trace fields.
    public func trimmingASCIIWhitespace() -> Substring {
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end && ASCIIWhitespace.contains(utf8[start]) { start = utf8.index(after: start) }
        while end > start {
            let last = utf8[utf8.index(before: end)]
            guard ASCIIWhitespace.contains(last) || last == 0 else { break }
            end = utf8.index(before: end)
        }
        return self[start..<end]
    }
}

extension String {
    /// The text without leading ASCII whitespace and without trailing ASCII whitespace or NULs,
    /// as `Substring.trimmingASCIIWhitespace()`.
    public func trimmingASCIIWhitespace() -> Substring {
        self[...].trimmingASCIIWhitespace()
    }
}
