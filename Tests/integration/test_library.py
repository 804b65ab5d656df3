"""The Swift client library MotionOrientation against the running daemon.

library-probe (Tests/library-probe) drives the library: it prints one line per
notification, `NAME {"key": value, ...}`, and answers commands on stdin (start, stop,
get, low on|off, forcibly on|off). Binary: MO_PROBE, default .build/release/library-probe.
"""

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

import rig as rigmod
from rig import REPO_ROOT, LineReader, RigError, wait_until

pytestmark = pytest.mark.daemon

CHANGE = 5.0
DEVICE = "MotionOrientationChangedNotification"
INTERFACE = "MotionOrientationInterfaceOrientationChangedNotification"
DEVICE_KEY = "kMotionOrientationDeviceOrientationKey"
INTERFACE_KEY = "kMotionOrientationInterfaceOrientationKey"
NOBODY = (65534, 65534)
LINE = re.compile(r'^(%s|%s) \{"%s": (\d+), "%s": (\d+)\}( main)?$'
                  % (DEVICE, INTERFACE, DEVICE_KEY, INTERFACE_KEY))


def probe_binary():
    return os.environ.get("MO_PROBE") or str(REPO_ROOT / ".build/release/library-probe")


class Probe:
    """library-probe running on the rig's bus; notifications and answers read as lines."""

    def __init__(self, rig, *args, user=None, env=None):
        binary = probe_binary()
        if not os.access(binary, os.X_OK):
            raise RigError("library-probe binary %s is missing (build it, or set MO_PROBE)"
                           % binary)
        kwargs = {}
        if user is not None:
            binary = str(rigmod.copy_for_other_users(binary))

            def demote():
                rigmod._child_setup()
                os.setgroups([])
                os.setgid(user[1])
                os.setuid(user[0])
            kwargs["preexec_fn"] = demote
        self.proc = rigmod._spawn_raw([binary, *args], env or rig.bus.env(), kwargs)
        self.reader = LineReader(self.proc)
        assert self.reader.next_line(CHANGE) == "ready"

    def send(self, command):
        self.proc.stdin.write((command + "\n").encode())
        self.proc.stdin.flush()

    def ask(self, command, prefix):
        """Send a command and return its answer (the next line starting with prefix);
        notifications that come first are kept for next_notification()."""
        self.send(command)
        line, skipped = self.reader.expect(lambda l: l.startswith(prefix), CHANGE, prefix)
        self._pending = getattr(self, "_pending", []) + skipped
        return line

    def next_notification(self, timeout=CHANGE):
        """(name, device raw value, interface raw value, posted on the main thread)."""
        pending = getattr(self, "_pending", [])
        line = pending.pop(0) if pending else self.reader.next_line(timeout)
        assert line is not None, "probe ended"
        match = LINE.match(line)
        assert match, "not a notification line: %r" % line
        return match.group(1), int(match.group(2)), int(match.group(3)), bool(match.group(4))

    def expect(self, *notifications, timeout=CHANGE):
        """The next notifications are exactly these (name, device, interface)."""
        for expected in notifications:
            got = self.next_notification(timeout)
            assert got[:3] == expected, "expected %r, got %r" % (expected, got)

    def assert_quiet(self, seconds=0.8):
        time.sleep(seconds)
        assert getattr(self, "_pending", []) == [] and self.reader.drain() == []

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(3)
            except (OSError, subprocess.TimeoutExpired):
                pass
        rigmod.kill_process(self.proc, signal.SIGKILL)


@pytest.fixture
def probes():
    made = []

    def make(rig, *args, **kwargs):
        probe = Probe(rig, *args, **kwargs)
        made.append(probe)
        return probe

    yield make
    for probe in made:
        probe.close()


def test_notifications_carry_raw_values(rig, probes):
    probe = probes(rig)
    assert probe.ask("get", "state") == "state 0 0 0"
    assert probe.ask("start", "ok") == "ok start"
    # The current orientation first, then each change; every userInfo has both values.
    probe.expect((DEVICE, 1, 1), (INTERFACE, 1, 1))
    assert rig.get_property("Active") is True
    rig.accel.set_pose("landscape-left")
    probe.expect((DEVICE, 3, 3), (INTERFACE, 3, 3))
    rig.accel.set_pose("face-up")
    probe.expect((DEVICE, 5, 3))  # face up leaves the interface orientation
    rig.accel.set_pose("portrait-upside-down")
    probe.expect((DEVICE, 2, 2), (INTERFACE, 2, 2))
    rig.accel.set_pose("landscape-right")
    probe.expect((DEVICE, 4, 4), (INTERFACE, 4, 4))
    rig.accel.set_pose("face-down")
    probe.expect((DEVICE, 6, 4))
    assert probe.ask("get", "state") == "state 6 4 1"
    probe.assert_quiet()


def test_start_is_repeatable_and_stop_releases_the_claim(rig, probes):
    probe = probes(rig)
    probe.ask("start", "ok")
    probe.expect((DEVICE, 1, 1), (INTERFACE, 1, 1))
    probe.ask("start", "ok")
    probe.ask("start", "ok")
    probe.assert_quiet()
    assert rig.get_property("Active") is True

    holder = rig.bus_client(start=True)  # keeps the daemon sampling after stop()
    probe.ask("stop", "ok")
    assert probe.ask("get", "state") == "state 1 1 0"
    rig.accel.set_pose("landscape-right")
    rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE)
    probe.assert_quiet()  # stopped: no notifications
    holder.stop()
    rig.wait_for_property("Active", False, CHANGE)  # the probe's claim is gone too

    # Started again, it reads the orientation afresh.
    probe.ask("start", "ok")
    probe.expect((DEVICE, 4, 4), (INTERFACE, 4, 4))
    assert rig.get_property("Active") is True


@pytest.mark.timeout(45)
def test_survives_a_daemon_restart(rig, probes):
    probe = probes(rig)
    probe.ask("start", "ok")
    probe.expect((DEVICE, 1, 1), (INTERFACE, 1, 1))
    rig.daemon.stop()
    rig.accel.set_pose("landscape-left")
    time.sleep(0.3)
    probe.assert_quiet(0.2)
    rig.daemon.start()
    # The library claims again and reads the new daemon's answer.
    probe.expect((DEVICE, 3, 3), (INTERFACE, 3, 3), timeout=10)
    rig.wait_for_property("Active", True, CHANGE)
    rig.accel.set_pose("portrait")
    probe.expect((DEVICE, 1, 1), (INTERFACE, 1, 1))
    # A second restart with nothing changed meanwhile: no news, the claim comes back.
    rig.daemon.stop()
    rig.daemon.start()
    rig.wait_for_property("Active", True, 10)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    probe.assert_quiet()
    rig.accel.set_pose("landscape-right")
    probe.expect((DEVICE, 4, 4), (INTERFACE, 4, 4))


@pytest.mark.timeout(45)
def test_daemon_appearing_after_start(make_rig, probes):
    rig = make_rig(start_daemon=False)
    probe = probes(rig)
    probe.ask("start", "ok")
    probe.assert_quiet(0.5)
    rig.accel.set_pose("landscape-left")
    rig.daemon.start()
    probe.expect((DEVICE, 3, 3), (INTERFACE, 3, 3), timeout=10)
    rig.wait_for_property("Active", True, CHANGE)


@pytest.mark.timeout(45)
def test_survives_the_system_bus_restarting(rig, probes):
    # The address without the bus's guid, as on a real system: a new bus on the same
    # socket is the same system bus.
    env = rig.bus.env()
    env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=%s" % rig.bus.socket
    probe = probes(rig, env=env)
    probe.ask("start", "ok")
    probe.expect((DEVICE, 1, 1), (INTERFACE, 1, 1))
    rig.bus.stop()
    wait_until(lambda: not rig.daemon.running(), CHANGE, what="the daemon to leave")
    assert rigmod.kill_process(rig.daemon.proc) == 1  # it lost the bus; reaped here
    rig.bus.start()
    rig.daemon.env["DBUS_SYSTEM_BUS_ADDRESS"] = rig.bus.address
    rig.accel.set_pose("landscape-left")
    rig.daemon.start()
    probe.expect((DEVICE, 3, 3), (INTERFACE, 3, 3), timeout=10)
    rig.wait_for_property("Active", True, CHANGE)


def test_low_energy_mode_both_spellings(rig, probes):
    probe = probes(rig)
    assert probe.ask("low on", "low") == "low ok"
    rig.wait_for_property("LowEnergyModeSetting", "on", CHANGE)
    assert rig.get_property("LowEnergyReasons") == ["forced"]
    assert probe.ask("forcibly off", "low") == "low ok"
    rig.wait_for_property("LowEnergyModeSetting", "auto", CHANGE)
    assert probe.ask("forcibly on", "low") == "low ok"
    rig.wait_for_property("LowEnergyModeSetting", "on", CHANGE)
    assert probe.ask("low off", "low") == "low ok"
    rig.wait_for_property("LowEnergyModeSetting", "auto", CHANGE)


def test_low_energy_mode_refused_to_others(rig, probes):
    for directory in (rig.tmp, rig.tmp / "bus"):  # let nobody reach the bus socket
        os.chmod(directory, 0o755)
    probe = probes(rig, user=NOBODY)
    assert probe.ask("low on", "low") == "low error org.freedesktop.DBus.Error.AccessDenied"
    assert rig.get_property("LowEnergyModeSetting") == "auto"
    # Being refused does not disturb the rest.
    probe.ask("start", "ok")
    probe.expect((DEVICE, 1, 1), (INTERFACE, 1, 1))


def test_posts_on_the_main_queue_by_default(rig, probes):
    probe = probes(rig, "--main-queue")
    probe.ask("start", "ok")
    for _ in range(2):
        name, _, _, on_main = probe.next_notification()
        assert on_main, name
    rig.accel.set_pose("landscape-right")
    assert probe.next_notification() == (DEVICE, 4, 4, True)
    assert probe.next_notification() == (INTERFACE, 4, 4, True)


def test_notifications_use_the_given_queue(rig, probes):
    probe = probes(rig)  # a private serial queue, not the main thread
    probe.ask("start", "ok")
    assert probe.next_notification() == (DEVICE, 1, 1, False)
    assert probe.next_notification() == (INTERFACE, 1, 1, False)


def test_library_example_is_documented():
    example = (REPO_ROOT / "docs/examples/swift/main.swift").read_text()
    for text in ("MotionOrientation.sharedInstance()", "MotionOrientationChangedNotification",
                 "kMotionOrientationDeviceOrientationKey", ".start()"):
        assert text in example, text
