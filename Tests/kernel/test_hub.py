"""One HID sensor hub accelerometer on the real kernel: hid-sensor-hub and
hid-sensor-accel-3d bound to the uhid hub (rig/uhid_hub.py), the project's udev rule applied
by the VM's systemd-udevd, the daemon as its own user, clients as nobody."""

import os
import stat
import time
from pathlib import Path

import pytest

import vmrig
from rig import POSES, Rig, drivers
from rig.uhid_hub import SCALE_TEXT

# The rig's poses in an order where each turn is one the estimator takes from the last.
TURNS = ["landscape-left", "portrait-upside-down", "landscape-right", "portrait", "face-up",
         "face-down", "portrait"]


def replica_attributes(change_only):
    """The attribute files and values of the umockdev replica (drivers.hid_hub)."""
    with Rig(accelerometer=False, start_daemon=False) as rig:
        accel = drivers.hid_hub(rig, change_only=change_only)
        names = vmrig.list_attributes(accel.directory)
        return {name: vmrig.read_attribute(accel.directory, name) for name in names}


@pytest.mark.parametrize("change_only", [True, False], ids=["change-only", "streaming"])
def test_replica_has_the_real_drivers_attributes(make_hub, change_only):
    """drivers.hid_hub lays out what hid-sensor-accel-3d really makes: the same attribute
    files (the device-model ones aside) and values in the same format."""
    hub, syspath = make_hub(change_only=change_only)
    real = {name: vmrig.read_attribute(syspath, name) for name in vmrig.list_attributes(syspath)}
    vmrig.record_layout("accel_3d-%s" % ("change-only" if change_only else "streaming"), real)
    replica = replica_attributes(change_only)
    assert sorted(real) == sorted(replica), (
        "only real: %s; only replica: %s" % (sorted(set(real) - set(replica)),
                                            sorted(set(replica) - set(real))))
    for name in ("name", "in_accel_scale", "in_accel_offset", "scan_elements/in_accel_x_type",
                 "scan_elements/in_timestamp_type", "scan_elements/in_timestamp_index",
                 "buffer/length", "buffer/watermark", "buffer/direction", "trigger/current_trigger"):
        assert real[name] == replica[name], name
    # The IIO core prints its clock with a NUL after the newline ("realtime\n\0", 6.1); the
    # replica's file cannot hold a NUL (nothing reads this file).
    assert real["current_timestamp_clock"] == "realtime\n\0"
    assert replica["current_timestamp_clock"] == "realtime"
    assert real["in_accel_scale"] == SCALE_TEXT
    if change_only:
        assert real["in_accel_hysteresis"] == replica["in_accel_hysteresis"] == "0.050000"
    else:
        # No sensitivity in the report: the read fails; the replica's file is empty.
        assert real["in_accel_hysteresis"] == "<Invalid argument>"
        assert replica["in_accel_hysteresis"] == ""


def test_udev_rule_gives_the_daemon_its_device(make_hub):
    """The shipped rule, applied by real udevd: the node in the daemon's group, the
    attributes it sets writable by that group, the unit wanted."""
    hub, syspath = make_hub()
    properties = vmrig.udev_properties(syspath)
    assert properties.get("MOTION_ORIENTATION_ACCEL") == "1"
    assert "motion-orientationd.service" in properties.get("SYSTEMD_WANTS", "").split()
    node = "/dev/" + syspath.name
    assert vmrig.group_of(node) == vmrig.USER
    assert stat.S_IMODE(os.stat(node).st_mode) == 0o640
    for name in ("buffer/enable", "trigger/current_trigger", "scan_elements/in_accel_x_en",
                 "scan_elements/in_timestamp_en", "in_accel_sampling_frequency"):
        path = syspath / name
        assert vmrig.group_of(path) == vmrig.USER, name
        assert os.stat(path).st_mode & stat.S_IWGRP, name


def test_every_orientation_through_the_buffer(make_hub, kernel_rig):
    """A claimed change-only hub: every turn reaches the client, through the buffer (the hub
    pushes input reports), at the moving rate the daemon writes as the report interval."""
    hub, syspath = make_hub(change_only=True)
    kernel_rig.start_daemon()
    kernel_rig.claim()
    kernel_rig.wait_for_property("DeviceOrientation", "portrait")
    for pose in TURNS:
        hub.set_gravity(*POSES[pose])
        kernel_rig.wait_for_property("DeviceOrientation", pose)
    assert vmrig.read_attribute(syspath, "buffer/enable") == "1"
    assert hub.input_reports >= len(TURNS)
    # 25 Hz: the hub's report interval is 40 ms, and the driver reads it back as a rate.
    assert hub.interval_ms == 40
    assert vmrig.read_attribute(syspath, "in_accel_sampling_frequency") == "25.000000"
    # The sensitivity is the hub's: read, never written.
    assert hub.sensitivity == 5
    assert vmrig.read_attribute(syspath, "in_accel_hysteresis") == "0.050000"
    result = kernel_rig.run_client("get")
    assert result.returncode == 0, result.stderr
    assert "device=portrait" in result.stdout


def test_claimed_still_change_only_hub_costs_no_wakeups(make_hub, kernel_rig):
    hub, _syspath = make_hub(change_only=True)
    kernel_rig.start_daemon()
    kernel_rig.claim()
    hub.set_gravity(*POSES["landscape-left"])
    kernel_rig.wait_for_property("DeviceOrientation", "landscape-left")
    time.sleep(2)  # the decision and its settle time are behind
    reports = hub.input_reports
    wakeups = kernel_rig.wakeups_over(5)
    assert hub.input_reports == reports
    assert wakeups == 0


def test_unclaimed_hub_is_powered_down_and_given_back(make_hub, kernel_rig):
    """When the last claim goes, the buffer is off and the driver powers the hub down."""
    hub, syspath = make_hub(change_only=True)
    kernel_rig.start_daemon()
    client = kernel_rig.claim()
    kernel_rig.wait_for_property("Active", True)
    assert hub.power_state == 2
    client.stop()
    kernel_rig.wait_for_property("Active", False)
    vmrig.wait_until(lambda: vmrig.read_attribute(syspath, "buffer/enable") == "0", 10,
                     what="buffer off")


@pytest.mark.timeout(180)
def test_hotplug_while_claimed(make_hub, kernel_rig):
    """The hub goes away under a claim (uhid destroy: the kernel unbinds the drivers) and
    comes back as a new device: the daemon follows it, and turns reach the client again."""
    hub, syspath = make_hub(change_only=True)
    kernel_rig.start_daemon()
    kernel_rig.claim()
    kernel_rig.wait_for_property("DeviceOrientation", "portrait")
    hub.destroy()
    vmrig.wait_gone(syspath)
    kernel_rig.wait_for_property("HasAccelerometer", False)
    hub.create()
    vmrig.wait_for_new_iio("accel_3d", set())
    kernel_rig.wait_for_property("HasAccelerometer", True)
    hub.set_gravity(*POSES["landscape-right"])
    kernel_rig.wait_for_property("DeviceOrientation", "landscape-right")
    assert kernel_rig.proc.poll() is None


def test_streaming_hub_is_sampled_and_slowed_when_still(make_hub, kernel_rig):
    """A hub without a change sensitivity streams at its report interval: the daemon takes
    turns from the stream, and once the device is still lowers the rate (a change-only hub
    keeps the moving rate, its silence being free)."""
    hub, syspath = make_hub(change_only=False)
    kernel_rig.start_daemon()
    kernel_rig.claim()
    kernel_rig.wait_for_property("DeviceOrientation", "portrait")
    hub.set_gravity(*POSES["landscape-left"])
    kernel_rig.wait_for_property("DeviceOrientation", "landscape-left")
    assert vmrig.read_attribute(syspath, "buffer/enable") == "1"
    vmrig.wait_until(lambda: hub.interval_ms >= 500, 30,
                     what="the still plan's report interval (seen %d ms)" % hub.interval_ms)
    reports = hub.input_reports
    time.sleep(3)
    assert 2 <= hub.input_reports - reports <= 8
