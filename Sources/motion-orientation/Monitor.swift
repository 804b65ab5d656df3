import ErrorsAndLog
import Glibc
import OrientationClient
import OrientationCore
import SystemdBus

/// `motion-orientation monitor [--device|--interface|--tablet-mode] [--json]`: holds a claim
/// and prints one line per change: first the current state, then every change as the daemon
/// announces it. Tablet mode and the hinge state have lines only on a machine with a
/// tablet-mode source (and the hinge state once it is known). With a stream option, only that
/// stream's lines (`--tablet-mode`: tablet mode and the hinge state).
func monitor(_ arguments: [String]) throws(ClientError) -> Int32 {
    var json = false
    var only: OrientationStream? = nil
    for argument in arguments {
        if argument == "--json" {
            json = true
        } else {
            do throws(UsageError) {
                try chooseStream(&only, argument, command: "monitor")
            } catch {
                usageFailure("\(error.description) for monitor")
            }
        }
    }
    let follower = try FollowingCommand()
    func shown(_ stream: OrientationStream) -> Bool {
        guard let only else { return true }
        return only == stream || (only == .tabletMode && stream == .hingeState)
    }
    func emit(_ stream: OrientationStream, _ state: OrientationState) {
        guard shown(stream) else { return }
        let name = state.name(stream)
        guard json else { return writeAll(STDOUT_FILENO, "\(stream.rawValue) \(name)\n") }
        let fields: String
        switch stream {
        case .device, .interface:
            fields = "\"orientation\": \"\(name)\", \"value\": \(state.value(stream))"
        case .tabletMode:
            fields = "\"mode\": \"\(name)\", \"tablet\": \(state.tabletMode), \"source\": \"\(state.tabletModeSource)\""
        case .hingeState:
            fields = "\"state\": \"\(name)\", \"angle\": \(degreesText(state.hingeAngle))"
        }
        writeAll(STDOUT_FILENO, "{\"stream\": \"\(stream.rawValue)\", \(fields)}\n")
    }
    follower.onChange = emit
    guard let initial = try follower.begin() else { return follower.status }
    emit(.device, initial)
    emit(.interface, initial)
    // A machine without tablet mode shows no tablet lines; one with it, its current state.
    if initial.isKnown(.tabletMode) { emit(.tabletMode, initial) }
    if initial.isKnown(.hingeState) { emit(.hingeState, initial) }
    return follower.run()
}
