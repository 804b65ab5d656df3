import CSystemd
import ErrorsAndLog
import Glibc
import OrientationClient
import OrientationCore
import SystemdBus

/// `motion-orientation exec [--interface|--device|--tablet-mode] [--] COMMAND [ARGS...]`:
/// runs COMMAND once for the state at start and again on every change of the chosen stream
/// (the interface orientation by default; `--tablet-mode`: `tablet` or `laptop`), with the
/// state in its environment.
///
/// Runs never overlap: a change that arrives while the command runs is remembered, the
/// latest one only, and the command runs for it once the previous run has ended, unless
/// it is the state the previous run already had. `unknown` (for tablet mode: no
/// tablet-mode source) never runs the command.
/// Children are started with `posix_spawnp` and watched through an sd-event child
/// source, on the same loop as the bus, so the bus is served while a command runs.
final class CommandRunner {
    let follower: FollowingCommand
    let stream: OrientationStream
    let command: [String]
    /// The running child and its event source, if any.
    private var child: (pid: pid_t, source: OpaquePointer)? = nil
    /// The orientation the last run was for, to skip a run that would change nothing.
    private var lastRun: String? = nil
    /// The latest state that arrived while a command was running.
    private var pending: OrientationState? = nil
    /// A signal that asked the client to end; it ends once the running command has.
    private var endingSignal: Int32? = nil

    /// The signals the client takes over: SIGCHLD for sd-event's child sources (it must
    /// be blocked before the first one is made), SIGTERM and SIGINT to pass them on to a
    /// running command before ending.
    static let handledSignals = [SIGCHLD, SIGTERM, SIGINT]

    /// The tablet-mode variables of a run, set only on a machine with a tablet-mode source:
    /// `tablet`/`laptop`, `TabletModeSource`, `HingeState`, `HingeAngle` (degrees, -1 unknown).
    static let tabletVariables = [
        "MOTION_ORIENTATION_TABLET_MODE", "MOTION_ORIENTATION_TABLET_MODE_SOURCE", "MOTION_ORIENTATION_HINGE_STATE",
        "MOTION_ORIENTATION_HINGE_ANGLE",
    ]

    init(follower: FollowingCommand, stream: OrientationStream, command: [String]) {
        self.follower = follower
        self.stream = stream
        self.command = command
    }

    /// Blocks the handled signals (so they queue for the loop) and adds signal sources
    /// for SIGTERM and SIGINT.
    func takeSignals() throws(ClientError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in CommandRunner.handledSignals { sigaddset(&mask, signal) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        let context = Unmanaged.passUnretained(self).toOpaque()
        for signal in [SIGTERM, SIGINT] {
            let r = sd_event_add_signal(
                follower.event, nil, signal,
                { _, info, context in
                    Unmanaged<CommandRunner>.fromOpaque(context!).takeUnretainedValue().asked(
                        toEnd: Int32(info!.pointee.ssi_signo))
                    return 0
                }, context)
            guard r >= 0 else { throw ClientError("cannot watch signal \(signal): \(String(cString: strerror(-r)))") }
        }
    }

    /// A new state: run the command for it now, or after the running one.
    func consider(_ state: OrientationState) {
        guard endingSignal == nil, state.isKnown(stream) else { return }
        if child != nil {
            pending = state
            return
        }
        guard state.name(stream) != lastRun else { return }
        spawn(for: state)
    }

    /// The environment of a run: the client's own, without any variable it sets itself,
    /// plus the chosen stream's state, both orientations and, on a machine with a tablet-mode
    /// source, tablet mode and the hinge.
    func environment(for state: OrientationState) -> [String] {
        var ours: [(String, String)] = [
            ("MOTION_ORIENTATION", state.name(stream)),
            ("MOTION_ORIENTATION_VALUE", String(state.value(stream))),
            ("MOTION_ORIENTATION_STREAM", stream.rawValue),
            ("MOTION_ORIENTATION_DEVICE", state.device.name),
            ("MOTION_ORIENTATION_DEVICE_VALUE", String(state.device.rawValue)),
            ("MOTION_ORIENTATION_INTERFACE", state.interface.name),
            ("MOTION_ORIENTATION_INTERFACE_VALUE", String(state.interface.rawValue)),
        ]
        if state.isKnown(.tabletMode) {
            let values = [
                state.name(.tabletMode), state.tabletModeSource, state.hingeState, degreesText(state.hingeAngle),
            ]
            ours += Array(zip(CommandRunner.tabletVariables, values))
        }
        // Every variable the client may set, so none is left over from its own environment.
        let names = Set(ours.map { $0.0 } + CommandRunner.tabletVariables)
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if !names.contains(name) { result.append(text) }
            entry += 1
        }
        return result + ours.map { "\($0.0)=\($0.1)" }
    }

    private func spawn(for state: OrientationState) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no blocked signals and default dispositions.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in CommandRunner.handledSignals + [SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) }
        argv.append(nil)
        var envp: [UnsafeMutablePointer<CChar>?] = environment(for: state).map { strdup($0) }
        envp.append(nil)
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let r = posix_spawnp(&pid, command[0], nil, &attributes, argv, envp)
        guard r == 0 else {
            writeAll(STDERR_FILENO, "motion-orientation: cannot run \(command[0]): \(String(cString: strerror(r)))\n")
            follower.exit(1)
            return
        }
        lastRun = state.name(stream)
        var source: OpaquePointer? = nil
        let s = sd_event_add_child(
            follower.event, &source, pid, WEXITED,
            { _, info, context in
                Unmanaged<CommandRunner>.fromOpaque(context!).takeUnretainedValue().exited(info!.pointee)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        guard s >= 0, let source else {
            // Without a child source the runs could overlap: wait for this one and stop.
            writeAll(
                STDERR_FILENO, "motion-orientation: cannot watch \(command[0]): \(String(cString: strerror(-s)))\n")
            var status: Int32 = 0
            do {
                _ = try retryingInterrupted("waitpid") { waitpid(pid, &status, 0) }
            } catch {
                writeAll(STDERR_FILENO, "motion-orientation: \(command[0]): \(error)\n")
            }
            follower.exit(1)
            return
        }
        child = (pid, source)
    }

    /// The running command ended (sd-event reaps it after this returns).
    private func exited(_ info: siginfo_t) {
        guard let running = child else { return }
        child = nil
        sd_event_source_unref(running.source)
        let status = info._sifields._sigchld.si_status
        if info.si_code == CLD_EXITED {
            if status != 0 {
                writeAll(STDERR_FILENO, "motion-orientation: \(command[0]) exited with status \(status)\n")
            }
        } else if endingSignal == nil {
            writeAll(STDERR_FILENO, "motion-orientation: \(command[0]) was killed by signal \(status)\n")
        }
        if let signal = endingSignal { end(by: signal) }
        if let next = pending {
            pending = nil
            consider(next)
        }
    }

    /// SIGTERM or SIGINT: pass it on to the running command, then end the same way once it
    /// has ended, so whoever started the client sees the signal in its status.
    private func asked(toEnd signal: Int32) {
        endingSignal = signal
        if let running = child {
            kill(running.pid, signal)
        } else {
            end(by: signal)
        }
    }

    private func end(by signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, signal)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        raise(signal)
        exit(1)
    }
}

/// `motion-orientation exec [--interface|--device|--tablet-mode] [--] COMMAND [ARGS...]`.
func execCommand(_ arguments: [String]) throws(ClientError) -> Int32 {
    var stream: OrientationStream? = nil
    var rest = arguments[...]
    while let argument = rest.first, argument.hasPrefix("-") {
        rest.removeFirst()
        if argument == "--" { break }
        do throws(UsageError) {
            try chooseStream(&stream, argument, command: "exec")
        } catch {
            usageFailure("\(error.description) for exec")
        }
    }
    guard !rest.isEmpty else { usageFailure("exec needs a command to run, e.g. exec -- ./rotate.sh") }
    let follower = try FollowingCommand()
    let runner = CommandRunner(follower: follower, stream: stream ?? .interface, command: Array(rest))
    try runner.takeSignals()
    follower.onChange = { changed, state in
        if changed == runner.stream { runner.consider(state) }
    }
    guard let initial = try follower.begin() else { return follower.status }
    if runner.stream == .tabletMode && !initial.isKnown(.tabletMode) {
        writeAll(
            STDERR_FILENO,
            "motion-orientation: no tablet-mode source (no SW_TABLET_MODE switch, no base accelerometer); "
                + "waiting for one\n")
    }
    runner.consider(initial)
    return follower.run()
}
