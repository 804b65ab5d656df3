"""make bench: the command line (see the package's docstring, or --help)."""

import argparse
import os
import sys
from pathlib import Path

try:
    import rig  # noqa: F401  (the integration rig: Tests/integration/rig)
except ImportError as err:
    raise SystemExit("bench: %s: run it with `make bench`, or from the top directory as "
                     "PYTHONPATH=Tests/integration /usr/bin/python3 -m bench" % err) from None

from . import __doc__ as PACKAGE_DOC
from . import report
from .progress import log
from .side_by_side import Bench

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def main():
    parser = argparse.ArgumentParser(prog="bench", description=PACKAGE_DOC.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run (about 2 minutes): 1 run, short windows, fewer turns")
    parser.add_argument("--runs", type=int, help="fresh starts of both daemons (default 3)")
    parser.add_argument("--output", default=str(HERE / "results.json"),
                        help="JSON results (default bench/results.json)")
    parser.add_argument("--minute", type=float,
                        help="seconds claimed before the claimed VmRSS (default 60)")
    parser.add_argument("--window", type=float, help="seconds per energy window (default 10)")
    parser.add_argument("--read-window", type=float,
                        help="seconds per strace window counting sensor reads (default 5)")
    parser.add_argument("--rotations", type=int, help="measured spaced quarter turns (default 24)")
    parser.add_argument("--rest-rotations", type=int, help="turns from rest (default 4)")
    parser.add_argument("--rest", type=float, default=10.0,
                        help="seconds still before each turn from rest (default 10)")
    parser.add_argument("--starts", type=int, help="starts of each daemon timed (default 10)")
    parser.add_argument("--trace-seconds", type=float,
                        help="replay at most this much of each trace (default: all)")
    parser.add_argument("--day-seconds", type=float,
                        help="seconds of each mixed-day workload, desk and lap "
                        "(default 600, --quick 60; 0 leaves them out)")
    parser.add_argument("--day-reactions", type=int,
                        help="spaced and smooth reaction turns timed after each day variant "
                        "(default 8)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME:Key=Value,...",
                        help="a mixed-day variant: [Sampling] keys given to our daemon "
                        "(repeatable; the shipped defaults always run first)")
    parser.add_argument("--day-only", action="store_true",
                        help="only the mixed-day workloads and their variants")
    parser.add_argument("--seed", type=int, default=8, help="seed of the turn schedule")
    parser.add_argument("--build-dir", default=os.environ.get("MO_BUILD_DIR",
                                                              str(REPO / ".build" / "release")),
                        help="where motion-orientationd, motion-orientation, estimator-bench are")
    args = parser.parse_args()
    quick = args.quick
    defaults = {"runs": 1 if quick else 3, "minute": 15.0 if quick else 60.0,
                "window": 3.0 if quick else 10.0, "read_window": 2.0 if quick else 5.0,
                "rotations": 6 if quick else 24, "rest_rotations": 1 if quick else 4,
                "starts": 3 if quick else 10, "trace_seconds": 8.0 if quick else None,
                "day_seconds": 60.0 if quick else 600.0, "day_reactions": 6 if quick else 8}
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    args.settle = 6.5  # our motion linger is 5 s: still for longer than that
    bench = Bench(args)
    try:
        bench.run()
    except Exception as err:  # noqa: BLE001 - still print what was measured
        import traceback
        traceback.print_exc()
        bench.failures.append("%s: %s" % (type(err).__name__, err))
        log("FAILED: %s" % err)
    missing = report.print_and_save(bench, args)
    if missing:
        print("bench: could not measure: %s" % "; ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
