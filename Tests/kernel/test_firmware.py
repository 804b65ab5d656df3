"""The firmware matrix's hub behaviours on the real kernel (docs/testing.md, the firmware
matrix): hid-sensor-hub and hid-sensor-accel-3d bound to the uhid hub (rig/uhid_hub.py) as
it streams at its interval (keeping its old schedule for one report after a rate change),
as it reports only changes beyond a sensitivity of 5 counts, and as it reports only changes
with a sensitivity that reads 0 (in_accel_hysteresis 0.000000: the file claims a streaming
hub, the hub goes quiet when still). Each must decide every pose from the reports it sends,
and the hinge too: tablet mode on after a fold and off after the unfold."""

import time

import pytest

import vmrig
from rig import POSES, wait_until
from test_tablet import CHANGE, Machine, hwdb, near  # noqa: F401 (hwdb is a fixture)

# The hub behaviours: SensorHub keyword arguments.
HUBS = {
    "streaming": dict(change_only=False),
    "change-only": dict(change_only=True),
    "change-only-0": dict(change_only=True, sensitivity=0),
}
# The six poses, each held 2.5 s: every one is decided within its hold.
POSE_HOLD = 2.5
SIX_POSES = ["landscape-left", "portrait-upside-down", "landscape-right", "portrait", "face-up",
             "face-down"]


@pytest.mark.timeout(180)
@pytest.mark.parametrize("behaviour", HUBS)
def test_every_pose_is_decided_within_its_hold(make_hub, kernel_rig, behaviour):
    hub, syspath = make_hub(**HUBS[behaviour])
    if behaviour == "change-only-0":
        assert vmrig.read_attribute(syspath, "in_accel_hysteresis") == "0.000000"
    kernel_rig.start_daemon()
    kernel_rig.claim()
    kernel_rig.wait_for_property("DeviceOrientation", "portrait")
    wrong = []
    for pose in SIX_POSES:
        hub.set_gravity(*POSES[pose])
        held = time.monotonic()
        try:
            kernel_rig.wait_for_property("DeviceOrientation", pose, POSE_HOLD)
        except Exception:  # noqa: BLE001 (the rig's timeout; the next pose still runs)
            wrong.append("%s (shows %s)" % (pose, kernel_rig.get_property("DeviceOrientation")))
        time.sleep(max(0.0, POSE_HOLD - (time.monotonic() - held)))
    assert not wrong, "not decided within %.1f s: %s" % (POSE_HOLD, ", ".join(wrong))
    assert vmrig.read_attribute(syspath, "buffer/enable") == "1"
    if behaviour != "streaming":
        # Still and decided: a hub that reports only changes costs no wakeups, whatever its
        # sensitivity reads (the daemon learned it from its silence).
        time.sleep(3.0)
        reports = hub.input_reports
        wakeups = kernel_rig.wakeups_over(5)
        assert hub.input_reports == reports
        assert wakeups <= 1, "%d wakeups in 5 s" % wakeups


@pytest.mark.timeout(300)
@pytest.mark.parametrize("behaviour", ["streaming", "change-only-0"])
def test_tablet_mode_on_after_the_fold_and_off_after_the_unfold(hwdb, make_hub, kernel_rig, behaviour):
    """Two hubs, display and base, folded to 310 degrees and back to 100 in steps of 30."""
    machine = Machine(lambda **kwargs: make_hub(**HUBS[behaviour], **kwargs), theta=100)
    kernel_rig.start_daemon()
    kernel_rig.wait_for_property("Active", True, CHANGE)
    wait_until(lambda: near(kernel_rig.get_property("HingeAngle"), 100), CHANGE, what="HingeAngle 100")
    machine.sweep(100, 310, step=30, pause=0.5)
    kernel_rig.wait_for_property("TabletMode", True, CHANGE)
    machine.sweep(310, 100, step=30, pause=0.5)
    unfolded = time.monotonic()
    kernel_rig.wait_for_property("TabletMode", False, CHANGE)
    took = time.monotonic() - unfolded
    wait_until(lambda: near(kernel_rig.get_property("HingeAngle"), 100), CHANGE,
               what="HingeAngle 100 again (%.1f)" % kernel_rig.get_property("HingeAngle"))
    assert took <= 5.0, "tablet mode went off %.1f s after the last step" % took


@pytest.mark.timeout(120)
def test_a_hub_silent_at_its_second_power_up_keeps_its_buffer(make_hub, kernel_rig):
    """The uhid hub reports its value when reporting first starts, not at every start: a
    ReadOrientation() takes that report, and the claim after it finds the buffer silent
    (the case `make bench-kernel` found, with a sensitivity that reads 0). Its channels, read
    once, answer through the buffer too, so the daemon keeps the buffer, reads the hub as
    reporting only changes, and costs no wakeups while the device stays still."""
    hub, syspath = make_hub(**HUBS["change-only-0"])
    kernel_rig.start_daemon()
    result = kernel_rig.run_client("get")
    assert result.returncode == 0 and "device=portrait" in result.stdout, result.stdout + result.stderr
    kernel_rig.claim()
    time.sleep(4.0)  # the buffer's deadline, the read of its channels, the second deadline
    assert vmrig.read_attribute(syspath, "buffer/enable") == "1"
    log = kernel_rig.log()
    assert "polling the channels instead" not in log, log
    assert "answers through its buffer and was silent" in log, log
    reports = hub.input_reports
    wakeups = kernel_rig.wakeups_over(5)
    assert hub.input_reports == reports
    assert wakeups <= 1, "%d wakeups in 5 s" % wakeups
    hub.set_gravity(*POSES["landscape-left"])
    kernel_rig.wait_for_property("DeviceOrientation", "landscape-left", POSE_HOLD)
