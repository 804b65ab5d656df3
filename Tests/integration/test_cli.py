"""The daemon's command line, the kiosk setting, trace replay/record, and `make install`."""

import os
import subprocess

import pytest

from rig import POSES, REPO_ROOT, default_client, default_daemon


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, timeout=20,
                          stdin=subprocess.DEVNULL, **kwargs)


# -- motion-orientationd arguments

def test_daemon_version_and_help():
    version = run([default_daemon(), "--version"])
    assert version.returncode == 0
    assert version.stdout.startswith("motion-orientationd ")
    helptext = run([default_daemon(), "--help"])
    assert helptext.returncode == 0
    for option in ("--config", "--verbose", "--version", "--help"):
        assert option in helptext.stdout


@pytest.mark.parametrize("argv", [["--bogus"], ["--config"], ["--config="], ["extra"]])
def test_daemon_refuses_a_bad_command_line(argv):
    result = run([default_daemon(), *argv])
    assert result.returncode == 2
    assert result.stderr.startswith("motion-orientationd: ")
    assert "Traceback" not in result.stderr and "Fatal error" not in result.stderr


def test_daemon_refuses_a_missing_config_file_it_was_given(tmp_path):
    missing = tmp_path / "nope.conf"
    result = run([default_daemon(), "--config", str(missing)],
                 env={"DBUS_SYSTEM_BUS_ADDRESS": "unix:path=%s" % (tmp_path / "no-bus")})
    assert result.returncode == 1
    assert str(missing) in result.stderr
    assert "No such file or directory" in result.stderr


# -- configuration that changes behaviour

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


# -- replay and record

TURN = "t,x,y,z\n" + "".join(
    "%.2f,%s\n" % (i * 0.05, "0,-9.81,0" if i < 20 else "9.81,0,0") for i in range(40))


def test_replay_prints_each_decision(tmp_path):
    trace = tmp_path / "turn.csv"
    trace.write_text(TURN)
    result = run([default_client(), "replay", str(trace), "--config", "/dev/null"])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(",")[1:] for line in lines] == [
        ["portrait", "portrait"], ["landscape-right", "landscape-left"]]
    first, turned = (float(line.split(",")[0]) for line in lines)
    assert first < 0.2
    assert 1.0 < turned < 1.6
    again = run([default_client(), "replay", str(trace), "--config", "/dev/null"])
    assert again.stdout == result.stdout, "replay is not deterministic"


def test_replay_resamples(tmp_path):
    trace = tmp_path / "turn.csv"
    trace.write_text(TURN)
    result = run([default_client(), "replay", str(trace), "--rate", "10", "--config", "/dev/null"])
    assert result.returncode == 0, result.stderr
    assert [line.split(",")[1] for line in result.stdout.splitlines()] == [
        "portrait", "landscape-right"]


@pytest.mark.parametrize("text, message", [
    ("x,y,z\n1,2,3\n", "line 1"),
    ("t,x,y,z\n0,1,2\n", "line 2"),
    ("t,x,y,z\n0,1,two,3\n", "line 2"),
])
def test_replay_reports_a_malformed_trace(tmp_path, text, message):
    trace = tmp_path / "bad.csv"
    trace.write_text(text)
    result = run([default_client(), "replay", str(trace)])
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("motion-orientation: %s: %s" % (trace, message)), result.stderr


def test_record_captures_the_accelerometer_as_a_trace(make_rig, tmp_path):
    rig = make_rig(gravity=POSES["landscape-left"])
    output = tmp_path / "capture.csv"
    env = dict(rig.daemon.env)
    result = run([default_client(), "record", "--seconds", "0.5", "--rate", "20",
                  "--output", str(output)], env=env)
    assert result.returncode == 0, result.stderr
    lines = output.read_text().splitlines()
    assert lines[0] == "t,x,y,z"
    assert 8 <= len(lines) - 1 <= 12
    for line in lines[1:]:
        t, x, y, z = (float(v) for v in line.split(","))
        assert abs(x + 9.80665) < 0.01 and abs(y) < 0.01 and abs(z) < 0.01
    replayed = run([default_client(), "replay", str(output), "--config", "/dev/null"])
    assert replayed.stdout.splitlines()[0].split(",")[1:] == ["landscape-left", "landscape-right"]
    # Nothing of it went over the bus: the daemon never started sampling.
    assert rig.get_property("Active") is False


def test_record_without_accelerometer_fails_clearly(make_rig, tmp_path):
    rig = make_rig(accelerometer=False)
    result = run([default_client(), "record", "--seconds", "0.1"], env=dict(rig.daemon.env))
    assert result.returncode == 1
    assert result.stderr.startswith("motion-orientation: no accelerometer found")


# -- make install

def test_install_honours_destdir_and_prefix(tmp_path):
    root = tmp_path / "root"
    result = run(["make", "-C", str(REPO_ROOT), "--no-print-directory", "install",
                  "DESTDIR=%s" % root, "PREFIX=/opt/mo"])
    assert result.returncode == 0, result.stdout + result.stderr
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    for expected in ("opt/mo/bin/motion-orientationd", "opt/mo/bin/motion-orientation",
                     "opt/mo/share/dbus-1/system.d/io.github.MotionOrientation1.conf",
                     "opt/mo/share/dbus-1/system-services/io.github.MotionOrientation1.service",
                     "etc/motion-orientationd.conf"):
        assert expected in files, files
    assert any(f.endswith("motion-orientationd.service") and "system-services" not in f
               for f in files), files
    assert any(f.endswith("rules.d/80-motion-orientation.rules") for f in files), files
    helper = [f for f in files if f.endswith("udev/motion-orientation-access")]
    assert helper and os.access(root / helper[0], os.X_OK), files
    assert any(f.endswith("sysusers.d/motion-orientation.conf") for f in files), files
    unit = next(root.rglob("system/motion-orientationd.service")).read_text()
    assert "ExecStart=/opt/mo/bin/motion-orientationd" in unit
    assert "@bindir@" not in unit
    assert os.access(root / "opt/mo/bin/motion-orientationd", os.X_OK)
    # A configuration already there is the user's: install keeps it.
    (root / "etc/motion-orientationd.conf").write_text("[Orientation]\nSwitchAngle=58\n")
    again = run(["make", "-C", str(REPO_ROOT), "--no-print-directory", "install",
                 "DESTDIR=%s" % root, "PREFIX=/opt/mo"])
    assert again.returncode == 0
    assert (root / "etc/motion-orientationd.conf").read_text() == "[Orientation]\nSwitchAngle=58\n"
    removed = run(["make", "-C", str(REPO_ROOT), "--no-print-directory", "uninstall",
                   "DESTDIR=%s" % root, "PREFIX=/opt/mo"])
    assert removed.returncode == 0
    left = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert left == ["etc/motion-orientationd.conf"], left
