import Glibc
import OrientationCore
import SensorIO
import SystemdBus

/// Tablet mode: the hardware switches, the base accelerometer that pairs with the display's
/// for the hinge, the decision, what the bus shows, and the virtual switch.
extension Daemon {
    // MARK: - Hardware switches

    /// At start: every tablet-mode switch udev knows.
    func findTabletModeSwitches() {
        do {
            for candidate in try TabletModeSwitch.candidates() {
                takeSwitch(syspath: candidate.syspath, property: candidate.property)
            }
        } catch {
            Log.error("cannot look for tablet-mode switches: \(error)")
        }
    }

    /// A udev event for an input event device that is no accelerometer: a switch that came or
    /// went.
    func switchDeviceChanged(action: String, syspath: String, property: (String) -> String?) {
        if action == "remove" {
            guard let gone = tabletSwitches.removeValue(forKey: syspath) else { return }
            gone.stop()
            Log.info("tablet-mode switch \(syspath) removed")
            updateTabletMode()
            return
        }
        // An open switch's events say what changed; a change event adds nothing.
        guard tabletSwitches[syspath] == nil else { return }
        if takeSwitch(syspath: syspath, property: property) { updateTabletMode() }
    }

    /// Opens the input device at `syspath` if it is a tablet-mode switch to read; true when
    /// it was.
    @discardableResult
    private func takeSwitch(syspath: String, property: (String) -> String?) -> Bool {
        switch TabletModeSwitch.suitability(syspath: syspath, property: property) {
        case .other:
            return false
        case .skipped(let why):
            if skippedSwitches.insert(syspath).inserted { Log.notice(why) }
            return false
        case .tabletModeSwitch(let devnode):
            do {
                let reader = try TabletModeSwitch(
                    syspath: syspath, devnode: devnode, event: event!,
                    onChange: { [unowned self] reader in
                        Log.info(
                            "tablet-mode switch \(reader.syspath): \(reader.tabletMode ? "tablet" : "laptop")"
                                + (reader.lidClosed.map { $0 ? ", lid closed" : ", lid open" } ?? ""))
                        self.switchesChanged()
                    },
                    onGone: { [unowned self] reader, error in
                        Log.warning("tablet-mode switch \(reader.syspath) is gone: \(error)")
                        self.tabletSwitches[reader.syspath] = nil
                        self.switchesChanged()
                    })
                tabletSwitches[syspath] = reader
                switchProblems.resolve(syspath)
                Log.info(
                    "tablet-mode switch \(syspath) (\(reader.name.isEmpty ? devnode : reader.name)): \(reader.tabletMode ? "tablet" : "laptop")"
                )
                return true
            } catch {
                switchProblems.report(syspath, "cannot read the tablet-mode switch \(syspath): \(error)")
                return false
            }
        }
    }

    /// The switch that decides when the source is `switch`: the first by sysfs path, so the
    /// choice is stable.
    var hardwareSwitch: TabletModeSwitch? {
        tabletSwitches.keys.min().flatMap { tabletSwitches[$0] }
    }

    /// The lid as the switches say it: closed when any switch with `SW_LID` says so; nil
    /// when none has a lid switch.
    var switchLidClosed: Bool? {
        let lids = tabletSwitches.values.compactMap(\.lidClosed)
        return lids.isEmpty ? nil : lids.contains(true)
    }

    private func switchesChanged() {
        let lid = switchLidClosed
        if lid != lastSwitchLid {
            lastSwitchLid = lid
            if let lid { Log.info(lid ? "lid closed (switch)" : "lid open (switch)") }
            updateSampling()
        }
        updateTabletMode()
    }

    // MARK: - What the bus shows

    /// Recomputes tablet mode from its source, announces what changed and keeps the virtual
    /// switch in step.
    func updateTabletMode() {
        var next = TabletModeShown()
        next.source = resolvedTabletModeSource
        switch next.source {
        case "switch": next.mode = hardwareSwitch?.tabletMode ?? false
        default: next.mode = false
        }
        show(next)
        updateVirtualSwitch()
    }

    /// `[TabletMode] Source=auto`: a hardware switch when one exists, else the hinge when a
    /// display and a base accelerometer exist, else none.
    var resolvedTabletModeSource: String {
        if hardwareSwitch != nil { return "switch" }
        if acquisition != nil && baseAcquisition != nil { return "hinge" }
        return "none"
    }

    /// Takes what the bus shows and emits `PropertiesChanged` (and `TabletModeChanged`) for
    /// what changed.
    func show(_ next: TabletModeShown) {
        let previous = tablet
        guard next != previous else { return }
        tablet = next
        var changed: [OrientationProperty] = []
        if next.mode != previous.mode { changed.append(.tabletMode) }
        if next.source != previous.source {
            changed.append(.tabletModeSource)
            Log.info("tablet mode from: \(next.source)")
        }
        if next.angle != previous.angle { changed.append(.hingeAngle) }
        if next.hingeState != previous.hingeState { changed.append(.hingeState) }
        emitPropertiesChanged(changed)
        if next.mode != previous.mode {
            Log.info(next.mode ? "tablet mode on" : "tablet mode off")
            emitTabletModeSignal(next.mode)
        }
    }

    // MARK: - The virtual switch

    /// Creates, updates or destroys the virtual switch as the source and the setting want.
    func updateVirtualSwitch() {
        let wanted = tablet.source == "hinge"
        if !wanted {
            if virtualSwitch != nil { Log.info("removing the virtual tablet-mode switch") }
            virtualSwitch = nil
            virtualSwitchProblems.resolve(VirtualTabletSwitch.devnode)
            return
        }
        if let virtualSwitch {
            do {
                try virtualSwitch.send(tablet.mode)
            } catch {
                virtualSwitchProblems.report(
                    VirtualTabletSwitch.devnode, "cannot update the virtual tablet-mode switch: \(error)")
            }
            return
        }
        // One attempt per source change: a missing or forbidden /dev/uinput stays so.
        guard !virtualSwitchFailed else { return }
        do {
            virtualSwitch = try VirtualTabletSwitch(tabletMode: tablet.mode)
            Log.info("created the virtual tablet-mode switch \"\(VirtualTabletSwitch.name)\"")
        } catch {
            virtualSwitchFailed = true
            virtualSwitchProblems.report(
                VirtualTabletSwitch.devnode,
                "cannot create the virtual tablet-mode switch: \(error); going on without it")
        }
    }
}
