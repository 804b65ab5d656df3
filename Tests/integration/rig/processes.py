"""Child processes: spawned so that none outlives the rig, waited on with bounds, their
output read line by line.

Every child is registered and killed at exit (atexit, and the rig's close()); children
also get PR_SET_PDEATHSIG=SIGKILL, so nothing outlives the Python process even if it is
killed."""

import atexit
import ctypes
import queue
import signal
import subprocess
import threading
import time


class RigError(AssertionError):
    """The rig could not bring something up, or a bounded wait ran out."""


_libc = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1
_children = []
_children_lock = threading.Lock()


def _child_setup():
    # Runs in the child between fork and exec: die with the parent, and take SIGINT and
    # SIGQUIT as a terminal would give them (a shell ignores them for a background job,
    # `make test &`, and an ignored disposition survives exec).
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    for sig in (signal.SIGINT, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)


def spawn(argv, env=None, **kwargs):
    """Popen registered for cleanup, in its own session (Ctrl-C reaches only us)."""
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    proc = subprocess.Popen(
        [str(a) for a in argv], env=env, preexec_fn=_child_setup,
        start_new_session=True, close_fds=True, **kwargs)
    with _children_lock:
        _children.append(proc)
    return proc


def kill_process(proc, sig=signal.SIGTERM, timeout=3.0):
    """Signal proc, wait bounded, SIGKILL if needed. Returns the exit code."""
    if proc.poll() is None:
        try:
            proc.send_signal(sig)
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        except ProcessLookupError:
            pass
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass
    with _children_lock:
        if proc in _children:
            _children.remove(proc)
    return proc.returncode


def kill_all_children():
    with _children_lock:
        procs = list(_children)
    for proc in reversed(procs):
        kill_process(proc, signal.SIGKILL, 2.0)


atexit.register(kill_all_children)


def wait_until(predicate, timeout, interval=0.02, what="condition"):
    """Poll predicate() until it returns a truthy value; return it, or raise RigError."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise RigError("timed out after %.1f s waiting for %s" % (timeout, what))
        time.sleep(interval)


def wait_for_property(get_property, name, value, timeout, log_lines):
    """Poll get_property(name) until it equals value, or raise RigError with the values seen
    and the last 30 of log_lines() (the daemon's log)."""
    seen = []

    def check():
        current = get_property(name)
        if not seen or seen[-1] != current:
            seen.append(current)
        return current == value
    try:
        wait_until(check, timeout, what="%s == %r" % (name, value))
    except RigError as err:
        raise RigError("%s (values seen: %r)\n-- daemon log tail --\n%s"
                       % (err, seen, "\n".join(log_lines()[-30:]))) from None


class LineReader:
    """Reads a child's stdout line by line in a thread, so tests can wait on lines."""

    def __init__(self, proc, echo=None):
        self.proc = proc
        self.lines = []  # everything read so far
        self._queue = queue.Queue()
        self._echo = echo
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        for raw in iter(self.proc.stdout.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(line)
            if self._echo:
                self._echo(line)
            self._queue.put(line)
        self._queue.put(None)  # EOF

    def next_line(self, timeout):
        """The next unread line, None at EOF; RigError when nothing comes in time."""
        try:
            return self._queue.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise RigError("no output line within %.1f s" % timeout) from None

    def expect(self, predicate, timeout, what="a matching line"):
        """Consume lines until predicate(line) is true; return (line, skipped lines)."""
        deadline = time.monotonic() + timeout
        skipped = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RigError("timed out after %.1f s waiting for %s; got %r"
                               % (timeout, what, skipped))
            try:
                line = self._queue.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                raise RigError("EOF while waiting for %s; got %r" % (what, skipped))
            if predicate(line):
                return line, skipped
            skipped.append(line)

    def drain(self, quiet_for=0.0):
        """Unread lines now (waiting until none arrive for quiet_for seconds)."""
        out = []
        while True:
            try:
                line = self._queue.get(timeout=quiet_for) if quiet_for else self._queue.get_nowait()
            except queue.Empty:
                return out
            if line is None:
                return out
            out.append(line)

    def join(self, timeout):
        self._thread.join(timeout)


def _spawn_raw(argv, env, kwargs):
    kwargs = dict(kwargs)
    preexec = kwargs.pop("preexec_fn", _child_setup)
    proc = subprocess.Popen([str(a) for a in argv], env=env, preexec_fn=preexec,
                            start_new_session=True, close_fds=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=None, **kwargs)
    with _children_lock:
        _children.append(proc)
    return proc
