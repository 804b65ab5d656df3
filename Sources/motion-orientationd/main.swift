// motion-orientationd: the daemon's entry point. Arguments, signals, run.
import ErrorsAndLog
import Glibc
import MotionOrientationDaemon
import OrientationCore
import SystemdBus

// Block the signals the event loop handles before anything can start a thread, so
// every thread inherits the mask and sd-event's signalfd receives them.
var handled = sigset_t()
sigemptyset(&handled)
for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handled, signal) }
pthread_sigmask(SIG_BLOCK, &handled, nil)

let action: DaemonOptions.Action
do {
    action = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    writeAll(STDERR_FILENO, "motion-orientationd: \(error)\nTry 'motion-orientationd --help'.\n")
    exit(2)
}

switch action {
case .help:
    print(DaemonOptions.usage)
case .version:
    print("motion-orientationd \(motionOrientationVersion)")
case .run(let options):
    if options.verbose { Log.threshold = .debug }
    guard let daemon = Daemon(options: options) else { exit(1) }
    exit(daemon.run())
}
