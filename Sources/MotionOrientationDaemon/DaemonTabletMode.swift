import ErrorsAndLog
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
            hingeLidOrSleepChanged(resumed: false)
            updateSampling()
            return
        }
        updateTabletMode()
    }

    // MARK: - The hinge and the decision

    /// The lid as the hinge and the decision see it: a tablet-mode switch's `SW_LID`, logind's
    /// `LidClosed` or UPower's `LidIsClosed`; unknown when nobody says.
    var lidState: LidState {
        if lidClosed { return .closed }
        return switchLidClosed != nil || energy?.reportsLid == true ? .open : .unknown
    }

    /// One display reading (with the base read in the same wakeup): the hinge estimate from
    /// the pair, when the base reading is fresh, then the decision.
    func takeHingeReading(display: Vector3, at time: Double) {
        guard let base = baseAcquisition else { return }
        // Read the base at most once per sampling interval (a buffered display may deliver
        // several readings in one wakeup); pair only readings at most one interval apart.
        let interval = Double(max(plan.intervalMsec, 1)) / 1000
        if baseReading.map({ time - $0.time >= interval / 2 || time < $0.time }) ?? true { base.readOnce() }
        guard let pair = baseReading, abs(time - pair.time) <= interval else { return }
        let before = hinge.estimate
        let estimate = hinge.update(display: display, base: pair.reading, lid: lidState, at: time)
        lastHingeUpdate = time
        note(estimate, after: before)
        if hinge.suspectMountMatrix && !hingeMountMatrixReported {
            hingeMountMatrixReported = true
            Log.warning(
                "the display and base accelerometers disagree on the hinge axis: the base mount matrix (\(base.info.mountMatrixSource)) is probably wrong"
            )
        }
        updateTabletMode(at: time, fresh: true)
    }

    /// The lid or suspend changed: the hinge and the decision learn it.
    func hingeLidOrSleepChanged(resumed: Bool) {
        let now = monotonicSeconds()
        if resumed { hinge.forgetContinuity() }
        let before = hinge.estimate
        note(hinge.lidChanged(lidState, at: now), after: before)
        updateTabletMode(at: now)
    }

    /// Logs why the hinge estimate holds when that changes, and a lid switch not believed.
    private func note(_ estimate: HingeEstimate, after before: HingeEstimate) {
        if estimate.hold != before.hold {
            Log.debug("hinge: \(estimate.hold.map { "holding (\($0))" } ?? "following the readings")")
        }
        if estimate.lidContradicted && !before.lidContradicted {
            Log.notice(
                "the lid switch says closed while the hinge was just seen folded back: the switch is taken to trip on a fold, the hinge decides"
            )
        }
    }

    // MARK: - What the bus shows

    /// Recomputes tablet mode from its source, announces what changed and keeps the virtual
    /// switch in step. `fresh`: the hinge estimate comes from a reading just taken (only such
    /// an estimate counts as evidence for the decision).
    func updateTabletMode(at time: Double = monotonicSeconds(), fresh: Bool = false) {
        let source = TabletModeSource.resolve(
            settings.tabletMode.source, hasSwitch: hardwareSwitch != nil,
            hasHinge: acquisition != nil && baseAcquisition != nil)
        var estimate = hinge.estimate
        if !fresh { estimate.trustworthy = false }
        var next = TabletModeShown()
        next.source = source
        next.mode = tabletDecision.update(
            source: source, switchState: hardwareSwitch?.tabletMode, hinge: estimate, lid: lidState, at: time)
        if baseAcquisition != nil {
            next.hingeState = hinge.estimate.state
            // HingeAngle moves by at least the deadband, so a still device sends no noise.
            next.angle =
                hinge.estimate.shouldPublish(after: tablet.angle ?? -1, deadband: settings.tabletMode.publishDeadband)
                ? hinge.estimate.angle : tablet.angle
        }
        let lockChanged = next.mode != tablet.mode || next.source != tablet.source
        show(next)
        if lockChanged { applyLaptopLock() }
        updateVirtualSwitch()
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
            Log.info("tablet mode from: \(next.source.name)")
        }
        if next.angle != previous.angle { changed.append(.hingeAngle) }
        if next.hingeState != previous.hingeState {
            changed.append(.hingeState)
            Log.info("hinge \(next.hingeState.name)\(next.angle.map { " at \(Int($0.rounded())) degrees" } ?? "")")
        }
        emitPropertiesChanged(changed)
        if next.mode != previous.mode {
            Log.info(next.mode ? "tablet mode on" : "tablet mode off")
            emitTabletModeSignal(next.mode)
        }
    }

    // MARK: - The virtual switch

    /// Creates, updates or destroys the virtual switch as the source and
    /// `[TabletMode] VirtualSwitch=` want; its coming and going changes the sampling plan.
    func updateVirtualSwitch() {
        if tablet.source != virtualSwitchSource {
            // A new source: a failed creation may be tried again.
            virtualSwitchSource = tablet.source
            virtualSwitchFailed = false
        }
        let existed = virtualSwitch != nil
        defer { if existed != (virtualSwitch != nil) { updateSampling() } }
        guard settings.tabletMode.virtualSwitch.wantsVirtualSwitch(source: tablet.source) else {
            if virtualSwitch != nil { Log.info("removing the virtual tablet-mode switch") }
            virtualSwitch = nil
            return
        }
        if let virtualSwitch {
            do {
                try virtualSwitch.send(tablet.mode)
                virtualSwitchProblems.resolve(VirtualTabletSwitch.devnode)
            } catch {
                virtualSwitchProblems.report(
                    VirtualTabletSwitch.devnode, "cannot update the virtual tablet-mode switch: \(error)")
            }
            return
        }
        // One attempt per source: a missing or forbidden /dev/uinput stays so.
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
