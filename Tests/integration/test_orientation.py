"""Readings to orientations: the reference vectors, the interface table, signals."""

import pytest

from rig import (DEVICE_VALUES, INTERFACE, INTERFACE_VALUES, POSES, G, is_orientation_signal,
                 is_properties_changed)

pytestmark = pytest.mark.daemon

# Time allowed for a committed change (sampling + settle time + evidence timer).
CHANGE = 5.0

# (pose held before, pose, expected device orientation, expected interface orientation)
REFERENCE = [
    (None, "portrait", "portrait", "portrait"),
    (None, "portrait-upside-down", "portrait-upside-down", "portrait-upside-down"),
    (None, "landscape-left", "landscape-left", "landscape-right"),
    (None, "landscape-right", "landscape-right", "landscape-left"),
    # Face up/down keep the last interface orientation...
    ("landscape-left", "face-up", "face-up", "landscape-right"),
    ("portrait-upside-down", "face-down", "face-down", "portrait-upside-down"),
    # ... which is unknown before the first upright decision.
    (None, "face-up", "face-up", "unknown"),
]


@pytest.mark.parametrize("before,pose,device,interface", REFERENCE,
                         ids=[("%s-then-" % b if b else "") + p for b, p, _, _ in REFERENCE])
def test_reference_vector(make_rig, before, pose, device, interface):
    rig = make_rig(gravity=POSES[before or pose])
    rig.bus_client(start=True)
    if before:
        rig.wait_for_property("DeviceOrientation", before, CHANGE)
        rig.accel.set_pose(pose)
    rig.wait_for_property("DeviceOrientation", device, CHANGE)
    rig.wait_for_property("InterfaceOrientation", interface, CHANGE)


def test_tour_signals_and_properties_changed(rig):
    """Every device orientation in turn: signals with Apple's raw values, PropertiesChanged."""
    monitor = rig.monitor()
    rig.bus_client(start=True)
    tour = ["portrait", "landscape-left", "portrait-upside-down", "landscape-right", "face-up",
            "face-down", "portrait"]
    interface = "unknown"
    for pose in tour:
        step = monitor.mark()
        rig.accel.set_pose(pose)
        message = monitor.wait_for(is_orientation_signal("DeviceOrientationChanged", pose),
                                   CHANGE, "DeviceOrientationChanged(%s)" % pose, since=step)
        assert message["payload"]["type"] == "su"
        assert message["payload"]["data"] == [pose, DEVICE_VALUES[pose]]
        monitor.wait_for(is_properties_changed("DeviceOrientation", pose), 2.0,
                         "PropertiesChanged DeviceOrientation=%s" % pose, since=step)
        expected_interface = {"portrait": "portrait", "landscape-left": "landscape-right",
                              "portrait-upside-down": "portrait-upside-down",
                              "landscape-right": "landscape-left"}.get(pose)
        if expected_interface:
            interface = expected_interface
            message = monitor.wait_for(
                is_orientation_signal("InterfaceOrientationChanged", interface), 2.0,
                "InterfaceOrientationChanged(%s)" % interface, since=step)
            assert message["payload"]["type"] == "su"
            assert message["payload"]["data"] == [interface, INTERFACE_VALUES[interface]]
            monitor.wait_for(is_properties_changed("InterfaceOrientation", interface), 2.0,
                             "PropertiesChanged InterfaceOrientation=%s" % interface, since=step)
        assert rig.get_property("DeviceOrientation") == pose
        assert rig.get_property("InterfaceOrientation") == interface

    signals = monitor.service_signals()
    devices = [d[0] for m, d in signals if m == "DeviceOrientationChanged"]
    interfaces = [d[0] for m, d in signals if m == "InterfaceOrientationChanged"]
    # One signal per change, none while flat (face up/down keep the interface).
    assert devices == tour, devices
    assert interfaces == ["portrait", "landscape-right", "portrait-upside-down",
                          "landscape-left", "portrait"], interfaces
    # The signals go to everyone (broadcast), not to one destination.
    for message in monitor.messages:
        if message.get("type") == "signal" and message.get("interface") == INTERFACE:
            assert "destination" not in message, message


def test_signals_reach_a_plain_subscriber(rig):
    """A second, independent client (Gio) gets the same signals with the same values."""
    listener = rig.bus_client(start=True, signals=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    rig.accel.set_pose("landscape-right")
    seen = []
    while ("DeviceOrientationChanged", ["landscape-right", 4]) not in seen or (
            "InterfaceOrientationChanged", ["landscape-left", 4]) not in seen:
        seen.append(listener.next_signal(CHANGE))


def test_no_change_no_signal(rig):
    """Holding still sends nothing after the first decision."""
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    monitor = rig.monitor()
    rig.assert_property_stays("DeviceOrientation", "portrait", 1.0)
    assert [m for m, _ in monitor.service_signals() if m != "PropertiesChanged"] == []
    changed = [d[1] for m, d in monitor.service_signals() if m == "PropertiesChanged"]
    assert all(set(c) <= {"SampleIntervalMsec"} for c in changed), changed


def test_mount_matrix_is_applied(make_rig):
    """ACCEL_MOUNT_MATRIX swapping x and y: raw (-1 g, 0, 0) is corrected to portrait."""
    rig = make_rig(mount_matrix="0, 1, 0; 1, 0, 0; 0, 0, 1")
    rig.accel.set_raw_values(-1000, 0, 0)
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    rig.accel.set_raw_values(0, 1000, 0)  # corrected (+1 g, 0, 0)
    rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE)


def test_per_channel_scale_wins(make_rig):
    """in_accel_y_scale overrides in_accel_scale for y (10x here)."""
    rig = make_rig(channel_scales={"y": 0.0980665})
    # 30 degrees off portrait: stays portrait when y is scaled right; reading y with
    # the shared scale instead would give (4.9, -0.85, 0): landscape-right.
    rig.accel.set_gravity(0.5 * G, -0.866 * G, 0.0)
    assert rig.accel.read_back("y").strip() == "-87"
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    rig.assert_property_stays("DeviceOrientation", "portrait", 0.5)


@pytest.mark.parametrize("pose", ["portrait", "landscape-right", "portrait-upside-down"])
def test_read_orientation_without_claim(make_rig, pose):
    rig = make_rig(gravity=POSES[pose])
    assert rig.get_property("Active") is False
    device, interface = rig.read_orientation(timeout=5)
    assert (device, interface) == (pose, {"landscape-right": "landscape-left"}.get(pose, pose))
    # A one-off reading claims nothing.
    assert rig.get_property("Active") is False
    assert rig.get_property("SampleIntervalMsec") == 0


def test_read_orientation_follows_the_current_vector(rig):
    assert rig.read_orientation(timeout=5)[0] == "portrait"
    rig.accel.set_pose("landscape-left")
    assert rig.read_orientation(timeout=5) == ("landscape-left", "landscape-right")
    rig.accel.set_pose("face-down")
    assert rig.read_orientation(timeout=5)[0] == "face-down"


def test_landscape_only_kiosk_never_reports_portrait(make_rig):
    rig = make_rig(config_text="[Orientation]\n"
                               "AllowedInterfaceOrientations=landscape-left landscape-right\n")
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    assert rig.get_property("InterfaceOrientation") == "unknown"
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("InterfaceOrientation", "landscape-right", 5.0)
    rig.accel.set_pose("portrait")
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    rig.accel.set_pose("portrait-upside-down")
    rig.wait_for_property("DeviceOrientation", "portrait-upside-down", 5.0)
    assert rig.get_property("InterfaceOrientation") == "landscape-right"
