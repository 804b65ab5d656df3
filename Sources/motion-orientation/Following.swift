import CSystemd
import ErrorsAndLog
import Glibc
import OrientationClient
import OrientationCore
import SensorIO
import SystemdBus

extension OrientationStream {
    /// The stream an option names (`--device`, `--interface`, `--tablet-mode`), or nil for
    /// another word.
    init?(option: String) {
        switch option {
        case "--device": self = .device
        case "--interface": self = .interface
        case "--tablet-mode": self = .tabletMode
        default: return nil
        }
    }
}

/// A command that follows the daemon (`monitor`, `exec`, `wait`): the client's loop and its
/// `OrientationFollower`, which holds a claim and claims again after a restart. Each change
/// goes to `onChange` once `begin()` has returned; what the client has to say about the
/// daemon leaving, a failed claim after a restart and the bus going away goes to stderr, the
/// last ending the loop with status 1. Commands add their own sources (timers, children,
/// signals) to `event`.
final class FollowingCommand {
    let loop: EventLoop
    let follower: OrientationFollower
    /// The loop everything runs on; the bus is attached to it.
    var event: OpaquePointer { loop.event }
    /// Called on the loop with each stream whose name changed and the new state.
    var onChange: (OrientationStream, OrientationState) -> Void = { _, _ in }
    /// The first claim's outcome, once it has come: nil for made.
    private var opening: DaemonCallFailure?? = nil

    init() throws(ClientError) {
        do throws(SystemError) {
            loop = try EventLoop()
            follower = try OrientationFollower(connection: DaemonConnection(), event: loop.event)
        } catch {
            throw ClientError("\(error)")
        }
        follower.onNews = { [unowned self] news in
            guard opening != nil else { return }
            for stream in news.changed { onChange(stream, news.state) }
        }
        follower.onClaim = { [unowned self] failure in
            guard opening != nil else { return opening = .some(failure) }
            if let failure { complain("claiming again after a restart: \(failure)") }
        }
        follower.onDaemonLeft = { complain("motion-orientationd left the bus; waiting for it to come back") }
        follower.onDisconnected = { [unowned self] in
            complain("lost the connection to the system bus")
            exit(1)
        }
    }

    /// Claims the sensor, reading the state first, and runs the loop until the claim is made.
    /// Returns the state then, or nil when something ended the loop first (`status` has its
    /// status). With a `deadline` (seconds on the monotonic clock) the calls may take until
    /// then: a daemon that does not answer gives an error with `timedOut`.
    func begin(deadline: Double? = nil) throws(ClientError) -> OrientationState? {
        if let deadline { follower.callTimeoutUsec = UInt64(max(1, (deadline - monotonicSeconds()) * 1e6)) }
        follower.want(claim: true)
        let ended: Int32?
        do throws(SystemError) {
            ended = try loop.run { opening != nil }
        } catch {
            throw ClientError("\(error)")
        }
        if let ended {
            status = ended
            return nil
        }
        if case .some(.some(let failure)) = opening {
            throw ClientError(failure.description, timedOut: failure.timedOut)
        }
        return follower.state
    }

    /// The status the loop ended with before `begin()` could return a state.
    private(set) var status: Int32 = 0

    /// Runs the loop until something ends it; returns the exit status it was ended with.
    func run() -> Int32 {
        do {
            return try loop.run()
        } catch {
            complain("\(error)")
            return 1
        }
    }

    /// Ends the loop with an exit status.
    func exit(_ status: Int32) { loop.exit(status) }
}

/// One line on stderr.
func complain(_ message: String) {
    writeAll(STDERR_FILENO, "motion-orientation: \(message)\n")
}

/// Parses the stream options shared by `monitor`, `exec` and `wait`: at most one of
/// `--device`, `--interface` and `--tablet-mode`.
func chooseStream(_ current: inout OrientationStream?, _ option: String, command: String) throws(UsageError) {
    guard let stream = OrientationStream(option: option) else { throw UsageError("unknown option '\(option)'") }
    if let current, current != stream {
        throw UsageError("\(command) takes only one of --device, --interface and --tablet-mode")
    }
    current = stream
}
