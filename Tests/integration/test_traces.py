"""Traces of the accelerometer with the client: `motion-orientation replay` runs the daemon's
estimator over a CSV trace offline, `motion-orientation record` captures one from the sensor."""

import subprocess

import pytest

from rig import POSES, default_client


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, timeout=20,
                          stdin=subprocess.DEVNULL, **kwargs)


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
