"""Firmware behaviours of a buffered HID sensor hub, played on the umockdev replica.

`rig.drivers.hid_hub` lays the hub's files out as hid-sensor-accel-3d does; this module is
the hub behind them: a thread that reads what the daemon wrote (`buffer/enable`, the report
interval as `in_accel_sampling_frequency`) and pushes scans into the device node the way a
hub's firmware would. Each `Behaviour` is a way real firmware behaves (docs/testing.md, the
firmware matrix), and none of them is what the daemon's attributes would predict:

  streaming        a report every interval while enabled
  change-only      a report only when the value changes (by more than the sensitivity,
                   which in_accel_hysteresis shows), at most once per interval
  change-only-0    the same, but in_accel_hysteresis reads 0.000000: the file says nothing
  power-up-once    one report when enabled, then reports only on change (sensitivity 0)
  zero-hz          streams, but its interval reads 0 and it sends nothing until one is written
  old-schedule     streams, but keeps its previous interval for a second after a change
  drop-one-in-4    streams, losing every fourth report
  duplicate-stamps streams, every other scan carrying its predecessor's timestamp
  out-of-order     streams, each pair of scans written in one read with the stamps swapped
  stale-burst      change-only-0, and after it is enabled again sends the last pose it had,
                   stamped from before it was disabled (a FIFO emptied after resume)
  jittered         streams, each report up to 40 percent of the interval early or late

The test moves the hub with `set_gravity` (or `turn`); what the hub reports of it is the
behaviour's business. The hub's own raw channel files always hold the present value, as a
hub answers a raw read with its present value (a synchronous request).
"""

import math
import os
import random
import threading
import time

from .drivers import attribute, hid_hub


class Behaviour:
    """How one firmware reports; see the module's docstring for the names."""

    def __init__(self, name, changes_only=False, hysteresis="", reports_when_enabled="every",
                 initial_rate="10.000000", old_schedule_s=0.0, drop_every=0, stamps="plain",
                 stale_burst=False, jitter=0.0):
        self.name = name
        self.changes_only = changes_only
        self.hysteresis = hysteresis
        # A change-only hub's report when the driver turns reporting on: "every" time, only
        # the "first" time (power-up), or "never" (a streaming hub reports at its interval).
        self.reports_when_enabled = reports_when_enabled
        self.initial_rate = initial_rate
        self.old_schedule_s = old_schedule_s
        self.drop_every = drop_every
        self.stamps = stamps
        self.stale_burst = stale_burst
        self.jitter = jitter

    def __repr__(self):
        return self.name


BEHAVIOURS = [
    Behaviour("streaming"),
    Behaviour("change-only", changes_only=True, hysteresis="0.050000"),
    Behaviour("change-only-0", changes_only=True, hysteresis="0.000000"),
    Behaviour("power-up-once", changes_only=True, hysteresis="0.000000", reports_when_enabled="first"),
    Behaviour("zero-hz", initial_rate="0.000000"),
    Behaviour("old-schedule", old_schedule_s=1.0),
    Behaviour("drop-one-in-4", drop_every=4),
    Behaviour("duplicate-stamps", stamps="duplicate"),
    Behaviour("out-of-order", stamps="swap"),
    Behaviour("stale-burst", changes_only=True, hysteresis="0.000000", stale_burst=True),
    Behaviour("jittered", jitter=0.4),
]


# The smallest change a change-only hub with sensitivity 0 reports: one count (0.01 g).
ONE_COUNT = 0.0980665


class FirmwareHub:
    """A hid_hub replica and the firmware thread behind it. Use as a context manager, or
    call close(); `reports` counts the scans pushed."""

    TICK = 0.005

    def __init__(self, rig, behaviour, gravity, properties=None, seed=1, trigger=True):
        """`trigger`: add the hub's trigger device too (not for a hub plugged in again)."""
        self.behaviour = behaviour
        self.accel = hid_hub(rig, rate=behaviour.initial_rate, change_only=bool(behaviour.hysteresis),
                             gravity=gravity, properties=properties, trigger=trigger)
        if behaviour.hysteresis:
            (self.accel.directory / "in_accel_hysteresis").write_text(behaviour.hysteresis + "\n")
        self.gravity = tuple(gravity)
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.reports = 0
        self.report_times = []
        self._sent = None           # the value last reported
        self._enabled = False
        self._ever_enabled = False
        self._last_stamp = None     # the newest timestamp sent
        self._stale = None          # (value, stamp) kept across a disable, for stale-burst
        self._interval = None       # the interval in force (s), None: no reports
        self._pending_interval = None
        self._switch_at = None
        self._next_due = 0.0
        self._count = 0
        self._held = None           # a scan held back to be sent swapped with the next
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="firmware-%s" % behaviour.name,
                                        daemon=True)
        self._thread.start()

    # -- what the test does

    def set_gravity(self, x, y, z):
        with self.lock:
            self.gravity = (x, y, z)
            self.accel.set_gravity(x, y, z)

    def turn(self, target, seconds, steps_per_second=50):
        """Turns the device to `target` (m/s^2) by the shortest rotation, smoothly over
        `seconds`, updating the present value `steps_per_second` times a second."""
        start = self.gravity
        steps = max(1, int(seconds * steps_per_second))
        for index in range(1, steps + 1):
            self.set_gravity(*slerp(start, target, smoothstep(index / steps)))
            time.sleep(seconds / steps)

    def turn_in_plane(self, start_degrees, end_degrees, seconds, steps_per_second=50):
        """Turns an upright device in the screen's plane, smoothly over `seconds`, from one
        in-plane angle to another (degrees: portrait 0, landscape-right 90, upside-down 180,
        landscape-left 270; docs/axes.md)."""
        steps = max(1, int(seconds * steps_per_second))
        for index in range(1, steps + 1):
            self.set_gravity(*upright(start_degrees + (end_degrees - start_degrees) * smoothstep(index / steps)))
            time.sleep(seconds / steps)

    def close(self):
        self._stop.set()
        self._thread.join(2)

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.close()

    # -- the firmware

    def _rate_interval(self):
        try:
            rate = float(attribute(self.accel, "in_accel_sampling_frequency") or 0)
        except (OSError, ValueError):
            return None
        return 1.0 / rate if rate > 0 else None

    def _run(self):
        while not self._stop.wait(self.TICK):
            now = time.monotonic()
            try:
                enabled = attribute(self.accel, "buffer/enable") == "1"
            except OSError:
                return  # the device is gone
            with self.lock:
                self._step(now, enabled)

    def _step(self, now, enabled):
        b = self.behaviour
        if enabled != self._enabled:
            self._enabled = enabled
            if not enabled:
                self._stale = (self._sent, self._last_stamp)
                self._sent = None
                self._held = None
                return
            first = not self._ever_enabled
            self._ever_enabled = True
            self._interval = self._rate_interval()
            self._next_due = now
            if b.stale_burst and self._stale and self._stale[0] is not None:
                value, stamp = self._stale
                for index in range(3):
                    self._write(value, stamp - (2 - index) * 10_000_000)
            if b.changes_only and (b.reports_when_enabled == "every"
                                   or (b.reports_when_enabled == "first" and first)):
                self._report(now, self.gravity)
            elif b.changes_only:
                self._sent = self.gravity  # it knows its value; nothing is sent
        if not enabled:
            return
        self._follow_rate(now)
        if self._interval is None or now < self._next_due:
            return
        if b.changes_only:
            if self._sent is not None and _moved(self._sent, self.gravity) < ONE_COUNT / 2:
                return
        self._report(now, self.gravity)
        self._next_due = now + self._interval * (1 + self.random.uniform(-b.jitter, b.jitter))

    def _follow_rate(self, now):
        wanted = self._rate_interval()
        if wanted == self._interval or wanted == self._pending_interval:
            if self._switch_at is not None and now >= self._switch_at:
                self._interval, self._pending_interval, self._switch_at = self._pending_interval, None, None
            return
        if self.behaviour.old_schedule_s > 0 and self._interval is not None:
            self._pending_interval = wanted
            self._switch_at = now + self.behaviour.old_schedule_s
        else:
            self._interval = wanted
            self._next_due = min(self._next_due, now + (wanted or 0))

    def _report(self, now, value):
        self._count += 1
        self._sent = value
        if self.behaviour.drop_every and self._count % self.behaviour.drop_every == 0:
            return
        stamp = time.monotonic_ns()
        if self.behaviour.stamps == "duplicate" and self._count % 2 == 0 and self._last_stamp:
            stamp = self._last_stamp
        if self.behaviour.stamps == "swap":
            if self._held is None:
                self._held = (value, stamp)
                return
            held, self._held = self._held, None
            self._write_pair((value, held[1]), (held[0], stamp))
            return
        self._write(value, stamp)

    def _write(self, value, stamp):
        self._write_pair((value, stamp))

    def _write_pair(self, *scans):
        data = b"".join(self.accel.layout.scan(*self.accel.raw_for(*value), stamp)
                        for value, stamp in scans)
        os.write(self.accel.fifo, data)
        self._last_stamp = max(stamp for _value, stamp in scans)
        self.reports += len(scans)
        self.report_times.append(time.monotonic())


def upright(degrees, g=9.80665):
    """The reading of an upright device at in-plane angle `degrees` (portrait 0, clockwise)."""
    t = math.radians(degrees)
    return (g * math.sin(t), -g * math.cos(t), 0.0)


def _moved(a, b):
    return max(abs(x - y) for x, y in zip(a, b))


def smoothstep(s):
    return s * s * (3 - 2 * s)


def slerp(a, b, s):
    """The vector a turned toward b by the fraction s of the angle between them (the length
    of a kept)."""
    na = math.sqrt(sum(v * v for v in a))
    ua = [v / na for v in a]
    nb = math.sqrt(sum(v * v for v in b))
    ub = [v / nb for v in b]
    dot = max(-1.0, min(1.0, sum(x * y for x, y in zip(ua, ub))))
    angle = math.acos(dot)
    if angle < 1e-9:
        return tuple(b)
    if math.pi - angle < 1e-6:
        # Opposite: turn about an axis perpendicular to a (through x or z).
        helper = (1.0, 0.0, 0.0) if abs(ua[0]) < 0.9 else (0.0, 0.0, 1.0)
        axis = _normalised(_cross(ua, helper))
        mid = _cross(axis, ua)
        return tuple(na * (math.cos(math.pi * s) * u + math.sin(math.pi * s) * m)
                     for u, m in zip(ua, mid))
    sin = math.sin(angle)
    wa = math.sin((1 - s) * angle) / sin
    wb = math.sin(s * angle) / sin
    return tuple(na * (wa * x + wb * y) for x, y in zip(ua, ub))


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _normalised(v):
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v)
