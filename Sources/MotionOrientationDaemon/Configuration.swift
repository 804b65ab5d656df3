import Glibc
import OrientationCore

/// Where the configuration lives (DESIGN.md section 5).
public enum ConfigLocation {
    public static let mainFile = "/etc/motion-orientationd.conf"
    public static let dropInDirectory = "/etc/motion-orientationd.conf.d"
}

/// Reads the main file and the drop-ins (`*.conf`, lexical order, later wins), logs
/// every diagnostic with its file and line, and returns the settings. Returns nil only
/// when a file named with `--config` cannot be read.
public func loadSettings(_ options: DaemonOptions) -> DaemonSettings? {
    var sources: [(file: String, text: String)] = []
    do {
        sources.append((options.configPath, try Sysfs.read(options.configPath)))
    } catch {
        if options.configPathGiven {
            Log.error("cannot read the configuration: \(error)")
            return nil
        }
        if error.errno != ENOENT { Log.warning("ignoring the configuration: \(error)") }
    }
    for file in dropInFiles(ConfigLocation.dropInDirectory) {
        do {
            sources.append((file, try Sysfs.read(file)))
        } catch {
            Log.warning("ignoring a configuration drop-in: \(error)")
        }
    }
    var entries: [ConfigEntry] = []
    for source in sources {
        let parsed = ConfigFile.parse(source.text, file: source.file)
        entries += parsed.entries
        parsed.diagnostics.forEach { Log.warning("\($0)") }
    }
    let (settings, diagnostics) = DaemonSettings.interpret(entries)
    diagnostics.forEach { Log.warning("\($0)") }
    return settings
}

/// The `*.conf` files of a drop-in directory in lexical (byte) order; none when the
/// directory does not exist.
func dropInFiles(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else {
        if errno != ENOENT { Log.warning("\(SystemError("opendir", path: directory, errno: errno))") }
        return []
    }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        if name.hasSuffix(".conf") && !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { "\(directory)/\($0)" }
}
