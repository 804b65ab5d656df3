"""Context switches, CPU time and resident memory of a process, from /proc."""

import os
import re
import threading
import time
from pathlib import Path

# How often a Counting reads a process's threads between its first and last reading: a thread
# that ends is counted up to its last reading, so this bounds what an ending thread may take
# with it (a GLib pool thread of iio-sensor-proxy's sleeps until it ends, ~15 s after start).
SAMPLE_SECONDS = 0.25


def thread_totals(pid):
    """{(tid, start time): (voluntary, involuntary, cpu ns)} of the threads of pid alive now.
    The start time (field 22 of the thread's stat) tells a thread from a later one given the
    same tid."""
    out = {}
    try:
        tasks = list(Path("/proc/%d/task" % pid).iterdir())
    except OSError:
        return out  # the process itself ended
    for task in tasks:
        try:
            stat = (task / "stat").read_text()
            status = (task / "status").read_text()
            sched = (task / "schedstat").read_text().split()
        except OSError:
            continue  # the thread just ended
        started = int(stat[stat.rindex(")") + 2:].split()[19])
        out[(int(task.name), started)] = (
            int(re.search(r"^voluntary_ctxt_switches:\s*(\d+)", status, re.M).group(1)),
            int(re.search(r"^nonvoluntary_ctxt_switches:\s*(\d+)", status, re.M).group(1)),
            int(sched[0]))
    return out


class Counting:
    """Voluntary/involuntary context switches and CPU of every thread of some processes, threads
    that end included: the kernel keeps an ended thread's switches only in its process's own
    getrusage(), which no other process can read (/proc/PID/status gives the one thread's,
    /proc/PID/stat has no switches), so every thread is read at the start, every
    SAMPLE_SECONDS from a thread of ours, and at each read(), and a thread that is gone counts
    with its last values. A thread that starts and ends between two readings is missed.

        with Counting(pids) as counting:
            before = counting.read(pid)
            ...
            after = counting.read(pid)
        rates(before, after)
    """

    def __init__(self, pids, period=SAMPLE_SECONDS):
        self.pids = list(pids)
        self.period = period
        self._last = {pid: {} for pid in self.pids}  # pid -> {thread: totals}, the ended kept
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self, pid):
        now = thread_totals(pid)
        with self._lock:
            self._last[pid].update(now)
            return now

    def _run(self):
        while not self._stop.wait(self.period):
            for pid in self.pids:
                self._sample(pid)

    def read(self, pid):
        """The totals so far: the threads alive now and the last values of those that ended."""
        alive = self._sample(pid)
        with self._lock:
            threads = dict(self._last[pid])
        voluntary = sum(v[0] for v in threads.values())
        involuntary = sum(v[1] for v in threads.values())
        cpu_ns = sum(v[2] for v in threads.values())
        stat = Path("/proc/%d/stat" % pid).read_text()
        fields = stat[stat.rindex(")") + 2:].split()
        ticks = int(fields[11]) + int(fields[12])  # utime + stime, ended threads included
        return {"time": time.monotonic(), "voluntary": voluntary, "involuntary": involuntary,
                "cpu_ns": cpu_ns, "ticks": ticks, "threads": len(alive),
                "threads_seen": len(threads)}

    def __enter__(self):
        for pid in self.pids:
            self._sample(pid)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(2)


def drop_cached(paths):
    """Drops the page-cache pages of files no running process maps (the daemons' binaries before
    they start), so that each maps its binary as read from disk. A binary just built or copied
    sits in the cache in large folios, and every page touched then maps a whole folio: about
    0.4 MiB more resident set for the same work, a difference of cache state, not of daemon."""
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def rss_kib(pid):
    status = Path("/proc/%d/status" % pid).read_text()
    out = {}
    for key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
        m = re.search(r"^%s:\s*(\d+) kB" % key, status, re.M)
        out[key] = int(m.group(1)) if m else None
    return out


def rss_breakdown(pid, top=8):
    """Resident KiB per mapping name (file, [heap], [anon]...), largest first."""
    sizes = {}
    name = None
    try:
        lines = Path("/proc/%d/smaps" % pid).read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        parts = line.split()
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            name = parts[5] if len(parts) > 5 else "[anon]"
            name = os.path.basename(name) if name.startswith("/") else name
        elif parts and parts[0] == "Rss:" and name is not None:
            sizes[name] = sizes.get(name, 0) + int(parts[1])
    return sorted(sizes.items(), key=lambda kv: -kv[1])[:top]


def rates(before, after):
    elapsed = after["time"] - before["time"]
    return {"seconds": elapsed,
            "threads_ended": (after["threads_seen"] - after["threads"])
            - (before["threads_seen"] - before["threads"]),
            "wakeups": (after["voluntary"] - before["voluntary"]) / elapsed,
            "involuntary": (after["involuntary"] - before["involuntary"]) / elapsed,
            "cpu_ms": (after["cpu_ns"] - before["cpu_ns"]) / 1e6 / elapsed,
            "cpu_ms_ticks": (after["ticks"] - before["ticks"]) * 1000.0
            / os.sysconf("SC_CLK_TCK") / elapsed}
