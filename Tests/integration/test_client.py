"""The command-line client, motion-orientation, against the real daemon."""

import json
import re
import signal
import subprocess
import time

import pytest

from rig import DEVICE_VALUES, INTERFACE_VALUES, default_client, kill_process

pytestmark = [pytest.mark.daemon, pytest.mark.client]

CHANGE = 5.0
NAMES = "|".join(sorted(set(DEVICE_VALUES) | set(INTERFACE_VALUES), key=len, reverse=True))
PLAIN_LINE = re.compile(r"^(device|interface) (%s)$" % NAMES)


def test_get(rig):
    rig.accel.set_pose("landscape-left")
    result = rig.run_client("get")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["device=landscape-left", "interface=landscape-right"]
    assert rig.get_property("Active") is False  # a one-off reading, no claim left behind


def test_get_without_accelerometer(make_rig):
    rig = make_rig(accelerometer=False)
    result = rig.run_client("get")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["device=unknown", "interface=unknown"]


def parse_status(text):
    status = {}
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z]+): (.*)$", line)
        assert match, "not a `Name: value` line: %r" % line
        status[match.group(1)] = match.group(2)
    return status


def test_status(rig):
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    result = rig.run_client("status")
    assert result.returncode == 0, result.stderr
    status = parse_status(result.stdout)
    assert status["DeviceOrientation"] == "portrait"
    assert status["InterfaceOrientation"] == "portrait"
    assert status["HasAccelerometer"] == "yes"
    assert status["Active"] == "yes"
    assert int(status["SampleIntervalMsec"]) == rig.get_property("SampleIntervalMsec") > 0


def test_status_idle(rig):
    result = rig.run_client("status")
    assert result.returncode == 0, result.stderr
    status = parse_status(result.stdout)
    assert status["Active"] == "no"
    assert status["SampleIntervalMsec"] == "0"
    assert status["DeviceOrientation"] == "unknown"


def expect_plain(reader, line, timeout=CHANGE):
    found, skipped = reader.expect(lambda l: l == line, timeout, repr(line))
    for other in skipped:
        assert PLAIN_LINE.match(other), "bad monitor line %r" % other
    return skipped


def test_monitor(rig):
    client = rig.start_client("monitor")
    reader = client.reader
    # The current state first (whatever it is), then the first decision.
    expect_plain(reader, "device portrait")
    expect_plain(reader, "interface portrait")
    assert rig.get_property("Active") is True  # monitor claims

    rig.accel.set_pose("landscape-left")
    expect_plain(reader, "device landscape-left")
    expect_plain(reader, "interface landscape-right")

    rig.accel.set_pose("face-up")
    skipped = expect_plain(reader, "device face-up")
    assert skipped == []
    time.sleep(0.5)
    assert reader.drain() == []  # face-up does not move the interface

    rig.accel.set_pose("landscape-right")
    expect_plain(reader, "device landscape-right")
    expect_plain(reader, "interface landscape-left")

    client.proc.send_signal(signal.SIGTERM)
    client.proc.wait(2)
    rig.wait_for_property("Active", False, 5.0)
    for line in reader.lines:
        assert PLAIN_LINE.match(line), line


def test_monitor_prints_current_state_first(rig):
    other = rig.bus_client(start=True)
    rig.accel.set_pose("landscape-right")
    rig.wait_for_property("InterfaceOrientation", "landscape-left", CHANGE)
    client = rig.start_client("monitor")
    assert sorted([client.reader.next_line(CHANGE), client.reader.next_line(CHANGE)]) == [
        "device landscape-right", "interface landscape-left"]
    other.stop()


def test_monitor_json(rig):
    client = rig.start_client("monitor", "--json")
    reader = client.reader
    objects = []

    def parse(line):
        obj = json.loads(line)  # every line must be one JSON object
        assert isinstance(obj, dict), line
        assert set(obj) == {"stream", "orientation", "value"}, obj
        assert obj["stream"] in ("device", "interface"), obj
        values = DEVICE_VALUES if obj["stream"] == "device" else INTERFACE_VALUES
        assert obj["orientation"] in values, obj
        assert obj["value"] == values[obj["orientation"]], obj
        assert isinstance(obj["value"], int) and not isinstance(obj["value"], bool)
        objects.append(obj)
        return obj

    def expect(stream, orientation):
        reader.expect(lambda l: (lambda o: o["stream"] == stream
                                 and o["orientation"] == orientation)(parse(l)),
                      CHANGE, "%s %s" % (stream, orientation))

    expect("device", "portrait")
    expect("interface", "portrait")
    rig.accel.set_pose("portrait-upside-down")
    expect("device", "portrait-upside-down")
    expect("interface", "portrait-upside-down")
    rig.accel.set_pose("landscape-left")
    expect("device", "landscape-left")
    expect("interface", "landscape-right")
    assert {"stream": "interface", "orientation": "landscape-right", "value": 3} in objects
    assert {"stream": "device", "orientation": "landscape-left", "value": 3} in objects
    kill_process(client.proc, signal.SIGINT, 2.0)
    for line in reader.drain():
        parse(line)


def test_monitor_exits_on_sigint(rig):
    client = rig.start_client("monitor")
    client.reader.next_line(CHANGE)
    started = time.monotonic()
    client.proc.send_signal(signal.SIGINT)
    client.proc.wait(2)
    assert time.monotonic() - started < 1.0
    rig.wait_for_property("Active", False, 5.0)


def assert_one_line_error(result):
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("motion-orientation: "), lines[0]
    assert "Traceback" not in result.stderr and "backtrace" not in result.stderr.lower()
    assert result.stdout == ""


@pytest.mark.parametrize("args", [["get"], ["status"], ["monitor"], ["monitor", "--json"]],
                         ids=["get", "status", "monitor", "monitor-json"])
def test_no_daemon_on_the_bus(make_rig, args):
    rig = make_rig(start_daemon=False)
    started = time.monotonic()
    assert_one_line_error(rig.run_client(*args, timeout=10))
    assert time.monotonic() - started < 5.0


def test_no_bus_at_all(make_rig, tmp_path):
    rig = make_rig(start_daemon=False)
    env = rig.client_env()
    env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=%s" % (tmp_path / "nothing-here")
    assert_one_line_error(rig.run_client("get", timeout=10, env=env))


@pytest.mark.parametrize("argv", [
    ["frobnicate"],
    ["get", "extra"],
    ["status", "extra"],
    ["monitor", "--bogus"],
    ["monitor", "--device", "--interface"],
    ["monitor", "--tablet-mode", "--device"],
    ["exec"],
    ["exec", "--bogus", "--", "true"],
    ["wait"],
    ["wait", "sideways"],
    ["wait", "portrait", "--timeout", "soon"],
    ["wait", "--interface", "tablet"],
    ["wait", "--tablet-mode", "portrait"],
    ["exec", "--tablet-mode", "--device", "--", "true"],
    ["replay"],
    ["replay", "--bogus"],
    ["replay", "a.csv", "b.csv"],
    ["replay", "a.csv", "--rate", "0"],
    ["replay", "a.csv", "--rate"],
    ["replay", "a.csv", "--config"],
    ["record", "extra"],
    ["record", "--seconds", "0"],
    ["record", "--seconds", "3601"],
    ["record", "--rate", "fast"],
    ["record", "--output"],
])
def test_every_command_exits_2_on_a_usage_error(tmp_path, argv):
    # No bus and no sysfs needed: the command line is refused before either is touched.
    result = subprocess.run([default_client(), *argv], capture_output=True, text=True, timeout=20,
                            stdin=subprocess.DEVNULL,
                            env={"DBUS_SYSTEM_BUS_ADDRESS": "unix:path=%s" % (tmp_path / "no-bus")})
    assert result.returncode == 2, (argv, result.returncode, result.stderr)
    assert result.stdout == ""
    assert result.stderr.startswith("motion-orientation: "), result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr


# ---------------------------------------------------------------------------
# tablet mode (a hardware SW_TABLET_MODE switch: rig/tablet.py's fake evdev device)


def switch_rig(make_rig, tablet=False):
    from rig.tablet import tablet_rig
    return tablet_rig(make_rig, base=False, switch={"tablet": tablet})


def test_status_shows_tablet_mode(make_rig):
    rig = switch_rig(make_rig, tablet=True)
    status = parse_status(rig.run_client("status").stdout)
    assert (status["TabletMode"], status["TabletModeSource"], status["HingeAngle"],
            status["HingeState"]) == ("yes", "switch", "-1", "unknown")
    rig.switch.set(tablet=False)
    rig.wait_for_property("TabletMode", False, CHANGE)
    assert parse_status(rig.run_client("status").stdout)["TabletMode"] == "no"


def test_status_without_tablet_mode(rig):
    status = parse_status(rig.run_client("status").stdout)
    assert (status["TabletMode"], status["TabletModeSource"], status["HingeAngle"],
            status["HingeState"]) == ("no", "none", "-1", "unknown")


def test_monitor_prints_tablet_mode_changes(make_rig):
    rig = switch_rig(make_rig)
    client = rig.start_client("monitor")
    reader = client.reader
    first = [reader.next_line(CHANGE) for _ in range(3)]
    assert first[2] == "tablet-mode laptop", first  # after both orientations: the current state
    assert all(PLAIN_LINE.match(line) for line in first[:2]), first
    rig.switch.set(tablet=True)
    found, skipped = reader.expect(lambda l: l == "tablet-mode tablet", CHANGE, "tablet")
    rig.switch.set(tablet=False)
    found, more = reader.expect(lambda l: l == "tablet-mode laptop", CHANGE, "laptop")
    for line in skipped + more:
        assert PLAIN_LINE.match(line), line  # orientation news only, no repeated tablet line
    kill_process(client.proc, signal.SIGTERM, 2.0)


def test_monitor_json_tablet_mode(make_rig):
    rig = switch_rig(make_rig)
    client = rig.start_client("monitor", "--json", "--tablet-mode")
    assert json.loads(client.reader.next_line(CHANGE)) == {
        "stream": "tablet-mode", "mode": "laptop", "tablet": False, "source": "switch"}
    rig.switch.set(tablet=True)
    assert json.loads(client.reader.next_line(CHANGE)) == {
        "stream": "tablet-mode", "mode": "tablet", "tablet": True, "source": "switch"}
    time.sleep(0.5)
    assert client.reader.drain() == []  # --tablet-mode: no orientation lines
    kill_process(client.proc, signal.SIGTERM, 2.0)


def test_monitor_tablet_mode_option_on_a_machine_without_it(rig):
    client = rig.start_client("monitor", "--tablet-mode")
    time.sleep(1.5)
    assert client.proc.poll() is None
    assert client.reader.drain() == []  # no source: nothing to say
    kill_process(client.proc, signal.SIGTERM, 2.0)


def test_monitor_and_status_follow_the_hinge(make_rig):
    from rig.tablet import set_rig_hinge, tablet_rig
    rig = tablet_rig(make_rig, theta=100)
    client = rig.start_client("monitor", "--json", "--tablet-mode")
    reader = client.reader
    objects = []

    def expect(stream, key, value):
        def match(line):
            obj = json.loads(line)
            objects.append(obj)
            return obj["stream"] == stream and obj[key] == value
        reader.expect(match, CHANGE, "%s %s" % (stream, value))
        return objects[-1]

    laptop = expect("tablet-mode", "mode", "laptop")
    assert laptop == {"stream": "tablet-mode", "mode": "laptop", "tablet": False, "source": "hinge"}
    concave = expect("hinge-state", "state", "concave")
    assert set(concave) == {"stream", "state", "angle"}
    assert concave["angle"] == -1 or abs(concave["angle"] - 100) < 5, concave
    set_rig_hinge(rig, 180)
    flat = expect("hinge-state", "state", "flat")
    assert 160 < flat["angle"] < 200, flat
    for theta in (240, 300, 359):
        set_rig_hinge(rig, theta)
        time.sleep(0.4)
    expect("tablet-mode", "mode", "tablet")
    expect("hinge-state", "state", "full")
    assert {o["stream"] for o in objects} == {"tablet-mode", "hinge-state"}  # --tablet-mode only
    # status shows the angle as it is now (the way to check a base sensor's mount matrix).
    status = parse_status(rig.run_client("status").stdout)
    assert (status["TabletMode"], status["TabletModeSource"], status["HingeState"]) == (
        "yes", "hinge", "full")
    assert re.match(r"^\d+(\.\d)?$", status["HingeAngle"]), status["HingeAngle"]
    assert float(status["HingeAngle"]) > 340
    kill_process(client.proc, signal.SIGTERM, 2.0)


@pytest.mark.timeout(45)
def test_monitor_rereads_tablet_mode_after_a_daemon_restart(make_rig):
    rig = switch_rig(make_rig)
    client = rig.start_client("monitor", "--tablet-mode")
    assert client.reader.next_line(CHANGE) == "tablet-mode laptop"
    rig.daemon.stop()
    rig.switch.set(tablet=True)  # folded while the daemon was away
    rig.daemon.start()
    client.reader.expect(lambda l: l == "tablet-mode tablet", CHANGE, "tablet after the restart")
    kill_process(client.proc, signal.SIGTERM, 2.0)
