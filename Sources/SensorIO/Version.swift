/// The package's version, printed by `--version` of the daemon and of the client.
public let motionOrientationVersion = "0.1.0"
