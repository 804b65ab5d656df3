// library-probe: drives the MotionOrientation library for the integration tests
// (Tests/integration/test_library.py). Not installed.
//
// Prints one line per notification, `NAME {"key": value, ...}` (userInfo as JSON with
// sorted keys), and answers commands read from stdin, one per line:
//   start | stop                 MotionOrientation.start() / stop(), answers "ok start"
//   get                          "state DEVICE_RAW INTERFACE_RAW STARTED(0|1)"
//   low on|off                   setLowEnergeModeForcely(true|false), answers
//                                "low ok" or "low error NAME"
//   forcibly on|off              the same through setLowEnergyModeForcibly
//   quit                         exits
// With --main-queue, notifications are posted on the main queue (the library's default)
// and the main thread runs RunLoop.main; otherwise on a private serial queue.
import Dispatch
import Foundation
import MotionOrientation

/// Writes one line to stdout at once (no stdio buffering).
func say(_ line: String) {
    FileHandle.standardOutput.write((line + "\n").data(using: .utf8)!)
}

let useMainQueue = CommandLine.arguments.dropFirst().contains("--main-queue")
let motion = MotionOrientation.sharedInstance()
if !useMainQueue {
    motion.notificationQueue = DispatchQueue(label: "library-probe.notifications")
}

for name in [MotionOrientationChangedNotification, MotionOrientationInterfaceOrientationChangedNotification] {
    // queue nil: the observer runs where the library posts, on notificationQueue.
    _ = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
        var fields: [String] = []
        for (key, value) in note.userInfo ?? [:] {
            fields.append("\"\(key)\": \(value)")
        }
        let onMain = Thread.isMainThread ? " main" : ""
        say("\(note.name.rawValue) {\(fields.sorted().joined(separator: ", "))}\(onMain)")
    }
}

/// Runs one command line; false to quit.
func handle(_ line: String) -> Bool {
    let words = line.split(separator: " ").map(String.init)
    switch words.first {
    case "start":
        motion.start()
        say("ok start")
    case "stop":
        motion.stop()
        say("ok stop")
    case "get":
        say(
            "state \(motion.deviceOrientation.rawValue) \(motion.interfaceOrientation.rawValue) \(motion.isStarted ? 1 : 0)"
        )
    case "low", "forcibly":
        let on = words.count > 1 && words[1] == "on"
        let report: @Sendable (MotionOrientationError?) -> Void = { error in
            say(error.map { "low error \($0.name)" } ?? "low ok")
        }
        if words[0] == "low" {
            motion.setLowEnergeModeForcely(on, completion: report)
        } else {
            motion.setLowEnergyModeForcibly(on, completion: report)
        }
    case "quit":
        return false
    default:
        say("error unknown command '\(line)'")
    }
    return true
}

/// Reads commands until EOF or quit, then exits the process.
func readCommands() {
    while let line = readLine() {
        if !handle(line) { break }
    }
    exit(0)
}

say("ready")
if useMainQueue {
    Thread.detachNewThread { readCommands() }
    RunLoop.main.run()
} else {
    readCommands()
}
