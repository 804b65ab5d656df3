"""The install path as a distribution runs it, under systemd as PID 1 (run.py boots the VM):
`make install` into the VM's overlay, then what a package's maintainer scripts do
(systemd-sysusers, udev and systemd reloaded, the bus told to reload its policy). From there on
nothing is started by hand: the shipped udev rule's SYSTEMD_WANTS starts the unit when an
accelerometer appears, a client's call activates it over D-Bus, and it runs in the sandbox the
unit ships, where its sampling-rate writes and the uinput tablet-mode switch must work.

The tests run in file order, one state carried through: the hub the first test makes is the one
the next ones turn."""

import fcntl
import json
import os
import pwd
import re
import subprocess
from pathlib import Path

import pytest

import vmrig
from rig import BUS_NAME, INTERFACE, OBJECT_PATH, POSES, LineReader, kill_process, spawn, wait_until
from rig.binaries import REPO_ROOT
from rig.uhid_hub import SensorHub
from test_tablet import HWDB, RULE, SWITCH_NAME, Machine, hwdb_text

UNIT = "motion-orientationd.service"
# The display and base hubs of the tablet-mode test, for the tests after it.
HINGE = {}
ORDINARY_USER = "mo-user"
# Under TCG a unit start, a hub's probe or a client's first call take seconds.
SLOW = 90.0
# systemd-analyze's scale runs from 0 (sandboxed) to 10 (exposed); "OK" is below 2. The
# shipped unit rates 1.3: a change that opens the sandbox up fails here.
EXPOSURE_LIMIT = 1.5
# What the journal of a daemon the sandbox blocks would say.
BLOCKED = ("Permission denied", "Read-only file system", "Operation not permitted",
           "cannot create the virtual tablet-mode switch")
# The virtual switch's state, in the unit's RuntimeDirectory=.
STATE_FILE = Path("/run/motion-orientationd/tablet-mode-switch")
EVIOCGSW_8 = (2 << 30) | (8 << 16) | (ord("E") << 8) | 0x1B  # _IOR('E', 0x1b, char[8])
SW_TABLET_MODE = 1


def pkg_dir(package, variable):
    return Path(vmrig.sh("pkg-config", "--variable=%s" % variable, package).stdout.strip())


def show(prop, unit=UNIT):
    return vmrig.sh("systemctl", "show", "-P", prop, unit).stdout.strip()


def journal(unit=UNIT):
    vmrig.sh("journalctl", "--sync")
    return vmrig.sh("journalctl", "--no-pager", "-o", "cat", "-u", unit).stdout


def bus_call(*args):
    """A call on the system bus as root that never activates anything."""
    return vmrig.sh("busctl", "--system", "--auto-start=no", "-j", *args)


def bus_property(name):
    return json.loads(bus_call("get-property", BUS_NAME, OBJECT_PATH, INTERFACE, name).stdout)["data"]


def wait_for_property(name, value, timeout=SLOW):
    wait_until(lambda: bus_property(name) == value, timeout, interval=0.3,
               what="%s == %r" % (name, value))


def as_ordinary_user(*argv):
    user = pwd.getpwnam(ORDINARY_USER)
    return ["setpriv", "--reuid=%d" % user.pw_uid, "--regid=%d" % user.pw_gid, "--init-groups",
            "--", *argv]


def client(*args, timeout=SLOW):
    return subprocess.run(as_ordinary_user("motion-orientation", *args), capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                          env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})


def main_pid():
    return int(show("MainPID"))


def proc_status(pid):
    return dict(line.split(":\t", 1) for line in Path("/proc/%d/status" % pid).read_text().splitlines()
                if ":\t" in line)


def assert_not_blocked():
    log = journal()
    for words in BLOCKED:
        assert words not in log, log


def make_hub(**kwargs):
    before = vmrig.iio_named("accel_3d")
    hub = SensorHub(**kwargs).create()
    return hub, vmrig.wait_for_new_iio("accel_3d", before, timeout=SLOW)


@pytest.fixture(scope="module")
def installed():
    """`make install` (the build is the host's, done), then the maintainer scripts' steps, and
    an ordinary user for the clients."""
    result = subprocess.run(["make", "-o", "build", "install"], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    vmrig.sh("systemd-sysusers")
    vmrig.sh("systemctl", "daemon-reload")
    vmrig.sh("udevadm", "control", "--reload")
    vmrig.sh("busctl", "--system", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus", "ReloadConfig")
    vmrig.sh("useradd", "--create-home", "--user-group", ORDINARY_USER)


@pytest.fixture(scope="module", autouse=True)
def boot_journal():
    """The whole boot's journal into the results directory, for the record of what ran."""
    yield
    results = os.environ.get("MO_KERNEL_RESULTS")
    if results:
        Path(results, "journal.txt").write_text(journal_of_boot())


def journal_of_boot():
    vmrig.sh("journalctl", "--sync")
    return vmrig.sh("journalctl", "--no-pager", "-b", "-o", "short-monotonic", timeout=SLOW).stdout


@pytest.fixture(scope="module")
def state():
    """What the tests hand on: the hubs they made (destroyed at the end)."""
    hubs = {}
    yield hubs
    for hub in hubs.values():
        hub.destroy()


def test_make_install_puts_each_file_where_its_reader_looks(installed):
    unit_dir = pkg_dir("systemd", "systemdsystemunitdir")
    for path in (Path("/usr/bin/motion-orientationd"), Path("/usr/bin/motion-orientation"),
                 unit_dir / UNIT, pkg_dir("systemd", "sysusersdir") / "motion-orientation.conf",
                 pkg_dir("udev", "udevdir") / "rules.d" / "80-motion-orientation.rules",
                 Path("/usr/share/dbus-1/system.d/io.github.MotionOrientation1.conf"),
                 Path("/usr/share/dbus-1/system-services/io.github.MotionOrientation1.service"),
                 Path("/etc/motion-orientationd.conf")):
        assert path.is_file(), path
    account = pwd.getpwnam(vmrig.USER)
    assert account.pw_uid < 1000 and account.pw_shell.endswith("nologin")
    assert show("LoadState") == "loaded"
    assert show("FragmentPath") == str(unit_dir / UNIT)
    assert show("ExecStart").startswith("{ path=/usr/bin/motion-orientationd ")
    assert show("ActiveState") == "inactive"
    names = json.loads(bus_call("call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                "org.freedesktop.DBus", "ListActivatableNames").stdout)["data"][0]
    assert BUS_NAME in names


def test_udev_starts_the_unit_when_an_accelerometer_appears(installed, state):
    state["display"], syspath = make_hub()
    state["display_path"] = syspath
    wait_until(lambda: show("ActiveState") == "active", SLOW, interval=0.3,
               what="%s active" % UNIT)
    device = vmrig.sh("systemd-escape", "--path", "--suffix=device", syspath).stdout.strip()
    assert UNIT in show("Wants", device).split()
    # Started by the device, not by a call on the bus: nothing has asked for the name yet.
    assert "Activating via systemd: service name='%s'" % BUS_NAME not in journal("dbus.service")
    # The daemon as the unit runs it: its user, no privileges, a seccomp filter, owning the name.
    pid = main_pid()
    status = proc_status(pid)
    assert status["Uid"].split() == [str(pwd.getpwnam(vmrig.USER).pw_uid)] * 4
    assert status["NoNewPrivs"] == "1" and status["Seccomp"] == "2"
    assert int(status["CapBnd"], 16) == 0 and int(status["CapEff"], 16) == 0
    owner = json.loads(bus_call("call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                "org.freedesktop.DBus", "GetConnectionUnixProcessID", "s",
                                BUS_NAME).stdout)["data"][0]
    assert owner == pid


def test_an_ordinary_user_follows_turns_at_the_rate_written_in_the_sandbox(installed, state):
    hub, syspath = state["display"], state["display_path"]
    monitor = spawn(as_ordinary_user("motion-orientation", "monitor", "--device"),
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = LineReader(monitor)
    try:
        lines.expect(lambda line: line.strip() == "device portrait", SLOW, what="device portrait")
        hub.set_gravity(*POSES["landscape-left"])
        lines.expect(lambda line: line.strip() == "device landscape-left", SLOW,
                     what="device landscape-left")
        # The claim's moving rate, 25 Hz, written by the sandboxed daemon to the driver's
        # in_accel_sampling_frequency: the hub was told a 40 ms report interval.
        wait_until(lambda: hub.interval_ms == 40, SLOW, what="a 40 ms report interval (%d ms)"
                   % hub.interval_ms)
        assert vmrig.read_attribute(syspath, "in_accel_sampling_frequency") == "25.000000"
        assert vmrig.read_attribute(syspath, "buffer/enable") == "1"
    finally:
        kill_process(monitor)
    assert_not_blocked()


def test_a_client_call_activates_the_stopped_unit_over_dbus(installed, state):
    vmrig.sh("systemctl", "stop", UNIT, timeout=SLOW)
    assert show("ActiveState") == "inactive"
    result = client("get")
    assert result.returncode == 0, result.stderr
    assert show("ActiveState") == "active"
    # `get` samples for at most a second, which a daemon just started under TCG may not fill
    # (device=unknown); the turn the hub holds is then followed with a claim.
    result = client("wait", "--device", "landscape-left", "--timeout", "60")
    assert result.returncode == 0, result.stdout + result.stderr
    uid = pwd.getpwnam(ORDINARY_USER).pw_uid
    activations = [line for line in journal("dbus.service").splitlines()
                   if "Activating via systemd: service name='%s' unit='%s'" % (BUS_NAME, UNIT) in line]
    assert activations and "uid=%d " % uid in activations[-1], activations


def switch_node():
    for event in Path("/sys/class/input").glob("event*"):
        if vmrig.read_attribute(event, "device/name") == SWITCH_NAME:
            return Path("/dev/input") / event.name
    return None


def tablet_switch_state(node):
    with open(node, "rb") as device:
        bits = fcntl.ioctl(device, EVIOCGSW_8, bytes(8))
    return bool(bits[0] & (1 << SW_TABLET_MODE))


def test_the_uinput_tablet_switch_works_in_the_sandbox(installed, state):
    """A machine with a display and a base accelerometer, both there when the daemon starts
    (the unit is held back while they appear: the daemon acting on a device before udev is done
    with it is another matter, see docs/testing.md), then activated by a client's call."""
    vmrig.sh("systemctl", "stop", UNIT, timeout=SLOW)
    state.pop("display").destroy()
    vmrig.wait_gone(state.pop("display_path"), timeout=SLOW)
    HWDB.parent.mkdir(parents=True, exist_ok=True)
    HWDB.write_text(hwdb_text())
    RULE.write_text('ACTION!="remove", SUBSYSTEM=="iio", KERNEL=="iio*", SUBSYSTEMS=="hid", '
                    "IMPORT{builtin}=\"hwdb 'sensor:modalias:$attr{modalias}'\"\n")
    vmrig.sh("systemd-hwdb", "update", timeout=SLOW)
    vmrig.sh("udevadm", "control", "--reload")
    vmrig.sh("systemctl", "mask", "--runtime", UNIT)
    machine = Machine(make_hub)
    state["display"], state["base"] = machine.display, machine.base
    HINGE["machine"] = machine
    vmrig.sh("systemctl", "unmask", "--runtime", UNIT)
    assert vmrig.udev_properties(machine.base_path).get("ACCEL_LOCATION") == "base"
    assert "user:%s:-w-" % vmrig.USER in vmrig.sh("getfacl", "-p", "/dev/uinput").stdout
    # Activated by a claim that follows: a one-shot call (`status`) allows 5 s, less than a
    # cold start with two hubs takes under TCG (7 s seen).
    result = client("wait", "laptop", "--timeout", "60")
    assert result.returncode == 0, result.stdout + result.stderr
    assert show("ActiveState") == "active"
    wait_for_property("TabletModeSource", "hinge")
    node = wait_until(switch_node, SLOW, what="the input device %r" % SWITCH_NAME)
    assert tablet_switch_state(node) is False
    machine.sweep(90, 300)
    wait_for_property("TabletMode", True)
    wait_until(lambda: tablet_switch_state(node), SLOW, what="SW_TABLET_MODE 1")
    machine.sweep(300, 90)
    wait_for_property("TabletMode", False)
    wait_until(lambda: not tablet_switch_state(node), SLOW, what="SW_TABLET_MODE 0")
    assert_not_blocked()


def test_the_switch_state_survives_a_crash_and_its_restart_not_a_stop(installed, state):
    """RuntimeDirectory= with RuntimeDirectoryPreserve=restart: the state kept by a daemon
    killed in tablet mode is there for the one Restart=on-failure starts (which says so), and
    a stop removes the directory."""
    machine = HINGE["machine"]
    assert STATE_FILE.read_text() == "0\n"
    machine.sweep(90, 300)
    wait_for_property("TabletMode", True)
    wait_until(lambda: STATE_FILE.read_text() == "1\n", SLOW, what="the state file at 1")
    killed = main_pid()
    restarts = int(show("NRestarts"))
    vmrig.sh("systemctl", "kill", "--signal=KILL", UNIT)
    wait_until(lambda: int(show("NRestarts")) == restarts + 1 and show("ActiveState") == "active"
               and main_pid() not in (0, killed), SLOW, what="the unit restarted")
    wait_until(lambda: "switch was left on (%s)" % STATE_FILE in journal(), SLOW,
               what="the restarted daemon finding the state at 1")
    wait_for_property("TabletMode", True)
    machine.sweep(300, 90)
    wait_for_property("TabletMode", False)
    wait_until(lambda: STATE_FILE.read_text() == "0\n", SLOW, what="the state file at 0")
    vmrig.sh("systemctl", "stop", UNIT, timeout=SLOW)
    assert not STATE_FILE.parent.exists()
    assert_not_blocked()
    vmrig.sh("systemctl", "start", UNIT, timeout=SLOW)


def test_systemd_analyze_rates_the_running_unit(installed):
    result = vmrig.sh("systemd-analyze", "security", "--no-pager", UNIT, check=False, timeout=SLOW)
    found = re.search(r"Overall exposure level for %s: ([0-9.]+) (\w+)" % re.escape(UNIT),
                      result.stdout)
    assert found, result.stdout + result.stderr
    results = os.environ.get("MO_KERNEL_RESULTS")
    if results:
        Path(results, "exposure.txt").write_text(result.stdout)
    print("systemd-analyze security %s: %s %s" % (UNIT, found.group(1), found.group(2)))
    assert float(found.group(1)) <= EXPOSURE_LIMIT, result.stdout
