// swift-tools-version:6.0
// motion-orientationd: device orientation from the display accelerometer, on the system bus.
import PackageDescription

let package = Package(
    name: "motion-orientation",
    products: [
        .executable(name: "motion-orientationd", targets: ["motion-orientationd"]),
        .executable(name: "motion-orientation", targets: ["motion-orientation"]),
        .library(name: "MotionOrientation", targets: ["MotionOrientation"]),
    ],
    targets: [
        // libsystemd (sd-bus, sd-event, sd-daemon) and libudev, found with pkg-config.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // The little C that Swift cannot express: an sd-bus vtable built from Swift's lists (the
        // daemon's), and the evdev and uinput ioctl requests (the sensors').
        .target(name: "CBusObject", dependencies: ["CSystemd"]),
        .target(name: "CInputDevice"),
        // Failed system calls (errno) and usage errors, and logging, for every program here.
        .target(name: "ErrorsAndLog"),
        // The one Swift layer over sd-bus and sd-event shared by the daemon, the client and the
        // library: messages, matches, calls, event sources, bus names, typed properties.
        .target(name: "SystemdBus", dependencies: ["ErrorsAndLog", "CSystemd"]),
        // Pure logic: no I/O, no clock, no Foundation.
        .target(name: "OrientationCore"),
        // The sensors as the machine shows them, shared by the daemon and the client's record and
        // replay: accelerometer discovery through udev, the sysfs, evdev and buffered readers,
        // the hardware and the virtual tablet-mode switches.
        .target(
            name: "SensorIO", dependencies: ["OrientationCore", "ErrorsAndLog", "SystemdBus", "CInputDevice", "CSystemd", "CUdev"]),
        // Loading the daemon's configuration files (the daemon, and the client's replay).
        .target(name: "DaemonConfiguration", dependencies: ["OrientationCore", "ErrorsAndLog", "SensorIO"]),
        // The daemon: its context (event loop, sampling) and its parts (claims, low energy, tablet
        // mode, the iio-sensor-proxy surface, the bus objects).
        .target(
            name: "MotionOrientationDaemon",
            dependencies: [
                "OrientationCore", "SensorIO", "DaemonConfiguration", "ErrorsAndLog", "SystemdBus", "CBusObject",
                "CSystemd",
            ]),
        // Linked for a small resident set (docs/architecture.md, Figures): lld packs the relative
        // relocations (DT_RELR, glibc >= 2.36) instead of 16 000 RELA entries read at every start,
        // the few libstdc++ functions the Swift runtime calls come from the static archive
        // (build-aux/static-libstdc++ stands in for libstdc++.so) rather than the whole library,
        // and the functions the daemon runs are laid out together (build-aux/hot-functions.py,
        // `make link-order`) instead of scattered over the runtime and standard library.
        .executableTarget(
            name: "motion-orientationd", dependencies: ["MotionOrientationDaemon", "OrientationCore", "ErrorsAndLog", "SystemdBus"],
            linkerSettings: [
                .unsafeFlags([
                    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    "-L", Context.packageDirectory + "/build-aux/static-libstdc++",
                    "-Xlinker",
                    "--symbol-ordering-file=" + Context.packageDirectory
                        + "/build-aux/motion-orientationd.order",
                    "-Xlinker", "--no-warn-symbol-ordering",
                    // The static Swift stdlib exports every symbol for dlsym()-based lookups
                    // (Foundation's); the daemon has none, and the 1 600 dynamic symbols of its
                    // modules were consulted (so resident) in every library symbol lookup.
                    "-Xlinker", "--no-export-dynamic",
                ])
            ]),
        // What the command-line client and the library share: following the daemon (its
        // announcements read into a state, a claim held and made again after a restart), calls
        // to it, an event loop. No Foundation.
        .target(name: "OrientationClient", dependencies: ["OrientationCore", "ErrorsAndLog", "SystemdBus", "CSystemd"]),
        .executableTarget(
            name: "motion-orientation",
            dependencies: [
                "OrientationClient", "OrientationCore", "ErrorsAndLog", "SystemdBus", "SensorIO", "DaemonConfiguration",
                "CSystemd",
            ]),
        // The Swift client library with the iOS library's API shape (Foundation allowed here).
        .target(
            name: "MotionOrientation",
            dependencies: ["OrientationClient", "OrientationCore", "ErrorsAndLog", "SystemdBus", "CSystemd"]),
        // Prints the library's notifications, for the integration test of the library.
        .executableTarget(name: "library-probe", dependencies: ["MotionOrientation"], path: "Tests/library-probe"),
        // The library's example program, built so that it stays true.
        .executableTarget(name: "rotation-logger", dependencies: ["MotionOrientation"], path: "docs/examples/swift"),
        // The trace-corpus helpers shared by the tests and estimator-bench: the synthetic trace
        // generators, the manifests' expected outcomes, the scenario generator and its properties.
        .target(name: "TraceCorpus", dependencies: ["OrientationCore"], path: "Tests/TraceCorpus"),
        // Throughput of the pure estimator and the trace corpus table (`make bench`).
        .executableTarget(
            name: "estimator-bench", dependencies: ["OrientationCore", "TraceCorpus"], path: "bench/estimator-bench"),
        .testTarget(name: "OrientationCoreTests", dependencies: ["OrientationCore", "TraceCorpus"]),
        .testTarget(name: "SystemdBusTests", dependencies: ["ErrorsAndLog", "SystemdBus", "CSystemd"]),
        .testTarget(
            name: "OrientationClientTests",
            dependencies: ["OrientationClient", "OrientationCore", "ErrorsAndLog", "SystemdBus", "CSystemd"]),
        // The daemon's parts with fakes (a clock, sensors, switches, a bus sink).
        .testTarget(
            name: "MotionOrientationDaemonTests",
            dependencies: ["MotionOrientationDaemon", "OrientationCore", "SensorIO", "ErrorsAndLog", "SystemdBus", "CSystemd"]),
    ],
    swiftLanguageModes: [.v6]
)
