"""Clients of the service: a bus connection in its own process (busclient.py, a claim
holder), and the command-line client running with its output read line by line."""

import atexit
import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from .binaries import BUSCLIENT, PYTHON
from .processes import LineReader, RigError, _child_setup, _spawn_raw, kill_process


_shared_dir = []


def copy_for_other_users(path):
    """A copy of `path` (a script or binary) that a process demoted to another user can run
    even when the checkout lies under a directory only root may enter (mktemp -d gives 0700),
    in a 0755 directory of its own removed at exit; one copy per path."""
    if not _shared_dir:
        directory = Path(tempfile.mkdtemp(prefix="mo-shared-"))
        directory.chmod(0o755)
        atexit.register(shutil.rmtree, directory, True)
        _shared_dir.append(directory)
    target = _shared_dir[0] / Path(path).name
    if not target.exists():
        shutil.copy2(path, target)
        target.chmod(0o755)
    return target


class BusCallError(AssertionError):
    def __init__(self, name, message):
        self.name = name
        self.message = message
        super().__init__("%s: %s" % (name, message))


class BusClient:
    """One bus connection in its own process (busclient.py): claims, calls, signals."""

    def __init__(self, bus, start=False, signals=False, user=None, timeout=5.0):
        argv = [PYTHON, str(BUSCLIENT if user is None else copy_for_other_users(BUSCLIENT))]
        if signals:
            argv.append("--signals")
        env = bus.env()
        kwargs = {}
        if user is not None:
            # (uid, gid) or (uid, gid, supplementary gids)
            uid, gid = user[0], user[1]
            groups = list(user[2]) if len(user) > 2 else []

            def demote():
                _child_setup()
                os.setgroups(groups)
                os.setgid(gid)
                os.setuid(uid)
            kwargs["preexec_fn"] = demote
        self.proc = _spawn_raw(argv, env, kwargs)
        self._replies = queue.Queue()
        self.signals = queue.Queue()
        # (arrival time on the monotonic clock, member, payload) of every signal, in order.
        self.signal_log = []
        self.reader = LineReader(self.proc, echo=self._route)
        line = self._reply(timeout)
        if not line.startswith("ready "):
            self.kill()
            raise RigError("busclient did not connect: %s" % line)
        self.unique_name = line.split()[1]
        if start:
            self.start()

    def _route(self, line):
        if line.startswith("signal "):
            _, member, payload = line.split(" ", 2)
            self.signal_log.append((time.monotonic(), member, json.loads(payload)))
            self.signals.put((member, json.loads(payload)))
        else:
            self._replies.put(line)

    def _reply(self, timeout):
        try:
            return self._replies.get(timeout=timeout)
        except queue.Empty:
            raise RigError("busclient gave no answer within %.1f s" % timeout) from None

    def request(self, command, timeout=7.0):
        """Send one command; return the reply body, or raise BusCallError."""
        self.proc.stdin.write((command + "\n").encode())
        self.proc.stdin.flush()
        line = self._reply(timeout)
        if line.startswith("ok "):
            return json.loads(line[3:])
        if line.startswith("error "):
            parts = line.split(" ", 2)
            raise BusCallError(parts[1], parts[2] if len(parts) > 2 else "")
        raise RigError("unexpected busclient line %r" % line)

    def start(self):
        return self.request("start")

    def stop(self):
        return self.request("stop")

    def read_orientation(self):
        return tuple(self.request("read"))

    def call(self, method, signature=None, args=()):
        if signature:
            return self.request("call %s %s %s" % (method, signature, json.dumps(list(args))))
        return self.request("call %s" % method)

    def get(self, prop):
        return self.request("get %s" % prop)[0]

    def introspect(self):
        return self.request("introspect")[0]

    def ping(self):
        return self.request("ping")

    def own(self, name):
        return self.request("own %s" % name)

    def next_signal(self, timeout):
        try:
            return self.signals.get(timeout=timeout)
        except queue.Empty:
            raise RigError("no signal within %.1f s" % timeout) from None

    def kill(self):
        """SIGKILL: the connection drops without a Stop()."""
        kill_process(self.proc, signal.SIGKILL)

    def close(self):
        """Leave politely: quit, the connection closes."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        kill_process(self.proc, signal.SIGKILL)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class RunningClient:
    """A client process whose stdout is read line by line while it runs."""

    def __init__(self, proc, reader, stderr_path):
        self.proc = proc
        self.reader = reader
        self.stderr_path = stderr_path

    def stderr(self):
        return Path(self.stderr_path).read_text(errors="replace")

    def close(self):
        return kill_process(self.proc, signal.SIGTERM)
