"""Bench phase: a change-only HID sensor hub (buffered, reports only when the value changes;
Tests/integration/rig/drivers.py), claimed and still, then turned from rest. Each daemon in
turn (both reading one device node would split its scans between them)."""

import time

import rig
from rig.contract import POSES
from rig.drivers import attribute, feed, hid_hub

from .daemons import SensorProxy, Ours
from .procfs import Counting, rates
from .progress import log

# A quarter turn as a hub reports it: a few changes 40 ms apart, then silence.
TURNS = {"landscape-right": [(9.80665 * 0.5, -9.80665 * 0.87, 0), (9.80665 * 0.87, -9.80665 * 0.5, 0),
                             POSES["landscape-right"]],
         "portrait": [(9.80665 * 0.87, -9.80665 * 0.5, 0), (9.80665 * 0.5, -9.80665 * 0.87, 0),
                      POSES["portrait"]]}


def measure(bench):
    a = bench.args
    r = rig.Rig(accelerometer=False, start_daemon=False, verbose=False,
                daemon=str(bench.daemon_binary), client=str(bench.client_binary))
    out = {}
    try:
        # The property iio-sensor-proxy's udev rule sets for a buffered accelerometer.
        r.accel = hid_hub(r, properties={"IIO_SENSOR_PROXY_TYPE": "iio-buffer-accel"})
        monitor = r.monitor()
        daemons = [Ours(r)] + ([SensorProxy(r)] if bench.have_isp else [])
        for d in daemons:
            try:
                out[d.label] = one(d, r, monitor, a)
            except Exception as err:  # noqa: BLE001 - the other daemon's figures still count
                log("change-only hub, %s: %s" % (d.label, err))
                out[d.label] = {"error": str(err)}
            finally:
                try:
                    d.stop()
                except Exception:  # noqa: BLE001 - already gone
                    pass
    finally:
        r.close()
    bench.results["change_only"] = out


def one(d, r, monitor, a):
    log("change-only hub: %s, claimed and still %g s, %d turns from rest"
        % (d.label, a.window, a.rest_rotations))
    d.start()
    d.claim_sensor()
    rig.wait_until(lambda: attribute(r.accel, "buffer/enable") == "1", 5.0, what="buffer enabled")
    feed(r.accel, [POSES["portrait"]])  # the report at power-up
    rig.wait_until(lambda: d.orientation() == d.name_for("portrait"), 5.0, interval=0.1,
                   what="%s portrait" % d.label)
    time.sleep(2.0)  # past the buffer deadline and any pending decision
    with Counting([d.pid]) as counting:
        before = counting.read(d.pid)
        time.sleep(a.window)
        still = rates(before, counting.read(d.pid))
    reactions = []
    current = "portrait"
    for _ in range(a.rest_rotations):
        time.sleep(min(a.rest, 5.0))
        target = "landscape-right" if current == "portrait" else "portrait"
        since = monitor.mark()
        written = time.time()
        feed(r.accel, TURNS[target], spacing=0.04)
        ts = None
        deadline = time.monotonic() + 4.0
        while ts is None and time.monotonic() < deadline:
            ts = next((t for t, name in d.changes(monitor, since) if name == d.name_for(target)), None)
            time.sleep(0.01)
        # From the hub's last report of the turn: the scans arrive in one write, stamped
        # 40 ms apart, the last one now.
        reactions.append(None if ts is None else (ts - written) * 1000)
        current = target
    return {"still": still, "reaction_ms": reactions}
