import ErrorsAndLog
import SensorIO

/// Finds the hardware tablet-mode switches (at start, then from udev events for input
/// devices) and opens the ones to read for tablet mode.
final class TabletModeSwitchFinder {
    private unowned let tabletMode: TabletMode
    private let event: OpaquePointer
    /// Switches deliberately not read (virtual, keyboards), each logged once.
    private var skipped: Set<String> = []
    /// Switches that could not be opened, each logged once.
    private var problems = ProblemLog()

    init(tabletMode: TabletMode, event: OpaquePointer) {
        self.tabletMode = tabletMode
        self.event = event
    }

    /// At start: every tablet-mode switch udev knows.
    func findAll() {
        do {
            for candidate in try TabletModeSwitch.candidates() {
                take(syspath: candidate.syspath, property: candidate.property)
            }
        } catch {
            Log.error("cannot look for tablet-mode switches: \(error)")
        }
    }

    /// A udev event for an input event device that is no accelerometer: a switch that came or
    /// went.
    func deviceChanged(action: String, syspath: String, property: (String) -> String?) {
        if action == "remove" {
            guard tabletMode.isReading(syspath: syspath) else { return }
            tabletMode.remove(syspath: syspath)
            Log.info("tablet-mode switch \(syspath) removed")
            tabletMode.update()
            return
        }
        // An open switch's events say what changed; a change event adds nothing.
        guard !tabletMode.isReading(syspath: syspath) else { return }
        if take(syspath: syspath, property: property) { tabletMode.update() }
    }

    /// Opens the input device at `syspath` if it is a tablet-mode switch to read; true when
    /// it was.
    @discardableResult
    private func take(syspath: String, property: (String) -> String?) -> Bool {
        switch TabletModeSwitch.suitability(syspath: syspath, property: property) {
        case .other:
            return false
        case .skipped(let why):
            if skipped.insert(syspath).inserted { Log.notice(why) }
            return false
        case .tabletModeSwitch(let devnode):
            do {
                let reader = try TabletModeSwitch(
                    syspath: syspath, devnode: devnode, event: event,
                    onChange: { [unowned self] reader in
                        Log.info(
                            "tablet-mode switch \(reader.syspath): \(reader.tabletMode ? "tablet" : "laptop")"
                                + (reader.lidClosed.map { $0 ? ", lid closed" : ", lid open" } ?? ""))
                        self.tabletMode.switchesChanged()
                    },
                    onGone: { [unowned self] reader, error in
                        Log.warning("tablet-mode switch \(reader.syspath) is gone: \(error)")
                        self.tabletMode.remove(syspath: reader.syspath)
                        self.tabletMode.switchesChanged()
                    })
                tabletMode.add(reader, syspath: syspath)
                problems.resolve(syspath)
                Log.info(
                    "tablet-mode switch \(syspath) (\(reader.name.isEmpty ? devnode : reader.name)): \(reader.tabletMode ? "tablet" : "laptop")"
                )
                return true
            } catch {
                problems.report(syspath, "cannot read the tablet-mode switch \(syspath): \(error)")
                return false
            }
        }
    }
}
