"""The bench's wakeup and CPU counting (bench/procfs.py, Counting) keeps the switches of a thread
that ends during the window. iio-sensor-proxy has such a thread (a GLib pool thread ends about
15 s after its start): summing /proc/PID/task/*/status at both ends lost it, its switches before
the window then counted against the window. A child process here has a worker thread that
sleeps in many short naps (each a voluntary context switch), idles a while as a pool thread
does, and ends."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from rig import PYTHON, REPO_ROOT

sys.path.insert(0, str(REPO_ROOT))
from bench.procfs import SAMPLE_SECONDS, Counting, rates  # noqa: E402

pytestmark = pytest.mark.rig

NAPS = 200

# The worker: NAPS naps before the window if "early", NAPS in it, idle, gone. Each line on stdin
# is a command: "go" starts (or, early, resumes) the worker's naps in the window, "quit" ends.
CHILD = r"""
import sys, threading, time
naps, idle, early = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3] == "early"
go = threading.Event()
def worker():
    if early:
        for _ in range(naps):
            time.sleep(0.001)
        print("ready", flush=True)
    go.wait()
    for _ in range(naps):
        time.sleep(0.001)
    time.sleep(idle)
    print("done", flush=True)
thread = threading.Thread(target=worker)
if early:
    thread.start()
else:
    print("ready", flush=True)
for line in sys.stdin:
    if line.strip() == "go":
        if not early:
            thread.start()
        go.set()
    elif line.strip() == "quit":
        break
"""


def threads(pid):
    return len(list(Path("/proc/%d/task" % pid).iterdir()))


@pytest.mark.parametrize("early", [True, False], ids=["alive-at-start", "started-in-window"])
def test_a_thread_that_ends_in_the_window_is_counted(early):
    child = subprocess.Popen([PYTHON, "-c", CHILD, str(NAPS), str(4 * SAMPLE_SECONDS),
                              "early" if early else "late"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        with Counting([child.pid]) as counting:
            before = counting.read(child.pid)
            child.stdin.write("go\n")
            child.stdin.flush()
            assert child.stdout.readline().strip() == "done"
            deadline = time.monotonic() + 5
            while threads(child.pid) > 1 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert threads(child.pid) == 1, "the worker did not end"
            after = counting.read(child.pid)
        got = rates(before, after)
        switches = after["voluntary"] - before["voluntary"]
        # Each nap is one switch of the worker; the main thread adds a few (stdin, the start).
        assert NAPS <= switches <= NAPS + 50, (switches, before, after)
        assert got["threads_ended"] == 1
        assert after["cpu_ns"] > before["cpu_ns"]
    finally:
        child.kill()
        child.wait()
