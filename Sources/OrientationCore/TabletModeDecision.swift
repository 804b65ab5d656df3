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
///   `exitAngle` as long; between the two angles the mode stays. A reading that is not
///   trustworthy keeps the mode and restarts the evidence (so tablet mode is harder to leave
///   than to stay in: the EC's rule). Before the first decision the mode is laptop.
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
            evidenceSince = nil
            evidenceCount = 0
        }
        switch source {
        case .none:
            tabletMode = false
        case .switch:
            tabletMode = lid == .closed ? false : (switchState ?? false)
        case .hinge:
            if lid == .closed && !hinge.lidContradicted {
                tabletMode = false
                evidenceSince = nil
                evidenceCount = 0
                break
            }
            guard hinge.trustworthy, let angle = hinge.angle else {
                evidenceSince = nil
                evidenceCount = 0
                break
            }
            let against = tabletMode ? angle <= settings.exitAngle : angle >= settings.enterAngle
            guard against else {
                evidenceSince = nil
                evidenceCount = 0
                break
            }
            let since = evidenceSince ?? time
            if time < since {
                evidenceSince = time
                evidenceCount = 1
                break
            }
            evidenceSince = since
            evidenceCount += 1
            if evidenceCount >= 2 && time - since >= settings.evidenceTime - Self.timingSlack {
                tabletMode.toggle()
                evidenceSince = nil
                evidenceCount = 0
            }
        }
        return tabletMode
    }
}
