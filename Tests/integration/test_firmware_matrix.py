"""Every firmware behaviour against every flow (docs/testing.md, the firmware matrix).

Each behaviour of `rig.firmware` (streaming, change-only with and without a sensitivity, one
report at power-up, 0 Hz until a rate is written, an old schedule kept after a rate change,
lost reports, duplicated and out-of-order timestamps, stale reports after resume, jittered
report times) plays the display hub while the daemon goes through the flows a user puts it
through. A cell is one flow on one behaviour; each test runs its flows in order, records
every cell (a failing one does not hide the next) and fails at the end naming the cells
that went wrong. `MO_MATRIX_TABLE=path` appends the cells to a file (the table in
docs/testing.md is made from it).
"""

import json
import os
import time

import pytest

from energy_mocks import prepare_for_sleep, start_logind
from rig.contract import POSES
from rig.drivers import attribute
from rig.firmware import BEHAVIOURS, FirmwareHub, upright
from rig.tablet import BASE_MOUNT_MATRIX, hinge_readings

G = 9.80665
# A turn is decided within this of its end, whatever the firmware (the time to the signal).
TURN_DEADLINE = 1.0
# Claimed and still, after the decisions: at most this many wakeups a second. A change-only
# hub sends nothing then (a few wakeups for the bus and timers already armed); a streaming
# one reports at the still interval (750 ms: 1.33 a second).
STILL_WAKEUPS = {"change-only": 0.5, "streaming": 2.0}


class Cells:
    """The cells of one behaviour's flows: (flow, ok, detail)."""

    def __init__(self, behaviour, family):
        self.behaviour = behaviour
        self.family = family
        self.cells = []

    def record(self, flow, ok, detail=""):
        self.cells.append((flow, bool(ok), detail))

    def check(self):
        path = os.environ.get("MO_MATRIX_TABLE")
        if path:
            with open(path, "a") as table:
                for flow, ok, detail in self.cells:
                    table.write(json.dumps({"family": self.family, "behaviour": self.behaviour.name,
                                            "flow": flow, "ok": ok, "detail": detail}) + "\n")
        failed = ["%s: %s" % (flow, detail) for flow, ok, detail in self.cells if not ok]
        assert not failed, "%s, %d of %d cells wrong: %s" % (
            self.behaviour.name, len(failed), len(self.cells), "; ".join(failed))


def signalled(client, member, value, since, deadline):
    """The time the client saw `member` (a change signal) say `value`, after `since`, or None
    by `deadline` (monotonic)."""
    while True:
        for stamp, name, payload in list(client.signal_log):
            if stamp >= since and name == member and payload[0] == value:
                return stamp
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.01)


def turn_cell(cells, client, flow, move, expected, deadline=TURN_DEADLINE):
    """Runs `move` (a turn; returns when the device is in its new pose) and records whether
    `expected` was signalled within `deadline` of its end."""
    began = time.monotonic()
    move()
    ended = time.monotonic()
    seen = signalled(client, "DeviceOrientationChanged", expected, began, ended + deadline)
    if seen is None:
        current = client.get("DeviceOrientation")
        cells.record(flow, False, "%s not signalled within %.1f s of the turn's end (shows %s)"
                     % (expected, deadline, current))
    else:
        cells.record(flow, True, "%.2f s after the end" % max(0.0, seen - ended))


def still_cell(cells, rig, behaviour, seconds=3.0):
    kind = "change-only" if behaviour.changes_only else "streaming"
    wakeups = rig.daemon.wakeups_over(seconds) / seconds
    cells.record("claimed and still", wakeups <= STILL_WAKEUPS[kind],
                 "%.2f wakeups/s (at most %.2f)" % (wakeups, STILL_WAKEUPS[kind]))


def hub_rig(make_rig, behaviour, gravity, config_text=""):
    rig = make_rig(accelerometer=False, start_daemon=False, config_text=config_text)
    hub = FirmwareHub(rig, behaviour, gravity)
    rig._closeables.append(hub)
    rig.daemon.start()
    return rig, hub


@pytest.mark.timeout(60)
@pytest.mark.parametrize("behaviour", BEHAVIOURS, ids=repr)
def test_orientation_flows(make_rig, behaviour):
    """The first decision, quarter and half turns from rest and in use, face up and down,
    claimed and still, release and claim again."""
    cells = Cells(behaviour, "orientation")
    rig, hub = hub_rig(make_rig, behaviour, POSES["portrait"])
    client = rig.bus_client(start=True, signals=True)
    claimed = time.monotonic()
    seen = signalled(client, "DeviceOrientationChanged", "portrait", claimed, claimed + 3.0)
    cells.record("first decision", seen is not None,
                 "%.2f s after the claim" % (seen - claimed) if seen else "no portrait within 3 s")
    # Long enough still for a hub that reports only changes to have been told by its silence.
    time.sleep(3.0)
    still_cell(cells, rig, behaviour)
    turn_cell(cells, client, "quarter turn from rest", lambda: hub.turn_in_plane(0, 90, 0.8),
              "landscape-right")
    time.sleep(2.5)
    turn_cell(cells, client, "half turn from rest", lambda: hub.turn_in_plane(90, 270, 0.8),
              "landscape-left")
    time.sleep(0.3)
    turn_cell(cells, client, "quarter turn in use", lambda: hub.turn_in_plane(270, 360, 0.5),
              "portrait")
    time.sleep(0.3)
    turn_cell(cells, client, "half turn in use", lambda: hub.turn_in_plane(0, 180, 0.8),
              "portrait-upside-down")
    time.sleep(1.0)
    turn_cell(cells, client, "face up", lambda: hub.turn((0.0, 0.0, -G), 0.6), "face-up")
    time.sleep(1.0)
    turn_cell(cells, client, "face down", lambda: hub.turn((0.0, 0.0, G), 1.0), "face-down",
              deadline=1.5)
    # Told from behaviour, whatever the hub's files say: a hub that reports only changes runs
    # at the moving rate (its silence is free), a streaming one at the still rate.
    expected = "25" if behaviour.changes_only else "1.333334"
    deadline = time.monotonic() + 8.0
    while (rate := attribute(hub.accel, "in_accel_sampling_frequency")) != expected:
        if time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    cells.record("rate once still", rate == expected, "%s Hz (expected %s)" % (rate, expected))
    # Release, turn while nobody claims, claim again: the new pose, from fresh reports.
    client.stop()
    time.sleep(0.5)
    hub.set_gravity(*upright(90))
    time.sleep(0.5)
    again = time.monotonic()
    client.start()
    seen = signalled(client, "DeviceOrientationChanged", "landscape-right", again, again + 3.0)
    cells.record("release and claim", seen is not None,
                 "%.2f s after the claim" % (seen - again) if seen else
                 "no landscape-right within 3 s (shows %s)" % client.get("DeviceOrientation"))
    cells.check()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("behaviour", BEHAVIOURS, ids=repr)
def test_suspend_and_resume(make_rig, behaviour):
    """Turned while suspended: after the resume, the new pose, never the old one announced as
    fresh (a hub may send stale reports first)."""
    cells = Cells(behaviour, "suspend")
    rig, hub = hub_rig(make_rig, behaviour, POSES["portrait"])
    logind = start_logind(rig)
    client = rig.bus_client(start=True, signals=True)
    claimed = time.monotonic()
    seen = signalled(client, "DeviceOrientationChanged", "portrait", claimed, claimed + 3.0)
    cells.record("first decision", seen is not None, "" if seen else "no portrait within 3 s")
    time.sleep(1.0)
    prepare_for_sleep(logind, True)
    rig.wait_for_property("Active", False, 3.0)
    hub.set_gravity(*upright(270))
    time.sleep(0.5)
    resumed = time.monotonic()
    prepare_for_sleep(logind, False)
    seen = signalled(client, "DeviceOrientationChanged", "landscape-left", resumed, resumed + 3.0)
    stale = [p[0] for t, m, p in client.signal_log if t >= resumed and m == "DeviceOrientationChanged"
             and p[0] != "landscape-left"]
    cells.record("suspend and resume", seen is not None and not stale,
                 ("%.2f s after the resume" % (seen - resumed)) if seen and not stale else
                 "after the resume: %s" % (stale or "no landscape-left within 3 s"))
    cells.check()


@pytest.mark.timeout(90)
@pytest.mark.parametrize("behaviour", BEHAVIOURS, ids=repr)
def test_tablet_mode_flows(make_rig, behaviour):
    """The display hub with a polled base: a slow fold past the enter angle and back
    (steps of 30 degrees), and one-step folds, tablet mode on and off each time."""
    cells = Cells(behaviour, "tablet mode")
    rig = make_rig(accelerometer=False, start_daemon=False)
    display, base = hinge_readings(100)
    hub = FirmwareHub(rig, behaviour, display, properties={"ACCEL_LOCATION": "display"})
    rig._closeables.append(hub)
    rig.base = rig.add_accelerometer(name="iio:device1", gravity=base, mount_matrix=BASE_MOUNT_MATRIX,
                                     extra_properties={"ACCEL_LOCATION": "base"})
    rig.daemon.start()
    client = rig.bus_client(start=True, signals=True)

    def fold(angles, step_seconds):
        for angle in angles:
            hub.set_gravity(*hinge_readings(angle)[0])
            time.sleep(step_seconds)

    def mode_cell(flow, angles, step_seconds, expected):
        began = time.monotonic()
        fold(angles, step_seconds)
        ended = time.monotonic()
        seen = None
        deadline = ended + 2.0
        while seen is None and time.monotonic() < deadline:
            for stamp, member, payload in list(client.signal_log):
                if stamp >= began and member == "TabletModeChanged" and payload[0] == expected:
                    seen = stamp
            time.sleep(0.02)
        shows = client.get("TabletMode")
        ok = seen is not None and shows == expected
        cells.record(flow, ok, ("%.2f s after the last step" % max(0.0, seen - ended)) if ok else
                     "TabletMode %s, HingeAngle %.1f, 2 s after the last step"
                     % (shows, client.get("HingeAngle")))

    time.sleep(2.0)
    mode_cell("slow fold to tablet", range(130, 311, 30), 0.5, True)
    time.sleep(1.5)
    mode_cell("slow unfold to laptop", range(280, 99, -30), 0.5, False)
    time.sleep(1.5)
    mode_cell("one-step fold", [330], 0.0, True)
    time.sleep(1.5)
    mode_cell("one-step unfold", [110], 0.0, False)
    cells.check()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("behaviour", BEHAVIOURS, ids=repr)
def test_hotplug_and_restart(make_rig, behaviour):
    """The hub goes away under a claim and comes back turned (a new device, its own udev
    event); then the daemon is restarted while the device is turned again."""
    cells = Cells(behaviour, "lifecycle")
    rig, hub = hub_rig(make_rig, behaviour, POSES["portrait"])
    client = rig.bus_client(start=True, signals=True)
    claimed = time.monotonic()
    seen = signalled(client, "DeviceOrientationChanged", "portrait", claimed, claimed + 3.0)
    cells.record("first decision", seen is not None, "" if seen else "no portrait within 3 s")
    hub.close()
    rig.remove_device(hub.accel)
    rig.wait_for_property("HasAccelerometer", False, 3.0)
    back = FirmwareHub(rig, behaviour, upright(90), trigger=False)
    rig._closeables.append(back)
    plugged = time.monotonic()
    rig.uevent(back.accel, "add")
    seen = signalled(client, "DeviceOrientationChanged", "landscape-right", plugged, plugged + 3.0)
    cells.record("hotplug while claimed", seen is not None,
                 "%.2f s after the hub came back" % (seen - plugged) if seen else
                 "no landscape-right within 3 s (shows %s)" % client.get("DeviceOrientation"))
    status, _took = rig.daemon.stop()
    back.set_gravity(*upright(270))
    rig.daemon.start()
    again = rig.bus_client(start=True, signals=True)
    started = time.monotonic()
    shows = again.get("DeviceOrientation")
    seen = shows == "landscape-left" or signalled(
        again, "DeviceOrientationChanged", "landscape-left", started, started + 3.0) is not None
    cells.record("daemon restart", status == 0 and seen,
                 "" if seen else "exit %s; no landscape-left within 3 s of the new claim (shows %s)"
                 % (status, again.get("DeviceOrientation")))
    cells.check()
