"""The service's public names and the orientation values of its contract (docs/dbus-api.md),
and the reference poses in the docs/axes.md frame."""

BUS_NAME = "io.github.MotionOrientation1"
OBJECT_PATH = "/io/github/MotionOrientation1"
INTERFACE = "io.github.MotionOrientation1"

# SampleIntervalMsec of a claimed, still device under the defaults ([Sampling] StillIntervalMsec=,
# SamplingPolicy.stillIntervalMsec).
STILL_INTERVAL_MSEC = 750

STANDARD_GRAVITY = 9.80665
G = STANDARD_GRAVITY
# in_accel_scale such that a raw value of 1000 is 1 g.
DEFAULT_SCALE = 0.00980665

# Reference gravity vectors (m/s^2) in the docs/axes.md frame: x right, y top, z out of the screen.
POSES = {
    "portrait": (0.0, -G, 0.0),
    "portrait-upside-down": (0.0, G, 0.0),
    "landscape-left": (-G, 0.0, 0.0),
    "landscape-right": (G, 0.0, 0.0),
    "face-up": (0.0, 0.0, -G),
    "face-down": (0.0, 0.0, G),
}
DEVICE_VALUES = {
    "unknown": 0, "portrait": 1, "portrait-upside-down": 2, "landscape-left": 3,
    "landscape-right": 4, "face-up": 5, "face-down": 6,
}
INTERFACE_VALUES = {
    "unknown": 0, "portrait": 1, "portrait-upside-down": 2, "landscape-right": 3,
    "landscape-left": 4,
}
# Device orientation -> interface orientation; None: the interface keeps its last value.
INTERFACE_FOR_DEVICE = {
    "unknown": None, "portrait": "portrait", "portrait-upside-down": "portrait-upside-down",
    "landscape-left": "landscape-right", "landscape-right": "landscape-left",
    "face-up": None, "face-down": None,
}
