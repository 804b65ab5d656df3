"""`estimator-bench --recordings DIRECTORY` counts right: a folder of tiny synthetic recordings,
written here, whose decisions by the per-sample judge are known exactly from their geometry (the
judge has no filter), and whose estimator decisions are recounted here from the decisions the
bench prints."""

import json
import math
import subprocess

import pytest

from rig import RELEASE

BENCH = RELEASE / "estimator-bench"
G = 9.80665
RATE = 50.0


def gravity(turn, lean):
    """The gravity reading turned `turn` degrees clockwise from portrait, leaning back `lean`."""
    a, t = math.radians(turn), math.radians(lean)
    return (G * math.cos(t) * math.sin(a), -G * math.cos(t) * math.cos(a), -G * math.sin(t))


def smooth(u):
    u = min(max(u, 0.0), 1.0)
    return u * u * (3 - 2 * u)


def trace(duration, pose):
    """pose(t) -> (turn, lean) sampled at RATE."""
    rows = ["t,x,y,z"]
    for index in range(int(duration * RATE)):
        t = index / RATE
        rows.append("%.3f,%.5f,%.5f,%.5f" % (t, *gravity(*pose(t))))
    return "\n".join(rows) + "\n"


def moves(*steps):
    """A pose function from (start, length, from_turn, to_turn, from_lean, to_lean) moves."""
    def pose(t):
        turn, lean = steps[0][2], steps[0][4]
        for start, length, turn0, turn1, lean0, lean1 in steps:
            if t >= start:
                u = smooth((t - start) / length)
                turn, lean = turn0 + (turn1 - turn0) * u, lean0 + (lean1 - lean0) * u
        return turn, lean
    return pose


def labels(*rows):
    return "start,end,label,name\n" + "".join("%.3f,%.3f,%d,%s\n" % row for row in rows)


OPPOSITE = {("portrait", "portrait-upside-down"), ("landscape-left", "landscape-right"),
            ("face-up", "face-down")}


def answers(decisions, label_rows):
    """Per transition (codes 7-12), the index of the first decision from its start until the
    next labelled stretch ends, or None."""
    result = []
    for start, end, code, _ in label_rows:
        if 7 <= code <= 12:
            after = sorted(row for row in label_rows if row[0] >= end)
            horizon = after[0][1] if after else math.inf
            for row in after[1:]:  # the same activity labelled in several stretches
                if row[2] != after[0][2] or row[0] > horizon:
                    break
                horizon = row[1]
            result.append(next((i for i, d in enumerate(decisions) if start <= d["t"] < horizon), None))
    return result


def recount(decisions, label_rows):
    """The counts of RecordingsScore.swift, written again from its header's definitions."""
    steady = [(s, e) for s, e, code, _ in label_rows if 1 <= code <= 5 or code in (14, 15)]
    answered = set(answers(decisions, label_rows))
    spurious = sum(1 for i, d in enumerate(decisions) for s, e in steady
                   if i > 0 and i not in answered and s <= d["t"] < e)
    flips = sum(1 for a, b in zip(decisions, decisions[1:])
                if (a["device"], b["device"]) in OPPOSITE or (b["device"], a["device"]) in OPPOSITE)
    flaps = sum(1 for a, b, c in zip(decisions, decisions[1:], decisions[2:])
                if a["device"] == c["device"] and c["t"] - b["t"] < 2.0)
    return spurious, flips, flaps


def recount_sets(decisions, label_rows):
    """Per arm-motion set (code 13), the direct flips decided inside it."""
    return [sum(1 for a, b in zip(decisions, decisions[1:])
                if s <= b["t"] < e and ((a["device"], b["device"]) in OPPOSITE
                                        or (b["device"], a["device"]) in OPPOSITE))
            for s, e, code, _ in label_rows if code == 13]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    if not BENCH.exists():
        pytest.skip("estimator-bench not built (make build)")
    path = tmp_path_factory.mktemp("recordings")
    # Two fast half turns (0.3 s each) 4 s apart, leaning back 15 degrees, labelled as three sets
    # of arm exercises (code 13), the first without a turn. The judge passes through
    # landscape-right both ways (beyond 35 degrees of the plane normal).
    (path / "flips.csv").write_text(trace(12, moves((4, 0.3, 0, 180, 15, 15), (8, 0.3, 180, 0, 15, 15))))
    flip_labels = [(0, 2, 13, "SET"), (2, 6, 13, "SET"), (6, 12, 13, "SET")]
    (path / "flips.labels.csv").write_text(labels(*flip_labels))
    # A quarter turn held 1 s and turned back, inside a steady (standing) label: a flap.
    (path / "flap.csv").write_text(trace(10, moves((4, 0.3, 0, 90, 15, 15), (5.3, 0.3, 90, 0, 15, 15))))
    flap_labels = [(0, 1, -1, "unlabelled"), (1, 10, 5, "STANDING")]
    (path / "flap.labels.csv").write_text(labels(*flap_labels))
    # Standing, then lying down on the back over 1 s (stand-to-lie), then lying.
    lie_labels = [(0, 4, 5, "STANDING"), (4, 5, 11, "STAND_TO_LIE"), (5, 10, 6, "LAYING")]
    (path / "lie.csv").write_text(trace(10, moves((4, 1, 0, 0, 15, 88))))
    (path / "lie.labels.csv").write_text(labels(*lie_labels))
    # Standing, a quarter turn from 4.0 to 4.6 s labelled stand-to-sit from 4.0 to only 4.1 s,
    # then standing again (labelled in two stretches): the judge's landscape comes after the
    # label's end, inside the second stretch of STANDING. It answers the transition (a delay), it
    # is not spurious.
    late_labels = [(0, 4, 5, "STANDING"), (4, 4.1, 7, "STAND_TO_SIT"), (4.1, 4.2, 5, "STANDING"),
                   (4.2, 10, 5, "STANDING")]
    (path / "late.csv").write_text(trace(10, moves((4, 0.6, 0, 90, 15, 15))))
    (path / "late.labels.csv").write_text(labels(*late_labels))
    return path, {"flap": flap_labels, "lie": lie_labels, "flips": flip_labels, "late": late_labels}


def judged_landscape_at(turn_start, length, lean):
    """When the judge first reads landscape in a smooth quarter turn (its 35-degree rule)."""
    for index in range(int(20 * RATE)):
        t = index / RATE
        x, y, z = gravity(90 * smooth((t - turn_start) / length), lean)
        if abs(x) > math.sin(math.radians(35)) * math.sqrt(x * x + y * y + z * z):
            return t
    return None


@pytest.fixture(scope="module")
def scored(folder):
    path, _ = folder
    result = subprocess.run([str(BENCH), "--json", "--recordings", str(path)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    return {row["name"]: row for row in report["recordings"]}, report


def test_every_recording_once_labels_beside_them(scored):
    rows, report = scored
    assert sorted(rows) == ["flap", "flips", "late", "lie"]
    assert [rows[n]["labelled"] for n in ("flap", "flips", "late", "lie")] == [True, True, True, True]
    assert rows["flips"]["samples"] == 600 and report["total"]["recordings"] == 4
    assert report["failed"] == 0


def test_judge_counts_known_from_the_geometry(scored):
    rows, report = scored
    flips, flap, lie = rows["flips"]["judge"], rows["flap"]["judge"], rows["lie"]["judge"]
    # portrait, landscape-right, upside down, landscape-right, portrait: no direct flip, no flap.
    assert (flips["decisions"], flips["flips"], flips["flaps"], flips["spurious"]) == (5, 0, 0, 0)
    assert (flips["sets"], flips["setFlips"], flips["setsWithFlips"], flips["mostSetFlips"]) == (3, 0, 0, 0)
    # portrait, landscape-right at 4.1 s, portrait at 5.5 s: both inside STANDING, one flap.
    assert (flap["decisions"], flap["flips"], flap["flaps"], flap["spurious"]) == (3, 0, 1, 2)
    # The judge has no face-up: the lying down changes nothing (a quiet transition).
    assert (lie["decisions"], lie["transitions"], lie["quiet"], lie["delayMedian"]) == (1, 1, 1, None)
    # portrait, then landscape-right after the stand-to-sit label ended: its answer, 0 spurious.
    late = rows["late"]["judge"]
    landscape = judged_landscape_at(4, 0.6, 15)
    assert 4.2 < landscape < 4.6  # inside the second stretch
    assert (late["decisions"], late["spurious"], late["transitions"], late["quiet"]) == (2, 0, 1, 0)
    assert late["delayMedian"] == pytest.approx(landscape - 4.1, abs=1e-3)
    total = report["total"]["judge"]
    assert (total["decisions"], total["flaps"], total["spurious"], total["transitions"]) == (11, 1, 2, 2)


def test_estimator_counts_match_its_decisions(scored, folder):
    rows, report = scored
    _, label_rows = folder
    sums = [0, 0, 0]
    for name, row in rows.items():
        counted = recount(row["decisions"], label_rows[name])
        estimator = row["estimator"]
        assert (estimator["spurious"], estimator["flips"], estimator["flaps"]) == counted, name
        sets = recount_sets(row["decisions"], label_rows[name])
        assert (estimator["sets"], estimator["setFlips"], estimator["setsWithFlips"],
                estimator["mostSetFlips"]) == (len(sets), sum(sets), sum(1 for n in sets if n),
                                               max(sets, default=0)), name
        assert estimator["decisions"] == len(row["decisions"])
        sums = [a + b for a, b in zip(sums, counted)]
    total = report["total"]["estimator"]
    assert [total["spurious"], total["flips"], total["flaps"]] == sums
    # A fast half turn goes straight to the opposite orientation (it does not stop in landscape).
    assert [d["device"] for d in rows["flips"]["decisions"]] == ["portrait", "portrait-upside-down", "portrait"]
    assert rows["flips"]["estimator"]["flips"] == 2
    # One flip in each of the last two sets, none in the first.
    assert (rows["flips"]["estimator"]["setFlips"], rows["flips"]["estimator"]["setsWithFlips"]) == (2, 2)
    assert report["total"]["estimator"]["sets"] == 3
    # Lying down: face-up decided from the transition's start; its delay from the transition's end.
    lie = rows["lie"]
    face_up = [d["t"] for d in lie["decisions"] if d["device"] == "face-up"]
    assert face_up and lie["estimator"]["transitions"] == 1 and lie["estimator"]["quiet"] == 0
    first_after = min(d["t"] for d in lie["decisions"] if d["t"] >= 4)
    assert lie["estimator"]["delayMedian"] == pytest.approx(first_after - 5, abs=1e-3)
    assert lie["estimator"]["delayWorst"] == lie["estimator"]["delayMedian"]


def test_unreadable_recording_fails(tmp_path):
    if not BENCH.exists():
        pytest.skip("estimator-bench not built (make build)")
    (tmp_path / "broken.csv").write_text("t,x,y,z\n0,not,a,number\n")
    result = subprocess.run([str(BENCH), "--json", "--recordings", str(tmp_path)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 1, result.stdout
    report = json.loads(result.stdout)
    assert report["failed"] == 1 and "error" in report["recordings"][0]
    empty = tmp_path / "empty"
    empty.mkdir()
    result = subprocess.run([str(BENCH), "--recordings", str(empty)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1 and "no recordings in" in result.stdout
