#!/usr/bin/python3
"""make link-order: the functions motion-orientationd runs, for the linker to put together.

    make link-order
    PYTHONPATH=Tests/integration /usr/bin/python3 build-aux/hot-functions.py [--daemon PATH] [--output PATH]

Runs the release daemon under valgrind's callgrind on the integration rig (a private system
bus), twice: with no accelerometer and `--config /dev/null` (the idle start-up that the
resident-set figures measure: start, an unclaimed ReadOrientation(), SIGTERM), then with the bench's fake IIO
accelerometer: start, an unclaimed ReadOrientation(), a claim through turns to each side, low
energy mode, a reload, the claim's end, SIGTERM.
Every function of the binary that executed is written, one symbol name a line and sorted,
to build-aux/motion-orientationd.order, which Package.swift hands to lld
(--symbol-ordering-file).

Why (docs/architecture.md, Figures): the code the daemon runs is a few hundred KiB, but in
the default layout it lies scattered over the 4 MiB of the statically linked Swift runtime
and standard library, so the pages it touches (and the kernel's fault-around neighbours
of each) kept about 3 MiB of the binary resident. Put together it takes a few dozen pages.
A stale list only costs memory, never correctness: symbols it names that no longer exist
are ignored, and functions it does not name are laid out as before. Re-run after changes
to what the daemon executes, or to the toolchain.
"""

import argparse
import re
import signal
import subprocess
import tempfile
from pathlib import Path

try:
    import rig  # the integration rig (Tests/integration/rig), on PYTHONPATH: make link-order
except ImportError as err:
    raise SystemExit("hot-functions: %s: run it with `make link-order`, or as "
                     "PYTHONPATH=Tests/integration /usr/bin/python3 build-aux/hot-functions.py"
                     % err) from None

REPO = Path(__file__).resolve().parent.parent


def under_callgrind(r, callgrind_out):
    """Starts the rig's daemon under callgrind. Names stay mangled (--demangle=no): they are
    then the linker's own, where valgrind's demangler and nm's differ on some C++ names."""
    r.daemon.argv = ["valgrind", "--tool=callgrind", "--callgrind-out-file=%s" % callgrind_out,
                     "--dump-instr=no", "--demangle=no"] + r.daemon.argv
    r.daemon.start(timeout=60)


def stop(r):
    code, _ = r.daemon.stop(signal.SIGTERM, timeout=60)
    if code != 0:
        raise SystemExit("hot-functions: the daemon exited with %s:\n%s" % (code, r.daemon.log()))


def exercise_idle(daemon, callgrind_out):
    r = rig.Rig(accelerometer=False, start_daemon=False, verbose=False, daemon=str(daemon))
    try:
        r.daemon.argv = [r.daemon.binary, "--config", "/dev/null"]
        under_callgrind(r, callgrind_out)
        r.read_orientation(timeout=30)
        stop(r)
    finally:
        r.close()


def exercise(daemon, callgrind_out):
    r = rig.Rig(accelerometer=False, start_daemon=False, verbose=False, daemon=str(daemon))
    try:
        r.accel = r.add_accelerometer()
        under_callgrind(r, callgrind_out)
        r.read_orientation(timeout=30)
        claim = r.bus_client(start=True)
        for pose in ["portrait", "landscape-left", "portrait", "landscape-right", "portrait"]:
            r.accel.set_pose(pose)
            r.wait_for_property("DeviceOrientation", pose, timeout=30)
        r.reload("[Energy]\nLowEnergyMode=on\n")
        r.wait_for_property("LowEnergyMode", True, timeout=30)
        r.reload("")
        r.wait_for_property("LowEnergyMode", False, timeout=30)
        claim.close()
        r.wait_for_property("Active", False, timeout=30)
        stop(r)
    finally:
        r.close()


def executed_functions(callgrind_out, binary):
    """Names callgrind saw executing in `binary` (compressed "(id) name" entries expanded)."""
    objects, functions, names = {}, {}, set()

    def expand(table, text):
        m = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if not m:
            return text
        if m.group(2) is not None:
            table[m.group(1)] = m.group(2)
        return table[m.group(1)]

    current_object = None
    for line in open(callgrind_out, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("ob="):
            current_object = expand(objects, line[3:])
        elif line.startswith("cob="):
            expand(objects, line[4:])
        elif line.startswith("cfn="):
            expand(functions, line[4:])
        elif line.startswith("fn="):
            name = expand(functions, line[3:])
            if current_object and Path(current_object).name == binary.name:
                names.add(re.sub(r"'\d+$", "", name))  # callgrind's recursion suffix
    return names


def symbol_names(binary, executed):
    """The function symbols of `binary` among `executed` (names callgrind could not give, such
    as 0x... addresses of unnamed code, are not symbols and drop out)."""
    out = subprocess.run(["nm", "--defined-only", str(binary)], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    symbols = set()
    for fields in (line.split(" ", 2) for line in out):
        if len(fields) == 3 and fields[1] in "tTwW" and fields[2] in executed:
            symbols.add(fields[2])
    return sorted(symbols)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--daemon", default=str(REPO / ".build/release/motion-orientationd"))
    parser.add_argument("--output", default=str(REPO / "build-aux/motion-orientationd.order"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mo-order-") as tmp:
        # Valgrind 3.19 cannot read the toolchain's DWARF 5 (it gives up on the binary): it
        # runs a copy without the debug sections, whose symbol table is the binary's.
        daemon = Path(tmp) / Path(args.daemon).name
        subprocess.run(["objcopy", "--strip-debug", str(Path(args.daemon).resolve()), str(daemon)], check=True)
        idle, busy = Path(tmp) / "callgrind.idle", Path(tmp) / "callgrind.out"
        exercise_idle(daemon, idle)
        exercise(daemon, busy)
        symbols = symbol_names(daemon, executed_functions(idle, daemon) | executed_functions(busy, daemon))
    Path(args.output).write_text("".join(name + "\n" for name in symbols))
    print("hot-functions: %d functions of %s -> %s" % (len(symbols), args.daemon, args.output))


if __name__ == "__main__":
    main()
