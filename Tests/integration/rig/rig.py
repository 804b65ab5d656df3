"""The whole rig: private bus + umockdev testbed (+ accelerometer) + the daemon."""

import gc
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from gi.repository import UMockdev

from .binaries import default_client, default_daemon
from .bus import PERMISSIVE_POLICY, SystemBus
from .clients import BusClient, RunningClient
from .contract import BUS_NAME, INTERFACE, OBJECT_PATH, POSES
from .daemon import Daemon
from .devices import DEFAULT_SCALE, FakeAccelerometer, FakeInputAccelerometer
from .mocks import DBusMock
from .monitor import BusMonitor
from .processes import LineReader, RigError, kill_process, spawn, wait_for_property, wait_until
from .uevents import read_uevent, send_uevent


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
            # The daemon's runtime directory (systemd's RuntimeDirectory=), kept across
            # daemon.start() calls: the virtual switch's state is kept there.
            self.runtime_dir = self.tmp / "run"
            self.runtime_dir.mkdir()
            self.daemon = Daemon(self.daemon_binary, self.bus, self.umockdev_dir,
                                 self.tmp / "daemon.log", self.config_path, verbose=verbose,
                                 extra_args=daemon_args,
                                 extra_env={"RUNTIME_DIRECTORY": str(self.runtime_dir)})
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
        wait_for_property(self.get_property, name, value, timeout, self.daemon.log_lines)

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
    #    read, so Testbed.set_attribute (a new file) is fine for them (the daemon also opens
    #    a replaced channel file again, test_drivers.py; FakeAccelerometer writes in place,
    #    as real sysfs does)

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
