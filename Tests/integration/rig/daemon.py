"""motion-orientationd under umockdev's preload on the private bus, its log in a file."""

import os
import re
import signal
import subprocess
import time
from pathlib import Path

from .binaries import require_shipped_daemon
from .contract import BUS_NAME
from .processes import RigError, kill_process, spawn


def ctxt_switches(pid):
    """(voluntary, nonvoluntary) context switches summed over all threads of pid."""
    voluntary = nonvoluntary = 0
    for task in Path("/proc/%d/task" % pid).iterdir():
        try:
            text = (task / "status").read_text()
        except OSError:
            continue
        voluntary += int(re.search(r"^voluntary_ctxt_switches:\s*(\d+)", text, re.M).group(1))
        nonvoluntary += int(re.search(r"^nonvoluntary_ctxt_switches:\s*(\d+)", text, re.M).group(1))
    return voluntary, nonvoluntary


class Daemon:
    """motion-orientationd under umockdev's preload, on the private bus."""

    def __init__(self, binary, bus, umockdev_dir, log_path, config_path, verbose=True,
                 extra_args=(), extra_env=None):
        self.binary = str(binary)
        self.bus = bus
        self.log_path = Path(log_path)
        self.argv = [self.binary]
        if verbose:
            self.argv.append("--verbose")
        if config_path is not None:
            self.argv += ["--config", str(config_path)]
        self.argv += list(extra_args)
        self.env = bus.env()
        self.env["LD_PRELOAD"] = "libumockdev-preload.so.0"
        self.env["UMOCKDEV_DIR"] = str(umockdev_dir)
        self.env.pop("NOTIFY_SOCKET", None)
        self.env.pop("WATCHDOG_USEC", None)
        self.env.update(extra_env or {})
        self.proc = None
        self.startup_seconds = None

    @property
    def pid(self):
        return self.proc.pid

    def start(self, timeout=5.0):
        if not os.access(self.binary, os.X_OK):
            raise RigError("daemon binary %s is missing (build it, or set MO_DAEMON)"
                           % self.binary)
        require_shipped_daemon(self.binary)
        started = time.monotonic()
        with open(self.log_path, "ab") as log:
            self.proc = spawn(self.argv, env=self.env, stdout=log, stderr=log)
        deadline = started + timeout
        while True:
            if self.proc.poll() is not None:
                raise RigError("%s exited with %s before owning %s; its output:\n%s"
                               % (self.binary, self.proc.returncode, BUS_NAME, self.log()))
            if self.bus.name_has_owner(BUS_NAME):
                self.startup_seconds = time.monotonic() - started
                return self
            if time.monotonic() > deadline:
                raise RigError("%s did not own %s within %.0f s; its output:\n%s"
                               % (self.binary, BUS_NAME, timeout, self.log()))
            time.sleep(0.01)

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def log(self):
        """Everything the daemon wrote to stderr (and stdout) so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_lines(self):
        return self.log().splitlines()

    def ctxt_switches(self):
        return ctxt_switches(self.pid)

    def wakeups_over(self, seconds):
        """The daemon's wakeups (voluntary context switches) during the next `seconds`."""
        before = self.ctxt_switches()[0]
        time.sleep(seconds)
        return self.ctxt_switches()[0] - before

    def send_signal(self, sig):
        self.proc.send_signal(sig)

    def stop(self, sig=signal.SIGTERM, timeout=5.0):
        """Signal the daemon and wait; returns (exit code, seconds it took)."""
        if self.proc is None:
            return None, 0.0
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        elapsed = time.monotonic() - started
        code = kill_process(self.proc, signal.SIGKILL)
        if elapsed >= timeout:
            code = "timeout"
        return code, elapsed
