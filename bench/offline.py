"""The figures of a bench run that need no running daemon: estimator-bench's throughput and
corpus table, the pure estimator's step delay replayed through the client's `replay`, and the
binary sizes. Each takes the Bench and puts its figures into bench.results."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from rig import G

from .daemons import ISP_BINARY

REPO = Path(__file__).resolve().parent.parent


def run_estimator_bench(bench):
    """estimator-bench on the trace corpus: its text printed, its JSON kept."""
    if not os.access(bench.estimator_bench, os.X_OK):
        bench.failures.append("estimator-bench missing at %s" % bench.estimator_bench)
        return
    text = subprocess.run([bench.estimator_bench, bench.traces], capture_output=True, text=True)
    print("== estimator-bench %s" % bench.traces.relative_to(REPO))
    print(text.stdout.rstrip())
    if text.returncode != 0:
        print("(estimator-bench exited with %d: a trace missed its expected outcome)"
              % text.returncode)
    print()
    sys.stdout.flush()
    result = subprocess.run([bench.estimator_bench, "--json", bench.traces],
                            capture_output=True, text=True)
    try:
        bench.results["estimator"] = json.loads(result.stdout)
    except ValueError:
        bench.failures.append("estimator-bench --json gave no JSON")


def estimator_step_delay(bench):
    """The pure estimator's delay from the first sample that sees a step quarter turn to
    its decision, the samples before it 40 ms or 700 ms apart (moving or still rate; 40 ms
    after it), replayed with the client's `replay` (the daemon's estimator and settings).
    In the daemon the wait for that first sample (up to one interval) comes on top."""
    out = {}
    for key, interval in (("fast", 0.04), ("still", 0.7)):
        path = bench.workdir / ("step-%s.csv" % key)
        lines = ["t,x,y,z"]
        t = 0.0
        while t < 4.0 - 1e-9:
            lines.append("%.3f,0,%.5f,0" % (t, -G))
            t += interval
        step = t  # the first sample that sees the turn
        while t < 8.0:
            lines.append("%.3f,%.5f,0,0" % (t, G))
            t += 0.04  # the daemon samples fast once it sees the motion
        path.write_text("\n".join(lines) + "\n")
        result = subprocess.run([bench.client_binary, "replay", path], capture_output=True,
                                text=True)
        path.unlink()
        decided = [float(line.split(",")[0]) for line in result.stdout.splitlines()
                   if line.endswith(",landscape-right,landscape-left")]
        out[key] = (decided[0] - step) * 1000 if decided else None
    bench.results["estimator_step_delay_ms"] = out


def binary_sizes(bench):
    """Sizes of the binaries, alone and with their non-libc shared libraries."""
    def libs(path):
        try:
            text = subprocess.run(["ldd", str(path)], capture_output=True, text=True).stdout
        except OSError:
            return {}
        found = {}
        for line in text.splitlines():
            m = re.search(r"=>\s*(/\S+)", line)
            if m and not re.search(r"/(libc|libm|ld-linux[^/]*)\.so", m.group(1)):
                found[os.path.basename(m.group(1))] = os.path.getsize(m.group(1))
        return found
    out = {}
    for key, path in (("daemon", bench.daemon_binary), ("client", bench.client_binary),
                      ("isp", Path(ISP_BINARY))):
        if path.exists():
            shared = libs(path)
            out[key] = {"path": str(path), "bytes": path.stat().st_size,
                        "shared_libs": shared,
                        "with_libs_bytes": path.stat().st_size + sum(shared.values())}
    bench.results["binaries"] = out
