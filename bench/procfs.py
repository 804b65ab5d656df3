"""Context switches, CPU time and resident memory of a process, from /proc."""

import os
import re
import time
from pathlib import Path


def proc_counters(pid):
    """Voluntary/involuntary context switches and CPU of every thread of pid, and VmRSS."""
    voluntary = involuntary = cpu_ns = 0
    for task in Path("/proc/%d/task" % pid).iterdir():
        try:
            status = (task / "status").read_text()
            sched = (task / "schedstat").read_text().split()
        except OSError:
            continue  # the thread just ended
        voluntary += int(re.search(r"^voluntary_ctxt_switches:\s*(\d+)", status, re.M).group(1))
        involuntary += int(re.search(r"^nonvoluntary_ctxt_switches:\s*(\d+)", status, re.M).group(1))
        cpu_ns += int(sched[0])
    stat = Path("/proc/%d/stat" % pid).read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])  # utime + stime
    return {"time": time.monotonic(), "voluntary": voluntary, "involuntary": involuntary,
            "cpu_ns": cpu_ns, "ticks": ticks, "threads": len(list(Path("/proc/%d/task" % pid).iterdir()))}


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
            "wakeups": (after["voluntary"] - before["voluntary"]) / elapsed,
            "involuntary": (after["involuntary"] - before["involuntary"]) / elapsed,
            "cpu_ms": (after["cpu_ns"] - before["cpu_ns"]) / 1e6 / elapsed,
            "cpu_ms_ticks": (after["ticks"] - before["ticks"]) * 1000.0
            / os.sysconf("SC_CLK_TCK") / elapsed}
