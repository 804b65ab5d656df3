"""Tablet mode: a rig of its own with a display and a base accelerometer and a fake
/dev/uinput, our daemon only (iio-sensor-proxy has no tablet mode). Measured: wakeups per
second with only the virtual switch on and the device still (no claim), and the time from a
fold past the enter angle to the virtual switch's event: polled (the fold written to sysfs in
one step, 120 -> 250 degrees), and on a change-only HID sensor hub as the display (the hub
reports the fold as it happens, 40 ms apart, and nothing once still; timed from its last
report; the base polled, as the daemon reads it).

The tablet rows alone, without the rest of the bench (after `make build`):

    PYTHONPATH=Tests/integration /usr/bin/python3 -m bench.tablet [--folds N] [--window S]
        [--phase random|after-slow] [--only polled|change-only] [--build-dir DIR]
"""

import argparse
import os
import time
from pathlib import Path
from types import SimpleNamespace

import rig
from rig import tablet
from rig.drivers import feed, hid_hub
from rig.tablet import BASE_MOUNT_MATRIX, FakeUinput, hinge_readings

from .procfs import Counting, rates
from .progress import log
from .table import fmt, stats

# The fold as a change-only hub reports it: the display's angle at each report, 40 ms apart.
HUB_FOLD = (150, 180, 210, 240, 250)
HUB_UNFOLD = (220, 190, 160, 130, 120)


def make_rig(bench, change_only=False):
    r = rig.Rig(accelerometer=False, start_daemon=False, verbose=False,
                daemon=str(bench.daemon_binary), client=str(bench.client_binary))
    display, base = hinge_readings(120)
    if change_only:
        r.display = hid_hub(r, gravity=display, properties={"ACCEL_LOCATION": "display"})
    else:
        r.display = r.add_accelerometer(name="iio:device0", gravity=display,
                                        extra_properties={"ACCEL_LOCATION": "display"})
    r.base = r.add_accelerometer(name="iio:device1", gravity=base, mount_matrix=BASE_MOUNT_MATRIX,
                                 extra_properties={"ACCEL_LOCATION": "base"})
    r.uinput = FakeUinput(r.testbed)
    return r


def set_hinge(r, theta):
    tablet.set_hinge(r.display, r.base, theta)


def report_fold(r, angles):
    """A change-only display hub's reports of a fold through `angles` (the base unchanged),
    ending now; its raw channels follow."""
    feed(r.display, [hinge_readings(a)[0] for a in angles], spacing=0.04)
    set_hinge(r, angles[-1])


def wait_for_state(r, tablet, since, timeout):
    """The time of the first write of `tablet` after the `since`-th write, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for stamp, events in r.uinput.writes()[since:]:
            if events and events[0] == (5, 1, int(tablet)):
                return stamp
        time.sleep(0.005)
    return None


def still_window(r, a, what):
    log("tablet mode: virtual switch only, %s, still, %g s" % (what, a.window))
    with Counting([r.daemon.pid]) as counting:
        before = counting.read(r.daemon.pid)
        time.sleep(a.window)
        return rates(before, counting.read(r.daemon.pid))


def measure_polled(bench, out):
    a = bench.args
    folds = a.folds if getattr(a, "folds", None) else (3 if a.quick else 10)
    r = make_rig(bench)
    try:
        r.daemon.start()
        rig.wait_until(lambda: r.get_property("Active") is True, 5.0, what="hinge sampling")
        # Still for longer than the hinge's motion linger: the slow interval.
        time.sleep(getattr(a, "settle", 6.5))
        out["switch_only_still"] = still_window(r, a, "polled")
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
            # At a random phase of the slow interval, as a hand would ("after-slow": at once, the
            # phase the bench used before, about 0.1 s after the slow interval's first reading).
            if getattr(a, "phase", "random") == "random":
                time.sleep(bench.random.uniform(0, slow / 1000))
        out["fold_to_event_ms"] = stats(delays)
        out["fold_missed"] = sum(1 for d in delays if d is None)
    finally:
        r.close()


def measure_change_only(bench, out):
    a = bench.args
    folds = a.folds if getattr(a, "folds", None) else (3 if a.quick else 10)
    r = make_rig(bench, change_only=True)
    try:
        r.daemon.start()
        rig.wait_until(lambda: r.get_property("Active") is True, 5.0, what="hinge sampling")
        report_fold(r, (120,))  # the hub's report at power-up
        time.sleep(getattr(a, "settle", 6.5))
        out["change_only_still"] = still_window(r, a, "change-only hub")
        delays = []
        for index in range(folds):
            log("tablet mode: change-only hub, fold %d/%d, 120 -> 250 degrees" % (index + 1, folds))
            since = len(r.uinput.writes())
            report_fold(r, HUB_FOLD)
            written = time.monotonic()
            stamp = wait_for_state(r, True, since, 6.0)
            delays.append(None if stamp is None else (stamp - written) * 1000)
            since = len(r.uinput.writes())
            report_fold(r, HUB_UNFOLD)
            wait_for_state(r, False, since, 6.0)
            time.sleep(getattr(a, "settle", 6.5) + bench.random.uniform(0, 1))
        out["change_only_fold_to_event_ms"] = stats(delays)
        out["change_only_fold_missed"] = sum(1 for d in delays if d is None)
    finally:
        r.close()


def measure(bench):
    import random
    if not hasattr(bench, "random"):
        bench.random = random.Random(getattr(bench.args, "seed", 8))
    out = {}
    only = getattr(bench.args, "only", None)
    if only != "change-only":
        measure_polled(bench, out)
    if only != "polled":
        measure_change_only(bench, out)
    bench.results["tablet"] = out


def main():
    repo = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(prog="bench.tablet", description="The bench's tablet rows alone.")
    parser.add_argument("--folds", type=int, default=10, help="folds timed on each rig (default 10)")
    parser.add_argument("--window", type=float, default=10.0, help="seconds still measured (default 10)")
    parser.add_argument("--seed", type=int, default=8, help="seed of the fold phases")
    parser.add_argument("--phase", choices=("random", "after-slow"), default="random",
                        help="when a polled fold comes: at a random phase of the slow interval "
                        "(default), or as soon as the slow interval is announced")
    parser.add_argument("--only", choices=("polled", "change-only"),
                        help="one of the two rigs")
    parser.add_argument("--build-dir", default=os.environ.get("MO_BUILD_DIR", str(repo / ".build" / "release")))
    a = parser.parse_args()
    a.quick = False
    build = Path(a.build_dir)
    bench = SimpleNamespace(args=a, daemon_binary=build / "motion-orientationd",
                            client_binary=build / "motion-orientation", results={})
    measure(bench)
    out = bench.results["tablet"]
    print("tablet mode (virtual switch only, no claim)")
    if "fold_to_event_ms" in out:
        print("  polled:      still %s wakeups/s (every %s ms); fold -> switch event %s ms (%s phase), "
              "missed %d" % (fmt(out["switch_only_still"]["wakeups"], 2), out["switch_only_interval_msec"],
                             fmt(out["fold_to_event_ms"], 0), a.phase, out["fold_missed"]))
        print("               each: %s" % " ".join("%.0f" % v for v in out["fold_to_event_ms"]["values"]))
    if "change_only_fold_to_event_ms" in out:
        print("  change-only: still %s wakeups/s; fold -> switch event %s ms (from the last report), "
              "missed %d" % (fmt(out["change_only_still"]["wakeups"], 2),
                             fmt(out["change_only_fold_to_event_ms"], 0), out["change_only_fold_missed"]))


if __name__ == "__main__":
    main()
