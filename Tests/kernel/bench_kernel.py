#!/usr/bin/python3
"""make bench-kernel (inside the VM that Tests/kernel/run.py --bench boots): motion-orientationd
and iio-sensor-proxy, one after the other, on the same emulated HID sensor hub with the real
hid-sensor-accel-3d driver, as each hub behaviour of HUB_BEHAVIOURS. Per daemon and hub: the
daemon's wakeups (voluntary context switches) while claimed and still, the hub's input
reports meanwhile, the report interval the daemon left the hub at, the time from a turn to a
client seeing it from rest (after the still period) and while in use (turns half a second after
the last was seen), and the daemon's CPU time per input report while the hub moves without a
turn. Each client is a line-by-line monitor (`motion-orientation monitor --device`,
`monitor-sensor`), so both reactions are timed alike. TCG makes times slow; compare the two
daemons, not the figures with a real machine. Writes a table to stdout and JSON to
$MO_KERNEL_RESULTS/bench.json."""

import json
import math
import os
import pwd
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "integration"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

import vmrig  # noqa: E402
from bench.procfs import Counting  # noqa: E402
from rig import (PERMISSIVE_POLICY, POSES, LineReader, SystemBus,  # noqa: E402
                 kill_process, spawn, wait_until)
from rig.uhid_hub import SensorHub  # noqa: E402

IIO_SENSOR_PROXY = "/usr/sbin/iio-sensor-proxy"
STILL_SECONDS = 10.0
SETTLE_SECONDS = 3.0
# While in use: turns between these poses, each half a second after the last was seen.
IN_USE_TURNS = ["portrait", "landscape-left", "portrait", "landscape-left"]
IN_USE_PAUSE = 0.5
# Moving without a turn: the hand rocks the device +-25 degrees about portrait at 0.5 Hz, the
# pose updated at 25 Hz (a change-only hub reports each update).
MOVING_SECONDS = 10.0
MOVING_UPDATE_HZ = 25.0


# The hub behaviours of the firmware matrix (docs/testing.md): change-only with a sensitivity
# of 5 counts and with one that reads 0 (it goes quiet when still all the same), reporting
# nothing until a rate is written; streaming at 100 ms, keeping its old schedule for a report
# after a rate change.
HUB_BEHAVIOURS = [
    ("change-only", dict(change_only=True, interval_ms=0)),
    ("change-only-0", dict(change_only=True, sensitivity=0, interval_ms=0)),
    ("streaming", dict(change_only=False, interval_ms=100)),
]


def measure_still(counting, pid, hub):
    """Wakeups and hub reports while claimed and still. `counting` (bench.procfs) keeps the
    switches of threads that end meanwhile (iio-sensor-proxy's GLib pool thread does)."""
    time.sleep(SETTLE_SECONDS)
    before, reports = counting.read(pid)["voluntary"], hub.input_reports
    time.sleep(STILL_SECONDS)
    return {"wakeups_per_s": (counting.read(pid)["voluntary"] - before) / STILL_SECONDS,
            "hub_reports_per_s": (hub.input_reports - reports) / STILL_SECONDS,
            "report_interval_ms": hub.interval_ms}


def syscalls(pid):
    """The read and write system calls of pid's threads so far (/proc/PID/io, dead threads
    included)."""
    fields = dict(line.split(": ") for line in Path("/proc/%d/io" % pid).read_text().splitlines())
    return int(fields["syscr"]) + int(fields["syscw"])


def measure_use(counting, pid, hub, turn_seen):
    """From rest (after measure_still), then while in use, then CPU per report while moving.
    turn_seen(pose) returns once the client has seen the device turn to pose."""
    started = time.monotonic()
    hub.set_gravity(*POSES["landscape-left"])
    turn_seen("landscape-left")
    row = {"turn_seen_s": time.monotonic() - started}
    seen = []
    for pose in IN_USE_TURNS:
        time.sleep(IN_USE_PAUSE)
        started = time.monotonic()
        hub.set_gravity(*POSES[pose])
        turn_seen(pose)
        seen.append(time.monotonic() - started)
    row["in_use_turn_s"] = sorted(seen)[len(seen) // 2]
    time.sleep(IN_USE_PAUSE)
    cpu, calls, reports = counting.read(pid)["cpu_ns"], syscalls(pid), hub.input_reports
    g = math.hypot(*POSES["portrait"])
    start = time.monotonic()
    while (now := time.monotonic()) - start < MOVING_SECONDS:
        angle = math.radians(25.0) * math.sin(2 * math.pi * 0.5 * (now - start))
        hub.set_gravity(-g * math.sin(angle), -g * math.cos(angle), 0.0)
        time.sleep(1.0 / MOVING_UPDATE_HZ)
    reports = hub.input_reports - reports
    row["cpu_per_report_us"] = (counting.read(pid)["cpu_ns"] - cpu) / max(reports, 1) / 1e3
    row["io_calls_per_report"] = (syscalls(pid) - calls) / max(reports, 1)
    row["moving_feature_requests"] = sum(1 for at, kind, _ in list(hub.events)
                                         if at >= start and kind in ("get-report", "set-feature"))
    row["moving_reports_per_s"] = reports / MOVING_SECONDS
    return row


def ours(hub, tmp):
    rig = vmrig.KernelRig(tmp)
    monitor = None
    try:
        rig.start_daemon()
        with Counting([rig.proc.pid]) as counting:
            nobody = pwd.getpwnam("nobody")
            monitor = spawn(["setpriv", "--reuid=%d" % nobody.pw_uid, "--regid=%d" % nobody.pw_gid,
                             "--clear-groups", str(rig.client_binary), "monitor", "--device"],
                            env=rig.bus.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            lines = LineReader(monitor)

            def turn_seen(pose):
                lines.expect(lambda line: line.strip() == "device " + pose, 30,
                             what="motion-orientation monitor: device " + pose)
            turn_seen("portrait")
            row = measure_still(counting, rig.proc.pid, hub)
            row.update(measure_use(counting, rig.proc.pid, hub, turn_seen))
            # What the daemon said of the hub (its cadence, the plan), for the JSON.
            row["log"] = [line for line in rig.log().splitlines()
                          if "sampling" in line or "reading" in line or "polling" in line
                          or "silent" in line][:60]
            return row
    finally:
        if monitor is not None:
            kill_process(monitor)
        rig.close()


def theirs(hub, tmp):
    bus = SystemBus(tmp / "bus-proxy", policy=PERMISSIVE_POLICY).start()
    proxy = monitor = None
    try:
        proxy = spawn([IIO_SENSOR_PROXY], env=bus.env(), stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL)
        with Counting([proxy.pid]) as counting:
            wait_until(lambda: bus.name_has_owner("net.hadess.SensorProxy"), 30,
                       what="iio-sensor-proxy on the bus")
            monitor = spawn(["stdbuf", "-oL", "monitor-sensor"], env=bus.env(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            lines = LineReader(monitor)
            lines.expect(lambda line: "orientation: normal" in line or "changed: normal" in line, 30,
                         what="monitor-sensor: normal")
            names = {"portrait": "normal", "landscape-left": "right-up"}

            def turn_seen(pose):
                lines.expect(lambda line: "changed: " + names[pose] in line, 30,
                             what="monitor-sensor: " + names[pose])
            row = measure_still(counting, proxy.pid, hub)
            row.update(measure_use(counting, proxy.pid, hub, turn_seen))
            return row
    finally:
        for proc in (monitor, proxy):
            if proc is not None:
                kill_process(proc)
        bus.stop()


def main():
    vmrig.install_system_files()
    rows = []
    for behaviour, hub_kwargs in HUB_BEHAVIOURS:
        for name, run in (("motion-orientationd", ours), ("iio-sensor-proxy 3.0", theirs)):
            # A fresh hub per run: each daemon finds it as it would at boot.
            with SensorHub(**hub_kwargs) as hub:
                vmrig.wait_for_new_iio("accel_3d", set())
                tmp = Path(tempfile.mkdtemp(prefix="mo-bench-"))
                tmp.chmod(0o755)
                row = {"daemon": name, "hub": behaviour}
                try:
                    row.update(run(hub, tmp))
                except Exception as err:  # a row that says why it is missing
                    row["error"] = str(err).splitlines()[0]
                rows.append(row)
            vmrig.wait_until(lambda: not vmrig.iio_named("accel_3d"), 20, what="hub gone")
    print("bench-kernel: claimed and still for %.0f s on a HID hub (real hid-sensor-accel-3d, TCG)"
          % STILL_SECONDS)
    print("%-22s %-12s %10s %12s %12s %11s %11s %13s %16s %12s" % (
        "daemon", "hub", "wakeups/s", "hub reports/s", "interval ms", "turn s rest",
        "turn s used", "CPU/report us", "r+w calls/report", "feature reqs"))
    for row in rows:
        if "error" in row:
            print("%-22s %-12s %s" % (row["daemon"], row["hub"], row["error"]))
            continue
        print("%-22s %-12s %10.2f %12.2f %12d %11.2f %11.2f %13.0f %16.1f %12d" % (
            row["daemon"], row["hub"], row["wakeups_per_s"], row["hub_reports_per_s"],
            row["report_interval_ms"], row["turn_seen_s"], row["in_use_turn_s"],
            row["cpu_per_report_us"], row["io_calls_per_report"], row["moving_feature_requests"]))
    results = os.environ.get("MO_KERNEL_RESULTS")
    if results:
        (Path(results) / "bench.json").write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
