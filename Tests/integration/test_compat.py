"""The iio-sensor-proxy compatibility interface ([Compatibility] SensorProxy=yes).

monitor-sensor (from Debian's iio-sensor-proxy package) runs unchanged against the daemon
and prints what it prints against iio-sensor-proxy itself for the same motion; a GNOME-like
client (claim, Get, PropertiesChanged) sees every change; claims are the daemon's claims.
"""

import json
import os
import signal
import subprocess
import time

import pytest

from rig import LineReader, Rig, kill_process, spawn, wait_until
from rig.contract import DEFAULT_SCALE, G

SENSOR_PROXY = "net.hadess.SensorProxy"
PROXY_PATH = "/net/hadess/SensorProxy"
IIO_SENSOR_PROXY = "/usr/sbin/iio-sensor-proxy"
COMPAT = "[Compatibility]\nSensorProxy=yes\n"

# A motion through every upright orientation and a face-up rest, slow enough for
# iio-sensor-proxy's 700 ms poll.
MOTION = ["landscape-right", "portrait-upside-down", "face-up", "landscape-left", "portrait"]
HOLD = 2.0


def motion_rig():
    """A rig whose device also carries the property iio-sensor-proxy's udev rule sets."""
    rig = Rig(accelerometer=False, start_daemon=False, config_text=COMPAT)
    rig.accel = rig.add_accelerometer(extra_properties={"IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"})
    return rig


def monitor_sensor_lines(rig, start_service):
    """Runs monitor-sensor, starts the service, plays MOTION, returns monitor-sensor's lines."""
    monitor = spawn(["monitor-sensor"], env=rig.bus.env(), stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT)
    reader = LineReader(monitor)
    try:
        time.sleep(0.5)
        service = start_service()
        time.sleep(HOLD)
        for pose in MOTION:
            rig.accel.set_pose(pose)
            time.sleep(HOLD)
    finally:
        kill_process(monitor)
        reader.join(5.0)
    return service, [line for line in reader.lines if line.strip()]


def essential(lines):
    """The lines that say what happened: the service appearing, what it has, and each
    orientation change. iio-sensor-proxy itself adds start-up noise when monitor-sensor
    connects while it is still setting up (a burst of 'appeared'/'disappeared' lines and
    an 'undefined' orientation), depending on timing; those are left out."""
    return [line for line in lines
            if line.startswith(("+++ iio-sensor-proxy", "=== "))
            or (line.startswith("    Accelerometer orientation changed:")
                and not line.endswith(": undefined"))]


def test_monitor_sensor_prints_what_it_prints_for_iio_sensor_proxy(make_rig):
    if not os.access(IIO_SENSOR_PROXY, os.X_OK):
        pytest.skip("iio-sensor-proxy is not installed")
    reference_rig = motion_rig()
    try:
        def start_reference():
            return spawn([IIO_SENSOR_PROXY], env=dict(reference_rig.daemon.env),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        proxy, expected = monitor_sensor_lines(reference_rig, start_reference)
        kill_process(proxy)
    finally:
        reference_rig.close()
    assert any("orientation changed" in line for line in expected), expected

    rig = motion_rig()
    try:
        def start_ours():
            rig.daemon.start()
            return rig.daemon
        _, ours = monitor_sensor_lines(rig, start_ours)
        assert essential(ours) == essential(expected), "\nours:\n%s\niio-sensor-proxy:\n%s" % (
            "\n".join(ours), "\n".join(expected))
        assert essential(ours)[-1] == "    Accelerometer orientation changed: normal"
    finally:
        code, _ = rig.close()
        assert code == 0


GNOME_LIKE_CLIENT = r"""
import sys
from gi.repository import Gio, GLib
bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
proxy = Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.NONE, None, "net.hadess.SensorProxy",
                               "/net/hadess/SensorProxy", "net.hadess.SensorProxy", None)
def changed(_proxy, properties, _invalidated):
    props = properties.unpack()
    # What a client that reads only the first entry would see, then the whole set.
    first = next(iter(props))
    print("changed %s=%s all=%s" % (first, props[first], ",".join(sorted(props))), flush=True)
proxy.connect("g-properties-changed", changed)
proxy.call_sync("ClaimAccelerometer", None, Gio.DBusCallFlags.NONE, -1, None)
def get(name):
    return proxy.call_sync("org.freedesktop.DBus.Properties.Get",
                           GLib.Variant("(ss)", ("net.hadess.SensorProxy", name)),
                           Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
print("claimed orientation=%s tilt=%s" % (get("AccelerometerOrientation"), get("AccelerometerTilt")),
      flush=True)
GLib.MainLoop().run()
"""


def start_gnome_like_client(rig):
    proc = spawn(["/usr/bin/python3", "-c", GNOME_LIKE_CLIENT], env=rig.bus.env(),
                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc, LineReader(proc)


def proxy_property(rig, name):
    out = rig.busctl("get-property", SENSOR_PROXY, PROXY_PATH, SENSOR_PROXY, name).stdout
    return json.loads(out)["data"]


def test_gnome_like_client_sees_every_change(make_rig):
    rig = make_rig(config_text=COMPAT)
    proc, lines = start_gnome_like_client(rig)
    line, _ = lines.expect(lambda l: l.startswith("claimed "), 5.0, "the claim")
    # The claim returns once the orientation is known; its change signal went out before.
    assert line == "claimed orientation=normal tilt=vertical", line
    lines.expect(lambda l: l.startswith("changed AccelerometerOrientation=normal"), 5.0, "normal")
    rig.wait_for_property("Active", True, 5.0)
    expected = {"landscape-right": "left-up", "portrait-upside-down": "bottom-up",
                "landscape-left": "right-up", "portrait": "normal"}
    for pose, word in expected.items():
        rig.accel.set_pose(pose)
        line, _ = lines.expect(lambda l: l.startswith("changed AccelerometerOrientation="), 5.0,
                            "the change to %s" % word)
        assert line.split()[1] == "AccelerometerOrientation=%s" % word, line
        assert proxy_property(rig, "AccelerometerOrientation") == word
    # Face up: the orientation stays, the tilt says so, with iio-sensor-proxy 3.9's sign (a
    # negative z, our face-up, is its face-down).
    rig.accel.set_pose("face-up")
    line, _ = lines.expect(lambda l: l.startswith("changed AccelerometerTilt=face"), 5.0, "the tilt")
    assert line.split()[1] == "AccelerometerTilt=face-down", line
    assert proxy_property(rig, "AccelerometerOrientation") == "normal"
    rig.wait_for_property("DeviceOrientation", "face-up", 5.0)  # the native convention
    kill_process(proc)


def test_claim_announces_the_orientation_then_the_tilt(make_rig):
    """At the claim iio-sensor-proxy 3.9 announces its first reading's orientation, then its
    tilt, in separate PropertiesChanged signals (accel_changed_func in its
    src/iio-sensor-proxy.c); so does the daemon, although its tilt is known readings before
    its orientation is decided."""
    rig = make_rig(config_text=COMPAT)
    proc, lines = start_gnome_like_client(rig)
    lines.expect(lambda l: l.startswith("claimed "), 5.0, "the claim")
    first, _ = lines.expect(lambda l: l.startswith("changed "), 5.0, "the first change")
    second, _ = lines.expect(lambda l: l.startswith("changed "), 5.0, "the second change")
    assert first == "changed AccelerometerOrientation=normal all=AccelerometerOrientation", first
    assert second == "changed AccelerometerTilt=vertical all=AccelerometerTilt", second
    kill_process(proc)


def scaled_rig(scale, g_units):
    """A compatibility rig whose portrait reads `g_units` g by the sysfs scale (iio-sensor-proxy's
    own test device: in_accel_scale 10 and a raw -25.6, 26 g)."""
    rig = Rig(accelerometer=False, start_daemon=False, config_text=COMPAT)
    rig.accel = rig.add_accelerometer(scale=scale, gravity=(0.0, -g_units * G, 0.0))
    rig.daemon.start()
    return rig


@pytest.mark.parametrize("scale, g_units", [(DEFAULT_SCALE, 1), (10, 25), (1, 100)],
                         ids=["1g", "25g", "100g"])
def test_claim_returns_with_the_orientation_known(make_rig, scale, g_units):
    rig = scaled_rig(scale, g_units)
    try:
        assert proxy_property(rig, "AccelerometerOrientation") == "undefined"
        assert proxy_property(rig, "AccelerometerTilt") == "undefined"
        proc, lines = start_gnome_like_client(rig)
        line, _ = lines.expect(lambda l: l.startswith("claimed "), 5.0, "the claim")
        assert line == "claimed orientation=normal tilt=vertical", line
        kill_process(proc)
    finally:
        rig.close()


def test_claim_waits_a_bounded_time_for_an_orientation(make_rig):
    """A sensor that reads nothing usable (a zero vector) never decides: the claim still
    returns, after about a second, and holds."""
    rig = Rig(accelerometer=False, start_daemon=False, config_text=COMPAT)
    try:
        rig.accel = rig.add_accelerometer(gravity=(0.0, 0.0, 0.0))
        rig.daemon.start()
        proc, lines = start_gnome_like_client(rig)
        started = time.monotonic()
        line, _ = lines.expect(lambda l: l.startswith("claimed "), 5.0, "the claim")
        waited = time.monotonic() - started
        assert line == "claimed orientation=undefined tilt=vertical", line  # 3.9: zero is vertical
        assert 0.8 <= waited <= 3.0, waited
        assert rig.get_property("Active") is True
        kill_process(proc)
    finally:
        rig.close()


def test_tilt_is_what_iio_sensor_proxy_computes(make_rig):
    """iio-sensor-proxy 3.9's test steps (scale 10): a quarter turn, 45 degrees with z < 0
    (tilted-down), then a 3 g reading with z > 0, 72 degrees (face-up): its sign and its bands, from the
    latest reading, whatever the magnitude. The native interface keeps its own convention."""
    rig = scaled_rig(10, 26.5)  # a raw -26
    try:
        proc, lines = start_gnome_like_client(rig)
        line, _ = lines.expect(lambda l: l.startswith("claimed "), 5.0, "the claim")
        assert line == "claimed orientation=normal tilt=vertical", line
        rig.accel.set_raw_values(-26, 0, 0)
        wait_until(lambda: proxy_property(rig, "AccelerometerOrientation") == "right-up", 5.0,
                   what="right-up")
        assert proxy_property(rig, "AccelerometerTilt") == "vertical"
        rig.accel.set_raw_values(-26, 0, -26)
        wait_until(lambda: proxy_property(rig, "AccelerometerTilt") == "tilted-down", 5.0,
                   what="tilted-down")
        rig.accel.set_raw_values(-26, 0, 80)
        wait_until(lambda: proxy_property(rig, "AccelerometerTilt") == "face-up", 5.0,
                   what="face-up")
        assert proxy_property(rig, "AccelerometerOrientation") == "right-up"
        # Steady at 3 g, it is 1 g to the estimator after referenceRestartTime: screen down.
        rig.wait_for_property("DeviceOrientation", "face-down", 5.0)
        kill_process(proc)
    finally:
        rig.close()


def test_a_removed_sensor_is_undefined(make_rig):
    rig = make_rig(config_text=COMPAT)
    proc, lines = start_gnome_like_client(rig)
    line, _ = lines.expect(lambda l: l.startswith("claimed "), 5.0, "the claim")
    assert line == "claimed orientation=normal tilt=vertical", line
    rig.remove_device(rig.accel)
    lines.expect(lambda l: l.startswith("changed AccelerometerOrientation=undefined"), 5.0,
                 "the orientation undefined")
    assert proxy_property(rig, "HasAccelerometer") is False
    assert proxy_property(rig, "AccelerometerOrientation") == "undefined"
    assert proxy_property(rig, "AccelerometerTilt") == "undefined"
    kill_process(proc)


def test_claims_are_the_daemons_claims(make_rig):
    rig = make_rig(config_text=COMPAT)
    assert rig.get_property("Active") is False
    proc, lines = start_gnome_like_client(rig)
    lines.expect(lambda l: l.startswith("claimed "), 5.0, "the claim")
    rig.wait_for_property("Active", True, 5.0)
    kill_process(proc, signal.SIGKILL)
    rig.wait_for_property("Active", False, 5.0)


def test_compatibility_properties_and_harmless_claims(make_rig):
    rig = make_rig(config_text=COMPAT)
    assert proxy_property(rig, "HasAccelerometer") is True
    assert proxy_property(rig, "HasAmbientLight") is False
    assert proxy_property(rig, "HasProximity") is False
    assert proxy_property(rig, "LightLevelUnit") == "lux"
    for method in ("ClaimLight", "ReleaseLight", "ClaimProximity", "ReleaseProximity"):
        rig.busctl("call", SENSOR_PROXY, PROXY_PATH, SENSOR_PROXY, method)
    compass = json.loads(rig.busctl("get-property", SENSOR_PROXY, PROXY_PATH + "/Compass",
                                    SENSOR_PROXY + ".Compass", "HasCompass").stdout)["data"]
    assert compass is False
    assert rig.get_property("Active") is False  # light/proximity claims sample nothing


def test_off_by_default(make_rig):
    rig = make_rig()
    assert not rig.bus.name_has_owner(SENSOR_PROXY)


def test_reload_turns_it_on_and_off(make_rig):
    rig = make_rig()
    rig.config_path.write_text(COMPAT)
    rig.daemon.send_signal(signal.SIGHUP)
    wait_until(lambda: rig.bus.name_has_owner(SENSOR_PROXY), 5.0, what="the compatibility name")
    rig.config_path.write_text("")
    rig.daemon.send_signal(signal.SIGHUP)
    wait_until(lambda: not rig.bus.name_has_owner(SENSOR_PROXY), 5.0, what="the name released")
    assert rig.get_property("HasAccelerometer") is True
