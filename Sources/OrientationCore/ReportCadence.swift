/// How a buffered source reports, learned from what it does, and what its silence means.
///
/// A source reports either at its interval whatever the device does (streaming), or only
/// when its value changes (change-only: a still device sends nothing). The attribute that
/// claims it, a change sensitivity above 0, is only the first guess: a hub whose sensitivity
/// reads 0 may report only on change (a still sensor whose noise stays under one count), and
/// one with a sensitivity may report its noise all the time. So the guess follows behaviour:
///
/// - a source believed to stream that stays silent for `silentStillIntervals` still intervals
///   (or plan intervals, if longer) while the decisions are settled is change-only: no
///   streaming source is that late, even one that keeps an old, slower schedule for a while
///   after its interval was shortened (the still interval is the slowest the daemon asks);
/// - a source believed change-only that goes on sending reports that find the decisions
///   settled and leave them so (they said nothing new), `settledReportsForStreaming` of them
///   at least, each within that silence of the one before and for that silence in all,
///   streams (or reports its noise, which costs the same). A report of a change, which the
///   decisions then settle on, is what a change-only source sends, and so are the first small
///   changes of a slow turn, over before the silence is.
///
/// Silence is no change, whatever the belief: while the daemon still needs readings to
/// decide (a pending orientation or tablet mode, a waiting call), the last report stands for
/// the device as it is now and is repeated with the time passing, from `repeatAfterIntervals`
/// plan intervals of silence on and then every interval, so a decision from a single report
/// comes as soon as it would from a stream of the same pose. Once nothing is pending, a
/// change-only source costs no wakeups; a streaming one is watched only for the silence that
/// would tell otherwise, by a timer its own reports keep pushing back.
///
/// Times are monotonic seconds; a report's time is made non-decreasing here (`deliveryTime`),
/// since a repeat may precede a late scan stamped earlier, and a duplicated or out-of-order
/// timestamp must not read as time going backwards (which restarts the estimate).
public struct ReportCadence: Equatable, Sendable {
    /// Silence, in the longer of the still and plan intervals, that makes a streaming source
    /// change-only: three, so a streaming hub that loses a report, or reports 40 percent late,
    /// is not taken for one that went quiet.
    public static let silentStillIntervals = 3.0
    /// Reports in a row that find and leave everything settled, spanning the silence, that
    /// make a change-only source streaming.
    public static let settledReportsForStreaming = 3
    /// The first repeat of the last report comes this many plan intervals after it: a report
    /// jittered by up to half an interval is not doubled.
    public static let repeatAfterIntervals = 1.5

    /// What the silence timer does when it fires.
    public enum Wake: Equatable, Sendable {
        /// Hand the last report on again, at the time then (the daemon still needs readings).
        case repeatLastReport
        /// The silence has lasted long enough to tell a change-only source (`silent(at:)`).
        case judgeSilence
    }

    /// The present belief: the source reports only changes.
    public private(set) var changeOnly: Bool
    /// When the last report (not a repeat) came; nil before the first.
    public private(set) var lastReport: Double?
    /// The latest time handed on (report or repeat), which later ones may not precede.
    private var lastDelivered: Double?
    /// Reports in a row that came while settled, each within the silence of the one before,
    /// and when the first of them came.
    private var settledReports = 0
    private var settledSince = 0.0

    /// A source whose attributes claim `changeOnly`, before it has said anything.
    public init(claimedChangeOnly: Bool) {
        changeOnly = claimedChangeOnly
    }

    /// Forgets the reports (sampling stopped or restarted), keeping the belief.
    public mutating func restart() {
        lastReport = nil
        lastDelivered = nil
        settledReports = 0
    }

    /// The time to hand a reading on at: `time`, or the latest time handed on if that is later.
    public mutating func deliveryTime(_ time: Double) -> Double {
        let delivered = max(time, lastDelivered ?? time)
        lastDelivered = delivered
        return delivered
    }

    /// A report arrived at `time` (its delivery time); `settled`: nothing was pending when it
    /// came, nor once it was taken. Returns true when the belief changed.
    public mutating func report(at time: Double, settled: Bool, silence: Double) -> Bool {
        defer { lastReport = time }
        guard settled, let last = lastReport, time - last <= silence, settledReports > 0 else {
            settledReports = settled ? 1 : 0
            settledSince = time
            return false
        }
        settledReports += 1
        guard changeOnly, settledReports >= ReportCadence.settledReportsForStreaming, time - settledSince >= silence
        else { return false }
        changeOnly = false
        return true
    }

    /// The silence lasted until `time` with nothing pending. Returns true when the belief
    /// changed (to change-only).
    public mutating func silent(at time: Double, silence: Double) -> Bool {
        guard !changeOnly, let last = lastReport, time - last >= silence else { return false }
        changeOnly = true
        settledReports = 0
        return true
    }

    /// The source was silent for longer than the interval asked of it, where nothing else
    /// could explain it (a buffer silent from its start whose hub answers a read through it):
    /// it reports only changes.
    public mutating func learnChangeOnly() {
        changeOnly = true
        settledReports = 0
    }

    /// The silence that tells a change-only source, seconds, at these intervals.
    public static func silence(planIntervalMsec: UInt32, stillIntervalMsec: UInt32) -> Double {
        silentStillIntervals * Double(max(planIntervalMsec, stillIntervalMsec)) / 1000
    }

    /// When the silence timer should fire after the latest reading handed on, and what it does
    /// then; nil: no timer (no report yet, or a change-only source with nothing pending).
    /// `needed`: the daemon still needs readings to decide.
    public func nextWake(needed: Bool, planIntervalMsec: UInt32, silence: Double) -> (time: Double, wake: Wake)? {
        guard let lastReport, let lastDelivered else { return nil }
        let interval = Double(planIntervalMsec) / 1000
        if needed {
            // The first repeat waits for a late report; later ones follow at the interval.
            let first = lastReport + ReportCadence.repeatAfterIntervals * interval
            return (max(first, lastDelivered + interval), .repeatLastReport)
        }
        return changeOnly ? nil : (lastReport + silence, .judgeSilence)
    }
}
