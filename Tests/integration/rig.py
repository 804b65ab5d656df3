"""Integration rig for motion-orientationd: fake sysfs, private system bus, real binaries.

Used by the pytest suite (conftest.py) and by demo.py. Run with Debian's
/usr/bin/python3 (it has gi, UMockdev and dbusmock).

    with Rig() as rig:                      # bus + testbed + accelerometer + daemon
        rig.accel.set_gravity(*POSES["landscape-left"])
        with rig.bus_client(start=True):    # a claim: sampling runs
            rig.wait_for_property("DeviceOrientation", "landscape-left")

Pieces, usable alone:
  SystemBus         a private dbus-daemon with a system-bus config (busctl helpers)
  FakeAccelerometer an IIO accelerometer in a umockdev testbed, values written in place
  FakeInputAccelerometer an evdev accelerometer (/dev/input/eventN) whose EVIOCGABS
                    ioctls this process answers
  Daemon            motion-orientationd under libumockdev-preload, stderr in a file
  BusClient         busclient.py in its own process: one bus connection (a claim holder)
  BusMonitor        `busctl monitor --json=short`, messages parsed into dicts
  RunningClient     the motion-orientation client running, stdout read through a pipe
  LineReader        any child's stdout read line by line while it runs
  DBusMock          a python-dbusmock template (logind, UPower, ...) on the private bus
  send_uevent       a udev event into the testbed for preloaded processes (Rig.uevent)

The daemon sees the first fake device at /sys/devices/iio:device0 (and through
/sys/bus/iio/devices/iio:device0), so it names e.g.
/sys/devices/iio:device0/in_accel_x_raw in its logs; FakeAccelerometer.daemon_path()
gives that path, file_path() the real file in the testbed.

Every child process is registered and killed at exit (atexit, and the rig's
close()); children also get PR_SET_PDEATHSIG=SIGKILL, so nothing outlives the
Python process even if it is killed.
"""

import atexit
import ctypes
import gc
import json
import math
import os
import queue
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import GLib, UMockdev  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
BUSCLIENT = HERE / "busclient.py"
PYTHON = "/usr/bin/python3"

BUS_NAME = "io.github.MotionOrientation1"
OBJECT_PATH = "/io/github/MotionOrientation1"
INTERFACE = "io.github.MotionOrientation1"

STANDARD_GRAVITY = 9.80665
G = STANDARD_GRAVITY
# in_accel_scale such that a raw value of 1000 is 1 g.
DEFAULT_SCALE = 0.00980665

# Reference gravity vectors (m/s^2) in the DESIGN.md frame: x right, y top, z out of the screen.
POSES = {
    "portrait": (0.0, -G, 0.0),
    "portrait-upside-down": (0.0, G, 0.0),
    "landscape-left": (-G, 0.0, 0.0),
    "landscape-right": (G, 0.0, 0.0),
    "face-up": (0.0, 0.0, -G),
    "face-down": (0.0, 0.0, G),
}
DEVICE_VALUES = {
    "unknown": 0, "portrait": 1, "portrait-upside-down": 2, "landscape-left": 3,
    "landscape-right": 4, "face-up": 5, "face-down": 6,
}
INTERFACE_VALUES = {
    "unknown": 0, "portrait": 1, "portrait-upside-down": 2, "landscape-right": 3,
    "landscape-left": 4,
}
# Device orientation -> interface orientation; None: the interface keeps its last value.
INTERFACE_FOR_DEVICE = {
    "unknown": None, "portrait": "portrait", "portrait-upside-down": "portrait-upside-down",
    "landscape-left": "landscape-right", "landscape-right": "landscape-left",
    "face-up": None, "face-down": None,
}

CHANNELS = ("x", "y", "z")
# Width of every value written into a channel file: the file never shrinks, so a
# reader racing a write never sees a half-empty file. Wide enough for garbage tests.
VALUE_WIDTH = 31


class RigError(AssertionError):
    """The rig could not bring something up, or a bounded wait ran out."""


# ---------------------------------------------------------------------------
# child processes


_libc = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1
_children = []
_children_lock = threading.Lock()


def _child_setup():
    # Runs in the child between fork and exec: die with the parent.
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


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


# ---------------------------------------------------------------------------
# the private system bus


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
{policy}
{includes}
  <limit name="max_connections_per_user">{max_connections}</limit>
  <limit name="max_completed_connections">{max_connections}</limit>
  <limit name="max_incomplete_connections">{max_connections}</limit>
  <limit name="max_match_rules_per_connection">4096</limit>
</busconfig>
"""

# Everything allowed: the daemon runs as root in the tests and owns its name.
PERMISSIVE_POLICY = """  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_type="method_return"/>
    <allow send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="signal"/>
    <allow receive_type="error"/>
  </policy>"""

# The default context of Debian's /usr/share/dbus-1/system.conf: services must
# punch their own holes (used to test the shipped policy file).
SYSTEM_DEFAULT_POLICY = """  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
    <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus" send_member="UpdateActivationEnvironment"/>
  </policy>
  <policy user="root">
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Monitoring"/>
  </policy>"""


class SystemBus:
    """A private dbus-daemon configured as a system bus, listening in `directory`."""

    def __init__(self, directory, policy=PERMISSIVE_POLICY, includes=(), max_connections=4096,
                 limits=None):
        """limits: {limit name: value} replacing or adding <limit> lines of the config,
        e.g. {"max_match_rules_per_connection": 512} for the stock system-bus value."""
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.socket = self.directory / "system_bus_socket"
        self.config = self.directory / "bus.conf"
        self.log = self.directory / "bus.log"
        includes_xml = "\n".join("  <include>%s</include>" % Path(p).resolve() for p in includes)
        config = BUS_CONFIG.format(
            socket=self.socket, policy=policy, includes=includes_xml,
            max_connections=max_connections)
        for name, value in (limits or {}).items():
            line = '  <limit name="%s">%s</limit>\n' % (name, value)
            config, found = re.subn(r'  <limit name="%s">[^<]*</limit>\n' % re.escape(name),
                                    lambda _m, line=line: line, config)
            if not found:
                config = config.replace("</busconfig>", line + "</busconfig>")
        self.config.write_text(config)
        self.proc = None
        self.address = None

    def start(self, timeout=5.0):
        with open(self.log, "wb") as log:
            self.proc = spawn(["dbus-daemon", "--config-file=%s" % self.config,
                               "--print-address=1", "--nofork"],
                              stdout=subprocess.PIPE, stderr=log)
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], timeout)
        line = os.read(fd, 4096).decode().strip() if ready else ""
        if not line.startswith("unix:"):
            kill_process(self.proc, signal.SIGKILL)
            raise RigError("dbus-daemon did not start (%s):\n%s"
                           % (line or "no address", self.log.read_text()))
        self.address = line.splitlines()[0]
        return self

    def env(self, base=None):
        env = dict(os.environ if base is None else base)
        env["DBUS_SYSTEM_BUS_ADDRESS"] = self.address
        # Never let a child wander off to the real buses.
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        return env

    def busctl(self, *args, json_output=True, timeout=5.0, check=True):
        """Run `busctl --system ...` against this bus. Returns the CompletedProcess.

        Method calls time out after `timeout` - 1 s (busctl --timeout) unless args
        give their own --timeout; the process is killed after `timeout`.
        """
        argv = ["busctl", "--system", "--no-pager"]
        if json_output:
            argv.append("--json=short")
        if not any(str(a).startswith("--timeout") for a in args):
            argv.append("--timeout=%g" % max(1.0, timeout - 1.0))
        argv += [str(a) for a in args]
        result = subprocess.run(argv, env=self.env(), capture_output=True, text=True,
                                timeout=timeout, stdin=subprocess.DEVNULL)
        if check and result.returncode != 0:
            raise BusctlError(argv, result)
        return result

    def name_has_owner(self, name):
        result = self.busctl("call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                             "org.freedesktop.DBus", "NameHasOwner", "s", name)
        return json.loads(result.stdout)["data"][0]

    def stop(self):
        if self.proc is not None:
            kill_process(self.proc, signal.SIGTERM)
            self.proc = None


class BusctlError(AssertionError):
    def __init__(self, argv, result):
        self.result = result
        self.message = result.stderr.strip()
        super().__init__("busctl %s failed (exit %d): %s"
                         % (" ".join(a for a in argv[3:] if not a.startswith("--")),
                            result.returncode, self.message))


# ---------------------------------------------------------------------------
# the fake accelerometer


def parse_mount_matrix(text):
    rows = [r for r in text.split(";")]
    m = [[float(v) for v in row.split(",")] for row in rows]
    if len(m) != 3 or any(len(r) != 3 for r in m):
        raise ValueError("bad mount matrix %r" % text)
    return m


def _invert3(m):
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if abs(det) < 1e-12:
        raise ValueError("mount matrix is singular")
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


class FakeAccelerometer:
    """An IIO accelerometer in a umockdev testbed.

    The daemon keeps the channel files open and rereads them with pread at
    offset 0, so values are written in place (same inode, fixed width), never
    through Testbed.set_attribute (which replaces the file with a new inode).
    """

    def __init__(self, testbed, name="iio:device0", scale=DEFAULT_SCALE, channel_scales=None,
                 mount_matrix=None, gravity=POSES["portrait"], extra_attributes=None,
                 extra_properties=None, parent=None):
        self.testbed = testbed
        self.root = Path(testbed.get_root_dir())
        self.scale = scale
        self.channel_scales = dict(channel_scales or {})
        self.mount_matrix = mount_matrix
        self._unmount = _invert3(parse_mount_matrix(mount_matrix)) if mount_matrix else None
        attributes = {"name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": "0",
                      "in_accel_z_raw": "0", "sampling_frequency": "10"}
        if scale is not None:
            attributes["in_accel_scale"] = "%.9f" % scale
        for channel, value in self.channel_scales.items():
            attributes["in_accel_%s_scale" % channel] = "%.9f" % value
        attributes.update(extra_attributes or {})
        properties = {}
        if mount_matrix is not None:
            properties["ACCEL_MOUNT_MATRIX"] = mount_matrix
        properties.update(extra_properties or {})
        flat_attributes = [s for kv in attributes.items() for s in kv]
        flat_properties = [s for kv in properties.items() for s in kv]
        # The sysfs path as the daemon sees it under the preload, e.g. /sys/devices/iio:device0.
        self.syspath = testbed.add_device("iio", name, parent, flat_attributes, flat_properties)
        if not self.syspath:
            raise RigError("umockdev refused to add %s" % name)
        self.name = name
        self.directory = self.root / self.syspath.lstrip("/")
        self._fds = {}
        for channel in CHANNELS:
            self._fds[channel] = os.open(self.file_path(channel), os.O_WRONLY | os.O_CLOEXEC)
        self.set_gravity(*gravity)

    def file_path(self, channel):
        """Real path of a channel file in the testbed (what the rig writes)."""
        return self.directory / ("in_accel_%s_raw" % channel)

    def daemon_path(self, channel):
        """The same file as the daemon sees it (and should name in its logs)."""
        return "%s/in_accel_%s_raw" % (self.syspath, channel)

    def channel_scale(self, channel):
        return self.channel_scales.get(channel, self.scale if self.scale is not None else 1.0)

    def set_raw(self, channel, text):
        """Write text into a channel file in place, padded to a fixed width.

        An empty string truncates the file to zero bytes (a read returns nothing).
        """
        fd = self._fds[channel]
        if text == "":
            os.ftruncate(fd, 0)
            return
        data = ("%-*s\n" % (VALUE_WIDTH, text)).encode()
        if len(data) > VALUE_WIDTH + 1:
            raise ValueError("value %r wider than %d" % (text, VALUE_WIDTH))
        os.pwrite(fd, data, 0)

    def set_raw_values(self, x, y, z):
        for channel, value in zip(CHANNELS, (x, y, z)):
            self.set_raw(channel, str(int(value)))

    def raw_for(self, x, y, z):
        """Raw integers for a gravity vector in the DESIGN.md frame (mount matrix undone)."""
        vector = (x, y, z)
        if self._unmount is not None:
            vector = tuple(sum(self._unmount[r][c] * vector[c] for c in range(3))
                           for r in range(3))
        return tuple(int(round(v / self.channel_scale(ch))) for ch, v in zip(CHANNELS, vector))

    def set_gravity(self, x, y, z):
        """Set the reading, in m/s^2 in the DESIGN.md frame (after the mount matrix)."""
        self.set_raw_values(*self.raw_for(x, y, z))

    def set_pose(self, pose):
        self.set_gravity(*POSES[pose])

    def read_back(self, channel):
        return self.file_path(channel).read_text()

    def close(self):
        for fd in self._fds.values():
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = {}
        self.testbed = None  # let the testbed be finalized (it removes its directory)


class FakeInputAccelerometer:
    """An input-subsystem accelerometer (ID_INPUT_ACCELEROMETER=1) in a umockdev testbed.

    The testbed has the event device with its udev properties, a file at
    /dev/input/eventN, and an ioctl handler (umockdev runs it in its own thread) that
    answers EVIOCGABS(ABS_X/Y/Z) with the current values; other ioctls fail with ENOTTY.
    `fail_errno`, when set, makes EVIOCGABS fail with that errno. `poll` adds the poll,
    min and max attributes of a polled driver (under device/, as the event device sees
    its input device)."""

    ABSINFO = struct.Struct("6i")  # value, minimum, maximum, fuzz, flat, resolution
    EVIOCGABS_X = (2 << 30) | (ABSINFO.size << 16) | (ord("E") << 8) | 0x40

    def __init__(self, testbed, number=5, name="Fake Accelerometer", resolution=256,
                 mount_matrix=None, gravity=POSES["portrait"], extra_properties=None,
                 poll=None):
        self.testbed = testbed
        self.root = Path(testbed.get_root_dir())
        self.resolution = resolution
        self.per_g = resolution if resolution > 0 else 256
        self._unmount = _invert3(parse_mount_matrix(mount_matrix)) if mount_matrix else None
        self.devnode = "/dev/input/event%d" % number
        self.values = [0, 0, 0]
        self.requests = []
        self.fail_errno = None
        attributes = {"device/name": name}
        if poll is not None:
            attributes.update({"device/poll": str(poll[0]), "device/min": str(poll[1]),
                               "device/max": str(poll[2])})
        properties = {"ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1", "DEVNAME": self.devnode}
        if mount_matrix is not None:
            properties["ACCEL_MOUNT_MATRIX"] = mount_matrix
        properties.update(extra_properties or {})
        self.syspath = testbed.add_device(
            "input", "event%d" % number, None,
            [str(s) for kv in attributes.items() for s in kv],
            [str(s) for kv in properties.items() for s in kv])
        if not self.syspath:
            raise RigError("umockdev refused to add event%d" % number)
        self.directory = self.root / self.syspath.lstrip("/")
        node = self.root / self.devnode.lstrip("/")
        node.parent.mkdir(parents=True, exist_ok=True)
        node.touch()
        self.handler = self._make_handler()
        testbed.attach_ioctl(self.devnode, self.handler)
        self.set_gravity(*gravity)

    def _make_handler(self):
        fake = self

        class Handler(UMockdev.IoctlBase):
            def do_handle_ioctl(self, client):
                request = client.get_request()
                fake.requests.append(request)
                axis = request - fake.EVIOCGABS_X
                if 0 <= axis <= 2 and fake.fail_errno is None:
                    data = client.get_arg().resolve(0, fake.ABSINFO.size)
                    data.update(0, fake.ABSINFO.pack(fake.values[axis], -8 * fake.per_g,
                                                     8 * fake.per_g, 0, 0, fake.resolution))
                    client.complete(0, 0)
                else:
                    client.complete(-1, fake.fail_errno if 0 <= axis <= 2 else 25)  # ENOTTY
                return True

        return Handler()

    def set_gravity(self, x, y, z):
        """Set the axes, in m/s^2 in the DESIGN.md frame (after the mount matrix)."""
        vector = (x, y, z)
        if self._unmount is not None:
            vector = tuple(sum(self._unmount[r][c] * vector[c] for c in range(3))
                           for r in range(3))
        self.values = [int(round(v / STANDARD_GRAVITY * self.per_g)) for v in vector]

    def set_pose(self, pose):
        self.set_gravity(*POSES[pose])

    def attribute(self, name):
        return (self.directory / name).read_text().strip()

    def close(self):
        if self.testbed is not None:
            try:
                self.testbed.detach_ioctl(self.devnode)
            except GLib.Error:
                pass
        self.testbed = None


# ---------------------------------------------------------------------------
# the daemon


def default_daemon():
    return os.environ.get("MO_DAEMON") or str(REPO_ROOT / ".build/release/motion-orientationd")


def default_client():
    return os.environ.get("MO_CLIENT") or str(REPO_ROOT / ".build/release/motion-orientation")


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


# ---------------------------------------------------------------------------
# clients


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


def _spawn_raw(argv, env, kwargs):
    kwargs = dict(kwargs)
    preexec = kwargs.pop("preexec_fn", _child_setup)
    proc = subprocess.Popen([str(a) for a in argv], env=env, preexec_fn=preexec,
                            start_new_session=True, close_fds=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=None, **kwargs)
    with _children_lock:
        _children.append(proc)
    return proc


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


# ---------------------------------------------------------------------------
# udev events into the testbed


def _murmur_hash2(text):
    """systemd's (and umockdev's) string_hash32: MurmurHash2 with the length as seed."""
    data = text.encode()
    m, mask = 0x5BD1E995, 0xFFFFFFFF
    h = len(data)
    whole = len(data) - len(data) % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * m) & mask
        k ^= k >> 24
        k = (k * m) & mask
        h = ((h * m) & mask) ^ k
    rest = data[whole:]
    if rest:
        for i in reversed(range(len(rest))):
            h ^= rest[i] << (8 * i)
        h = (h * m) & mask
    h ^= h >> 13
    h = (h * m) & mask
    h ^= h >> 15
    return h


_uevent_seqnum = [0]


def read_uevent(root, syspath):
    """The properties in a testbed device's uevent file ({} when it is gone)."""
    uevent = {}
    try:
        for line in (Path(root) / syspath.lstrip("/") / "uevent").read_text().splitlines():
            key, _, value = line.partition("=")
            uevent[key] = value
    except OSError:
        pass
    return uevent


def send_uevent(root, syspath, action="change", subsystem=None, uevent=None):
    """What umockdev's uevent_sender does, done from outside the preload: a libudev
    monitor message to every monitor socket ($UMOCKDEV_DIR/event<N>) of preloaded
    processes. syspath is the device's path under the preload (/sys/devices/...).
    For a device already removed from the testbed, give its subsystem, and its
    properties as read_uevent read them before (udev's remove events carry them)."""
    root = Path(root)
    directory = root / syspath.lstrip("/")
    if subsystem is None:
        subsystem = os.path.basename(os.readlink(directory / "subsystem"))
    if uevent is None:
        uevent = read_uevent(root, syspath)
    _uevent_seqnum[0] += 1
    properties = [("ACTION", action), ("DEVPATH", syspath[len("/sys"):]),
                  ("SUBSYSTEM", subsystem), ("SEQNUM", str(_uevent_seqnum[0]))]
    if uevent.get("DEVNAME"):
        properties.append(("DEVNAME", "/dev/" + uevent["DEVNAME"]))
    devtype = uevent.get("DEVTYPE")
    if devtype:
        properties.append(("DEVTYPE", devtype))
    # The device's other properties, as udev sends them (ID_INPUT_ACCELEROMETER, ...).
    named = {key for key, _ in properties}
    properties += [(key, value) for key, value in uevent.items() if key and key not in named]
    body = b"".join(("%s=%s" % kv).encode() + b"\0" for kv in properties)
    header_size = 40
    header = b"libudev\0" + (0xFEEDCAFE).to_bytes(4, "big") + b"".join(
        v.to_bytes(4, "little") for v in (header_size, header_size, len(body))) + b"".join(
        v.to_bytes(4, "big") for v in (_murmur_hash2(subsystem),
                                       _murmur_hash2(devtype) if devtype else 0, 0, 0))
    assert len(header) == header_size
    sent = 0
    for path in sorted(root.glob("event[0-9]*")):
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect(str(path))
                sock.sendmsg([header, body])
                sent += 1
            except ConnectionRefusedError:
                pass  # that monitor is gone
    return sent


# ---------------------------------------------------------------------------
# python-dbusmock services (logind, UPower, power-profiles-daemon)


MOCK_IFACE = "org.freedesktop.DBus.Mock"


def busctl_values(values):
    """(signature, value) pairs as busctl arguments; the signatures must be basic types."""
    out = []
    for signature, value in values:
        if isinstance(value, bool):
            value = "true" if value else "false"
        out += [signature, str(value)]
    return out


class DBusMock:
    """`python3 -m dbusmock --template ...` on the private bus, driven through busctl.

    The template's name is owned only once its object and properties exist (dbusmock
    loads the template before its main loop answers anyone).
    """

    def __init__(self, bus, template, parameters=None, log_path=None, timeout=5.0):
        from dbusmock.mockobject import load_module  # only the suites that use mocks need it
        module = load_module(str(template))
        self.bus = bus
        self.name = module.BUS_NAME
        self.path = module.MAIN_OBJ
        self.interface = module.MAIN_IFACE
        argv = [PYTHON, "-m", "dbusmock", "--system", "--template", str(template)]
        if parameters:
            argv += ["--parameters", json.dumps(parameters)]
        self.log_path = Path(log_path) if log_path else None
        with open(self.log_path or os.devnull, "wb") as log:
            self.proc = spawn(argv, env=bus.env(), stdout=log, stderr=log)
        try:
            wait_until(lambda: self.proc.poll() is not None or bus.name_has_owner(self.name),
                       timeout, interval=0.05, what="dbusmock to own %s" % self.name)
        except RigError:
            self.close()
            raise
        if self.proc.poll() is not None:
            raise RigError("dbusmock %s exited with %s:\n%s"
                           % (template, self.proc.returncode, self.log()))

    def log(self):
        try:
            return self.log_path.read_text(errors="replace") if self.log_path else ""
        except FileNotFoundError:
            return ""

    def mock_call(self, method, signature, *args):
        return self.bus.busctl("call", self.name, self.path, MOCK_IFACE, method, signature,
                               *[str(a) for a in args])

    def add_property(self, name, signature, value, interface=None):
        """A new property (no PropertiesChanged: add it before anyone looks)."""
        self.mock_call("AddProperty", "ssv", interface or self.interface, name,
                       *busctl_values([(signature, value)]))

    def update_properties(self, properties, interface=None):
        """properties: {name: (signature, value)}; emits one PropertiesChanged."""
        args = []
        for name, typed in properties.items():
            args += [name] + busctl_values([typed])
        self.mock_call("UpdateProperties", "sa{sv}", interface or self.interface,
                       len(properties), *args)

    def emit_signal(self, member, values, interface=None):
        """values: [(signature, value)] of the signal's arguments."""
        signature = "".join(s for s, _ in values)
        self.mock_call("EmitSignal", "sssav", interface or self.interface, member, signature,
                       len(values), *busctl_values(values))

    def get_property(self, name, interface=None):
        result = self.bus.busctl("get-property", self.name, self.path,
                                 interface or self.interface, name)
        return json.loads(result.stdout)["data"]

    def close(self):
        """The service leaves the bus."""
        if self.proc is not None:
            kill_process(self.proc, signal.SIGTERM)
            self.proc = None


# ---------------------------------------------------------------------------
# the whole rig


def _short_tempdir(prefix):
    path = tempfile.mkdtemp(prefix=prefix)
    if len(path) > 60:  # unix socket paths are limited to 108 bytes
        shutil.rmtree(path)
        path = tempfile.mkdtemp(prefix=prefix, dir="/tmp")
    return Path(path)


class Rig:
    """Private bus + umockdev testbed (+ accelerometer) + the daemon; close() ends all."""

    def __init__(self, accelerometer=True, gravity=POSES["portrait"], scale=DEFAULT_SCALE,
                 channel_scales=None, mount_matrix=None, config_text="", daemon=None,
                 client=None, verbose=True, start_daemon=True, bus_policy=PERMISSIVE_POLICY,
                 bus_includes=(), daemon_args=(), bus_limits=None):
        self.tmp = _short_tempdir("mo-rig-")
        self.daemon_binary = daemon or default_daemon()
        self.client_binary = client or default_client()
        self.bus = None
        self.testbed = None
        self.accel = None
        self.daemon = None
        self.final_log = None  # the daemon's output, kept by close()
        self._closeables = []
        try:
            self.bus = SystemBus(self.tmp / "bus", policy=bus_policy,
                                 includes=bus_includes, limits=bus_limits).start()
            self.testbed = UMockdev.Testbed.new()
            self.umockdev_dir = Path(self.testbed.get_root_dir())
            if accelerometer:
                self.accel = self.add_accelerometer(
                    gravity=gravity, scale=scale, channel_scales=channel_scales,
                    mount_matrix=mount_matrix)
            self.config_path = self.tmp / "motion-orientationd.conf"
            self.config_path.write_text(config_text)
            self.daemon = Daemon(self.daemon_binary, self.bus, self.umockdev_dir,
                                 self.tmp / "daemon.log", self.config_path, verbose=verbose,
                                 extra_args=daemon_args)
            if start_daemon:
                self.daemon.start()
        except BaseException:
            self.close()
            raise

    # -- devices

    def add_accelerometer(self, name=None, **kwargs):
        if name is None:
            name = "iio:device%d" % len([c for c in self._closeables
                                         if isinstance(c, FakeAccelerometer)])
        accel = FakeAccelerometer(self.testbed, name=name, **kwargs)
        self._closeables.append(accel)
        return accel

    def add_input_accelerometer(self, **kwargs):
        accel = FakeInputAccelerometer(self.testbed, **kwargs)
        self._closeables.append(accel)
        return accel

    # -- bus helpers (all through busctl)

    def busctl(self, *args, **kwargs):
        return self.bus.busctl(*args, **kwargs)

    def get_property(self, name):
        """A property of the service as a Python value (s -> str, b -> bool, u -> int)."""
        result = self.busctl("get-property", BUS_NAME, OBJECT_PATH, INTERFACE, name)
        return json.loads(result.stdout)["data"]

    def get_properties(self):
        result = self.busctl("call", BUS_NAME, OBJECT_PATH, "org.freedesktop.DBus.Properties",
                             "GetAll", "s", INTERFACE)
        props = json.loads(result.stdout)["data"][0]
        return {k: v["data"] for k, v in props.items()}

    def wait_for_property(self, name, value, timeout=5.0):
        seen = []

        def check():
            current = self.get_property(name)
            if not seen or seen[-1] != current:
                seen.append(current)
            return current == value
        try:
            wait_until(check, timeout, what="%s == %r" % (name, value))
        except RigError as err:
            raise RigError("%s (values seen: %r)\n-- daemon log tail --\n%s"
                           % (err, seen, "\n".join(self.daemon.log_lines()[-30:]))) from None

    def assert_property_stays(self, name, value, duration):
        """Poll for `duration` seconds; the property must keep `value` throughout."""
        deadline = time.monotonic() + duration
        while time.monotonic() < deadline:
            current = self.get_property(name)
            assert current == value, "%s changed to %r (expected to stay %r)" % (
                name, current, value)
            time.sleep(0.05)

    def call(self, method, signature=None, *args, timeout=10.0):
        """Call a method of the service with busctl; returns the reply data (a list)."""
        argv = ["--timeout=%g" % timeout, "call", BUS_NAME, OBJECT_PATH, INTERFACE, method]
        if signature:
            argv += [signature] + [str(a) for a in args]
        result = self.busctl(*argv, timeout=timeout + 5)
        out = result.stdout.strip()
        return json.loads(out)["data"] if out else []

    def read_orientation(self, timeout=10.0):
        return tuple(self.call("ReadOrientation", timeout=timeout))

    def bus_client(self, start=False, signals=False, user=None):
        client = BusClient(self.bus, start=start, signals=signals, user=user)
        self._closeables.append(client)
        return client

    def monitor(self):
        monitor = BusMonitor(self.bus)
        self._closeables.append(monitor)
        return monitor

    # -- the command-line client

    def client_env(self):
        return self.bus.env()

    def run_client(self, *args, timeout=10.0, env=None):
        if not os.access(self.client_binary, os.X_OK):
            raise RigError("client binary %s is missing (build it, or set MO_CLIENT)"
                           % self.client_binary)
        return subprocess.run([self.client_binary, *args], env=env or self.client_env(),
                              capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)

    def start_client(self, *args, echo=None):
        """The client running (e.g. `monitor`), stdout read line by line through a pipe.

        Returns a RunningClient (.proc, .reader: LineReader, .stderr_path).
        """
        if not os.access(self.client_binary, os.X_OK):
            raise RigError("client binary %s is missing (build it, or set MO_CLIENT)"
                           % self.client_binary)
        stderr_path = self.tmp / ("client-%d.err" % len(self._closeables))
        with open(stderr_path, "wb") as stderr:
            proc = spawn([self.client_binary, *args], env=self.client_env(),
                         stdout=subprocess.PIPE, stderr=stderr)
        client = RunningClient(proc, LineReader(proc, echo=echo), stderr_path)
        self._closeables.append(client)
        return client

    def remove_device(self, device, subsystem="iio"):
        """Remove a device from the testbed and tell the daemon (udev `remove`)."""
        syspath = device if isinstance(device, str) else device.syspath
        if not isinstance(device, str):
            device.close()
        uevent = read_uevent(self.umockdev_dir, syspath)
        self.testbed.remove_device(syspath)
        send_uevent(self.umockdev_dir, syspath, "remove", subsystem=subsystem, uevent=uevent)

    def uevent(self, device, action="change"):
        """Send a udev event (add/change/remove) to the daemon, for a FakeAccelerometer
        or any device given by its syspath (as add_device returned it).

        Not Testbed.uevent(): that looks the device up with libudev in this process,
        which is not under the preload, so it finds nothing ("No such device").
        """
        send_uevent(self.umockdev_dir, device if isinstance(device, str) else device.syspath,
                    action)

    # -- other fake devices (energy): attributes are files the daemon re-opens on each
    #    read, so Testbed.set_attribute (a new file) is fine for them

    def add_device(self, subsystem, name, attributes, properties=None):
        """Add a device to the testbed; returns its syspath as the daemon sees it."""
        flat_attributes = [str(s) for kv in attributes.items() for s in kv]
        flat_properties = [str(s) for kv in (properties or {}).items() for s in kv]
        syspath = self.testbed.add_device(subsystem, name, None, flat_attributes, flat_properties)
        if not syspath:
            raise RigError("umockdev refused to add %s/%s" % (subsystem, name))
        return syspath

    def add_thermal_zone(self, zone_type, celsius, trips=(), name=None):
        """A thermal zone; trips are (celsius, type) pairs, e.g. (90, "passive")."""
        if name is None:
            name = "thermal_zone%d" % len(list(
                (self.umockdev_dir / "sys/class/thermal").glob("thermal_zone*")))
        attributes = {"type": zone_type, "temp": "%d" % round(celsius * 1000)}
        for index, (trip_celsius, trip_type) in enumerate(trips):
            attributes["trip_point_%d_temp" % index] = "%d" % round(trip_celsius * 1000)
            attributes["trip_point_%d_type" % index] = trip_type
        return self.add_device("thermal", name, attributes)

    def add_battery(self, name="BAT0", status="Discharging", capacity=50, extra=None):
        attributes = {"type": "Battery", "present": "1", "status": status,
                      "capacity": str(capacity)}
        attributes.update(extra or {})
        return self.add_device("power_supply", name, attributes)

    def set_attribute(self, syspath, name, value, uevent=None):
        """Rewrite a sysfs attribute (a new file); optionally send a udev event after."""
        self.testbed.set_attribute(syspath, name, str(value))
        if uevent:
            self.uevent(syspath, uevent)

    # -- configuration

    def reload(self, config_text=None):
        """Optionally rewrite the --config file, then SIGHUP the daemon."""
        if config_text is not None:
            self.config_path.write_text(config_text)
        self.daemon.send_signal(signal.SIGHUP)

    # -- other services on the private bus

    def start_mock(self, template, parameters=None):
        """A python-dbusmock template (name or .py path) serving on the private bus."""
        mock = DBusMock(self.bus, template, parameters,
                        log_path=self.tmp / ("mock-%d.log" % len(self._closeables)))
        self._closeables.append(mock)
        return mock

    # -- teardown

    def close(self):
        """Stop everything; returns the daemon's (exit code, seconds) if it was running."""
        result = None
        for item in reversed(self._closeables):
            try:
                item.close()
            except Exception:  # noqa: BLE001 - teardown must go on
                pass
        self._closeables = []
        if self.daemon is not None and self.daemon.proc is not None:
            if self.daemon.running():
                result = self.daemon.stop()
            else:
                kill_process(self.daemon.proc)
        if self.daemon is not None and self.final_log is None:
            self.final_log = self.daemon.log()
        if self.bus is not None:
            self.bus.stop()
        if self.testbed is not None:
            # Finalizing the testbed removes its root directory; removing it
            # ourselves first would make umockdev abort the process (g_error).
            self.testbed = None
            self.accel = None
            gc.collect()
        shutil.rmtree(self.tmp, ignore_errors=True)
        return result

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
