"""`busctl monitor` on the private bus, and predicates on the messages it sees."""

import json
import signal
import subprocess
import threading
import time

from .contract import INTERFACE, OBJECT_PATH
from .processes import RigError, kill_process, spawn


class BusMonitor:
    """`busctl --system monitor --json=short`: every message on the bus, as dicts.

    Messages are kept in order; wait_for() searches them from a mark (default:
    the beginning), so the order of related messages does not matter.
    """

    def __init__(self, bus):
        self.bus = bus
        self.proc = spawn(["busctl", "--system", "--no-pager", "--json=short", "monitor"],
                          env=bus.env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.messages = []
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self.sync()

    def _run(self):
        for raw in iter(self.proc.stdout.readline, b""):
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            with self._cond:
                self.messages.append(message)
                self._cond.notify_all()

    def mark(self):
        """A position in the stream, for wait_for(since=...)."""
        with self._cond:
            return len(self.messages)

    def sync(self, timeout=5.0):
        """Return once the monitor demonstrably sees traffic (a GetId call of ours)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            since = self.mark()
            self.bus.busctl("call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus", "GetId")
            try:
                self.wait_for(lambda m: m.get("member") == "GetId", 0.3, since=since)
                return
            except RigError:
                continue
        raise RigError("busctl monitor did not come up")

    def wait_for(self, predicate, timeout, what="a matching message", since=0):
        """The first message from position `since` on for which predicate is true."""
        deadline = time.monotonic() + timeout
        index = since
        with self._cond:
            while True:
                while index < len(self.messages):
                    if predicate(self.messages[index]):
                        return self.messages[index]
                    index += 1
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise RigError("timed out after %.1f s waiting for %s" % (timeout, what))
                self._cond.wait(remaining)

    def service_signals(self, since=0):
        """(member, payload data) of every signal the service has sent so far."""
        with self._cond:
            messages = self.messages[since:]
        return [(m["member"], m["payload"]["data"]) for m in messages
                if m.get("type") == "signal" and m.get("path") == OBJECT_PATH]

    def close(self):
        kill_process(self.proc, signal.SIGTERM)


def is_orientation_signal(member, name=None):
    def predicate(m):
        return (m.get("type") == "signal" and m.get("path") == OBJECT_PATH
                and m.get("interface") == INTERFACE and m.get("member") == member
                and (name is None or m["payload"]["data"][0] == name))
    return predicate


def is_properties_changed(prop, value=None):
    def predicate(m):
        if not (m.get("type") == "signal" and m.get("path") == OBJECT_PATH
                and m.get("member") == "PropertiesChanged"):
            return False
        iface, changed, _invalidated = m["payload"]["data"]
        if iface != INTERFACE or prop not in changed:
            return False
        return value is None or changed[prop]["data"] == value
    return predicate
