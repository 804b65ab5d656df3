"""The client for scripts (`monitor` stream options, `exec`, `wait`) and the example rotation
scripts in docs/examples.

The example scripts run against the real daemon with stand-ins for swaymsg, xrandr,
xinput and hyprctl first on the PATH (standins/record: each run appends its arguments
to a log), and the test checks what each script would have told them for all four
interface orientations.
"""

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

import rig as rigmod
from rig import REPO_ROOT, LineReader, RigError, default_client, kill_process, spawn, wait_until

HERE = Path(__file__).resolve().parent
EXAMPLES = REPO_ROOT / "docs/examples"
RECORD = HERE / "standins/record"
CHANGE = 5.0

# Device poses in turn and the interface orientation each one means; from portrait,
# every step is a quarter turn, and the round ends where it began.
ROUND = [("landscape-right", "landscape-left"),
         ("portrait-upside-down", "portrait-upside-down"),
         ("landscape-left", "landscape-right"),
         ("portrait", "portrait")]


# ---------------------------------------------------------------------------
# helpers


class ScriptRun:
    """A script or client command running with stand-ins first on the PATH.

    The PATH holds a directory with `motion-orientation` (the client under test) and the
    stand-ins, then /usr/bin and /bin. Everything it starts shares its process group,
    which close() ends.
    """

    STANDINS = ("swaymsg", "xrandr", "xinput", "hyprctl", "hook", "gsettings")

    def __init__(self, rig, tmp_path, argv, env=None):
        self.bin = tmp_path / "bin"
        self.bin.mkdir(exist_ok=True)
        for name in self.STANDINS:
            if not (self.bin / name).exists():
                (self.bin / name).symlink_to(RECORD)
        if not (self.bin / "motion-orientation").exists():
            (self.bin / "motion-orientation").symlink_to(Path(rig.client_binary).resolve())
        self.log = tmp_path / ("calls-%d.jsonl" % time.monotonic_ns())
        self.log.touch()
        self.stderr_path = tmp_path / ("stderr-%d" % time.monotonic_ns())
        full_env = rig.bus.env()
        full_env["PATH"] = "%s:/usr/bin:/bin" % self.bin
        full_env["STANDIN_LOG"] = str(self.log)
        for key in list(full_env):
            if key.startswith("MOTION_ORIENTATION"):
                del full_env[key]
        full_env.update(env or {})
        with open(self.stderr_path, "wb") as stderr:
            self.proc = rigmod.spawn([str(a) for a in argv], env=full_env,
                                     stdout=subprocess.PIPE, stderr=stderr)
        self.reader = LineReader(self.proc)
        self.seen = 0

    def calls(self):
        return [json.loads(line) for line in self.log.read_text().splitlines() if line]

    def next_calls(self, count, timeout=CHANGE):
        """The next `count` calls after those already taken, waiting for them."""
        try:
            wait_until(lambda: len(self.calls()) >= self.seen + count, timeout,
                       what="%d more stand-in calls" % count)
        except RigError as err:
            raise RigError("%s; calls so far: %r; stderr: %s"
                           % (err, self.calls()[self.seen:], self.stderr())) from None
        taken = self.calls()[self.seen:self.seen + count]
        self.seen += count
        return taken

    def assert_no_more_calls(self, quiet=0.7):
        time.sleep(quiet)
        assert self.calls()[self.seen:] == []

    def stderr(self):
        return self.stderr_path.read_text(errors="replace")

    def close(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        rigmod.kill_process(self.proc, signal.SIGTERM)


@pytest.fixture
def scripts(request):
    """Factory for ScriptRun; every run is ended after the test."""
    runs = []

    def start(rig, tmp_path, argv, env=None):
        run = ScriptRun(rig, tmp_path, argv, env)
        runs.append(run)
        return run

    yield start
    for run in runs:
        run.close()


def args_of(calls):
    return [[c["program"]] + c["args"] for c in calls]


# ---------------------------------------------------------------------------
# the example rotation scripts


def sway_calls(interface):
    transform = {"portrait": "normal", "landscape-left": "90",
                 "portrait-upside-down": "180", "landscape-right": "270"}[interface]
    return [["swaymsg", "output", "DSI-1", "transform", transform],
            ["swaymsg", "input", "type:touch", "map_to_output", "DSI-1"],
            ["swaymsg", "input", "type:tablet_tool", "map_to_output", "DSI-1"]]


def x11_calls(interface):
    rotate, matrix = {
        "portrait": ("normal", "1 0 0 0 1 0 0 0 1"),
        "landscape-left": ("left", "0 -1 1 1 0 0 0 0 1"),
        "portrait-upside-down": ("inverted", "-1 0 1 0 -1 1 0 0 1"),
        "landscape-right": ("right", "0 1 0 -1 0 1 0 0 1"),
    }[interface]
    return [["xrandr", "--output", "DSI-1", "--rotate", rotate],
            ["xinput", "set-prop", "Goodix Capacitive TouchScreen",
             "Coordinate Transformation Matrix"] + matrix.split()]


def hyprland_calls(interface):
    transform = {"portrait": "0", "landscape-left": "1",
                 "portrait-upside-down": "2", "landscape-right": "3"}[interface]
    return [["hyprctl", "keyword", "monitor", "DSI-1,preferred,auto,1.5,transform," + transform],
            ["hyprctl", "keyword", "input:touchdevice:transform", transform],
            ["hyprctl", "keyword", "input:tablet:transform", transform]]


EXAMPLE_SCRIPTS = {
    "sway-rotate.sh": ({"OUTPUT": "DSI-1"}, sway_calls),
    "x11-rotate.sh": ({"OUTPUT": "DSI-1", "TOUCHSCREEN": "Goodix Capacitive TouchScreen"},
                      x11_calls),
    "hyprland-rotate.sh": ({"MONITOR": "DSI-1", "SCALE": "1.5"}, hyprland_calls),
}


@pytest.mark.daemon
@pytest.mark.timeout(60)
@pytest.mark.parametrize("script", sorted(EXAMPLE_SCRIPTS))
def test_example_rotation_script(rig, tmp_path, scripts, script):
    env, expected = EXAMPLE_SCRIPTS[script]
    run = scripts(rig, tmp_path, [EXAMPLES / script], env)
    # Once for the orientation at start, then once per change, in order.
    first = run.next_calls(len(expected("portrait")))
    assert args_of(first) == expected("portrait")
    assert first[0]["env"]["MOTION_ORIENTATION"] == "portrait"
    for pose, interface in ROUND:
        rig.accel.set_pose(pose)
        calls = run.next_calls(len(expected(interface)))
        assert args_of(calls) == expected(interface), pose
        assert {c["env"]["MOTION_ORIENTATION"] for c in calls} == {interface}
    # Face up leaves the interface orientation, so the screen, as it was.
    rig.accel.set_pose("face-up")
    rig.wait_for_property("DeviceOrientation", "face-up", CHANGE)
    run.assert_no_more_calls()
    assert run.proc.poll() is None, run.stderr()


def test_example_scripts_are_short_commented_and_executable():
    for script in list(EXAMPLE_SCRIPTS) + ["gdbus-listener.sh"]:
        path = EXAMPLES / script
        text = path.read_text()
        assert os.access(path, os.X_OK), script
        assert text.startswith("#!/bin/sh\n"), script
        assert len(text.splitlines()) <= 80, script
        assert sum(1 for line in text.splitlines() if line.lstrip().startswith("#")) >= 5
        check = subprocess.run(["sh", "-n", str(path)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr


@pytest.mark.daemon
@pytest.mark.timeout(60)
def test_gdbus_listener_drives_a_rotation_command(rig, tmp_path, scripts):
    holder = rig.bus_client(start=True)  # gdbus only listens: someone must claim
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    env = {"OUTPUT": "DSI-1", "TOUCHSCREEN": "Goodix Capacitive TouchScreen"}
    run = scripts(rig, tmp_path, [EXAMPLES / "gdbus-listener.sh", EXAMPLES / "x11-rotate.sh"],
                  env)
    assert run.reader.next_line(CHANGE) == "interface portrait"
    assert args_of(run.next_calls(2)) == x11_calls("portrait")
    for pose, interface in ROUND:
        rig.accel.set_pose(pose)
        assert run.reader.next_line(CHANGE) == "interface " + interface
        calls = run.next_calls(2)
        assert args_of(calls) == x11_calls(interface)
        values = {"portrait": "1", "portrait-upside-down": "2", "landscape-right": "3",
                  "landscape-left": "4"}
        assert calls[0]["env"] == {"MOTION_ORIENTATION": interface,
                                   "MOTION_ORIENTATION_VALUE": values[interface]}
    rig.accel.set_pose("face-down")
    rig.wait_for_property("DeviceOrientation", "face-down", CHANGE)
    run.assert_no_more_calls()
    assert run.reader.drain() == []
    holder.stop()


def session_members(sid):
    """The live processes of session `sid` (each script runs in a session of its own)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            members.append(int(entry))
    return members


def assert_sigterm_ends_everything(run):
    """SIGTERM to the script alone (as a service manager's first signal) ends it and
    everything it started: nothing of its session is left running."""
    assert len(session_members(run.proc.pid)) >= 2  # the script and its monitor
    os.kill(run.proc.pid, signal.SIGTERM)
    try:
        assert run.proc.wait(5) == 128 + signal.SIGTERM, run.stderr()
        wait_until(lambda: not session_members(run.proc.pid), 3.0,
                   what="the script's children to end")
    finally:
        for orphan in session_members(run.proc.pid):  # so that a failure fails, not hangs
            os.kill(orphan, signal.SIGKILL)


@pytest.mark.daemon
@pytest.mark.timeout(60)
def test_gdbus_listener_takes_its_monitor_along_on_sigterm(rig, tmp_path, scripts):
    holder = rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    run = scripts(rig, tmp_path, [EXAMPLES / "gdbus-listener.sh"])
    assert run.reader.next_line(CHANGE) == "interface portrait"
    assert_sigterm_ends_everything(run)
    holder.stop()


def migration_guide_script():
    """The monitor-sensor script of the migration guide, as printed there."""
    text = (REPO_ROOT / "docs/migrating-from-iio-sensor-proxy.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return next(block for block in blocks if 'monitor-sensor > "$fifo"' in block)


@pytest.mark.daemon
@pytest.mark.timeout(60)
def test_migration_guide_monitor_sensor_script(make_rig, tmp_path, scripts):
    """The guide's script, pasted as written, drives xrandr through the real monitor-sensor
    and the compatibility interface, and SIGTERM ends monitor-sensor with it."""
    rig = make_rig(config_text="[Compatibility]\nSensorProxy=yes\n")
    script = tmp_path / "rotate.sh"
    script.write_text(migration_guide_script())
    script.chmod(0o755)
    run = scripts(rig, tmp_path, [script])
    wait_until(lambda: ["xrandr", "-o", "normal"] in args_of(run.calls()), CHANGE,
               what="xrandr -o normal")
    for pose, xrandr in [("landscape-right", "left"), ("portrait-upside-down", "inverted"),
                         ("landscape-left", "right"), ("portrait", "normal")]:
        rig.accel.set_pose(pose)
        wait_until(lambda: args_of(run.calls())[-1] == ["xrandr", "-o", xrandr], CHANGE,
                   what="xrandr -o %s after %s; calls %r" % (xrandr, pose, run.calls()))
    assert_sigterm_ends_everything(run)


# ---------------------------------------------------------------------------
# motion-orientation exec


def full_env(device, interface, stream="interface"):
    from rig import DEVICE_VALUES, INTERFACE_VALUES
    env = {
        "MOTION_ORIENTATION_STREAM": stream,
        "MOTION_ORIENTATION_DEVICE": device,
        "MOTION_ORIENTATION_DEVICE_VALUE": str(DEVICE_VALUES[device]),
        "MOTION_ORIENTATION_INTERFACE": interface,
        "MOTION_ORIENTATION_INTERFACE_VALUE": str(INTERFACE_VALUES[interface]),
    }
    env["MOTION_ORIENTATION"] = env["MOTION_ORIENTATION_" + stream.upper()]
    env["MOTION_ORIENTATION_VALUE"] = env["MOTION_ORIENTATION_%s_VALUE" % stream.upper()]
    return env


@pytest.mark.daemon
@pytest.mark.client
def test_exec_environment_and_arguments(rig, tmp_path, scripts):
    run = scripts(rig, tmp_path, ["motion-orientation", "exec", "--", "hook", "a", "b c"],
                  {"MOTION_ORIENTATION": "stale", "KEEP_ME": "1"})
    first, = run.next_calls(1)
    assert first["args"] == ["a", "b c"]
    assert first["env"] == full_env("portrait", "portrait")
    assert rig.get_property("Active") is True  # exec holds a claim

    rig.accel.set_pose("landscape-left")
    call, = run.next_calls(1)
    assert call["env"] == full_env("landscape-left", "landscape-right")
    # The device alone moves (face up): the interface stream has no news.
    rig.accel.set_pose("face-up")
    rig.wait_for_property("DeviceOrientation", "face-up", CHANGE)
    run.assert_no_more_calls()
    rig.accel.set_pose("landscape-right")
    call, = run.next_calls(1)
    assert call["env"] == full_env("landscape-right", "landscape-left")


@pytest.mark.daemon
@pytest.mark.client
def test_exec_device_stream(rig, tmp_path, scripts):
    run = scripts(rig, tmp_path, ["motion-orientation", "exec", "--device", "--", "hook"])
    assert run.next_calls(1)[0]["env"] == full_env("portrait", "portrait", "device")
    rig.accel.set_pose("face-up")
    assert run.next_calls(1)[0]["env"] == full_env("face-up", "portrait", "device")
    rig.accel.set_pose("landscape-left")
    assert run.next_calls(1)[0]["env"] == full_env("landscape-left", "landscape-right", "device")


@pytest.mark.daemon
@pytest.mark.client
@pytest.mark.timeout(60)
def test_exec_runs_one_at_a_time_and_coalesces(rig, tmp_path, scripts):
    log = tmp_path / "runs.log"
    body = ('echo "start $MOTION_ORIENTATION $(date +%%s.%%N)" >> %s; sleep 4; '
            'echo "end $MOTION_ORIENTATION $(date +%%s.%%N)" >> %s' % (log, log))
    run = scripts(rig, tmp_path, ["motion-orientation", "exec", "--", "sh", "-c", body])

    def lines():
        return log.read_text().splitlines() if log.exists() else []

    def wait_lines(count):
        wait_until(lambda: len(lines()) >= count, 10, what="%d run log lines" % count)

    wait_lines(1)
    # Two changes while the first run sleeps: only the latest runs, after it.
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("InterfaceOrientation", "landscape-right", CHANGE)
    rig.accel.set_pose("portrait-upside-down")
    rig.wait_for_property("InterfaceOrientation", "portrait-upside-down", CHANGE)
    assert len(lines()) == 1, lines()  # still the first run
    wait_lines(3)
    # Away and back while the second run sleeps: nothing new to run afterwards.
    rig.accel.set_pose("landscape-right")
    rig.wait_for_property("InterfaceOrientation", "landscape-left", CHANGE)
    rig.accel.set_pose("portrait-upside-down")
    rig.wait_for_property("InterfaceOrientation", "portrait-upside-down", CHANGE)
    wait_lines(4)
    time.sleep(1.0)
    runs = [line.split() for line in lines()]
    assert [r[:2] for r in runs] == [["start", "portrait"], ["end", "portrait"],
                                     ["start", "portrait-upside-down"],
                                     ["end", "portrait-upside-down"]], runs
    times = [float(r[2]) for r in runs]
    assert times == sorted(times)  # never overlapping
    assert run.proc.poll() is None


@pytest.mark.daemon
@pytest.mark.client
def test_exec_reports_a_failing_command_and_goes_on(rig, tmp_path, scripts):
    run = scripts(rig, tmp_path, ["motion-orientation", "exec", "--", "sh", "-c",
                                  'hook; exit 3'])
    run.next_calls(1)
    wait_until(lambda: "exited with status 3" in run.stderr(), CHANGE, what="the report")
    assert run.stderr().splitlines() == ["motion-orientation: sh exited with status 3"]
    rig.accel.set_pose("landscape-left")
    run.next_calls(1)
    assert run.proc.poll() is None


@pytest.mark.daemon
@pytest.mark.client
def test_exec_passes_sigterm_to_the_command(rig, tmp_path, scripts):
    marker = tmp_path / "got-term"
    body = "trap 'touch %s; exit 0' TERM; hook; while :; do sleep 0.05; done" % marker
    run = scripts(rig, tmp_path, ["motion-orientation", "exec", "--", "sh", "-c", body])
    run.next_calls(1)
    run.proc.send_signal(signal.SIGTERM)
    assert run.proc.wait(5) == -signal.SIGTERM
    assert marker.exists()
    rig.wait_for_property("Active", False, CHANGE)


@pytest.mark.daemon
@pytest.mark.client
def test_exec_command_not_found(rig):
    result = rig.run_client("exec", "--", "/nonexistent/rotate")
    assert result.returncode == 1
    assert result.stderr == ("motion-orientation: cannot run /nonexistent/rotate: "
                             "No such file or directory\n")


@pytest.mark.parametrize("args", [["exec"], ["exec", "--"], ["exec", "--bogus", "--", "true"],
                                  ["exec", "--device", "--interface", "--", "true"]],
                         ids=["nothing", "dashes-only", "bad-option", "both-streams"])
def test_exec_usage_errors(args):
    result = subprocess.run([default_client(), *args], capture_output=True, text=True,
                            timeout=10, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert result.stderr.startswith("motion-orientation: ")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.daemon
@pytest.mark.client
def test_exec_without_daemon(make_rig):
    rig = make_rig(start_daemon=False)
    result = rig.run_client("exec", "--", "true")
    assert result.returncode == 1
    assert "motion-orientationd is not running" in result.stderr


# ---------------------------------------------------------------------------
# motion-orientation wait


@pytest.mark.daemon
@pytest.mark.client
def test_wait_returns_at_once_when_reached(rig):
    started = time.monotonic()
    result = rig.run_client("wait", "portrait")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert time.monotonic() - started < 3.0
    rig.wait_for_property("Active", False, CHANGE)  # no claim left behind


@pytest.mark.daemon
@pytest.mark.client
def test_wait_blocks_until_reached(rig):
    client = rig.start_client("wait", "face-down")
    time.sleep(1.0)
    assert client.proc.poll() is None
    assert rig.get_property("Active") is True  # it claims while it waits
    rig.accel.set_pose("landscape-left")
    time.sleep(0.8)
    assert client.proc.poll() is None
    rig.accel.set_pose("face-down")
    assert client.proc.wait(CHANGE) == 0
    rig.wait_for_property("Active", False, CHANGE)


@pytest.mark.daemon
@pytest.mark.client
def test_wait_for_an_interface_orientation(rig):
    # Device landscape-left is interface landscape-right: the rule is per stream.
    client = rig.start_client("wait", "--interface", "landscape-left", "--timeout", "10")
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    time.sleep(0.5)
    assert client.proc.poll() is None
    rig.accel.set_pose("landscape-right")
    assert client.proc.wait(CHANGE) == 0


@pytest.mark.daemon
@pytest.mark.client
def test_wait_times_out_with_status_3(rig):
    started = time.monotonic()
    result = rig.run_client("wait", "face-down", "--timeout", "0.5")
    elapsed = time.monotonic() - started
    assert result.returncode == 3
    assert 0.5 <= elapsed < 3.0
    assert result.stderr == ("motion-orientation: timed out after 0.5 s waiting for "
                             "device face-down\n")
    assert result.stdout == ""


@pytest.mark.daemon
@pytest.mark.client
@pytest.mark.timeout(45)
def test_wait_survives_a_daemon_restart(rig):
    client = rig.start_client("wait", "landscape-right", "--timeout", "20")
    wait_until(lambda: rig.get_property("Active"), CHANGE, what="the claim")
    time.sleep(1.0)  # past the first reading: the client is following, not starting
    rig.daemon.stop()
    rig.accel.set_pose("landscape-right")
    time.sleep(0.3)
    assert client.proc.poll() is None
    rig.daemon.start()
    assert client.proc.wait(10) == 0, client.stderr()
    assert "left the bus" in client.stderr()


# Owns the daemon's bus name and never answers a call: a hung daemon, as a client sees it.
SILENT_DAEMON = """
import sys, time, dbus
bus = dbus.bus.BusConnection(sys.argv[1])
bus.request_name("io.github.MotionOrientation1")
print("owned", flush=True)
time.sleep(120)
"""


@pytest.mark.daemon
@pytest.mark.client
@pytest.mark.parametrize("timeout", [0, 1.5], ids=["zero", "one-and-a-half"])
def test_wait_times_out_when_the_daemon_does_not_answer(make_rig, timeout):
    rig = make_rig(start_daemon=False)
    stub = spawn(["/usr/bin/python3", "-c", SILENT_DAEMON, rig.bus.address],
                 stdout=subprocess.PIPE, text=True)
    try:
        assert stub.stdout.readline() == "owned\n"
        started = time.monotonic()
        result = rig.run_client("wait", "portrait", "--timeout", str(timeout), timeout=20)
        elapsed = time.monotonic() - started
        assert result.returncode == 3, result.stderr
        assert timeout <= elapsed < timeout + 1.0
        assert result.stderr == ("motion-orientation: timed out after %s s waiting for "
                                 "device portrait\n" % ("0" if timeout == 0 else "1.5"))
        assert result.stdout == ""
    finally:
        kill_process(stub, signal.SIGTERM, 2.0)


@pytest.mark.parametrize("args", [["wait"], ["wait", "sideways"], ["wait", "unknown"],
                                  ["wait", "--interface", "face-up"],
                                  ["wait", "portrait", "--timeout"],
                                  ["wait", "portrait", "--timeout", "soon"],
                                  ["wait", "portrait", "landscape-left"],
                                  ["wait", "--device", "--interface", "portrait"]],
                         ids=["nothing", "bad-name", "unknown", "face-up-interface",
                              "timeout-missing", "timeout-word", "two-names", "both-streams"])
def test_wait_usage_errors(args):
    result = subprocess.run([default_client(), *args], capture_output=True, text=True,
                            timeout=10, stdin=subprocess.DEVNULL)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("motion-orientation: ")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.daemon
@pytest.mark.client
def test_wait_without_daemon(make_rig):
    rig = make_rig(start_daemon=False)
    result = rig.run_client("wait", "portrait", "--timeout", "5")
    assert result.returncode == 1
    assert "motion-orientationd is not running" in result.stderr


# ---------------------------------------------------------------------------
# motion-orientation monitor --device / --interface


@pytest.mark.daemon
@pytest.mark.client
def test_monitor_one_stream(rig):
    device = rig.start_client("monitor", "--device")
    interface = rig.start_client("monitor", "--interface", "--json")
    assert device.reader.next_line(CHANGE) == "device portrait"
    assert json.loads(interface.reader.next_line(CHANGE)) == {
        "stream": "interface", "orientation": "portrait", "value": 1}
    rig.accel.set_pose("face-up")
    assert device.reader.next_line(CHANGE) == "device face-up"
    rig.accel.set_pose("landscape-right")
    assert device.reader.next_line(CHANGE) == "device landscape-right"
    assert json.loads(interface.reader.next_line(CHANGE)) == {
        "stream": "interface", "orientation": "landscape-left", "value": 4}
    time.sleep(0.5)
    assert device.reader.drain() == [] and interface.reader.drain() == []


def test_monitor_refuses_both_stream_options():
    result = subprocess.run([default_client(), "monitor", "--device", "--interface"],
                            capture_output=True, text=True, timeout=10)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1


def test_help_lists_the_script_commands():
    result = subprocess.run([default_client(), "help"], capture_output=True, text=True,
                            timeout=10)
    assert result.returncode == 0
    for text in ("exec [--interface|--device|--tablet-mode]", "wait [--device|--interface] ORIENTATION",
                 "wait tablet|laptop [--timeout SECONDS]",
                 "monitor [--device|--interface|--tablet-mode] [--json]", "3 when wait timed out"):
        assert text in result.stdout


# ---------------------------------------------------------------------------
# tablet mode: exec --tablet-mode, wait tablet|laptop (a hardware switch: rig/tablet.py)


def switch_rig(make_rig, tablet=False, switch=True):
    from rig.tablet import tablet_rig
    return tablet_rig(make_rig, base=False, switch={"tablet": tablet} if switch else None)


def tablet_env(mode, device="portrait", interface="portrait"):
    env = full_env(device, interface, "interface")
    env.update({"MOTION_ORIENTATION_STREAM": "tablet-mode", "MOTION_ORIENTATION": mode,
                "MOTION_ORIENTATION_VALUE": "1" if mode == "tablet" else "0",
                "MOTION_ORIENTATION_TABLET_MODE": mode,
                "MOTION_ORIENTATION_TABLET_MODE_SOURCE": "switch",
                "MOTION_ORIENTATION_HINGE_STATE": "unknown",
                "MOTION_ORIENTATION_HINGE_ANGLE": "-1"})
    return env


@pytest.mark.daemon
@pytest.mark.client
def test_exec_tablet_mode(make_rig, tmp_path, scripts):
    rig = switch_rig(make_rig)
    run = scripts(rig, tmp_path, ["motion-orientation", "exec", "--tablet-mode", "--", "hook"],
                  {"MOTION_ORIENTATION_TABLET_MODE": "stale"})
    first, = run.next_calls(1)
    # The first run may come before the first orientation decision: compare the rest.
    assert {k: v for k, v in first["env"].items() if "DEVICE" not in k and "INTERFACE" not in k} \
        == {k: v for k, v in tablet_env("laptop").items() if "DEVICE" not in k and "INTERFACE" not in k}
    rig.switch.set(tablet=True)
    call, = run.next_calls(1)
    assert call["env"] == tablet_env("tablet")
    # An orientation change is no tablet-mode news.
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    run.assert_no_more_calls()
    rig.switch.set(tablet=False)
    call, = run.next_calls(1)
    assert call["env"] == tablet_env("laptop", "landscape-left", "landscape-right")


@pytest.mark.daemon
@pytest.mark.client
def test_exec_tablet_mode_waits_for_a_source(make_rig, tmp_path, scripts):
    from rig.tablet import FakeTabletModeSwitch
    rig = switch_rig(make_rig, switch=False)
    run = scripts(rig, tmp_path, ["motion-orientation", "exec", "--tablet-mode", "--", "hook"])
    wait_until(lambda: "no tablet-mode source" in run.stderr(), CHANGE, what="the notice")
    run.assert_no_more_calls()
    switch = FakeTabletModeSwitch(rig.testbed, tablet=True)
    rig._closeables.append(switch)
    rig.uevent(switch.syspath, "add")
    call, = run.next_calls(1)
    assert call["env"]["MOTION_ORIENTATION"] == "tablet"
    assert call["env"]["MOTION_ORIENTATION_TABLET_MODE_SOURCE"] == "switch"


@pytest.mark.daemon
@pytest.mark.client
def test_wait_tablet_and_laptop(make_rig):
    rig = switch_rig(make_rig)
    result = rig.run_client("wait", "laptop")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    client = rig.start_client("wait", "tablet", "--timeout", "20")
    time.sleep(1.0)
    assert client.proc.poll() is None
    rig.switch.set(tablet=True)
    assert client.proc.wait(CHANGE) == 0
    result = rig.run_client("wait", "--tablet-mode", "laptop", "--timeout", "0.5")
    assert result.returncode == 3
    assert result.stderr == ("motion-orientation: timed out after 0.5 s waiting for "
                             "tablet-mode laptop\n")


@pytest.mark.daemon
@pytest.mark.client
def test_wait_laptop_without_a_source_times_out(make_rig):
    rig = switch_rig(make_rig, switch=False)
    result = rig.run_client("wait", "laptop", "--timeout", "1")
    assert result.returncode == 3, result.stderr


def man_page_example(page, after):
    """The first .EX block of a man page after the text `after`, as a shell gets it."""
    text = (REPO_ROOT / "docs/man" / page).read_text()
    block = re.search(r"^\.EX\n(.*?)^\.EE$", text[text.index(after):], re.M | re.S).group(1)
    return block.replace("\\-", "-").replace("\\(aq", "'").replace("\\e", "\\")


@pytest.mark.daemon
@pytest.mark.client
def test_man_page_on_screen_keyboard_example(make_rig, tmp_path, scripts):
    rig = switch_rig(make_rig)
    example = man_page_example("motion-orientation.1", "on\\-screen keyboard")
    assert example.startswith("motion-orientation exec --tablet-mode -- sh -c 'gsettings set \\\n")
    run = scripts(rig, tmp_path, ["bash", "-c", example])
    setting = ["set", "org.gnome.desktop.a11y.applications", "screen-keyboard-enabled"]
    assert run.next_calls(1)[0]["args"] == setting + ["false"]
    rig.switch.set(tablet=True)
    assert run.next_calls(1)[0]["args"] == setting + ["true"]
