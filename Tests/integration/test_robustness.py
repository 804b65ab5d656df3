"""Bad values, missing hardware, signals, introspection, start-up."""

import re
import signal
import time

import pytest

from rig import BUS_NAME, INTERFACE, OBJECT_PATH, wait_until

pytestmark = pytest.mark.daemon

CHANGE = 5.0


def lines_naming(rig, path, worst=7):
    """Daemon log lines naming path, at priority `worst` (<N> prefix) or more urgent."""
    return [line for line in rig.daemon.log_lines()
            if path in line and int(re.match(r"^<([0-7])>", line + "<7>").group(1)) <= worst]


@pytest.mark.parametrize("garbage", ["abc", "", "99999999999999999999"],
                         ids=["letters", "empty", "huge"])
@pytest.mark.parametrize("channel", ["x", "z"])
def test_garbage_is_logged_once_and_skipped(rig, garbage, channel):
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    interval = rig.get_property("SampleIntervalMsec") / 1000.0
    path = rig.accel.daemon_path(channel)
    assert path.endswith("iio:device0/in_accel_%s_raw" % channel)
    assert lines_naming(rig, path) == []

    rig.accel.set_raw(channel, garbage)
    wait_until(lambda: lines_naming(rig, path), max(3.0, 20 * interval),
               what="a log line naming %s" % path)
    # Many more samples while the value stays bad: still one line, still serving,
    # the bad sample skipped (no change of orientation).
    deadline = time.monotonic() + max(1.0, 10 * interval)
    while time.monotonic() < deadline:
        assert rig.get_property("DeviceOrientation") == "portrait"
        assert rig.daemon.running()
        time.sleep(0.05)
    try:
        rig.read_orientation(timeout=3)  # answers (a value or an error), does not hang
    except AssertionError as err:
        assert "timeout" not in str(err).lower() and "timed out" not in str(err).lower(), err
    logged = lines_naming(rig, path)
    assert len(logged) == 1, logged
    assert re.match(r"^<[0-4]>", logged[0]), "not a warning or error: %r" % logged[0]
    assert garbage == "" or garbage in logged[0], "the bad value is not shown: %r" % logged[0]

    # Valid again: the orientation follows again, and no new complaint (a notice
    # that the channel is readable again is fine).
    rig.accel.set_pose("landscape-right")
    rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE)
    assert lines_naming(rig, path, worst=4) == logged


def test_no_accelerometer(make_rig):
    rig = make_rig(accelerometer=False)
    assert rig.get_property("HasAccelerometer") is False
    assert rig.get_property("DeviceOrientation") == "unknown"
    assert rig.get_property("InterfaceOrientation") == "unknown"
    started = time.monotonic()
    assert rig.read_orientation(timeout=5) == ("unknown", "unknown")
    assert time.monotonic() - started < 3.0
    claimer = rig.bus_client()
    claimer.start()  # accepted, harmless
    time.sleep(0.3)
    assert rig.daemon.running()
    assert rig.get_property("DeviceOrientation") == "unknown"
    claimer.stop()


def test_has_accelerometer(rig):
    assert rig.get_property("HasAccelerometer") is True


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("claimed", [False, True], ids=["idle", "sampling"])
def test_signal_exits_cleanly(rig, sig, claimed):
    if claimed:
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    code, seconds = rig.daemon.stop(sig, timeout=5.0)
    assert code == 0, "exit status %r; output:\n%s" % (code, rig.daemon.log())
    assert seconds < 1.0, "took %.2f s to exit" % seconds
    wait_until(lambda: not rig.bus.name_has_owner(BUS_NAME), 2.0, what="the name released")


def test_sighup_keeps_serving(rig):
    """The unit's ExecReload sends SIGHUP: the daemon must not die of it."""
    claimer = rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    rig.daemon.send_signal(signal.SIGHUP)
    time.sleep(0.3)
    assert rig.daemon.running(), rig.daemon.log()
    assert rig.get_property("Active") is True
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    claimer.stop()


def test_startup_is_quick(rig):
    # Generous bound for a loaded CI machine; `make bench` measures the real figure.
    assert rig.daemon.startup_seconds < 2.0


def test_log_lines_carry_priorities(rig):
    lines = [line for line in rig.daemon.log_lines() if line.strip()]
    assert lines, "the daemon says nothing with --verbose"
    bad = [line for line in lines if not re.match(r"^<[0-7]>", line)]
    assert not bad, bad


def parse_introspection(text):
    members = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[0].startswith("."):
            members[fields[0][1:]] = {"type": fields[1], "signature": fields[2],
                                      "result": fields[3], "flags": fields[4:]}
    return members


def test_introspection(rig):
    out = rig.busctl("introspect", BUS_NAME, OBJECT_PATH, INTERFACE, json_output=False).stdout
    members = parse_introspection(out)
    expected_properties = {"DeviceOrientation": "s", "InterfaceOrientation": "s",
                           "HasAccelerometer": "b", "Active": "b", "SampleIntervalMsec": "u"}
    for name, signature in expected_properties.items():
        assert name in members, "property %s missing:\n%s" % (name, out)
        assert members[name]["type"] == "property"
        assert members[name]["signature"] == signature
    for name, member in members.items():
        if member["type"] == "property":
            assert "emits-change" in member["flags"], "%s does not emit changes:\n%s" % (name, out)
            assert "writable" not in member["flags"], "%s is writable" % name
    assert members["Start"]["type"] == "method" and members["Start"]["signature"] == "-"
    assert members["Stop"]["type"] == "method" and members["Stop"]["signature"] == "-"
    assert members["ReadOrientation"]["type"] == "method"
    assert members["ReadOrientation"]["result"] == "ss"
    for name in ("DeviceOrientationChanged", "InterfaceOrientationChanged"):
        assert members[name]["type"] == "signal" and members[name]["signature"] == "su"
    # The standard interfaces are there too.
    everything = rig.busctl("introspect", BUS_NAME, OBJECT_PATH, json_output=False).stdout
    for iface in ("org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable",
                  "org.freedesktop.DBus.Peer"):
        assert iface in everything


def test_tree(rig):
    out = rig.busctl("tree", BUS_NAME, json_output=False).stdout
    assert OBJECT_PATH in out


def test_unknown_method_is_an_error_not_a_crash(rig):
    with pytest.raises(AssertionError):
        rig.call("NoSuchMethod")
    assert rig.daemon.running()
    assert rig.get_property("HasAccelerometer") is True
