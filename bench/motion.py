"""Motion written into the fake sensor: a generated continuous turn, and the recorded
traces of Tests/traces replayed at their rate."""

import math
import random
import threading
import time
from pathlib import Path

from rig import G

# The four upright poses in clockwise order: a quarter turn moves one step.
RING = ["portrait", "landscape-right", "portrait-upside-down", "landscape-left"]
SPURIOUS_TRACES = [("shake", "shake-portrait"), ("walking bounce", "walking-landscape"),
                   ("free fall + impact", "free-fall-impact"), ("45 deg dwell", "dwell-45-tremor")]


def pose_vector(turn_degrees, lean_degrees=0.0):
    """Gravity for a device turned clockwise from portrait and leaning back (DESIGN frame)."""
    a, t = math.radians(turn_degrees), math.radians(lean_degrees)
    return (G * math.cos(t) * math.sin(a), -G * math.cos(t) * math.cos(a), -G * math.sin(t))


# Smooth quarter turns by hand, their durations in seconds (EstimatorTargetTests takes the same).
HAND_TURNS = (0.3, 0.45, 0.6)


def hand_turn(accel, current, step, duration, lean=15.0):
    """Writes a quarter turn the way a hand turns a tablet into `accel`: from the upright pose
    `current`, `step` (+1 clockwise, -1 counter-clockwise) quarter turn, a smoothstep (no speed at
    either end) over `duration` seconds, leaning back `lean` degrees, at 50 Hz. Returns the pose
    it ends in."""
    start = 90.0 * RING.index(current)
    began = time.monotonic()
    while True:
        u = min((time.monotonic() - began) / duration, 1.0)
        u = u * u * (3 - 2 * u)
        accel.set_gravity(*pose_vector(start + 90.0 * step * u, lean))
        if u >= 1.0:
            return RING[(RING.index(current) + step) % 4]
        time.sleep(0.02)


class Motion:
    """A thread writing a generated motion into the fake sensor at 50 Hz until stopped."""

    RATE = 50.0

    def __init__(self, accel, seed=7, turn_speed=60.0, lean=20.0, noise_g=0.03):
        self.accel = accel
        self.random = random.Random(seed)
        self.turn_speed = turn_speed
        self.lean = lean
        self.noise = noise_g * G
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.samples = 0

    def _run(self):
        start = time.monotonic()
        index = 0
        while not self._stop.is_set():
            t = index / self.RATE
            x, y, z = pose_vector(self.turn_speed * t, self.lean)
            n = self.random.gauss
            self.accel.set_gravity(x + n(0, self.noise), y + n(0, self.noise), z + n(0, self.noise))
            self.samples += 1
            index += 1
            delay = start + index / self.RATE - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(2)
        # End still in the pose nearest to where the turn stopped.
        self.accel.set_pose("portrait")


def read_trace(path, max_seconds=None):
    samples = []
    for line in Path(path).read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("t,"):
            continue
        t, x, y, z = (float(v) for v in line.split(","))
        if max_seconds is not None and samples and t - samples[0][0] > max_seconds:
            break
        samples.append((t, x, y, z))
    return samples


def read_expected(path):
    out = {}
    for line in Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split()
        out[cols[0]] = cols[1].split(">")
    return out


def replay(accel, samples):
    start = time.monotonic()
    t0 = samples[0][0]
    for t, x, y, z in samples:
        delay = start + (t - t0) - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        accel.set_gravity(x, y, z)
