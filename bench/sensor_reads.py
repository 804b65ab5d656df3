"""Sensor reads per second of a running daemon, counted with strace attached to it."""

import re
import signal
import subprocess
import time
from pathlib import Path

import rig


def count_sensor_reads(pid, seconds, workdir, tag):
    """Samples (reads of in_accel_x_raw) per second, with strace attached for `seconds`.

    The rate is taken between the first and the last read seen, (n - 1) / span, so a
    700 ms poll is not rounded to whole reads per window."""
    out = Path(workdir) / ("strace-%s-%d.txt" % (tag, pid))
    proc = rig.spawn(["strace", "-f", "-y", "-ttt", "-qq", "-e", "trace=read,pread64", "-o", out,
                      "-p", pid], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # strace prints nothing when attached with -qq: give it a moment to attach every thread.
    time.sleep(0.3)
    if proc.poll() is not None:
        raise RuntimeError("strace failed: %s" % proc.stderr.read().decode(errors="replace").strip())
    started = time.monotonic()
    time.sleep(seconds)
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    elapsed = time.monotonic() - started
    per_channel = {"x": 0, "y": 0, "z": 0}
    times = []
    for line in out.read_text(errors="replace").splitlines():
        m = re.search(r"^\d+\s+([\d.]+)\s+(?:read|pread64)\(\d+<[^>]*in_accel_([xyz])_raw>", line)
        if m:
            per_channel[m.group(2)] += 1
            if m.group(2) == "x":
                times.append(float(m.group(1)))
    out.unlink()
    rig.kill_process(proc)
    if len(times) >= 2 and times[-1] > times[0]:
        rate = (len(times) - 1) / (times[-1] - times[0])
    else:
        rate = len(times) / elapsed
    return {"reads_per_s": rate, "channel_reads": per_channel, "seconds": elapsed}
