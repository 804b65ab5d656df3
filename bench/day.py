"""The energy of a real day: both daemons claimed on the one fake device for a whole workload,
wakeups and CPU counted over all of it, and every turn in it timed on both.

Two workloads, each --day-seconds long (default 600):
  * desk: the device stands still (leaning back 15 deg, 0.004 g sensor noise) and is given a
    quarter turn once a minute, by turns a step and a smooth turn by hand;
  * lap: a tablet on a lap (leaning back 35 deg, breathing, a slow sway, a shift of the lap every
    15-40 s of 3-12 deg over 0.5-1.5 s, 0.015 g tremor) and one turn in 5 minutes.
A turn comes in the middle of each period (30 s, 90 s, ... on the desk); a day shorter than one
lap period still gets one turn, in its middle, so a short lap day turns more often than a real one.

Each variant ([Sampling] keys given to our daemon only, --variant) restarts both daemons, runs both
workloads and, unless --day-reactions 0, the bench's own spaced and smooth reaction turns, so that
the plan's reaction is checked where the goal is set: steps 1.5-3 s apart <= 0.5x theirs, smooth
turns within 80 ms of their end. Our time at each sampling interval comes from the bus monitor
(SampleIntervalMsec changes)."""

import math
import random
import threading
import time

import rig

from .daemons import ISP_BINARY
from .motion import HAND_TURNS, RING, pose_vector
from .procfs import Counting, drop_cached, rates
from .progress import log

RATE = 50.0


class Workload:
    def __init__(self, key, label, period, lean, noise_g, lap):
        self.key, self.label, self.period = key, label, period
        self.lean, self.noise_g, self.lap = lean, noise_g, lap

    def turn_times(self, seconds):
        times = []
        t = self.period / 2
        while t < seconds:
            times.append(t)
            t += self.period
        return times or [seconds / 2]


WORKLOADS = (
    Workload("desk", "desk: still, a quarter turn once a minute", 60.0, 15.0, 0.004, False),
    Workload("lap", "lap: small motion, one turn in 5 minutes", 300.0, 35.0, 0.015, True),
)


class DayMotion:
    """The writer of a workload: the pose at 50 Hz (small motion and noise on top), and the turns
    it is asked for, a step at once or a smoothstep over a hand's duration."""

    def __init__(self, accel, workload, seed):
        self.accel = accel
        self.w = workload
        self.random = random.Random(seed)
        self.turn = 0.0  # degrees clockwise from portrait, a multiple of 90 at rest
        self._lock = threading.Lock()
        self._request = None  # (step, duration, done event, [written time])
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.shift_lean = self.shift_turn = 0.0
        self._shift = None  # (start, duration, from lean, from turn, to lean, to turn)
        self._next_shift = self.random.uniform(15, 40)

    def pose(self):
        return RING[int(round(self.turn / 90.0)) % 4]

    def request_turn(self, step, duration):
        """Turns by `step` quarter turns over `duration` s (0: a step); returns the time.time()
        of the write that ends it."""
        done = threading.Event()
        written = []
        with self._lock:
            self._request = (step, duration, done, written)
        done.wait(duration + 5.0)
        return written[0] if written else time.time()

    def _small_motion(self, t):
        if not self.w.lap:
            return 0.0, 0.0
        if self._shift is None and t >= self._next_shift:
            r = self.random
            size = r.uniform(3, 12) * r.choice((1, -1))
            if r.random() < 0.5:
                to = (self.shift_lean + size, self.shift_turn)
            else:
                to = (self.shift_lean, self.shift_turn + size)
            to = (max(-15.0, min(15.0, to[0])), max(-15.0, min(15.0, to[1])))
            self._shift = (t, r.uniform(0.5, 1.5), self.shift_lean, self.shift_turn) + to
        if self._shift is not None:
            start, duration, l0, a0, l1, a1 = self._shift
            u = min((t - start) / duration, 1.0)
            u = u * u * (3 - 2 * u)
            self.shift_lean, self.shift_turn = l0 + (l1 - l0) * u, a0 + (a1 - a0) * u
            if u >= 1.0:
                self._shift = None
                self._next_shift = t + self.random.uniform(15, 40)
        breathing = 2.5 * math.sin(2 * math.pi * 0.25 * t)
        sway = 2.0 * math.sin(2 * math.pi * 0.07 * t + 1.0)
        return self.shift_lean + breathing, self.shift_turn + sway

    def _run(self):
        start = time.monotonic()
        index = 0
        turning = None  # (began, from turn, step, duration, done, written)
        noise = self.w.noise_g * rig.G
        n = self.random.gauss
        while not self._stop.is_set():
            t = index / RATE
            with self._lock:
                if turning is None and self._request is not None:
                    step, duration, done, written = self._request
                    self._request = None
                    turning = (t, self.turn, step, duration, done, written)
            ending = None
            if turning is not None:
                began, origin, step, duration, done, written = turning
                u = 1.0 if duration <= 0 else min((t - began) / duration, 1.0)
                u = u * u * (3 - 2 * u)
                self.turn = origin + 90.0 * step * u
                if u >= 1.0:
                    self.turn = (origin + 90.0 * step) % 360.0
                    ending = (done, written)
                    turning = None
            lean, sway = self._small_motion(t)
            x, y, z = pose_vector(self.turn + sway, self.w.lean + lean)
            self.accel.set_gravity(x + n(0, noise), y + n(0, noise), z + n(0, noise))
            if ending is not None:
                ending[1].append(time.time())
                ending[0].set()
            index += 1
            delay = start + index / RATE - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(2)


def interval_seconds(monitor, since, began, ended, first):
    """Seconds our daemon spent at each SampleIntervalMsec between the realtimes began and
    ended, from its PropertiesChanged on the bus after the mark `since` (`first` in force at the
    start): {interval: seconds}."""
    with monitor._cond:
        messages = monitor.messages[since:]
    changes = []
    for m in messages:
        if (m.get("type") == "signal" and m.get("path") == rig.OBJECT_PATH
                and m.get("member") == "PropertiesChanged"):
            changed = m["payload"]["data"][1]
            if "SampleIntervalMsec" in changed:
                changes.append((m["timestamp-realtime"] / 1e6, changed["SampleIntervalMsec"]["data"]))
    out = {}
    current, at = first, began
    for ts, value in changes + [(ended, None)]:
        ts = min(max(ts, began), ended)
        out[current] = out.get(current, 0.0) + ts - at
        current, at = value, ts
    return {k: v for k, v in out.items() if v > 0}


def run_workload(bench, workload, seconds, seed):
    r, monitor = bench.rig, bench.monitor
    daemons = [bench.ours] + ([bench.isp] if bench.isp else [])
    rng = random.Random(seed)
    turns = []
    with DayMotion(r.accel, workload, seed) as motion:
        time.sleep(bench.args.settle)  # our daemon back at its still rate before the count
        first_interval = r.get_property("SampleIntervalMsec")
        since = monitor.mark()
        began_real = time.time()
        with Counting(d.pid for d in daemons) as counting:
            before = {d.label: counting.read(d.pid) for d in daemons}
            began = time.monotonic()
            for k, at in enumerate(workload.turn_times(seconds)):
                delay = began + at - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                kind = "step" if k % 2 == 0 else "smooth"
                duration = 0.0 if kind == "step" else HAND_TURNS[(k // 2) % len(HAND_TURNS)]
                step = rng.choice((1, -1))
                mark = monitor.mark()
                written = motion.request_turn(step, duration)
                target = motion.pose()
                result = {"kind": kind, "at_s": at, "to": target, "duration_s": duration}
                deadline = time.monotonic() + 4.0
                for d in daemons:
                    ts = bench.wait_change(d, d.name_for(target), mark, deadline)
                    result[d.label] = None if ts is None else (ts - written) * 1000
                turns.append(result)
                log("day %s: turn %d (%s) ours %s ms, theirs %s ms" % (
                    workload.key, k + 1, kind, _ms(result[bench.ours.label]),
                    _ms(result.get(bench.isp.label)) if bench.isp else "-"))
            delay = began + seconds - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            after = {d.label: counting.read(d.pid) for d in daemons}
        ended_real = time.time()
    out = {"seconds": seconds, "turns": turns,
           "energy": {d.label: rates(before[d.label], after[d.label]) for d in daemons},
           "interval_seconds": interval_seconds(monitor, since, began_real, ended_real, first_interval)}
    r.accel.set_pose(RING[RING.index(motion.pose())])
    return out


def _ms(v):
    return "missed" if v is None else "%.0f" % v


def config_text(keys):
    if not keys:
        return ""
    return "[Sampling]\n" + "".join("%s=%s\n" % kv for kv in keys)


def parse_variant(text):
    """NAME or NAME:Key=Value,Key=Value -> (name, [(key, value)])."""
    name, _, rest = text.partition(":")
    keys = []
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError("--variant %s: %r is not Key=Value" % (text, item))
        keys.append((key.strip(), value.strip()))
    return name, keys


def measure(bench):
    a = bench.args
    variants = [("shipped", [])] + [parse_variant(v) for v in a.variant]
    out = {}
    r = bench.rig
    daemons = [bench.ours] + ([bench.isp] if bench.isp else [])
    for index, (name, keys) in enumerate(variants):
        log("day, variant %s %s: %s" % (name, dict(keys) or "(the shipped defaults)",
                                        ", ".join("%s %g s" % (w.key, a.day_seconds)
                                                  for w in WORKLOADS)))
        r.config_path.write_text(config_text(keys))
        r.accel.set_pose("portrait")
        drop_cached([bench.daemon_binary, ISP_BINARY])
        for d in daemons:
            d.start()
        for d in daemons:
            d.claim_sensor()
        result = {"keys": dict(keys)}
        try:
            bench.settle_still()
            still = dict(keys).get("StillIntervalMsec")
            if still is not None and r.get_property("SampleIntervalMsec") != int(still):
                raise rig.RigError("variant %s: SampleIntervalMsec is %s, not %s (config refused?)"
                                   % (name, r.get_property("SampleIntervalMsec"), still))
            for w in WORKLOADS:
                result[w.key] = run_workload(bench, w, a.day_seconds, a.seed + 1000 * index)
            # The shipped defaults' reactions are the main table's, unless only the day runs.
            if a.day_reactions > 0 and (a.day_only or name != "shipped"):
                bench.settle_still()
                result["reaction"] = bench.measure_reactions(a.day_reactions, rest_rotations=0)
        finally:
            for d in daemons:
                d.stop()
            r.config_path.write_text("")
        out[name] = result
    bench.results["day"] = out
