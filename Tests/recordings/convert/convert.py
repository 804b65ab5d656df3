#!/usr/bin/python3
"""Converts public accelerometer recordings into the trace format of Tests/recordings.

A trace is CSV `t,x,y,z`: seconds from the first sample; m/s^2; the gravity vector in the hwdb
frame (x to the right edge of the screen, y to its top edge, z out of the screen; a reading
points at the ground, so upright portrait reads about (0, -9.81, 0)). A labels file beside it
(`NAME.labels.csv`) has rows `start,end,label,name` with the codes of Tests/recordings/README.md.

Each source has its own subcommand; each says where its files come from and how its sign and
axes map onto the hwdb frame (see the README for the provenance of every converted file):

    convert.py hapt RAWDATA_DIR OUT_DIR        # UCI HAPT: an excerpt around each postural transition
    convert.py oxford DATASET_DIR OUT_DIR      # Oxford step counter data set (Salvi et al.)
    convert.py spsw DATASET_DIR OUT_DIR --executions s01_01,...   # phone in a pocket (Matey-Sanz et al.)
    convert.py watch WATCH_NPY OUT_DIR [--subjects 1,2]   # shoulder exercises, smartwatch (Burns et al.)
    convert.py motionsense DEVICEMOTION_DIR OUT_DIR [--subjects 1,2]   # MotionSense (iPhone)
    convert.py excerpt NAME.csv OUT_DIR START END [--tag WHAT]   # a span of a converted trace

Run with /usr/bin/python3 (the watch data set needs numpy: Debian's python3-numpy).
"""

import argparse
import csv
import math
import os
import sys

G = 9.80665  # m/s^2 in one g


def write_trace(path, samples, min_interval, origin=None):
    """Writes (t, x, y, z) samples, t from the first sample (or from `origin`), keeping a sample
    only when it is at least `min_interval` s after the last one kept (a slower poll of the same
    sensor)."""
    t0 = samples[0][0] if origin is None else origin
    last = None
    kept = 0
    with open(path, "w") as out:
        out.write("t,x,y,z\n")
        for t, x, y, z in samples:
            t -= t0
            if last is not None and t - last < min_interval:
                continue
            out.write("%.3f,%.4f,%.4f,%.4f\n" % (t, x, y, z))
            last = t
            kept += 1
    return kept, last


def write_labels(path, rows):
    with open(path, "w") as out:
        out.write("start,end,label,name\n")
        for start, end, code, name in rows:
            out.write("%.3f,%.3f,%d,%s\n" % (start, end, code, name))


def span_labels(duration, start, end, code, name):
    """-1 before `start`, `code` from `start` to `end`, -1 after it up to `duration`."""
    rows = []
    if start > 0:
        rows.append((0.0, start, -1, "unlabelled"))
    rows.append((start, end, code, name))
    if end < duration:
        rows.append((end, duration, -1, "unlabelled"))
    return rows


# --- UCI HAPT ----------------------------------------------------------------------------------
#
# "Smartphone-Based Recognition of Human Activities and Postural Transitions" (Reyes-Ortiz,
# Oneto, Samà, Parra, Anguita, Neurocomputing 2016; CC BY 4.0), its RawData folder:
# acc_expNN_userNN.txt (a Samsung Galaxy S II on the waist, 50 Hz, specific force in g: the axis
# pointing up reads +1 g; Android's axes, which are the hwdb frame) and labels.txt (experiment,
# user, code, first and last sample). So a trace is -9.80665 times the reading, sample k at
# k / 50 s, and a label row spans first / 50 to (last + 1) / 50 (gaps labelled -1), as in
# Tests/recordings/hapt_u01_e0.csv. An experiment is named by its user and its rank among that
# user's (hapt_u09_e0 is experiment 17, the first of user 9). Written: for each experiment of
# --experiments (USER:RANK), one excerpt from --margin s before each postural transition (codes
# 7-12) to as long after it, overlapping ones joined, bounds on whole seconds
# (hapt_uUU_eR_A-B.csv), with its labels clipped to it.

HAPT_NAMES = {1: "WALKING", 2: "WALKING_UPSTAIRS", 3: "WALKING_DOWNSTAIRS", 4: "SITTING", 5: "STANDING",
              6: "LAYING", 7: "STAND_TO_SIT", 8: "SIT_TO_STAND", 9: "SIT_TO_LIE", 10: "LIE_TO_SIT",
              11: "STAND_TO_LIE", 12: "LIE_TO_STAND"}
# The first experiment of users 2-30 and the second of user 1 (whose first is
# Tests/recordings/hapt_u01_e0.csv).
HAPT_EXPERIMENTS = ",".join(["1:1"] + ["%d:0" % user for user in range(2, 31)])


def clip(rows, start, end):
    """Label rows cut to start...end."""
    return [(max(a, start), min(b, end), code, name) for a, b, code, name in rows if b > start and a < end]


def hapt(args):
    rows = {}
    with open(os.path.join(args.source, "labels.txt")) as text:
        for line in text:
            experiment, user, code, first, last = map(int, line.split())
            rows.setdefault((experiment, user), []).append((first, last, code))
    experiments = {}
    for name in os.listdir(args.source):
        parts = name[:-4].split("_") if name.startswith("acc_exp") and name.endswith(".txt") else []
        if len(parts) == 3:
            experiments.setdefault(int(parts[2][4:]), []).append(int(parts[1][3:]))
    made = []
    for user, rank in [tuple(map(int, e.split(":"))) for e in args.experiments.split(",")]:
        experiment = sorted(experiments[user])[rank]
        path = os.path.join(args.source, "acc_exp%02d_user%02d.txt" % (experiment, user))
        with open(path) as text:
            readings = [tuple(map(float, line.split())) for line in text if line.strip()]
        labels, at = [], 0.0
        for first, last, code in sorted(rows[(experiment, user)]):
            start, end = first / 50.0, (last + 1) / 50.0
            if start > at + 1e-9:
                labels.append((at, start, -1, "unlabelled"))
            labels.append((start, end, code, HAPT_NAMES[code]))
            at = end
        if len(readings) / 50.0 > at + 1e-9:
            labels.append((at, len(readings) / 50.0, -1, "unlabelled"))
        windows = []
        for start, end, code, _ in labels:
            if 7 <= code <= 12:
                a = max(0, int(start - args.margin))
                b = min(len(readings) // 50, int(math.ceil(end + args.margin)))
                if windows and a <= windows[-1][1]:
                    windows[-1][1] = max(windows[-1][1], b)
                else:
                    windows.append([a, b])
        for a, b in windows:
            name = "hapt_u%02d_e%d_%d-%d" % (user, rank, a, b)
            samples = [(k / 50.0, -G * r[0], -G * r[1], -G * r[2]) for k, r in enumerate(readings) if a * 50 <= k < b * 50]
            kept, _ = write_trace(os.path.join(args.out, name + ".csv"), samples, 0, origin=0.0)
            write_labels(os.path.join(args.out, name + ".labels.csv"), clip(labels, a, b))
            made.append("%s: %d samples" % (name, kept))
    return made


# --- Oxford step counter data set -------------------------------------------------------------
#
# github.com/Oxford-step-counter/DataSet (CC BY 4.0). Android phones; accelerometer readings in
# m/s^2 as Android reports them: specific force, the axis pointing up reads +9.81. Android's
# device axes are the hwdb frame's, so a trace is the negated reading.
#
# validation/userN_POSITION_MILLIS.csv: Samsung S6, about 100 Hz; columns: timestamp (ns since
# boot), x, y, z, steps by the app's algorithm, steps by the ground-truth device, steps by the
# phone's hardware counter. Walking is timed from the ground truth's first step to its last.
#
# optimisation/data/PHONE_USER_SURFACE_POSITION_N/accelerometer.csv: timestamp (ns), sensor
# type, x, y, z (the Pixel's come in bursts, several hundred a second on average); stepcounter.csv beside it: timestamp (ns), foot 1 and foot 2 contact (ground
# truth from foot switches). Walking is timed from the first change of a foot contact to the
# last.
#
# The walker put the phone in its place (pocket, pouch, armband) while the walk began and took
# it out as it ended: the phone really turns then. So the label starts `--margin` seconds (5)
# after the first step and ends as long before the last one; the rest is unlabelled.
#
# Both are thinned to about 50 Hz (`--min-interval`), as a slower poll of the same sensor would
# read them, which also keeps the traces small.

OXFORD_VALIDATION = {
    # file name prefix: (trace name, label code, label name); code None: no labels file.
    "user1_hand": ("oxford_u1_hand", 1, "WALKING_PHONE_IN_HAND"),
    "user2_hand": ("oxford_u2_hand", 1, "WALKING_PHONE_IN_HAND"),
    "user1_frontpocket": ("oxford_u1_frontpocket", 1, "WALKING_FRONT_POCKET"),
    "user2_frontpocket": ("oxford_u2_frontpocket", 1, "WALKING_FRONT_POCKET"),
    "user1_backpocket": ("oxford_u1_backpocket", 1, "WALKING_BACK_POCKET"),
    "user2_backpocket": ("oxford_u2_backpocket", 1, "WALKING_BACK_POCKET"),
    "user1_neckpouch": ("oxford_u1_neckpouch", 1, "WALKING_NECK_POUCH"),
    "user2_neckpouch": ("oxford_u2_neckpouch", 1, "WALKING_NECK_POUCH"),
    "user1_armband": ("oxford_u1_armband", 1, "WALKING_ARMBAND"),
    "user2_armband": ("oxford_u2_armband", 1, "WALKING_ARMBAND"),
    # Loose in a bag: the phone may really turn, so no steady label.
    "user1_bag": ("oxford_u1_bag", None, None),
    "user2_bag": ("oxford_u2_bag", None, None),
}

OXFORD_OPTIMISATION = {
    "Pixel_Jamie_Hard_SwingingArm_1": ("oxford_pixel_swingingarm_1", 13, "WALKING_SWINGING_ARM"),
    "Pixel_Jamie_Hard_SwingingArm_2": ("oxford_pixel_swingingarm_2", 13, "WALKING_SWINGING_ARM"),
}


def oxford(args):
    made = []
    validation = os.path.join(args.source, "validation")
    for stem in sorted(os.listdir(validation)):
        key = "_".join(stem.split("_")[:2])
        if not stem.endswith(".csv") or key not in OXFORD_VALIDATION:
            continue
        name, code, label = OXFORD_VALIDATION[key]
        samples, steps = [], []
        with open(os.path.join(validation, stem)) as f:
            for row in csv.reader(f):
                if len(row) < 6:
                    continue
                t = int(row[0]) / 1e9
                if float(row[1]) == float(row[2]) == float(row[3]) == 0:
                    continue  # the app's first row, before the sensor's first reading
                samples.append((t, -float(row[1]), -float(row[2]), -float(row[3])))
                steps.append((t, int(row[5])))
        t0 = samples[0][0]
        changes = [t - t0 for (t, n), (_, p) in zip(steps[1:], steps) if n != p]
        made.append(emit(args, name, samples, code, label, changes, args.min_interval))
    for folder, (name, code, label) in sorted(OXFORD_OPTIMISATION.items()):
        base = os.path.join(args.source, "optimisation", "data", folder)
        samples = []
        with open(os.path.join(base, "accelerometer.csv")) as f:
            for row in csv.reader(f):
                if len(row) >= 5:
                    samples.append((int(row[0]) / 1e9, -float(row[2]), -float(row[3]), -float(row[4])))
        t0 = samples[0][0]
        feet = []
        with open(os.path.join(base, "stepcounter.csv")) as f:
            for row in csv.reader(f):
                if len(row) >= 3:
                    feet.append((int(row[0]) / 1e9 - t0, row[1], row[2]))
        changes = [t for (t, a, b), (_, pa, pb) in zip(feet[1:], feet) if (a, b) != (pa, pb)]
        made.append(emit(args, name, samples, code, label, changes, args.min_interval))
    return made


def emit(args, name, samples, code, label, changes, min_interval):
    samples.sort(key=lambda s: s[0])
    path = os.path.join(args.out, name + ".csv")
    kept, duration = write_trace(path, samples, min_interval)
    start, end = max(0.0, changes[0] + args.margin), min(duration, changes[-1] - args.margin)
    if code is not None and end > start:
        write_labels(os.path.join(args.out, name + ".labels.csv"), span_labels(duration, start, end, code, label))
    return "%s: %d samples, %.1f s" % (name, kept, duration)


# --- Smartphone and smartwatch HAR data set (Matey-Sanz, Casteleyn, Granell) ----------------------
#
# github.com/GeoTecINIT/sp-sw-har-dataset (data CC BY 4.0; Zenodo 10.5281/zenodo.8398688; Data in
# Brief 2023, 10.1016/j.dib.2023.109809). DATA/sXX/sXX_YY_sp.csv: an Android smartphone in a
# trousers pocket, about 100 Hz; columns x_acc, y_acc, z_acc (m/s^2, Android's specific force:
# a trace is the negated reading), the gyroscope, timestamp (UNIX ms), label. Each execution is
# one sequence: SEATED, STANDING_UP, WALKING, TURNING, WALKING, TURNING, SITTING_DOWN, SEATED.
# DATA/executions_info.csv gives the phone's placement in the pocket (front/back, _inv: upside
# down). The smartwatch files (`_sw`) are not converted.

SPSW_LABELS = {"SEATED": (4, "SITTING"), "STANDING_UP": (8, "SIT_TO_STAND"), "WALKING": (1, "WALKING"),
               # Turning round while walking: the phone in the pocket does not turn against the
               # body, so it is walking too (named apart).
               "TURNING": (1, "WALKING_TURNING"), "SITTING_DOWN": (7, "STAND_TO_SIT")}


def spsw(args):
    executions = [e.strip() for e in args.executions.split(",")]
    made = []
    for execution in executions:
        subject = execution.split("_")[0]
        path = os.path.join(args.source, "DATA", subject, execution + "_sp.csv")
        samples, labels = [], []
        with open(path) as f:
            for row in csv.DictReader(f):
                t = int(row["timestamp"]) / 1000.0
                samples.append((t, -float(row["x_acc"]), -float(row["y_acc"]), -float(row["z_acc"])))
                labels.append((t, row["label"]))
        t0 = samples[0][0]
        name = "spsw_%s_sp" % execution
        kept, duration = write_trace(os.path.join(args.out, name + ".csv"), samples, args.min_interval)
        rows = []
        for t, label in labels:
            t -= t0
            if rows and rows[-1][3] == SPSW_LABELS[label][1]:
                continue
            if rows:
                rows[-1] = (rows[-1][0], t, rows[-1][2], rows[-1][3])
            code, label_name = SPSW_LABELS[label]
            rows.append((t, t, code, label_name))
        rows[-1] = (rows[-1][0], duration, rows[-1][2], rows[-1][3])
        write_labels(os.path.join(args.out, name + ".labels.csv"), rows)
        made.append("%s: %d samples, %.1f s" % (name, kept, duration))
    return made


# --- Shoulder physiotherapy smartwatch data set ------------------------------------------------
#
# Shipped in the seglearn package (PyPI seglearn 1.2.5, BSD 3-clause, David M. Burns) as
# seglearn/data/watch_dataset.npy: a dict with X (140 recordings, [n, 6]: ax, ay, az in g and
# wx, wy, wz), y (exercise: PEN, ABD, FEL, IR, ER, TRAP, ROW), side (1 right, 0 left), subject;
# 50 Hz. Its readings already point at the ground (the iOS convention): with the arm hanging,
# the axis along the forearm toward the hand reads +1 g on the left wrist and -1 g on the right
# (where the watch's x axis points toward the elbow), and at the top of an abduction, palm down,
# the screen's axis z reads -1 g. So a trace is 9.80665 times the reading, with the same axes.

def watch(args):
    import numpy

    data = numpy.load(args.source, allow_pickle=True).item()
    indices = [int(i) for i in args.indices.split(",")] if args.indices else range(len(data["X"]))
    if args.subjects:
        subjects = {int(s) for s in args.subjects.split(",")}
        indices = [i for i in indices if int(data["subject"][i]) in subjects]
    made = []
    for index in indices:
        x = data["X"][index]
        exercise = str(data["y_labels"][int(data["y"][index])]).lower()
        samples = [(i / 50.0, G * r[0], G * r[1], G * r[2]) for i, r in enumerate(x)]
        name = "watch_%03d_%s" % (index, exercise)
        kept, duration = write_trace(os.path.join(args.out, name + ".csv"), samples, 0)
        # The whole set is arm motion (code 13): the scorer counts its direct flips per set.
        write_labels(os.path.join(args.out, name + ".labels.csv"), [(0.0, duration + 0.02, 13, "ARM_" + exercise.upper())])
        side = "right" if data["side"][index] == 1 else "left"
        made.append("%s: subject %d, %s wrist, %d samples, %.1f s" % (
            name, int(data["subject"][index]), side, kept, duration))
    return made


# --- MotionSense -------------------------------------------------------------------------------
#
# github.com/mmalekzadeh/motion-sense (MIT), data/A_DeviceMotion_data.zip unpacked: one folder
# per trial, ACT_TRIAL/sub_N.csv, with CoreMotion's device motion of an iPhone 6s in the
# trousers' front pocket at 50 Hz: columns index, attitude.roll/pitch/yaw, gravity.x/y/z (g),
# rotationRate.x/y/z, userAcceleration.x/y/z (g). CoreMotion's gravity points at the ground in
# the device's axes (x right, y top, z out of the screen: the hwdb frame; upright reads
# (0, -1, 0)); the accelerometer felt gravity + userAcceleration. So a trace is 9.80665 times
# that sum. The participant pressed start, put the phone in the pocket and took it out at the
# end, so the first and last `--margin` seconds are left unlabelled.

MOTIONSENSE_ACTIVITIES = {"wlk": (1, "WALKING"), "ups": (2, "WALKING_UPSTAIRS"),
                          "dws": (3, "WALKING_DOWNSTAIRS"), "sit": (4, "SITTING"),
                          "std": (5, "STANDING"), "jog": (14, "JOGGING")}


def motionsense(args):
    subjects = [int(s) for s in args.subjects.split(",")]
    made = []
    for trial in sorted(os.listdir(args.source)):
        activity = trial.split("_")[0]
        if activity not in MOTIONSENSE_ACTIVITIES:
            continue
        code, label = MOTIONSENSE_ACTIVITIES[activity]
        for subject in subjects:
            path = os.path.join(args.source, trial, "sub_%d.csv" % subject)
            if not os.path.exists(path):
                continue
            samples = []
            with open(path) as f:
                reader = csv.DictReader(f)
                for i, row in enumerate(reader):
                    total = [float(row["gravity." + a]) + float(row["userAcceleration." + a]) for a in "xyz"]
                    samples.append((i / 50.0, G * total[0], G * total[1], G * total[2]))
            name = "motionsense_%s_sub%d" % (trial, subject)
            kept, duration = write_trace(os.path.join(args.out, name + ".csv"), samples, 0)
            start, end = min(args.margin, duration), max(0.0, duration - args.margin)
            if end > start:
                write_labels(os.path.join(args.out, name + ".labels.csv"),
                             span_labels(duration, start, end, code, label))
            made.append("%s: %d samples, %.1f s" % (name, kept, duration))
    return made


def excerpt(args):
    """Rows of a converted trace (and its labels, clipped) from `start` to `end` s, times kept."""
    stem = args.source[:-len(".csv")]
    name = "%s_%g-%g%s" % (os.path.basename(stem), args.start, args.end, "_" + args.tag if args.tag else "")
    kept = 0
    with open(args.source) as f, open(os.path.join(args.out, name + ".csv"), "w") as out:
        out.write(f.readline())
        for line in f:
            if args.start <= float(line.split(",")[0]) <= args.end:
                out.write(line)
                kept += 1
    if os.path.exists(stem + ".labels.csv"):
        rows = []
        with open(stem + ".labels.csv") as f:
            for row in list(csv.reader(f))[1:]:
                start, end = max(float(row[0]), args.start), min(float(row[1]), args.end)
                if end > start:
                    rows.append((start, end, int(row[2]), row[3]))
        write_labels(os.path.join(args.out, name + ".labels.csv"), rows)
    return ["%s: %d samples" % (name, kept)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="source_kind", required=True)
    for kind in ("hapt", "oxford", "spsw", "watch", "motionsense"):
        p = sub.add_parser(kind)
        p.add_argument("source")
        p.add_argument("out")
        if kind in ("oxford", "spsw"):
            p.add_argument("--min-interval", type=float, default=0.019,
                           help="keep a sample only this many seconds after the last kept (the "
                           "phones log at 100 Hz and more; 0.019: about 50 Hz; 0 keeps all)")
        if kind in ("oxford", "motionsense"):
            p.add_argument("--margin", type=float, default=5.0,
                           help="seconds left unlabelled after the start of the activity and before its end")
        if kind == "hapt":
            p.add_argument("--experiments", default=HAPT_EXPERIMENTS, help="comma-separated USER:RANK")
            p.add_argument("--margin", type=float, default=10.0, help="seconds before and after each transition")
        if kind == "spsw":
            p.add_argument("--executions", required=True, help="comma-separated, e.g. s01_01,s02_03")
        if kind == "watch":
            p.add_argument("--indices", default="", help="comma-separated recordings (default: all 140)")
        if kind in ("watch", "motionsense"):
            p.add_argument("--subjects", default="" if kind == "watch" else "1",
                           help="comma-separated subjects (watch: default all)")
    p = sub.add_parser("excerpt", help="cut a converted trace (and its labels) to a time span")
    p.add_argument("source", help="a converted trace, NAME.csv")
    p.add_argument("out")
    p.add_argument("start", type=float)
    p.add_argument("end", type=float)
    p.add_argument("--tag", default="", help="appended to the excerpt's name (what happens in it)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for line in {"hapt": hapt, "oxford": oxford, "spsw": spsw, "watch": watch, "motionsense": motionsense, "excerpt": excerpt}[args.source_kind](args):
        print(line)


if __name__ == "__main__":
    sys.exit(main())
