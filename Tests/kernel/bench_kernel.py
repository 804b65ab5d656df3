#!/usr/bin/python3
"""make bench-kernel (inside the VM that Tests/kernel/run.py --bench boots): motion-orientationd
and iio-sensor-proxy, one after the other, on the same emulated HID sensor hub with the real
hid-sensor-accel-3d driver, a change-only hub and a streaming one. Per daemon and hub: the
daemon's wakeups (voluntary context switches) while claimed and still, the hub's input
reports meanwhile, the report interval the daemon left the hub at, and the time from a turn to
the client seeing it. TCG makes times slow; compare the two daemons, not the figures with a
real machine. Writes a table to stdout and JSON to $MO_KERNEL_RESULTS/bench.json."""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "integration"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import vmrig  # noqa: E402
from rig import (PERMISSIVE_POLICY, POSES, LineReader, SystemBus, ctxt_switches,  # noqa: E402
                 kill_process, spawn, wait_until)
from rig.uhid_hub import SensorHub  # noqa: E402

IIO_SENSOR_PROXY = "/usr/sbin/iio-sensor-proxy"
STILL_SECONDS = 10.0
SETTLE_SECONDS = 3.0


def measure_still(pid, hub):
    time.sleep(SETTLE_SECONDS)
    before, reports = ctxt_switches(pid)[0], hub.input_reports
    time.sleep(STILL_SECONDS)
    return {"wakeups_per_s": (ctxt_switches(pid)[0] - before) / STILL_SECONDS,
            "hub_reports_per_s": (hub.input_reports - reports) / STILL_SECONDS,
            "report_interval_ms": hub.interval_ms}


def ours(hub, tmp):
    rig = vmrig.KernelRig(tmp)
    try:
        rig.start_daemon()
        rig.claim()
        rig.wait_for_property("DeviceOrientation", "portrait")
        row = measure_still(rig.proc.pid, hub)
        started = time.monotonic()
        hub.set_gravity(*POSES["landscape-left"])
        rig.wait_for_property("DeviceOrientation", "landscape-left")
        row["turn_seen_s"] = time.monotonic() - started
        return row
    finally:
        rig.close()


def theirs(hub, tmp):
    bus = SystemBus(tmp / "bus-proxy", policy=PERMISSIVE_POLICY).start()
    proxy = monitor = None
    try:
        proxy = spawn([IIO_SENSOR_PROXY], env=bus.env(), stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL)
        wait_until(lambda: bus.name_has_owner("net.hadess.SensorProxy"), 30,
                   what="iio-sensor-proxy on the bus")
        monitor = spawn(["stdbuf", "-oL", "monitor-sensor"], env=bus.env(), stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT)
        lines = LineReader(monitor)
        lines.expect(lambda line: "orientation: normal" in line or "changed: normal" in line, 30,
                     what="monitor-sensor: normal")
        row = measure_still(proxy.pid, hub)
        started = time.monotonic()
        hub.set_gravity(*POSES["landscape-left"])
        lines.expect(lambda line: "changed: right-up" in line, 30, what="monitor-sensor: right-up")
        row["turn_seen_s"] = time.monotonic() - started
        return row
    finally:
        for proc in (monitor, proxy):
            if proc is not None:
                kill_process(proc)
        bus.stop()


def main():
    vmrig.install_system_files()
    rows = []
    for change_only in (True, False):
        for name, run in (("motion-orientationd", ours), ("iio-sensor-proxy 3.0", theirs)):
            # A fresh hub per run: each daemon finds it as it would at boot.
            with SensorHub(change_only=change_only, interval_ms=0 if change_only else 100) as hub:
                vmrig.wait_for_new_iio("accel_3d", set())
                tmp = Path(tempfile.mkdtemp(prefix="mo-bench-"))
                tmp.chmod(0o755)
                row = {"daemon": name, "hub": "change-only" if change_only else "streaming"}
                try:
                    row.update(run(hub, tmp))
                except Exception as err:  # a row that says why it is missing
                    row["error"] = str(err).splitlines()[0]
                rows.append(row)
            vmrig.wait_until(lambda: not vmrig.iio_named("accel_3d"), 20, what="hub gone")
    print("bench-kernel: claimed and still for %.0f s on a HID hub (real hid-sensor-accel-3d, TCG)"
          % STILL_SECONDS)
    print("%-22s %-12s %10s %12s %12s %10s" % ("daemon", "hub", "wakeups/s", "hub reports/s",
                                                "interval ms", "turn s"))
    for row in rows:
        if "error" in row:
            print("%-22s %-12s %s" % (row["daemon"], row["hub"], row["error"]))
            continue
        print("%-22s %-12s %10.2f %12.2f %12d %10.2f" % (
            row["daemon"], row["hub"], row["wakeups_per_s"], row["hub_reports_per_s"],
            row["report_interval_ms"], row["turn_seen_s"]))
    results = os.environ.get("MO_KERNEL_RESULTS")
    if results:
        (Path(results) / "bench.json").write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
