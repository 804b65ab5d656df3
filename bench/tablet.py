"""Tablet mode: a rig of its own with a display and a base accelerometer and a fake
/dev/uinput, our daemon only (iio-sensor-proxy has no tablet mode). Measured: wakeups per
second with only the virtual switch on and the device still (no claim), and the time from a
fold past the enter angle (written to sysfs) to the virtual switch's event."""

import time

import rig
from rig import tablet
from rig.tablet import BASE_MOUNT_MATRIX, FakeUinput, hinge_readings

from .procfs import proc_counters, rates
from .progress import log
from .table import stats


def make_rig(bench):
    r = rig.Rig(accelerometer=False, start_daemon=False, verbose=False,
                daemon=str(bench.daemon_binary), client=str(bench.client_binary))
    display, base = hinge_readings(120)
    r.display = r.add_accelerometer(name="iio:device0", gravity=display,
                                    extra_properties={"ACCEL_LOCATION": "display"})
    r.base = r.add_accelerometer(name="iio:device1", gravity=base, mount_matrix=BASE_MOUNT_MATRIX,
                                 extra_properties={"ACCEL_LOCATION": "base"})
    r.uinput = FakeUinput(r.testbed)
    return r


def set_hinge(r, theta):
    tablet.set_hinge(r.display, r.base, theta)


def wait_for_state(r, tablet, since, timeout):
    """The time of the first write of `tablet` after the `since`-th write, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for stamp, events in r.uinput.writes()[since:]:
            if events and events[0] == (5, 1, int(tablet)):
                return stamp
        time.sleep(0.005)
    return None


def measure(bench):
    a = bench.args
    folds = 3 if a.quick else 10
    r = make_rig(bench)
    out = {}
    try:
        r.daemon.start()
        rig.wait_until(lambda: r.get_property("Active") is True, 5.0, what="hinge sampling")
        # Still for longer than the hinge's motion linger: the slow interval.
        time.sleep(a.settle if hasattr(a, "settle") else 6.5)
        log("tablet mode: virtual switch only, still, %g s" % a.window)
        before = proc_counters(r.daemon.pid)
        time.sleep(a.window)
        out["switch_only_still"] = rates(before, proc_counters(r.daemon.pid))
        slow = out["switch_only_interval_msec"] = r.get_property("SampleIntervalMsec")
        delays = []
        for index in range(folds):
            log("tablet mode: fold %d/%d, 120 -> 250 degrees" % (index + 1, folds))
            since = len(r.uinput.writes())
            set_hinge(r, 250)
            written = time.monotonic()
            stamp = wait_for_state(r, True, since, 6.0)
            delays.append(None if stamp is None else (stamp - written) * 1000)
            since = len(r.uinput.writes())
            set_hinge(r, 120)
            wait_for_state(r, False, since, 6.0)
            # Still again: the next fold starts from the slow interval.
            rig.wait_until(lambda: r.get_property("SampleIntervalMsec") == slow, 15.0, interval=0.1,
                           what="the slow hinge interval")
        out["fold_to_event_ms"] = stats(delays)
        out["fold_missed"] = sum(1 for d in delays if d is None)
    finally:
        r.close()
    bench.results["tablet"] = out
