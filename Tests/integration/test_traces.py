"""Traces of the accelerometer with the client: `motion-orientation replay` runs the daemon's
estimator over a CSV trace offline, `motion-orientation record` captures one from the sensor."""

import math
import os
import subprocess
import time

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


def long_trace(minutes=20, rate=50, turn_every=60.0):
    """A capture of `minutes` at `rate` Hz (about 3 MB for 20 minutes at 50 Hz), held upright in
    portrait and landscape in turn, `turn_every` seconds each, with a little sensor noise."""
    poses = ["0.03,-9.79,0.12", "9.8,0.04,-0.11"]
    lines = ["t,x,y,z"]
    for i in range(int(minutes * 60 * rate)):
        t = i / rate
        noise = math.sin(i * 1.7) * 0.02
        x, y, z = (float(v) + noise for v in poses[int(t // turn_every) % 2].split(","))
        lines.append("%.6f,%r,%r,%r" % (t, x, y, z))  # shortest round-trip form, as record writes
    return "\n".join(lines) + "\n"


def expected_turns(minutes=20, turn_every=60.0):
    return [["portrait", "portrait"] if n % 2 == 0 else ["landscape-right", "landscape-left"]
            for n in range(int(minutes * 60 / turn_every))]


def test_replay_takes_a_twenty_minute_capture(tmp_path):
    trace = tmp_path / "long.csv"
    trace.write_text(long_trace())
    assert trace.stat().st_size > 3_000_000  # well past the old 1 MiB whole-file limit
    result = run([default_client(), "replay", str(trace), "--config", "/dev/null"])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(",")[1:] for line in lines] == expected_turns()
    for n, line in enumerate(lines[1:], start=1):
        assert n * 60.0 < float(line.split(",")[0]) < n * 60.0 + 1.6, line
    # The same decisions from standard input and from a resampled read.
    piped = subprocess.run([default_client(), "replay", "-", "--config", "/dev/null"],
                           input=trace.read_text(), capture_output=True, text=True, timeout=20)
    assert (piped.returncode, piped.stdout) == (0, result.stdout), piped.stderr
    resampled = run([default_client(), "replay", str(trace), "--rate", "10", "--config", "/dev/null"])
    assert resampled.returncode == 0, resampled.stderr
    assert [line.split(",")[1:] for line in resampled.stdout.splitlines()] == expected_turns()


def test_replay_reads_a_pipe_and_a_fifo(tmp_path):
    (tmp_path / "turn.csv").write_text(TURN)
    expected = run([default_client(), "replay", str(tmp_path / "turn.csv"), "--config", "/dev/null"])
    assert expected.returncode == 0 and expected.stdout, expected.stderr
    piped = subprocess.run("cat '%s' | '%s' replay - --config /dev/null"
                           % (tmp_path / "turn.csv", default_client()),
                           shell=True, capture_output=True, text=True, timeout=20)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, expected.stdout, "")
    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen("cat '%s' > '%s'" % (tmp_path / "turn.csv", fifo), shell=True)
    from_fifo = run([default_client(), "replay", str(fifo), "--config", "/dev/null"])
    writer.wait(10)
    assert (from_fifo.returncode, from_fifo.stdout) == (0, expected.stdout), from_fifo.stderr


def test_replay_from_standard_input_reports_a_malformed_line():
    result = subprocess.run([default_client(), "replay", "-", "--config", "/dev/null"],
                            input=TURN + "1.0,2,3\n", capture_output=True, text=True, timeout=20)
    assert result.returncode == 1
    assert result.stderr == "motion-orientation: -: line 42: expected 4 fields, found 3\n"
    # The decisions before the bad line were printed as they were read.
    assert [line.split(",")[1] for line in result.stdout.splitlines()] == [
        "portrait", "landscape-right"]


def test_record_into_replay_through_a_pipe_is_live(make_rig):
    rig = make_rig(gravity=POSES["landscape-left"])
    env = dict(rig.daemon.env)
    record = subprocess.Popen([default_client(), "record", "--seconds", "6", "--rate", "20"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL)
    replay = subprocess.Popen([default_client(), "replay", "-", "--config", "/dev/null"],
                              stdin=record.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env={k: v for k, v in env.items() if k != "LD_PRELOAD"})
    record.stdout.close()  # replay holds the read end now
    try:
        started = time.monotonic()
        first = replay.stdout.readline().decode()
        # The first decision comes while record is still capturing, not after its 6 s.
        assert time.monotonic() - started < 4.0
        assert record.poll() is None
        assert first.strip().split(",")[1:] == ["landscape-left", "landscape-right"], first
        assert record.wait(15) == 0, record.stderr.read()
        rest, errors = replay.communicate(timeout=10)
        assert replay.returncode == 0, errors
        assert rest == b""  # it held still: one decision
    finally:
        for proc in (record, replay):
            if proc.poll() is None:
                proc.kill()
                proc.wait()


# ---------------------------------------------------------------------------
# two-sensor traces (a convertible's display and base accelerometers)


def two_sensor_trace(rate=50):
    """The base flat, the display held at 100, 180, 260 and 355 degrees for 3 s each, then
    folded back to 100 over 3 s and held there (rig/tablet.py's hinge frames)."""
    from rig.tablet import hinge_readings
    lines = ["t,x,y,z,base_x,base_y,base_z"]
    angles = [a for a in (100, 180, 260, 355) for _ in range(3 * rate)]
    angles += [355 - 255 * k / (3 * rate - 1) for k in range(3 * rate)] + [100] * (3 * rate)
    for i, theta in enumerate(angles):
        display, base = hinge_readings(theta)
        lines.append("%.6f,%r,%r,%r,%r,%r,%r" % ((i / rate,) + display + base))
    return "\n".join(lines) + "\n"


# HingeState's ranges (degrees), with the hysteresis the core allows at each edge.
HINGE_RANGES = {"closed": (0, 20), "concave": (10, 175), "flat": (165, 195),
                "convex": (185, 350), "full": (340, 360)}


def test_replay_prints_the_hinge_decisions_of_a_two_sensor_trace(tmp_path):
    trace = tmp_path / "fold.csv"
    trace.write_text(two_sensor_trace())
    result = run([default_client(), "replay", str(trace), "--config", "/dev/null"])
    assert result.returncode == 0, result.stderr
    lines = [line.split(",") for line in result.stdout.splitlines()]
    hinge = [fields for fields in lines if fields[1] == "hinge"]
    assert all(len(fields) == 3 for fields in lines if fields[1] != "hinge"), lines
    assert all(len(fields) == 5 for fields in hinge), hinge
    states = [fields[3] for fields in hinge]
    assert [s for i, s in enumerate(states) if i == 0 or states[i - 1] != s] == [
        "concave", "flat", "convex", "full", "convex", "flat", "concave"], hinge
    modes = [fields[2] for fields in hinge]
    assert modes[0] == "laptop" and modes[-1] == "laptop" and "tablet" in modes, hinge
    # Tablet mode comes on the way out (past the enter angle), never before 180 degrees.
    first_tablet = modes.index("tablet")
    assert float(hinge[first_tablet][4]) > 190, hinge
    for _, _, mode, state, angle in hinge:
        low, high = HINGE_RANGES[state]
        assert low <= float(angle) <= high, (state, angle)
    times = [float(fields[0]) for fields in lines]
    assert times == sorted(times)  # one pass, in the order of the trace
    # The same from standard input, and resampled (the base reading is resampled too).
    piped = subprocess.run([default_client(), "replay", "-", "--config", "/dev/null"],
                           input=trace.read_text(), capture_output=True, text=True, timeout=20)
    assert piped.stdout == result.stdout, piped.stderr
    resampled = run([default_client(), "replay", str(trace), "--rate", "25", "--config", "/dev/null"])
    assert "hinge,tablet,full" in resampled.stdout, resampled.stdout


def test_replay_reports_a_short_two_sensor_line(tmp_path):
    trace = tmp_path / "short.csv"
    trace.write_text("t,x,y,z,base_x,base_y,base_z\n0,0,-9.8,0,0,0,9.8\n0.02,0,-9.8,0\n")
    result = run([default_client(), "replay", str(trace)])
    assert result.returncode == 1
    assert result.stderr == "motion-orientation: %s: line 3: expected 7 fields, found 4\n" % trace


def test_record_writes_a_two_sensor_trace_with_a_base_accelerometer(make_rig, tmp_path):
    from rig.tablet import hinge_readings
    from rig.tablet import tablet_rig
    rig = tablet_rig(make_rig, theta=120)
    output = tmp_path / "capture.csv"
    result = run([default_client(), "record", "--seconds", "0.5", "--rate", "20",
                  "--output", str(output)], env=dict(rig.daemon.env))
    assert result.returncode == 0, result.stderr
    lines = output.read_text().splitlines()
    assert lines[0] == "t,x,y,z,base_x,base_y,base_z"
    assert 8 <= len(lines) - 1 <= 12
    display, base = hinge_readings(120)
    for line in lines[1:]:
        values = [float(v) for v in line.split(",")]
        assert len(values) == 7, line
        # Each after its own mount matrix (the base's turns its chip upside down).
        for got, want in zip(values[1:], display + base):
            assert abs(got - want) < 0.02, (line, display, base)
    replayed = run([default_client(), "replay", str(output), "--config", "/dev/null"])
    assert ",hinge,laptop,concave," in replayed.stdout, replayed.stdout
