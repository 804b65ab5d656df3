"""Input-subsystem accelerometers: the evdev fallback source.

The fake device is an event device with ID_INPUT_ACCELEROMETER=1 and a node at
/dev/input/eventN whose EVIOCGABS ioctls the test answers (FakeInputAccelerometer).
"""

import errno
import json
import os
import time

import pytest

from rig import POSES, STILL_INTERVAL_MSEC, Rig, wait_until

ORIENTATIONS = ["landscape-left", "portrait-upside-down", "landscape-right", "portrait"]
COMPAT = "[Compatibility]\nSensorProxy=yes\n"


def input_rig(config_text="", iio=None, **input_kwargs):
    """A rig with an input accelerometer (and an IIO one when `iio` gives its kwargs),
    the daemon not started yet."""
    rig = Rig(accelerometer=False, start_daemon=False, config_text=config_text)
    rig.input = rig.add_input_accelerometer(**input_kwargs)
    if iio is not None:
        rig.accel = rig.add_accelerometer(**iio)
    return rig


def open_nodes(rig, accel):
    """How many times the daemon has the input device node open."""
    target = str(accel.root / accel.devnode.lstrip("/"))
    fd_dir = "/proc/%d/fd" % rig.daemon.pid
    count = 0
    for fd in os.listdir(fd_dir):
        try:
            count += os.readlink(os.path.join(fd_dir, fd)) == target
        except OSError:
            pass
    return count


def test_an_input_accelerometer_drives_the_orientation(make_rig):
    rig = input_rig()
    try:
        rig.daemon.start()
        assert rig.get_property("HasAccelerometer") is True
        assert rig.get_property("Sensor") == rig.input.syspath
        choice = rig.get_property("SensorChoice")
        assert "Fake Accelerometer" in choice and "input-subsystem" in choice, choice
        client = rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        for pose in ORIENTATIONS + ["face-up"]:
            rig.input.set_pose(pose)
            rig.wait_for_property("DeviceOrientation", pose, 5.0)
        client.close()
    finally:
        code, _ = rig.close()
        assert code == 0


def proxy_property(rig, name):
    """A property of iio-sensor-proxy's interface, through busctl."""
    result = rig.busctl("get-property", "net.hadess.SensorProxy", "/net/hadess/SensorProxy",
                        "net.hadess.SensorProxy", name)
    return json.loads(result.stdout)["data"]


def test_a_recorded_device_udev_has_not_set_up_is_taken_at_start(make_rig):
    """As iio-sensor-proxy's suite runs it (test_input_accel: `umockdev-run -d` with a recorded
    input accelerometer): the event device has a node and no udev database entry, so udev
    has not set it up, as where udevd does not run. At start-up no udev event is waited for:
    it is taken, on both interfaces, and kept at another device's event."""
    rig = input_rig(config_text=COMPAT, recorded=True, gravity=POSES["landscape-left"])
    try:
        rig.daemon.start()
        assert rig.get_property("HasAccelerometer") is True
        assert rig.get_property("Sensor") == rig.input.syspath
        assert proxy_property(rig, "HasAccelerometer") is True
        client = rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
        trigger = rig.add_device("iio", "trigger0", {"name": "accel_3d-dev0"})
        rig.uevent(trigger, "add")
        rig.input.set_pose("portrait-upside-down")
        rig.wait_for_property("DeviceOrientation", "portrait-upside-down", 5.0)
        assert rig.get_property("Sensor") == rig.input.syspath
        assert "udev: add %s" % trigger in rig.daemon.log()
        client.close()
    finally:
        code, _ = rig.close()
        assert code == 0


def test_a_device_udev_has_not_set_up_is_taken_at_its_own_event(make_rig):
    """The hotplug race: a device that appears while the daemon runs is in sysfs before udev
    has set it up (its properties, group, mode, grants). It is not taken at another device's
    event (a hub's trigger), only at its own, which udev sends once it is done."""
    rig = Rig(accelerometer=False, start_daemon=False)
    try:
        rig.daemon.start()
        rig.bus_client(start=True)
        assert rig.get_property("HasAccelerometer") is False
        rig.input = rig.add_input_accelerometer(recorded=True, gravity=POSES["landscape-right"])
        trigger = rig.add_device("iio", "trigger0", {"name": "accel_3d-dev0"})
        rig.uevent(trigger, "add")
        wait_until(lambda: "udev: add %s" % trigger in rig.daemon.log(), 5.0, what="the trigger's event")
        rig.assert_property_stays("HasAccelerometer", False, 1.0)
        assert rig.input.syspath not in rig.daemon.log(), rig.daemon.log()
        rig.uevent(rig.input, "add")
        rig.wait_for_property("HasAccelerometer", True, 5.0)
        assert rig.get_property("Sensor") == rig.input.syspath
        rig.wait_for_property("DeviceOrientation", "landscape-right", 5.0)
    finally:
        rig.close()


def test_the_node_is_open_only_while_sampling(make_rig):
    rig = input_rig()
    try:
        rig.daemon.start()
        # Discovery read the resolution and let go: opening the node starts a polled driver.
        assert open_nodes(rig, rig.input) == 0
        requests = len(rig.input.requests)
        time.sleep(1.0)
        assert len(rig.input.requests) == requests, "read without a claim"
        client = rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        assert open_nodes(rig, rig.input) == 1
        client.close()
        rig.wait_for_property("Active", False, 5.0)
        wait_until(lambda: open_nodes(rig, rig.input) == 0, 5.0, what="node closed")
        requests = len(rig.input.requests)
        time.sleep(1.0)
        assert len(rig.input.requests) == requests, "read after the claim ended"
    finally:
        rig.close()


def test_iio_is_preferred_over_input(make_rig):
    rig = input_rig(iio={"gravity": POSES["portrait"]}, gravity=POSES["landscape-left"])
    try:
        rig.daemon.start()
        assert rig.get_property("Sensor") == rig.accel.syspath
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        rig.input.set_pose("landscape-right")
        rig.assert_property_stays("DeviceOrientation", "portrait", 1.5)
        rig.accel.set_pose("landscape-left")
        rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
        assert rig.input.requests == [] or open_nodes(rig, rig.input) == 0
    finally:
        rig.close()


def test_input_is_used_when_the_only_iio_sensor_is_in_the_base(make_rig):
    rig = input_rig(iio={"gravity": POSES["face-up"], "extra_properties": {"ACCEL_LOCATION": "base"}},
                    gravity=POSES["landscape-right"])
    try:
        rig.daemon.start()
        assert rig.get_property("Sensor") == rig.input.syspath
        choice = rig.get_property("SensorChoice")
        assert "base accelerometer ignored" in choice, choice
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "landscape-right", 5.0)
    finally:
        rig.close()


def test_pinned_by_its_class_path(make_rig):
    rig = input_rig(config_text="[Sensor]\nDevice=/sys/class/input/event5\n",
                    iio={"gravity": POSES["portrait"]}, gravity=POSES["portrait-upside-down"])
    try:
        rig.daemon.start()
        assert rig.get_property("Sensor") == rig.input.syspath
        assert "pinned" in rig.get_property("SensorChoice")
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait-upside-down", 5.0)
    finally:
        rig.close()


def test_udev_mount_matrix_is_applied(make_rig):
    # Asymmetric: the chip's x is the screen's y, its y the screen's -x.
    matrix = "0, 1, 0; -1, 0, 0; 0, 0, 1"
    rig = input_rig(mount_matrix=matrix, gravity=POSES["landscape-left"])
    try:
        rig.daemon.start()
        # Unturned, the raw values (0, -1 g, 0) would read as portrait.
        assert rig.input.values[0] == 0 and rig.input.values[1] < 0
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
        assert "ACCEL_MOUNT_MATRIX" in rig.daemon.log()
    finally:
        rig.close()


@pytest.mark.parametrize("resolution", [1024, 0])
def test_resolution_or_the_assumed_one(make_rig, resolution):
    rig = input_rig(resolution=resolution, gravity=POSES["landscape-right"])
    try:
        rig.daemon.start()
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "landscape-right", 5.0)
        notes = [l for l in rig.daemon.log_lines() if "no resolution given" in l]
        if resolution:
            assert notes == [], rig.daemon.log()
        else:
            assert len(notes) == 3 and "assuming 256 counts per g" in notes[0], rig.daemon.log()
    finally:
        rig.close()


def test_a_failing_ioctl_is_reported_once_and_recovered(make_rig):
    rig = input_rig()
    try:
        rig.daemon.start()
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        rig.input.fail_errno = errno.EIO
        time.sleep(1.5)  # two still intervals at least
        problems = [l for l in rig.daemon.log_lines() if "EVIOCGABS" in l]
        assert len(problems) == 1, rig.daemon.log()
        assert rig.input.devnode in problems[0] and "Input/output error" in problems[0], problems
        rig.input.fail_errno = None
        rig.input.set_pose("landscape-left")
        rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
        assert rig.daemon.running()
    finally:
        rig.close()


def test_removed_and_re_added_while_claimed(make_rig):
    rig = input_rig()
    try:
        rig.daemon.start()
        client = rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        rig.remove_device(rig.input, subsystem="input")
        rig.wait_for_property("HasAccelerometer", False, 5.0)
        assert rig.get_property("DeviceOrientation") == "unknown"
        rig.input = rig.add_input_accelerometer(gravity=POSES["landscape-right"])
        rig.uevent(rig.input, "add")
        rig.wait_for_property("HasAccelerometer", True, 5.0)
        rig.wait_for_property("DeviceOrientation", "landscape-right", 5.0)
        client.close()
    finally:
        rig.close()


def test_other_input_devices_coming_and_going_change_nothing(make_rig):
    rig = input_rig()
    try:
        rig.daemon.start()
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        keyboard = rig.add_device("input", "event7", {"device/name": "Keyboard"},
                                  {"ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1",
                                   "DEVNAME": "/dev/input/event7"})
        rig.uevent(keyboard, "add")
        rig.remove_device(keyboard, subsystem="input")
        time.sleep(0.5)
        assert "event7" not in rig.daemon.log(), rig.daemon.log()
        assert rig.get_property("Sensor") == rig.input.syspath
    finally:
        rig.close()


def test_driver_poll_interval_follows_the_plan_and_is_restored(make_rig):
    # The linger at the moving interval: the poll file shows 40 for the linger, not only the turn.
    rig = input_rig(config_text="[Sampling]\nLingerIntervalMsec=40\n", poll=(100, 10, 2000))
    try:
        rig.daemon.start()
        assert rig.input.attribute("device/poll") == "100"  # untouched while idle
        client = rig.bus_client(start=True)
        wait_until(lambda: rig.get_property("SampleIntervalMsec") == STILL_INTERVAL_MSEC, 10.0,
                   what="still rate")
        wait_until(lambda: rig.input.attribute("device/poll") == str(STILL_INTERVAL_MSEC), 5.0,
                   what="poll at the still interval")
        rig.input.set_pose("landscape-left")
        wait_until(lambda: rig.input.attribute("device/poll") == "40", 5.0, what="poll 40")
        client.close()
        code, _ = rig.daemon.stop()
        assert code == 0
        assert rig.input.attribute("device/poll") == "100", "not restored on exit"
    finally:
        rig.close()


def test_a_resolution_that_cannot_be_read_is_assumed(make_rig):
    rig = input_rig(resolution=256, gravity=POSES["landscape-left"])
    rig.input.fail_errno = errno.EACCES
    try:
        rig.daemon.start()
        warnings = [l for l in rig.daemon.log_lines() if "cannot read the axes' resolution" in l]
        assert len(warnings) == 1, rig.daemon.log()
        assert "Permission denied" in warnings[0] and "assuming 256 counts per g" in warnings[0]
        assert rig.get_property("HasAccelerometer") is True
        rig.input.fail_errno = None
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
    finally:
        rig.close()
