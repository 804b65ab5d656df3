"""Bench: motion-orientationd and iio-sensor-proxy on one rig (one fake accelerometer, one
private bus, one bus monitor), and the phases measured on both: start-up, energy windows with
their sensor reads, memory, reactions to quarter turns, spurious changes during traces."""

import os
import random
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import rig

from . import change_only, day, offline, tablet
from .daemons import ISP_BINARY, ISP_NAME, MONITOR_SENSOR, Ours, SensorProxy
from .motion import HAND_TURNS, RING, SPURIOUS_TRACES, Motion, hand_turn, read_expected, read_trace, replay
from .procfs import Counting, drop_cached, rates, rss_breakdown, rss_kib
from .progress import log
from .sensor_reads import count_sensor_reads
from .table import stats

REPO = Path(__file__).resolve().parent.parent


class Bench:
    def __init__(self, args):
        self.args = args
        self.build = Path(args.build_dir)
        self.daemon_binary = self.build / "motion-orientationd"
        self.client_binary = self.build / "motion-orientation"
        self.estimator_bench = self.build / "estimator-bench"
        self.traces = REPO / "Tests" / "traces"
        self.results = {"runs": [], "startup": {}, "reaction": {}, "spurious": {}, "change_only": {}}
        self.failures = []
        self.have_strace = subprocess.run(["sh", "-c", "command -v strace"],
                                          capture_output=True).returncode == 0
        self.have_isp = os.access(ISP_BINARY, os.X_OK) and os.access(MONITOR_SENSOR, os.X_OK)
        self.workdir = Path(tempfile.mkdtemp(prefix="mo-bench-"))

    # -- the rig with both daemons

    def make_rig(self):
        r = rig.Rig(accelerometer=False, start_daemon=False, verbose=False,
                    daemon=str(self.daemon_binary), client=str(self.client_binary))
        # The udev property iio-sensor-proxy's own rule (80-iio-sensor-proxy.rules) would set;
        # umockdev runs no udev rules. Our daemon ignores it.
        r.accel = r.add_accelerometer(extra_properties={"IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"})
        return r

    # -- start-up

    def timed_start(self, r, monitor, argv, env, name):
        since = monitor.mark()
        started = time.time()
        proc = subprocess.Popen([str(a) for a in argv], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        with rig._children_lock:
            rig._children.append(proc)
        try:
            message = monitor.wait_for(
                lambda m: m.get("member") == "NameOwnerChanged"
                and m["payload"]["data"][0] == name and m["payload"]["data"][2] != "",
                5.0, what="%s on the bus" % name, since=since)
            return proc, message["timestamp-realtime"] / 1e6 - started
        except rig.RigError:
            rig.kill_process(proc)
            raise

    def measure_startup(self, r, monitor):
        starts = self.args.starts
        ours_env = dict(r.daemon.env)
        argv_ours = [self.daemon_binary, "--config", r.config_path]
        isp = SensorProxy(r)
        plain_env = r.bus.env()  # no preload: the real /sys
        times = {"ours": [], "isp": [], "ours_nopreload": []}
        rss_nopreload = []
        breakdown_nopreload = None
        for i in range(starts):
            for key, argv, env, name in (("ours", argv_ours, ours_env, rig.BUS_NAME),
                                         ("isp", [ISP_BINARY], isp.env, ISP_NAME),
                                         ("ours_nopreload", argv_ours, plain_env, rig.BUS_NAME)):
                if key == "isp" and not self.have_isp:
                    continue
                try:
                    proc, seconds = self.timed_start(r, monitor, argv, env, name)
                except rig.RigError as err:
                    log("start-up of %s failed: %s" % (key, err))
                    continue
                times[key].append(seconds * 1000)
                if key == "ours_nopreload" and i < self.args.runs:
                    time.sleep(2.0)
                    rss_nopreload.append(rss_kib(proc.pid)["VmRSS"] / 1024)
                    breakdown_nopreload = rss_breakdown(proc.pid)
                rig.kill_process(proc)
                rig.wait_until(lambda: not r.bus.name_has_owner(name), 5,
                               what="%s off the bus" % name)
        self.results["startup"] = {k: stats(v) for k, v in times.items()}
        self.results["rss_nopreload"] = stats(rss_nopreload)
        self.results["rss_breakdown_nopreload"] = breakdown_nopreload

    # -- one run: energy windows, memory

    def window(self, daemons, seconds):
        with Counting(d.pid for d in daemons) as counting:
            before = {d.label: counting.read(d.pid) for d in daemons}
            time.sleep(seconds)
            after = {d.label: counting.read(d.pid) for d in daemons}
        return {d.label: rates(before[d.label], after[d.label]) for d in daemons}

    def reads(self, daemons, seconds, tag):
        if not self.have_strace:
            return {}
        out = {}
        threads = []

        def one(d):
            try:
                out[d.label] = count_sensor_reads(d.pid, seconds, self.workdir, tag)
            except Exception as err:  # noqa: BLE001 - optional figure
                log("counting sensor reads of %s failed: %s" % (d.label, err))
        for d in daemons:
            t = threading.Thread(target=one, args=(d,))
            t.start()
            threads.append(t)
        for t in threads:
            t.join()
        return out

    def settle_still(self, pose="portrait"):
        """Still long enough for our daemon to leave its fast rate (5 s motion linger)."""
        self.rig.accel.set_pose(pose)
        time.sleep(self.args.settle)

    def low_energy(self, on):
        """Forces our low energy mode with the config's flag and SIGHUP (no privilege needed,
        unlike SetLowEnergyMode()); waits until the daemon shows it."""
        self.rig.reload("[Energy]\nLowEnergyMode=on\n" if on else "")
        self.rig.wait_for_property("LowEnergyMode", on)

    def run_once(self, index, first):
        a = self.args
        ours, isp = self.ours, self.isp
        daemons = [ours] + ([isp] if isp else [])
        run = {"index": index}
        self.rig.accel.set_pose("portrait")
        drop_cached([self.daemon_binary, ISP_BINARY])
        for d in daemons:
            d.start()
        time.sleep(2.0)
        run["rss_idle"] = {d.label: rss_kib(d.pid) for d in daemons}
        run["rss_breakdown_idle"] = {d.label: rss_breakdown(d.pid) for d in daemons}
        log("run %d: no claim, %g s" % (index, a.window))
        run["idle"] = self.window(daemons, a.window)

        for d in daemons:
            d.claim_sensor()
        claimed_at = time.monotonic()
        self.settle_still()
        log("run %d: claimed, still, %g s" % (index, a.window))
        run["still"] = self.window(daemons, a.window)
        run["still_reads"] = self.reads(daemons, a.read_window, "still")

        log("run %d: claimed, moving, %g s" % (index, a.window))
        with Motion(self.rig.accel, seed=index):
            time.sleep(1.0)  # our daemon notices the motion and speeds up
            run["moving"] = self.window(daemons, a.window)
            run["moving_reads"] = self.reads(daemons, a.read_window, "moving")

        self.low_energy(True)
        self.settle_still()
        log("run %d: low energy mode, still then moving" % index)
        run["le_still"] = self.window(daemons, a.window)
        run["le_still_reads"] = self.reads(daemons, a.read_window, "le_still")
        with Motion(self.rig.accel, seed=100 + index):
            time.sleep(1.0)
            run["le_moving"] = self.window(daemons, a.window)
            run["le_moving_reads"] = self.reads(daemons, a.read_window, "le_moving")
        self.low_energy(False)

        if first:
            self.settle_still()
            self.results["reaction"] = self.measure_reactions(a.rotations, a.rest_rotations)
            self.measure_spurious()

        remaining = a.minute - (time.monotonic() - claimed_at)
        if remaining > 0:
            log("run %d: claimed for %.0f s more (--minute %g)" % (index, remaining, a.minute))
            self.settle_still()
            time.sleep(max(0.0, a.minute - (time.monotonic() - claimed_at)))
        run["claim_age_s"] = time.monotonic() - claimed_at
        run["rss_claimed"] = {d.label: rss_kib(d.pid) for d in daemons}
        run["rss_breakdown_claimed"] = {d.label: rss_breakdown(d.pid) for d in daemons}
        for d in daemons:
            d.stop()
        self.results["runs"].append(run)

    # -- reaction

    def wait_change(self, daemon, target, since, deadline):
        """Timestamp of the first change of daemon to target after `since`, or None."""
        while True:
            for ts, name in daemon.changes(self.monitor, since):
                if name == target:
                    return ts
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.01)

    def rotate(self, current, rng):
        target = RING[(RING.index(current) + rng.choice((1, -1))) % 4]
        since = self.monitor.mark()
        self.rig.accel.set_pose(target)
        written = time.time()
        return target, since, written

    def react(self, daemons, target, since, written, wait_until):
        out = {}
        for d in daemons:
            ts = self.wait_change(d, d.name_for(target), since, wait_until)
            out[d.label] = None if ts is None else (ts - written) * 1000
        return out

    def measure_reactions(self, rotations, rest_rotations):
        """Turns from rest, spaced step turns and smooth turns, timed on both daemons:
        {"from_rest": [...], "spaced": [...], "smooth": [...], "seed": ...}."""
        a = self.args
        daemons = [self.ours] + ([self.isp] if self.isp else [])
        rng = random.Random(a.seed)
        current = "portrait"
        self.rig.accel.set_pose(current)
        rest = []
        for i in range(rest_rotations):
            log("reaction from rest %d/%d (%g s still first)" % (i + 1, rest_rotations, a.rest))
            time.sleep(a.rest)
            target, since, written = self.rotate(current, rng)
            rest.append({"to": target, **self.react(daemons, target, since, written,
                                                    time.monotonic() + 4.0)})
            current = target
        log("reaction: %d quarter turns 1.5-3 s apart (+1 warm-up)" % rotations)
        spaced = []
        for i in range(rotations + 1):
            spacing = rng.uniform(1.5, 3.0)
            target, since, written = self.rotate(current, rng)
            began = time.monotonic()
            result = {"to": target, "spacing_s": spacing,
                      **self.react(daemons, target, since, written, began + 4.0)}
            if i > 0:
                spaced.append(result)
            current = target
            delay = began + spacing - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        smooth = []
        log("reaction: %d smooth quarter turns by hand (0.3-0.6 s), 2 s apart" % rotations)
        current = hand_turn(self.rig.accel, current, 1, 0.45)  # warm-up: both sample fast from here
        time.sleep(2.0)
        for i in range(rotations):
            duration = HAND_TURNS[i % len(HAND_TURNS)]
            since = self.monitor.mark()
            target = hand_turn(self.rig.accel, current, rng.choice((1, -1)), duration)
            ended = time.time()  # counted from the end of the turn: negative when decided before it
            result = {"to": target, "duration_s": duration,
                      **self.react(daemons, target, since, ended, time.monotonic() + 4.0)}
            smooth.append(result)
            current = target
            time.sleep(2.0)
        self.rig.accel.set_pose("portrait")
        return {"from_rest": rest, "spaced": spaced, "smooth": smooth, "seed": a.seed}

    # -- spurious changes

    def wait_orientation(self, daemon, expected, timeout=6.0):
        try:
            rig.wait_until(lambda: daemon.orientation() == expected, timeout, interval=0.1,
                           what="%s == %s" % (daemon.label, expected))
            return True
        except rig.RigError:
            return False

    def measure_spurious(self):
        a = self.args
        daemons = [self.ours] + ([self.isp] if self.isp else [])
        expected_all = read_expected(self.traces / "expected.txt")
        out = {}
        for label, name in SPURIOUS_TRACES:
            samples = read_trace(self.traces / (name + ".csv"), a.trace_seconds)
            expected = expected_all[name]
            self.rig.accel.set_gravity(*samples[0][1:])
            per = {}
            settled = {}
            for d in daemons:
                names = [d.name_for(e) for e in expected]
                names = [n for n in names if n is not None]
                names = [n for k, n in enumerate(names) if k == 0 or names[k - 1] != n]
                per[d.label] = names
                settled[d.label] = self.wait_orientation(d, names[0])
            time.sleep(0.5)
            log("spurious: replaying %s (%.1f s)" % (name, samples[-1][0] - samples[0][0]))
            since = self.monitor.mark()
            replay(self.rig.accel, samples)
            time.sleep(1.5)  # the last decisions (face-up after the impact) and a last poll
            result = {"seconds": samples[-1][0] - samples[0][0]}
            for d in daemons:
                observed = [n for _, n in d.changes(self.monitor, since)]
                want = per[d.label][1:]
                matched = 0
                for n in observed:
                    if matched < len(want) and n == want[matched]:
                        matched += 1
                result[d.label] = {"observed": observed, "expected": want,
                                   "spurious": len(observed) - matched,
                                   "missed": len(want) - matched,
                                   "settled_before": settled[d.label]}
            out[label] = result
        self.results["spurious"] = out
        self.rig.accel.set_pose("portrait")

    # -- everything

    def open_rig(self):
        self.rig = self.make_rig()
        self.monitor = self.rig.monitor()
        self.ours = Ours(self.rig)
        self.isp = SensorProxy(self.rig) if self.have_isp else None

    def run_day_only(self):
        """--day-only: the mixed-day workloads and their variants, nothing else."""
        for binary in (self.daemon_binary, self.client_binary):
            if not os.access(binary, os.X_OK):
                raise SystemExit("bench: %s is missing (make build)" % binary)
        if not self.have_isp:
            self.failures.append("iio-sensor-proxy or monitor-sensor is not installed")
        self.open_rig()
        try:
            day.measure(self)
        finally:
            self.rig.close()
            os.rmdir(self.workdir)

    def run(self):
        if self.args.day_only:
            self.run_day_only()
            return
        # The figures are the shipped daemon's: a plain `swift build -c release` one is refused.
        if os.access(self.daemon_binary, os.X_OK):
            try:
                rig.require_static_swift(self.daemon_binary)
            except rig.WrongBuild as err:
                raise SystemExit("bench: %s" % err) from None
        offline.run_estimator_bench(self)
        offline.binary_sizes(self)
        offline.estimator_step_delay(self)
        for binary in (self.daemon_binary, self.client_binary):
            if not os.access(binary, os.X_OK):
                raise SystemExit("bench: %s is missing (make build)" % binary)
        if not self.have_isp:
            self.failures.append("iio-sensor-proxy or monitor-sensor is not installed")
        if not self.have_strace:
            log("strace not found: sensor reads per second and CPU per sample are n/a")
        self.open_rig()
        try:
            log("start-up: %d starts of each daemon" % self.args.starts)
            self.measure_startup(self.rig, self.monitor)
            for index in range(self.args.runs):
                self.run_once(index + 1, first=(index == 0))
            if self.args.day_seconds > 0:
                day.measure(self)
        finally:
            self.rig.close()
            try:
                os.rmdir(self.workdir)
            except OSError:
                pass
        # Its own rig: the hub's one device node cannot feed both daemons at once.
        change_only.measure(self)
        tablet.measure(self)
