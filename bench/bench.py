#!/usr/bin/python3
"""make bench: motion-orientationd measured side by side with iio-sensor-proxy.

    /usr/bin/python3 bench/bench.py [--quick] [--runs N] [--output PATH] [--minute SECONDS]

Both daemons run at the same time on one umockdev testbed (one fake IIO accelerometer,
values written in place at up to 50 Hz), one private system bus (the integration rig of
Tests/integration/rig.py), and see the same motion. iio-sensor-proxy (Debian's
/usr/sbin/iio-sensor-proxy) is given the udev property its own rule would set
(IIO_SENSOR_PROXY_TYPE=iio-poll-accel) and claimed by its own client, `monitor-sensor`;
ours is claimed with Start() by a rig BusClient. Every bus message is read by
`busctl monitor`, whose receive timestamps (CLOCK_REALTIME, microseconds) time the
reactions against the moment the bench wrote the new reading.

What it measures (DESIGN.md section 6, issue 8; low energy rows for issue 4):
  * reaction: a step quarter turn written into sysfs -> DeviceOrientationChanged (ours) /
    PropertiesChanged AccelerometerOrientation (theirs). "spaced": turns 1.5-3 s apart
    (seeded), after one unmeasured warm-up turn, i.e. a user turning the device now and
    then; "from rest": the device still for --rest seconds (default 10) before the turn.
  * spurious orientation changes while the corpus traces Tests/traces/{shake-portrait,
    walking-landscape,free-fall-impact,dwell-45-tremor}.csv are replayed at their 50 Hz:
    changes beyond the ones Tests/traces/expected.txt lists (mapped to iio-sensor-proxy's
    names for theirs, which has no face-up/face-down orientation).
  * wakeups/s (voluntary context switches summed over /proc/PID/task/*/status) and CPU
    ms/s (sum_exec_runtime of /proc/PID/task/*/schedstat; utime+stime ticks in the JSON
    too) over --window seconds: no claim; claimed and still; claimed and moving (a slow
    continuous rotation, 60 deg/s, leaning back 20 deg, 0.03 g noise); the same two claimed
    windows again with our low energy mode forced on ([Energy] LowEnergyMode=on, SIGHUP).
    Nothing talks to the daemons during these windows.
  * sensor reads/s (one read = the x, y and z channel files once): `strace -f -y` attached
    for a shorter window right after each claimed window, in the same state, counting
    read/pread64 calls on in_accel_x_raw. Optional: n/a without strace.
  * CPU microseconds per sample: CPU while moving / sensor reads while moving.
  * VmRSS idle (2 s after start) and after --minute seconds claimed; both daemons under
    umockdev's preload (which maps glib and umockdev into both), ours also without the
    preload (real /sys, so no accelerometer here) as a separate row.
  * start-up: exec -> the bus name's NameOwnerChanged at the monitor, --starts times each.
  * estimator-bench --json Tests/traces: throughput and the corpus table (its text output
    is printed first, as `make bench` always did).
  * binary sizes (and with their non-libc shared libraries).

Noisy figures are shown as "median [min-max]" over --runs fresh starts of both daemons
(default 3); reactions and spurious counts are pooled from the first run. It asserts
nothing; the exit status is 1 only when something could not be measured at all.
"""

import argparse
import json
import math
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "Tests" / "integration"))

import rig  # noqa: E402  (the integration rig: testbed, private bus, daemon, monitor)

G = rig.G
ISP_BINARY = "/usr/sbin/iio-sensor-proxy"
ISP_NAME = "net.hadess.SensorProxy"
ISP_PATH = "/net/hadess/SensorProxy"
MONITOR_SENSOR = "/usr/bin/monitor-sensor"
# Our device orientation -> iio-sensor-proxy's AccelerometerOrientation (DESIGN.md section 3).
ISP_NAMES = {"portrait": "normal", "portrait-upside-down": "bottom-up",
             "landscape-left": "right-up", "landscape-right": "left-up"}
# The four upright poses in clockwise order: a quarter turn moves one step.
RING = ["portrait", "landscape-right", "portrait-upside-down", "landscape-left"]
SPURIOUS_TRACES = [("shake", "shake-portrait"), ("walking bounce", "walking-landscape"),
                   ("free fall + impact", "free-fall-impact"), ("45 deg dwell", "dwell-45-tremor")]


def log(message):
    sys.stderr.write("[bench %6.1fs] %s\n" % (time.monotonic() - STARTED, message))
    sys.stderr.flush()


STARTED = time.monotonic()


# ---------------------------------------------------------------------------
# /proc


def proc_counters(pid):
    """Voluntary/involuntary context switches and CPU of every thread of pid, and VmRSS."""
    voluntary = involuntary = cpu_ns = 0
    for task in Path("/proc/%d/task" % pid).iterdir():
        try:
            status = (task / "status").read_text()
            sched = (task / "schedstat").read_text().split()
        except OSError:
            continue  # the thread just ended
        voluntary += int(re.search(r"^voluntary_ctxt_switches:\s*(\d+)", status, re.M).group(1))
        involuntary += int(re.search(r"^nonvoluntary_ctxt_switches:\s*(\d+)", status, re.M).group(1))
        cpu_ns += int(sched[0])
    stat = Path("/proc/%d/stat" % pid).read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])  # utime + stime
    return {"time": time.monotonic(), "voluntary": voluntary, "involuntary": involuntary,
            "cpu_ns": cpu_ns, "ticks": ticks, "threads": len(list(Path("/proc/%d/task" % pid).iterdir()))}


def rss_kib(pid):
    status = Path("/proc/%d/status" % pid).read_text()
    out = {}
    for key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
        m = re.search(r"^%s:\s*(\d+) kB" % key, status, re.M)
        out[key] = int(m.group(1)) if m else None
    return out


def rss_breakdown(pid, top=8):
    """Resident KiB per mapping name (file, [heap], [anon]...), largest first."""
    sizes = {}
    name = None
    try:
        lines = Path("/proc/%d/smaps" % pid).read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        parts = line.split()
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            name = parts[5] if len(parts) > 5 else "[anon]"
            name = os.path.basename(name) if name.startswith("/") else name
        elif parts and parts[0] == "Rss:" and name is not None:
            sizes[name] = sizes.get(name, 0) + int(parts[1])
    return sorted(sizes.items(), key=lambda kv: -kv[1])[:top]


def rates(before, after):
    elapsed = after["time"] - before["time"]
    return {"seconds": elapsed,
            "wakeups": (after["voluntary"] - before["voluntary"]) / elapsed,
            "involuntary": (after["involuntary"] - before["involuntary"]) / elapsed,
            "cpu_ms": (after["cpu_ns"] - before["cpu_ns"]) / 1e6 / elapsed,
            "cpu_ms_ticks": (after["ticks"] - before["ticks"]) * 1000.0
            / os.sysconf("SC_CLK_TCK") / elapsed}


# ---------------------------------------------------------------------------
# the daemons


class Ours:
    label = "motion-orientationd"
    bus_name = rig.BUS_NAME

    def __init__(self, r):
        self.rig = r
        self.daemon = r.daemon
        self.claim = None

    @property
    def pid(self):
        return self.daemon.pid

    def start(self):
        self.daemon.start()

    def stop(self):
        self.release()
        self.daemon.stop()

    def claim_sensor(self):
        self.claim = self.rig.bus_client(start=True)

    def release(self):
        if self.claim is not None:
            self.claim.close()
            self.claim = None

    def orientation(self):
        return self.rig.get_property("DeviceOrientation")

    def changes(self, monitor, since):
        """Device orientation changes on the bus from `since` on: [(timestamp s, name)]."""
        with monitor._cond:
            messages = monitor.messages[since:]
        return [(m["timestamp-realtime"] / 1e6, m["payload"]["data"][0]) for m in messages
                if m.get("type") == "signal" and m.get("path") == rig.OBJECT_PATH
                and m.get("member") == "DeviceOrientationChanged"]

    def name_for(self, device):
        return device


class SensorProxy:
    """iio-sensor-proxy under the same preload and bus; claimed by monitor-sensor."""
    label = "iio-sensor-proxy"
    bus_name = ISP_NAME

    def __init__(self, r):
        self.rig = r
        self.env = r.bus.env()
        self.env["LD_PRELOAD"] = "libumockdev-preload.so.0"
        self.env["UMOCKDEV_DIR"] = str(r.umockdev_dir)
        self.log_path = r.tmp / "iio-sensor-proxy.log"
        self.proc = None
        self.claim = None

    @property
    def pid(self):
        return self.proc.pid

    def start(self, timeout=5.0):
        with open(self.log_path, "ab") as out:
            self.proc = rig.spawn([ISP_BINARY], env=self.env, stdout=out, stderr=out)
        rig.wait_until(lambda: self.proc.poll() is not None or self.rig.bus.name_has_owner(ISP_NAME),
                       timeout, what="iio-sensor-proxy on the bus")
        if self.proc.poll() is not None:
            raise rig.RigError("iio-sensor-proxy exited with %s:\n%s"
                               % (self.proc.returncode, self.log_path.read_text(errors="replace")))

    def stop(self):
        self.release()
        if self.proc is not None:
            rig.kill_process(self.proc)
            self.proc = None
        rig.wait_until(lambda: not self.rig.bus.name_has_owner(ISP_NAME), 5,
                       what="iio-sensor-proxy off the bus")

    def claim_sensor(self):
        self.claim = rig.spawn([MONITOR_SENSOR], env=self.rig.bus.env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def release(self):
        if self.claim is not None:
            rig.kill_process(self.claim)
            self.claim = None

    def orientation(self):
        result = self.rig.busctl("get-property", ISP_NAME, ISP_PATH, ISP_NAME,
                                 "AccelerometerOrientation")
        return json.loads(result.stdout)["data"]

    def changes(self, monitor, since):
        with monitor._cond:
            messages = monitor.messages[since:]
        out = []
        for m in messages:
            if (m.get("type") == "signal" and m.get("path") == ISP_PATH
                    and m.get("member") == "PropertiesChanged"):
                changed = m["payload"]["data"][1]
                if "AccelerometerOrientation" in changed:
                    out.append((m["timestamp-realtime"] / 1e6,
                                changed["AccelerometerOrientation"]["data"]))
        return out

    def name_for(self, device):
        return ISP_NAMES.get(device)


# ---------------------------------------------------------------------------
# motion


def pose_vector(turn_degrees, lean_degrees=0.0):
    """Gravity for a device turned clockwise from portrait and leaning back (DESIGN frame)."""
    a, t = math.radians(turn_degrees), math.radians(lean_degrees)
    return (G * math.cos(t) * math.sin(a), -G * math.cos(t) * math.cos(a), -G * math.sin(t))


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


# ---------------------------------------------------------------------------
# sensor reads with strace


def count_sensor_reads(pid, seconds, workdir, tag):
    """Samples (reads of in_accel_x_raw) per second, with strace attached for `seconds`.

    The rate is taken between the first and the last read seen, (n - 1) / span, so a
    700 ms poll is not rounded to whole reads per window."""
    out = Path(workdir) / ("strace-%s-%d.txt" % (tag, pid))
    proc = rig.spawn(["strace", "-f", "-y", "-ttt", "-qq", "-e", "trace=read,pread64", "-o", out,
                      "-p", pid], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # strace prints nothing when attached with -qq: give it a moment to attach every thread.
    time.sleep(0.3)
    if proc.poll() is not None:
        raise RuntimeError("strace failed: %s" % proc.stderr.read().decode(errors="replace").strip())
    started = time.monotonic()
    time.sleep(seconds)
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    elapsed = time.monotonic() - started
    per_channel = {"x": 0, "y": 0, "z": 0}
    times = []
    for line in out.read_text(errors="replace").splitlines():
        m = re.search(r"^\d+\s+([\d.]+)\s+(?:read|pread64)\(\d+<[^>]*in_accel_([xyz])_raw>", line)
        if m:
            per_channel[m.group(2)] += 1
            if m.group(2) == "x":
                times.append(float(m.group(1)))
    out.unlink()
    rig.kill_process(proc)
    if len(times) >= 2 and times[-1] > times[0]:
        rate = (len(times) - 1) / (times[-1] - times[0])
    else:
        rate = len(times) / elapsed
    return {"reads_per_s": rate, "channel_reads": per_channel, "seconds": elapsed}


# ---------------------------------------------------------------------------
# statistics and formatting


def stats(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values),
            "n": len(values), "values": values}


def central(value):
    if value is None:
        return None
    if isinstance(value, dict):
        return value["median"]
    return value


def fmt_number(v, digits):
    if v is None:
        return "n/a"
    if isinstance(v, str):
        return v
    if abs(v) >= 1e6:
        return "%.2fM" % (v / 1e6)
    if digits == 0 or abs(v) >= 1000:
        return "%.0f" % v
    return "%.*f" % (digits, v)


def fmt(value, digits=1):
    if value is None:
        return "n/a"
    if isinstance(value, dict):
        if value["n"] > 1 and value["min"] != value["max"]:
            return "%s [%s-%s]" % (fmt_number(value["median"], digits),
                                   fmt_number(value["min"], digits),
                                   fmt_number(value["max"], digits))
        return fmt_number(value["median"], digits)
    return fmt_number(value, digits)


class Table:
    def __init__(self):
        self.rows = []
        self.missing = []

    def add(self, key, label, unit, ours, isp=None, digits=1, target=None, met=None,
            ratio=True, required=True, note=None):
        o, i = central(ours), central(isp)
        r = None
        if ratio and isinstance(o, (int, float)) and isinstance(i, (int, float)) and i:
            r = o / i
        if required and ours is None:
            self.missing.append(label)
        row = {"key": key, "label": label, "unit": unit, "ours": ours, "isp": isp, "ratio": r,
               "target": target, "met": met, "digits": digits}
        if note:
            row["note"] = note
        self.rows.append(row)

    def render(self):
        header = ("figure", "unit", "motion-orientationd", "iio-sensor-proxy", "ratio", "target")
        lines = []
        for row in self.rows:
            if row.get("section"):
                lines.append(("-- %s" % row["section"], "", "", "", "", ""))
                continue
            target = row["target"] or ""
            if row["met"] is not None:
                target = "%s %s" % (target, "ok" if row["met"] else "MISSED")
            lines.append((row["label"], row["unit"], fmt(row["ours"], row["digits"]),
                          "-" if row["isp"] is None else fmt(row["isp"], row["digits"]),
                          "-" if row["ratio"] is None else "%.2f" % row["ratio"], target.strip()))
        widths = [max(len(str(x[c])) for x in lines + [header]) for c in range(len(header))]
        out = []
        sep = "  "
        out.append(sep.join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
        out.append(sep.join("-" * w for w in widths))
        for line in lines:
            if line[0].startswith("-- "):
                out.append(line[0])
                continue
            cells = [str(line[0]).ljust(widths[0]), line[1].ljust(widths[1]),
                     line[2].rjust(widths[2]), line[3].rjust(widths[3]),
                     line[4].rjust(widths[4]), line[5]]
            out.append(sep.join(cells).rstrip())
        return "\n".join(out)

    def section(self, title):
        self.rows.append({"section": title})

    def json_rows(self):
        return [{k: v for k, v in row.items() if k != "digits"} for row in self.rows]


# ---------------------------------------------------------------------------
# the phases


class Bench:
    def __init__(self, args):
        self.args = args
        self.build = Path(args.build_dir)
        self.daemon_binary = self.build / "motion-orientationd"
        self.client_binary = self.build / "motion-orientation"
        self.estimator_bench = self.build / "estimator-bench"
        self.traces = REPO / "Tests" / "traces"
        self.results = {"runs": [], "startup": {}, "reaction": {}, "spurious": {}}
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
        before = {d.label: proc_counters(d.pid) for d in daemons}
        time.sleep(seconds)
        after = {d.label: proc_counters(d.pid) for d in daemons}
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
            self.measure_reactions()
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

    def measure_reactions(self):
        a = self.args
        daemons = [self.ours] + ([self.isp] if self.isp else [])
        rng = random.Random(a.seed)
        current = "portrait"
        self.rig.accel.set_pose(current)
        rest = []
        for i in range(a.rest_rotations):
            log("reaction from rest %d/%d (%g s still first)" % (i + 1, a.rest_rotations, a.rest))
            time.sleep(a.rest)
            target, since, written = self.rotate(current, rng)
            rest.append({"to": target, **self.react(daemons, target, since, written,
                                                    time.monotonic() + 4.0)})
            current = target
        log("reaction: %d quarter turns 1.5-3 s apart (+1 warm-up)" % a.rotations)
        spaced = []
        for i in range(a.rotations + 1):
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
        self.results["reaction"] = {"from_rest": rest, "spaced": spaced, "seed": a.seed}
        self.rig.accel.set_pose("portrait")

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

    # -- static figures

    def run_estimator_bench(self):
        if not os.access(self.estimator_bench, os.X_OK):
            self.failures.append("estimator-bench missing at %s" % self.estimator_bench)
            return
        text = subprocess.run([self.estimator_bench, self.traces], capture_output=True, text=True)
        print("== estimator-bench %s" % self.traces.relative_to(REPO))
        print(text.stdout.rstrip())
        if text.returncode != 0:
            print("(estimator-bench exited with %d: a trace missed its expected outcome)"
                  % text.returncode)
        print()
        sys.stdout.flush()
        result = subprocess.run([self.estimator_bench, "--json", self.traces],
                                capture_output=True, text=True)
        try:
            self.results["estimator"] = json.loads(result.stdout)
        except ValueError:
            self.failures.append("estimator-bench --json gave no JSON")

    def estimator_step_delay(self):
        """The pure estimator's delay from the first sample that sees a step quarter turn to
        its decision, the samples before it 40 ms or 700 ms apart (moving or still rate; 40 ms
        after it), replayed with the client's `replay` (the daemon's estimator and settings).
        In the daemon the wait for that first sample (up to one interval) comes on top."""
        out = {}
        for key, interval in (("fast", 0.04), ("still", 0.7)):
            path = self.workdir / ("step-%s.csv" % key)
            lines = ["t,x,y,z"]
            t = 0.0
            while t < 4.0 - 1e-9:
                lines.append("%.3f,0,%.5f,0" % (t, -G))
                t += interval
            step = t  # the first sample that sees the turn
            while t < 8.0:
                lines.append("%.3f,%.5f,0,0" % (t, G))
                t += 0.04  # the daemon samples fast once it sees the motion
            path.write_text("\n".join(lines) + "\n")
            result = subprocess.run([self.client_binary, "replay", path], capture_output=True,
                                    text=True)
            path.unlink()
            decided = [float(line.split(",")[0]) for line in result.stdout.splitlines()
                       if line.endswith(",landscape-right,landscape-left")]
            out[key] = (decided[0] - step) * 1000 if decided else None
        self.results["estimator_step_delay_ms"] = out

    def binary_sizes(self):
        def libs(path):
            try:
                text = subprocess.run(["ldd", str(path)], capture_output=True, text=True).stdout
            except OSError:
                return {}
            found = {}
            for line in text.splitlines():
                m = re.search(r"=>\s*(/\S+)", line)
                if m and not re.search(r"/(libc|libm|ld-linux[^/]*)\.so", m.group(1)):
                    found[os.path.basename(m.group(1))] = os.path.getsize(m.group(1))
            return found
        out = {}
        for key, path in (("daemon", self.daemon_binary), ("client", self.client_binary),
                          ("isp", Path(ISP_BINARY))):
            if path.exists():
                shared = libs(path)
                out[key] = {"path": str(path), "bytes": path.stat().st_size,
                            "shared_libs": shared,
                            "with_libs_bytes": path.stat().st_size + sum(shared.values())}
        self.results["binaries"] = out

    # -- everything

    def run(self):
        self.run_estimator_bench()
        self.binary_sizes()
        self.estimator_step_delay()
        for binary in (self.daemon_binary, self.client_binary):
            if not os.access(binary, os.X_OK):
                raise SystemExit("bench: %s is missing (make build)" % binary)
        if not self.have_isp:
            self.failures.append("iio-sensor-proxy or monitor-sensor is not installed")
        if not self.have_strace:
            log("strace not found: sensor reads per second and CPU per sample are n/a")
        self.rig = self.make_rig()
        try:
            self.monitor = self.rig.monitor()
            self.ours = Ours(self.rig)
            self.isp = SensorProxy(self.rig) if self.have_isp else None
            log("start-up: %d starts of each daemon" % self.args.starts)
            self.measure_startup(self.rig, self.monitor)
            for index in range(self.args.runs):
                self.run_once(index + 1, first=(index == 0))
        finally:
            self.rig.close()
            try:
                os.rmdir(self.workdir)
            except OSError:
                pass

    # -- the table

    def table(self):
        R = self.results
        OURS, ISP = Ours.label, SensorProxy.label
        t = Table()
        runs = R["runs"]

        def per_run(phase, field, who):
            return stats([r[phase][who][field] for r in runs if who in r.get(phase, {})])

        def at_most(o, i, seconds):
            """o <= i within the resolution of a window (one event over it)."""
            if o is None or i is None:
                return None
            return o["median"] <= i["median"] + 1.0 / seconds

        def reads(phase, who):
            return stats([r[phase][who]["reads_per_s"] for r in runs if who in r.get(phase, {})])

        # reaction
        t.section("reaction: step quarter turn written to sysfs -> change on the bus")
        for kind, label in (("spaced", "turns 1.5-3 s apart"), ("from_rest", "from rest")):
            rows = R["reaction"].get(kind, [])
            for stat, name in (("median", "median"), ("max", "worst")):
                vals = {}
                for who in (OURS, ISP):
                    got = [x[who] for x in rows if x.get(who) is not None]
                    missed = sum(1 for x in rows if who in x and x[who] is None)
                    if not got:
                        vals[who] = None
                    elif stat == "median":
                        vals[who] = statistics.median(got)
                    else:
                        vals[who] = "missed %d" % missed if missed else max(got)
                target = met = None
                if stat == "median" and kind == "spaced":
                    target = "<= 0.5x theirs"
                    if isinstance(vals[OURS], float) and isinstance(vals[ISP], float):
                        met = vals[OURS] <= 0.5 * vals[ISP]
                t.add("reaction_%s_%s" % (kind, name), "%s, %s (n=%d)" % (name, label, len(rows)),
                      "ms", vals[OURS], vals[ISP], digits=0, target=target, met=met)
        floor = R.get("estimator_step_delay_ms", {})
        t.add("reaction_floor_fast", "  estimator alone, from the 1st sample seeing it, 40 ms rate", "ms",
              floor.get("fast"), None, digits=0, ratio=False, required=False)
        t.add("reaction_floor_still", "  estimator alone, from the 1st sample seeing it, 700 ms rate",
              "ms", floor.get("still"), None, digits=0, ratio=False, required=False)
        # spurious
        t.section("spurious orientation changes while replaying a trace (50 Hz)")
        for label, _ in SPURIOUS_TRACES:
            res = R["spurious"].get(label)
            if not res:
                t.add("spurious_" + label, label, "count", None, None)
                continue
            o = res[OURS]["spurious"]
            i = res[ISP]["spurious"] if ISP in res else None
            missed = res[OURS]["missed"]
            t.add("spurious_" + label.replace(" ", "_"),
                  "%s (%.0f s)%s" % (label, res["seconds"],
                                     ", ours missed %d expected" % missed if missed else ""),
                  "changes", o, i, digits=0, ratio=False, target="0", met=(o == 0))
        # energy
        t.section("energy (no bus traffic to the daemons during a window)")
        phases = (("idle", "no claim"), ("still", "claimed, still"),
                  ("moving", "claimed, moving (60 deg/s turn)"))
        for phase, label in phases:
            o, i = per_run(phase, "wakeups", OURS), per_run(phase, "wakeups", ISP)
            target = met = None
            if phase == "idle":
                target, met = "0", (o is not None and o["median"] == 0)
            elif phase == "still":
                target = "<= theirs"
                met = at_most(o, i, self.args.window)
            t.add("wakeups_" + phase, "wakeups, " + label, "1/s", o, i, digits=2,
                  target=target, met=met)
        for phase, label in phases:
            t.add("cpu_" + phase, "CPU, " + label, "ms/s", per_run(phase, "cpu_ms", OURS),
                  per_run(phase, "cpu_ms", ISP), digits=3)
        for phase, label in phases[1:]:
            o, i = reads(phase + "_reads", OURS), reads(phase + "_reads", ISP)
            target = met = None
            if phase == "still":
                target = "<= theirs"
                met = at_most(o, i, self.args.read_window)
            t.add("reads_" + phase, "sensor reads (x,y,z), " + label, "1/s", o, i, digits=2,
                  target=target, met=met, required=False)
        # CPU per sample while moving
        cpu_per_sample = {}
        for who in (OURS, ISP):
            vals = []
            for r in runs:
                if who in r.get("moving_reads", {}) and r["moving_reads"][who]["reads_per_s"]:
                    vals.append(r["moving"][who]["cpu_ms"] * 1000
                                / r["moving_reads"][who]["reads_per_s"])
            cpu_per_sample[who] = stats(vals)
        t.add("cpu_per_sample", "CPU per sample in the daemon, moving", "us",
              cpu_per_sample[OURS], cpu_per_sample[ISP], digits=1, required=False)
        t.section("low energy mode forced on (theirs has none: its normal figures)")
        for phase, label in (("le_still", "still"), ("le_moving", "moving")):
            t.add("wakeups_" + phase, "wakeups, low energy, " + label, "1/s",
                  per_run(phase, "wakeups", OURS), per_run(phase, "wakeups", ISP), digits=2)
            t.add("reads_" + phase, "sensor reads, low energy, " + label, "1/s",
                  reads(phase + "_reads", OURS), reads(phase + "_reads", ISP), digits=2,
                  required=False)
        # memory
        t.section("memory and start-up")

        def rss(key, who):
            return stats([r[key][who]["VmRSS"] / 1024 for r in runs if who in r.get(key, {})])
        for key, label in (("rss_idle", "VmRSS idle, umockdev preload"),
                           ("rss_claimed", "VmRSS after %.0f s claimed, preload" % self.args.minute)):
            o, i = rss(key, OURS), rss(key, ISP)
            t.add(key, label, "MiB", o, i, digits=2, target="<= theirs",
                  met=None if o is None or i is None else o["median"] <= i["median"])
        anon = {who: stats([r["rss_claimed"][who]["RssAnon"] / 1024 for r in runs
                            if who in r.get("rss_claimed", {})]) for who in (OURS, ISP)}
        t.add("rss_anon_claimed", "  of which anonymous (RssAnon), claimed", "MiB",
              anon[OURS], anon[ISP], digits=2)
        t.add("rss_nopreload", "VmRSS idle, ours without preload (no sensor)", "MiB",
              R.get("rss_nopreload"), None, digits=2, ratio=False)
        su = R["startup"]
        o = su.get("ours")
        t.add("startup", "exec -> name on the bus (n=%d)" % (o["n"] if o else 0), "ms", o,
              su.get("isp"), digits=1, target="<= 50 ms",
              met=None if o is None else o["median"] <= 50)
        t.add("startup_nopreload", "exec -> name on the bus, ours without preload", "ms",
              su.get("ours_nopreload"), None, digits=1, ratio=False)
        # estimator
        t.section("estimator and binaries")
        est = R.get("estimator", {}).get("throughput")
        t.add("estimator_rate", "estimator throughput (pure core)", "samples/s",
              est and est["samplesPerSecond"], None, digits=0, target=">= 1M",
              met=None if not est else est["samplesPerSecond"] >= 1e6)
        t.add("estimator_ns", "estimator time per sample", "ns",
              est and est["nanosecondsPerSample"], None, digits=1)
        traces = R.get("estimator", {}).get("traces", [])
        if traces:
            ok = sum(1 for x in traces if x.get("ok"))
            t.add("corpus", "trace corpus: expected outcome met", "traces",
                  "%d/%d" % (ok, len(traces)), None, ratio=False)
        b = R.get("binaries", {})

        def size(key, field):
            return b[key][field] / 1024 if key in b else None
        t.add("size_daemon", "binary size, daemon (static Swift stdlib)", "KiB",
              size("daemon", "bytes"), size("isp", "bytes"), digits=0)
        t.add("size_daemon_libs", "  with its non-libc shared libraries", "KiB",
              size("daemon", "with_libs_bytes"), size("isp", "with_libs_bytes"), digits=0)
        t.add("size_client", "binary size, client (motion-orientation)", "KiB",
              size("client", "bytes"), None, digits=0, ratio=False)
        return t


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run (about 2 minutes): 1 run, short windows, fewer turns")
    parser.add_argument("--runs", type=int, help="fresh starts of both daemons (default 3)")
    parser.add_argument("--output", default=str(HERE / "results.json"),
                        help="JSON results (default bench/results.json)")
    parser.add_argument("--minute", type=float,
                        help="seconds claimed before the claimed VmRSS (default 60)")
    parser.add_argument("--window", type=float, help="seconds per energy window (default 10)")
    parser.add_argument("--read-window", type=float,
                        help="seconds per strace window counting sensor reads (default 5)")
    parser.add_argument("--rotations", type=int, help="measured spaced quarter turns (default 24)")
    parser.add_argument("--rest-rotations", type=int, help="turns from rest (default 4)")
    parser.add_argument("--rest", type=float, default=10.0,
                        help="seconds still before each turn from rest (default 10)")
    parser.add_argument("--starts", type=int, help="starts of each daemon timed (default 10)")
    parser.add_argument("--trace-seconds", type=float,
                        help="replay at most this much of each trace (default: all)")
    parser.add_argument("--seed", type=int, default=8, help="seed of the turn schedule")
    parser.add_argument("--build-dir", default=os.environ.get("MO_BUILD_DIR",
                                                              str(REPO / ".build" / "release")),
                        help="where motion-orientationd, motion-orientation, estimator-bench are")
    args = parser.parse_args()
    quick = args.quick
    defaults = {"runs": 1 if quick else 3, "minute": 15.0 if quick else 60.0,
                "window": 3.0 if quick else 10.0, "read_window": 2.0 if quick else 5.0,
                "rotations": 6 if quick else 24, "rest_rotations": 1 if quick else 4,
                "starts": 3 if quick else 10, "trace_seconds": 8.0 if quick else None}
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    args.settle = 6.5  # our motion linger is 5 s: still for longer than that
    bench = Bench(args)
    try:
        bench.run()
    except Exception as err:  # noqa: BLE001 - still print what was measured
        import traceback
        traceback.print_exc()
        bench.failures.append("%s: %s" % (type(err).__name__, err))
        log("FAILED: %s" % err)
    table = bench.table()
    print("== motion-orientationd vs iio-sensor-proxy (same umockdev device, same private bus, "
          "same motion)")
    print("   value: median [min-max] over %d run(s); ratio = ours / theirs; %s"
          % (args.runs, "quick mode" if quick else "default mode"))
    print(table.render())
    R = bench.results
    runs = R["runs"]
    if runs:
        top = runs[0]["rss_breakdown_claimed"].get(Ours.label, [])[:5]
        print("   our VmRSS by mapping (claimed, KiB): "
              + ", ".join("%s %d" % (n, k) for n, k in top))
        top = runs[0]["rss_breakdown_claimed"].get(SensorProxy.label, [])[:5]
        if top:
            print("   theirs (claimed, KiB): " + ", ".join("%s %d" % (n, k) for n, k in top))
    if R.get("rss_breakdown_nopreload"):
        print("   ours without preload (KiB): " + ", ".join(
            "%s %d" % (n, k) for n, k in R["rss_breakdown_nopreload"][:5]))
    for label, res in R.get("spurious", {}).items():
        parts = []
        for who in (Ours.label, SensorProxy.label):
            if who in res:
                parts.append("%s %s" % (who, ">".join(res[who]["observed"]) or "(none)"))
        print("   %s changes: %s" % (label, "; ".join(parts)))
    missing = table.missing + bench.failures
    output = {"generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "args": {k: v for k, v in vars(args).items()},
              "table": table.json_rows(), "details": R, "missing": missing}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(output, indent=1, default=str) + "\n")
    print("   JSON: %s  (%.0f s)" % (args.output, time.monotonic() - STARTED))
    if missing:
        print("bench: could not measure: %s" % "; ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
