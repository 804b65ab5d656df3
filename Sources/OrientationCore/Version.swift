/// The project's version, printed by the daemon's `--version` and the client's `version`
/// (the man pages carry it too).
public let motionOrientationVersion = "0.1.0"
