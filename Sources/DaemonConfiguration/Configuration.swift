import ErrorsAndLog
import Glibc
import OrientationCore
import SensorIO

/// Where the configuration lives (motion-orientationd.conf(5)): the main file, which `--config`
/// replaces, and the drop-ins, which always apply.
public struct ConfigLocation: Equatable, Sendable {
    public static let defaultMainFile = "/etc/motion-orientationd.conf"
    public static let dropInDirectory = "/etc/motion-orientationd.conf.d"

    /// The main configuration file.
    public var mainFile: String
    /// Whether the main file was named (`--config`): then a missing file is an error, not
    /// the defaults.
    public var mainFileNamed: Bool

    public init(mainFile: String = ConfigLocation.defaultMainFile, named: Bool = false) {
        self.mainFile = mainFile
        self.mainFileNamed = named
    }
}

/// Settings with the configuration entries they were made from.
public struct LoadedConfiguration: Sendable {
    public var settings: DaemonSettings
    /// The entries accepted, so that a reload can keep a key whose new value is bad.
    public var acceptedEntries: [ConfigEntry]
}

/// Reads the main file and the drop-ins (`*.conf`, lexical order, later wins), logs every
/// diagnostic with its file and line, and returns the settings. On a reload, `previous`
/// holds the entries in force, and a key whose new value is bad keeps its old one.
/// Returns nil when the main file cannot be read although it was named with `--config`, or
/// exists and cannot be read during a reload (the caller then keeps what it has).
public func loadConfiguration(_ location: ConfigLocation, keeping previous: [ConfigEntry]? = nil)
    -> LoadedConfiguration?
{
    var sources: [(file: String, text: String)] = []
    do {
        sources.append((location.mainFile, try Sysfs.read(location.mainFile)))
    } catch {
        if location.mainFileNamed || (previous != nil && error.errno != ENOENT) {
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
    let (settings, accepted, diagnostics) = DaemonSettings.interpret(entries, keeping: previous ?? [])
    diagnostics.forEach { Log.warning("\($0)") }
    return LoadedConfiguration(settings: settings, acceptedEntries: accepted)
}

/// The settings alone, for tools that replay with the daemon's configuration.
public func loadSettings(_ location: ConfigLocation) -> DaemonSettings? {
    loadConfiguration(location)?.settings
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
