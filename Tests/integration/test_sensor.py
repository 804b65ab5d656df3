"""The IIO accelerometer as real hardware has it: the right sensor, the right axes, hotplug,
the sampling frequency.

Two-in-one devices with a base and a display accelerometer, every mount matrix source
and the override, per-channel and shared scales and offsets, removal and re-adding
while claimed, a locale with a decimal comma.
"""

import json

import pytest

from rig import STILL_INTERVAL_MSEC, G, POSES, Rig, wait_until
from rig.contract import DEFAULT_SCALE

SCALE = 0.00980665  # raw 1000 = 1 g


def status(rig):
    return rig.get_properties() if hasattr(rig, "get_properties") else None


def add_sensor(rig, name, gravity=POSES["portrait"], **kwargs):
    return rig.add_accelerometer(name=name, gravity=gravity, **kwargs)


def two_in_one(location_kind):
    """A rig with a base sensor first (udev order) and a display sensor second, marked
    by `location_kind`: 'property', 'label' or 'attribute'."""
    rig = Rig(accelerometer=False, start_daemon=False)
    marks = {
        "property": ({"extra_properties": {"ACCEL_LOCATION": "base"}},
                     {"extra_properties": {"ACCEL_LOCATION": "display"}}),
        "label": ({"extra_attributes": {"label": "accel-base"}},
                  {"extra_attributes": {"label": "accel-display"}}),
        "attribute": ({"extra_attributes": {"location": "base"}},
                      {"extra_attributes": {"location": "lid"}}),
    }[location_kind]
    base = add_sensor(rig, "iio:device0", gravity=POSES["face-up"], **marks[0])
    display = add_sensor(rig, "iio:device1", **marks[1])
    return rig, base, display


@pytest.mark.parametrize("location_kind", ["property", "label", "attribute"])
def test_two_in_one_follows_the_display_sensor_only(make_rig, location_kind):
    rig, base, display = two_in_one(location_kind)
    try:
        rig.daemon.start()
        assert rig.get_property("Sensor") == display.syspath
        assert "display" in rig.get_property("SensorChoice")
        client = rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        # The keyboard half moves: nothing happens.
        base.set_pose("landscape-left")
        rig.assert_property_stays("DeviceOrientation", "portrait", 1.5)
        # The screen moves: the orientation follows.
        display.set_pose("landscape-right")
        rig.wait_for_property("DeviceOrientation", "landscape-right", 5.0)
        client.close()
    finally:
        code, _ = rig.close()
        assert code == 0


def test_only_a_base_sensor_is_no_accelerometer(make_rig):
    rig = Rig(accelerometer=False, start_daemon=False)
    try:
        add_sensor(rig, "iio:device0", extra_properties={"ACCEL_LOCATION": "base"})
        rig.daemon.start()
        assert rig.get_property("HasAccelerometer") is False
        assert rig.get_property("Sensor") == ""
        assert "base" in rig.get_property("SensorChoice")
        assert rig.read_orientation() == ("unknown", "unknown")
    finally:
        rig.close()


@pytest.mark.parametrize("pin", ["name:pinned_accel", "label:accel-base", "/sys/devices/iio:device0"])
def test_config_pins_a_sensor(make_rig, pin):
    rig = Rig(accelerometer=False, start_daemon=False, config_text="[Sensor]\nDevice=%s\n" % pin)
    try:
        pinned = add_sensor(rig, "iio:device0", gravity=POSES["landscape-left"],
                            extra_attributes={"name": "pinned_accel", "label": "accel-base"})
        add_sensor(rig, "iio:device1")
        rig.daemon.start()
        assert rig.get_property("Sensor") == pinned.syspath
        assert rig.read_orientation()[0] == "landscape-left"
    finally:
        rig.close()


# -- mount matrices: an asymmetric matrix turns portrait's raw reading into landscape

# Raw (0, -g, 0) with this matrix gives (g, 0, 0): landscape-right.
SWAP = "0, -1, 0; 1, 0, 0; 0, 0, 1"
RAW_PORTRAIT = (0, -1000, 0)


def matrix_rig(config_text="", extra_properties=None, extra_attributes=None):
    rig = Rig(accelerometer=False, start_daemon=False, config_text=config_text)
    accel = rig.add_accelerometer(extra_properties=extra_properties or {},
                                  extra_attributes=extra_attributes or {})
    accel.set_raw_values(*RAW_PORTRAIT)
    rig.accel = accel
    rig.daemon.start()
    return rig


@pytest.mark.parametrize("source", [
    {"extra_properties": {"ACCEL_MOUNT_MATRIX": SWAP}},
    {"extra_attributes": {"mount_matrix": SWAP}},
    {"extra_attributes": {"in_accel_mount_matrix": SWAP}},
    {"extra_attributes": {"in_mount_matrix": SWAP}},
    {"config_text": "[Sensor]\nMountMatrix=%s\n" % SWAP},
], ids=["udev", "mount_matrix", "in_accel_mount_matrix", "in_mount_matrix", "override"])
def test_each_mount_matrix_source_is_applied(make_rig, source):
    rig = matrix_rig(**source)
    try:
        assert rig.read_orientation() == ("landscape-right", "landscape-left")
    finally:
        rig.close()


def test_malformed_matrix_falls_through_with_a_message(make_rig):
    rig = matrix_rig(extra_properties={"ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1"},
                     extra_attributes={"mount_matrix": SWAP})
    try:
        assert rig.read_orientation()[0] == "landscape-right"
        complaints = [l for l in rig.daemon.log_lines()
                      if l.startswith("<4>") and "ACCEL_MOUNT_MATRIX" in l]
        assert len(complaints) == 1, rig.daemon.log()
        assert rig.accel.syspath in complaints[0]
    finally:
        rig.close()


def test_override_wins_over_udev(make_rig):
    rig = matrix_rig(config_text="[Sensor]\nMountMatrix=1, 0, 0; 0, 1, 0; 0, 0, 1\n",
                     extra_properties={"ACCEL_MOUNT_MATRIX": SWAP})
    try:
        assert rig.read_orientation()[0] == "portrait"
    finally:
        rig.close()


def test_matrix_change_event_is_applied_without_restart(make_rig):
    rig = matrix_rig()
    try:
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        # What `systemd-hwdb update && udevadm trigger` does: new properties, a change event.
        uevent_file = rig.accel.directory / "uevent"
        uevent_file.write_text(uevent_file.read_text() + "ACCEL_MOUNT_MATRIX=%s\n" % SWAP)
        rig.uevent(rig.accel, "change")
        rig.wait_for_property("DeviceOrientation", "landscape-right", 5.0)
    finally:
        rig.close()


# -- scale and offset

@pytest.mark.parametrize("attributes, raw", [
    # shared scale, per-channel offsets: (raw + offset) * scale
    ({"in_accel_scale": "0.00980665", "in_accel_y_offset": "-500"}, (0, -500, 0)),
    # shared offset
    ({"in_accel_scale": "0.00980665", "in_accel_offset": "100"}, (-100, -1100, -100)),
    # per-channel scale wins over the shared one
    ({"in_accel_scale": "1", "in_accel_y_scale": "0.0196133"}, (0, -500, 0)),
    # the generic `scale`
    ({"scale": "0.00980665"}, (0, -1000, 0)),
], ids=["channel-offset", "shared-offset", "channel-scale", "generic-scale"])
def test_scales_and_offsets(make_rig, attributes, raw):
    rig = Rig(accelerometer=False, start_daemon=False)
    try:
        accel = rig.add_accelerometer(scale=None, extra_attributes=attributes)
        accel.set_raw_values(*raw)
        rig.daemon.start()
        # (raw + offset) * scale must be portrait, g downwards along y.
        assert rig.read_orientation()[0] == "portrait", rig.daemon.log()
    finally:
        rig.close()


@pytest.mark.parametrize("scale, g_units", [(10, 25), (1, 100), (DEFAULT_SCALE / 1000, 0.001)],
                         ids=["25g", "100g", "1mg"])
def test_any_absolute_scale_gives_the_orientation(make_rig, scale, g_units):
    """A scale wrong by orders of magnitude (iio-sensor-proxy's suite feeds 25 g and 100 g):
    the direction decides, at once and on every turn."""
    def pose(name):
        return tuple(v * g_units for v in POSES[name])
    rig = Rig(accelerometer=False, start_daemon=False)
    try:
        rig.accel = rig.add_accelerometer(scale=scale, gravity=pose("landscape-right"))
        rig.daemon.start()
        assert rig.read_orientation()[0] == "landscape-right", rig.daemon.log()
        rig.bus_client(start=True)
        for name in ["portrait", "face-up", "landscape-left"]:
            rig.accel.set_gravity(*pose(name))
            rig.wait_for_property("DeviceOrientation", name, 5.0)
    finally:
        rig.close()


def test_refused_scale_is_reported_and_the_next_one_used(make_rig):
    rig = Rig(accelerometer=False, start_daemon=False)
    try:
        accel = rig.add_accelerometer(scale=None, extra_attributes={
            "in_accel_y_scale": "-0.5", "in_accel_scale": "0.00980665"})
        accel.set_raw_values(0, -1000, 0)
        rig.daemon.start()
        assert rig.read_orientation()[0] == "portrait"
        assert any(l.startswith("<4>") and "in_accel_y_scale" in l for l in rig.daemon.log_lines())
    finally:
        rig.close()


def test_decimal_comma_locale_changes_nothing(make_rig):
    rig = Rig(accelerometer=False, start_daemon=False)
    try:
        rig.add_accelerometer(gravity=POSES["landscape-left"])
        rig.daemon.env["LC_ALL"] = "de_DE.UTF-8"
        rig.daemon.env["LC_NUMERIC"] = "de_DE.UTF-8"
        rig.daemon.start()
        assert rig.read_orientation()[0] == "landscape-left"
    finally:
        rig.close()


# -- hotplug

def test_removed_and_re_added_while_claimed(make_rig):
    rig = make_rig()
    client = rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    syspath = rig.accel.syspath
    rig.remove_device(rig.accel)
    rig.wait_for_property("HasAccelerometer", False, 5.0)
    assert rig.get_property("DeviceOrientation") == "unknown"
    assert rig.get_property("InterfaceOrientation") == "unknown"
    assert rig.get_property("Active") is False
    # The claim is kept: a sensor coming back is sampled for it at once.
    rig.accel = rig.add_accelerometer(name="iio:device0", gravity=POSES["landscape-left"])
    assert rig.accel.syspath == syspath
    rig.uevent(rig.accel, "add")
    rig.wait_for_property("HasAccelerometer", True, 5.0)
    rig.wait_for_property("Active", True, 5.0)
    rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
    client.close()
    rig.wait_for_property("Active", False, 5.0)


def test_a_sensor_appearing_later_is_taken(make_rig):
    rig = make_rig(accelerometer=False)
    rig.bus_client(start=True)
    assert rig.get_property("HasAccelerometer") is False
    rig.accel = rig.add_accelerometer(gravity=POSES["portrait-upside-down"])
    rig.uevent(rig.accel, "add")
    rig.wait_for_property("HasAccelerometer", True, 5.0)
    rig.wait_for_property("DeviceOrientation", "portrait-upside-down", 5.0)


def test_a_sensor_udev_has_not_set_up_waits_for_its_own_event(make_rig):
    """A device the kernel has added but udev has not processed yet has no udev database entry
    (nor, on a real machine, its properties, group, mode and RUN's grants): it is not taken
    at another device's event (a hub's trigger, a second sensor). umockdev keeps no udev
    database, so a device with a node (MAJOR/MINOR) stays unprocessed there for good; one
    without a node counts as set up, as libudev has it."""
    rig = make_rig(accelerometer=False)
    rig.bus_client(start=True)
    pending = rig.add_accelerometer(name="iio:device0", gravity=POSES["landscape-left"],
                                    extra_properties={"MAJOR": "240", "MINOR": "0",
                                                      "DEVNAME": "iio:device0"})
    trigger = rig.add_device("iio", "trigger0", {"name": "accel_3d-dev0"})
    rig.uevent(trigger, "add")
    ready = rig.add_accelerometer(name="iio:device1", gravity=POSES["portrait-upside-down"])
    rig.uevent(ready, "add")
    rig.wait_for_property("HasAccelerometer", True, 5.0)
    rig.wait_for_property("DeviceOrientation", "portrait-upside-down", 5.0)
    assert rig.get_property("Sensor") == ready.syspath
    assert not any(pending.syspath in line for line in rig.daemon.log_lines())


# -- the device's own sampling frequency

def test_sampling_frequency_follows_the_plan_and_is_restored(make_rig):
    # The linger at the moving interval: the rate file shows 25 Hz for the linger, not only the turn.
    rig = Rig(accelerometer=False, start_daemon=False, config_text="[Sampling]\nLingerIntervalMsec=40\n")
    try:
        accel = rig.add_accelerometer(extra_attributes={
            "sampling_frequency": "100", "sampling_frequency_available": "1 10 25 50 100"})
        rig.daemon.start()
        rate = accel.directory / "sampling_frequency"
        assert rate.read_text().strip() == "100"  # untouched while idle
        client = rig.bus_client(start=True)
        # Still: 750 ms needs 1.33 Hz, so 10 Hz is the lowest that serves it.
        wait_until(lambda: rig.get_property("SampleIntervalMsec") == STILL_INTERVAL_MSEC, 10.0,
                   what="still rate")
        wait_until(lambda: rate.read_text().strip() == "10", 5.0, what="10 Hz")
        # Moving: 40 ms needs 25 Hz.
        accel.set_pose("landscape-left")
        wait_until(lambda: rate.read_text().strip() == "25", 5.0, what="25 Hz")
        client.close()
        code, _ = rig.daemon.stop()
        assert code == 0
        assert rate.read_text().strip() == "100", "not restored on exit"
    finally:
        rig.close()


def test_unwritable_sampling_frequency_degrades_cleanly(make_rig):
    rig = Rig(accelerometer=False, start_daemon=False)
    try:
        accel = rig.add_accelerometer(extra_attributes={"sampling_frequency_available": "1 10 100"})
        # An attribute that reads but refuses writes even to root, as on a read-only /sys
        # (ProtectKernelTunables=yes) or a driver without a writable rate.
        rate = accel.directory / "sampling_frequency"
        if rate.exists():
            rate.unlink()
        rate.symlink_to("/proc/version")
        rig.daemon.start()
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        accel.set_pose("landscape-right")
        rig.wait_for_property("DeviceOrientation", "landscape-right", 5.0)
        notes = [l for l in rig.daemon.log_lines() if "sampling frequency" in l]
        assert len(notes) == 1 and notes[0].startswith("<5>"), rig.daemon.log()
    finally:
        rig.close()
