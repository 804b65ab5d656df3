import Glibc
import OrientationCore
import SystemdBus

/// `motion-orientation monitor [--device|--interface] [--json]`: holds a claim and prints
/// one line per change: first the current state, then every change as the daemon
/// announces it. With a stream option, only that stream's lines.
func monitor(_ arguments: [String]) throws(ClientError) -> Int32 {
    var json = false
    var only: OrientationStream? = nil
    for argument in arguments {
        if argument == "--json" {
            json = true
        } else {
            do throws(UsageFailure) {
                try chooseStream(&only, argument, command: "monitor")
            } catch {
                usageFailure("\(error.description) for monitor")
            }
        }
    }
    let follower = try OrientationFollower(connection: DaemonConnection())
    func emit(_ stream: OrientationStream, _ state: OrientationState) {
        guard only == nil || only == stream else { return }
        let name = state.name(stream)
        if json {
            let value = state.value(stream)
            writeAll(STDOUT_FILENO, "{\"stream\": \"\(stream)\", \"orientation\": \"\(name)\", \"value\": \(value)}\n")
        } else {
            writeAll(STDOUT_FILENO, "\(stream) \(name)\n")
        }
    }
    follower.onChange = emit
    let initial = try follower.begin()
    emit(.device, initial)
    emit(.interface, initial)
    return follower.run()
}
