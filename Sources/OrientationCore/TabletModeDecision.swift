/// What the tablet-mode decision follows (the bus property `TabletModeSource`).
public enum TabletModeSource: String, Sendable, CaseIterable {
    /// Nothing: `TabletMode` stays false.
    case none
    /// A hardware `SW_TABLET_MODE` switch.
    case `switch`
    /// The hinge angle from a display and a base accelerometer.
    case hinge

    /// The bus name: `none`, `switch`, `hinge`.
    public var name: String { rawValue }

    /// The source for a configured setting and what the machine has: `auto` takes a hardware
    /// switch when one exists, else the hinge when both accelerometers exist, else none;
    /// `switch` and `hinge` take only that source (none when it is missing); `off` is none.
    public static func resolve(_ setting: TabletModeSetting, hasSwitch: Bool, hasHinge: Bool) -> TabletModeSource {
        switch setting {
        case .auto: return hasSwitch ? .switch : (hasHinge ? .hinge : .none)
        case .switch: return hasSwitch ? .switch : .none
        case .hinge: return hasHinge ? .hinge : .none
        case .off: return .none
        }
    }
}

/// The one tablet-mode decision (the bus property `TabletMode`), from the resolved source, the
/// hardware switch, the hinge estimate and the lid switch.
///
/// Rules, by the first that applies:
/// - source `none`: laptop (false);
/// - the lid switch closed: laptop, at once (unless the hinge estimate says the switch trips on a
///   fold, `HingeEstimate.lidContradicted`, with the hinge as source);
/// - source `switch`: the switch's state (false while unknown);
/// - source `hinge`: tablet once a trustworthy angle has stayed at or above `enterAngle` for
///   `evidenceTime` (over two readings at least), laptop once one has stayed at or below
///   `exitAngle` as long; between the two angles the mode stays. Two trustworthy readings in a
///   row `decisiveMargin` past the angle (at or above 230, at or below 130) change the mode at
///   once, without waiting the evidence time: a fold, not a wobble about the angle. So does one
///   such reading right after a trustworthy reading at least `decisiveMargin` on the mode's own
///   side of the angle (170 or less before 230 or more, 190 or more before 130 or less): a fold
///   seen in one step, 60 degrees or more between two readings, which neither noise (under 20
///   degrees even near vertical) nor a wobble about the angle makes; at the slow hinge interval
///   the mode then changes with the first reading after the fold, not one fast interval later.
///   A reading that is not trustworthy keeps the mode and restarts the evidence (so tablet mode is harder
///   to leave than to stay in: the EC's rule). Before the first decision the mode is laptop.
///
/// A pure value fed with monotonic seconds; changing the source starts the evidence over.
public struct TabletModeDecision: Sendable {
    /// The settings in use (clamped).
    public let settings: TabletModeSettings
    /// Whether the device is in tablet mode now.
    public private(set) var tabletMode = false
    /// The source of the last update.
    public private(set) var source = TabletModeSource.none

    /// Start of the current run of trustworthy readings past the other mode's angle, and the
    /// readings in it.
    var evidenceSince: Double?
    var evidenceCount = 0
    /// Trustworthy readings in a row `decisiveMargin` past the other mode's angle.
    var decisiveCount = 0
    /// The angle and time of the last update's trustworthy reading; nil when the last update had
    /// none (a fold seen in one step is judged from it).
    var lastReading: (angle: Double, time: Double)?

    /// Tolerance when comparing the evidence span with `evidenceTime`. Seconds: timestamps
    /// jitter, and 0.3 s measured as 0.2999999 must count (as `EstimatorSettings.timingSlack`).
    static let timingSlack = 0.001

    /// Creates a decision in laptop mode; the settings are clamped.
    public init(settings: TabletModeSettings = TabletModeSettings()) {
        self.settings = settings.clamped()
    }

    /// Updates the decision; returns `tabletMode`. `switchState` is the hardware switch (nil
    /// when unknown or absent), `hinge` the hinge estimator's last estimate (pass a default
    /// `HingeEstimate()` without one), `lid` the lid switch.
    @discardableResult
    public mutating func update(
        source newSource: TabletModeSource, switchState: Bool?, hinge: HingeEstimate, lid: LidState,
        at time: Double
    ) -> Bool {
        if newSource != source {
            source = newSource
            restartEvidence()
            lastReading = nil
        }
        let before = lastReading
        lastReading = nil
        switch source {
        case .none:
            tabletMode = false
        case .switch:
            tabletMode = lid == .closed ? false : (switchState ?? false)
        case .hinge:
            if lid == .closed && !hinge.lidContradicted {
                tabletMode = false
                restartEvidence()
                break
            }
            guard hinge.trustworthy, let angle = hinge.angle else {
                restartEvidence()
                break
            }
            lastReading = (angle, time)
            // How far past the other mode's angle, in the direction that changes the mode.
            let past = tabletMode ? settings.exitAngle - angle : angle - settings.enterAngle
            guard past >= 0 else {
                restartEvidence()
                break
            }
            // A fold seen in one step: the reading before was as far on this mode's side.
            if past >= settings.decisiveMargin, let before, time > before.time,
                (tabletMode ? before.angle - settings.exitAngle : settings.enterAngle - before.angle)
                    >= settings.decisiveMargin
            {
                tabletMode.toggle()
                restartEvidence()
                break
            }
            decisiveCount = past >= settings.decisiveMargin ? decisiveCount + 1 : 0
            let since = evidenceSince ?? time
            if time < since {
                evidenceSince = time
                evidenceCount = 1
                decisiveCount = min(decisiveCount, 1)
                break
            }
            evidenceSince = since
            evidenceCount += 1
            if decisiveCount >= 2
                || (evidenceCount >= 2 && time - since >= settings.evidenceTime - Self.timingSlack)
            {
                tabletMode.toggle()
                restartEvidence()
            }
        }
        return tabletMode
    }

    /// Whether readings past the other mode's angle are gathering: the mode changes at a later
    /// reading if they go on (a daemon reading a change-only device repeats its last report
    /// meanwhile, as for a pending orientation).
    public var isGatheringEvidence: Bool { evidenceSince != nil }

    private mutating func restartEvidence() {
        evidenceSince = nil
        evidenceCount = 0
        decisiveCount = 0
    }
}
