import ErrorsAndLog
import Glibc
import OrientationClient
import OrientationCore
import SensorIO
import SystemdBus

/// Exit status of `wait` when the timeout passes first.
let waitTimeoutStatus: Int32 = 3

/// `motion-orientation wait [--device|--interface] ORIENTATION [--timeout SECONDS]` and
/// `wait tablet|laptop [--timeout SECONDS]`: returns 0 once the device orientation (or with
/// `--interface` the interface orientation, or tablet mode) is the one named, at once if it
/// already is; 3 when the timeout passes first.
func waitCommand(_ arguments: [String]) throws(ClientError) -> Int32 {
    var stream: OrientationStream? = nil
    var target: String? = nil
    var timeout: Double? = nil
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--timeout":
            guard let text = rest.popFirst(), let value = Double(text), value >= 0, value < 1e9 else {
                usageFailure("--timeout needs a number of seconds")
            }
            timeout = value
        case "--device", "--interface", "--tablet-mode":
            do throws(UsageError) {
                try chooseStream(&stream, argument, command: "wait")
            } catch {
                usageFailure(error.description)
            }
        default:
            guard target == nil, !argument.hasPrefix("-") else {
                usageFailure("unexpected argument '\(argument)' for wait")
            }
            target = argument
        }
    }
    guard let target else { usageFailure("wait needs an orientation, e.g. wait landscape-left, or tablet or laptop") }
    let tabletModes = ["tablet", "laptop"]
    // `tablet` and `laptop` name tablet mode's states: no orientation is called so.
    let chosen = stream ?? (tabletModes.contains(target) ? .tabletMode : .device)
    let names: [String]
    switch chosen {
    case .device: names = DeviceOrientation.allCases.filter { $0 != .unknown }.map(\.name)
    case .interface: names = InterfaceOrientation.allCases.filter { $0 != .unknown }.map(\.name)
    case .tabletMode, .hingeState: names = tabletModes
    }
    guard names.contains(target) else {
        let what =
            chosen == .tabletMode
            ? "a tablet mode" : chosen == .device ? "a device orientation" : "an interface orientation"
        usageFailure("'\(target)' is not \(what); one of: \(names.joined(separator: ", "))")
    }

    // The timeout counts from here and covers the daemon's first answers too: a daemon that
    // never answers is a timeout, not a failure.
    let deadline = timeout.map { monotonicSeconds() + $0 }
    func timedOut() -> Int32 {
        writeAll(
            STDERR_FILENO,
            "motion-orientation: timed out after \(formatSeconds(timeout ?? 0)) s waiting for \(chosen.rawValue) \(target)\n"
        )
        return waitTimeoutStatus
    }
    let follower = try FollowingCommand()
    follower.onChange = { changed, state in
        if changed == chosen && state.name(chosen) == target { follower.exit(0) }
    }
    let timer = EventTimer(event: follower.event) { [unowned follower] in follower.exit(waitTimeoutStatus) }
    if let deadline {
        do {
            try timer.arm(afterUsec: UInt64(max(0, deadline - monotonicSeconds()) * 1e6))
        } catch {
            throw ClientError("cannot arm the timeout: \(String(cString: strerror(error.errno)))")
        }
    }
    // The timer lives for the loop's runs.
    return try withExtendedLifetime(timer) { () throws(ClientError) -> Int32 in
        let initial: OrientationState?
        do throws(ClientError) {
            initial = try follower.begin(deadline: deadline)
        } catch {
            if error.timedOut && deadline != nil { return timedOut() }
            throw error
        }
        guard let initial else { return follower.status == waitTimeoutStatus ? timedOut() : follower.status }
        if initial.name(chosen) == target { return 0 }
        let status = follower.run()
        return status == waitTimeoutStatus ? timedOut() : status
    }
}

/// Seconds as a person writes them: "5", "0.5".
func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
}
