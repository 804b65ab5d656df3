/// A problem found in a configuration file, with where it was found.
public struct ConfigDiagnostic: Equatable, Sendable, CustomStringConvertible {
    /// The file's path as given to the parser.
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// The key involved, when there is one.
    public var key: String?
    public var message: String

    public init(file: String, line: Int, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `file:line: key: message`, the shape compilers and systemd use.
    public var description: String {
        if let key { return "\(file):\(line): \(key): \(message)" }
        return "\(file):\(line): \(message)"
    }
}

/// One `Key=Value` assignment of a systemd-style INI file.
public struct ConfigEntry: Equatable, Sendable {
    public var section: String
    public var key: String
    public var value: String
    public var file: String
    public var line: Int

    public init(section: String, key: String, value: String, file: String, line: Int) {
        self.section = section
        self.key = key
        self.value = value
        self.file = file
        self.line = line
    }
}

/// The systemd-style INI syntax: `[Section]` headers, `Key=Value` lines, `#` and `;`
/// comments, blank lines. Values are taken whole after trimming surrounding spaces;
/// later assignments win when the caller applies entries in order.
public enum ConfigFile {
    /// Splits `text` into entries; malformed lines are reported and skipped.
    public static func parse(_ text: String, file: String) -> (entries: [ConfigEntry], diagnostics: [ConfigDiagnostic])
    {
        var entries: [ConfigEntry] = []
        var diagnostics: [ConfigDiagnostic] = []
        var section: String? = nil
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = String(rawLine.trimmingASCIIWhitespace())
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    diagnostics.append(.init(file: file, line: number, message: "malformed section header '\(line)'"))
                    section = nil
                    continue
                }
                section = String(line.dropFirst().dropLast().trimmingASCIIWhitespace())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                diagnostics.append(.init(file: file, line: number, message: "expected Key=Value, found '\(line)'"))
                continue
            }
            let key = String(line[..<equals].trimmingASCIIWhitespace())
            let value = String(line[line.index(after: equals)...].trimmingASCIIWhitespace())
            guard !key.isEmpty else {
                diagnostics.append(.init(file: file, line: number, message: "missing key before '='"))
                continue
            }
            guard let section else {
                diagnostics.append(
                    .init(file: file, line: number, key: key, message: "assignment outside of any section, ignored"))
                continue
            }
            entries.append(ConfigEntry(section: section, key: key, value: value, file: file, line: number))
        }
        return (entries, diagnostics)
    }
}

extension ConfigFile {
    /// Reads a boolean the way systemd does (`parse_boolean()`): `1`, `yes`, `y`, `true`, `t`,
    /// `on` are true; `0`, `no`, `n`, `false`, `f`, `off` are false; letters in any case; nil
    /// for anything else. Surrounding spaces are ignored.
    public static func parseBoolean(_ text: String) -> Bool? {
        switch text.trimmingASCIIWhitespace().lowercased() {
        case "1", "yes", "y", "true", "t", "on": true
        case "0", "no", "n", "false", "f", "off": false
        default: nil
        }
    }
}
