"""Bad input over the bus: wrong argument types, unknown members,
interfaces and objects, property misuse, huge arguments, and signals forged by an
unprivileged peer. Errors come back with their D-Bus names; the daemon never crashes,
keeps answering, and nothing forged changes its state.

Calls go through a private Gio connection of the test process (so any signature can be
sent and the error name is seen as the caller sees it); forged signals are sent with
`busctl emit --destination=` by uid nobody on a bus with Debian's system.conf default
policy and the shipped policy file.
"""

import json
import os
import subprocess
import time

import gi
import pytest

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

from rig import (BUS_NAME, INTERFACE, OBJECT_PATH, REPO_ROOT,  # noqa: E402
                 STILL_INTERVAL_MSEC, SYSTEM_DEFAULT_POLICY)

pytestmark = pytest.mark.daemon

PROPERTIES = "org.freedesktop.DBus.Properties"
INTROSPECTABLE = "org.freedesktop.DBus.Introspectable"
PEER = "org.freedesktop.DBus.Peer"
POLICY = REPO_ROOT / "systemd/io.github.MotionOrientation1.conf"
NOBODY = 65534

UNKNOWN_METHOD = "org.freedesktop.DBus.Error.UnknownMethod"
UNKNOWN_OBJECT = "org.freedesktop.DBus.Error.UnknownObject"
UNKNOWN_INTERFACE = "org.freedesktop.DBus.Error.UnknownInterface"
UNKNOWN_PROPERTY = "org.freedesktop.DBus.Error.UnknownProperty"
INVALID_ARGS = "org.freedesktop.DBus.Error.InvalidArgs"
READ_ONLY = "org.freedesktop.DBus.Error.PropertyReadOnly"
CHANGE = 5.0
# A bad call is answered at once; this bounds "at once" on a loaded machine.
ANSWER = 2.0

V = GLib.Variant


class Caller:
    """A private connection of the test process to the rig's bus."""

    def __init__(self, bus):
        self.connection = Gio.DBusConnection.new_for_address_sync(
            bus.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
            | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

    def call(self, interface, method, parameters=None, path=OBJECT_PATH, destination=BUS_NAME,
             timeout=ANSWER):
        """(error name or None, reply or message, seconds)."""
        started = time.monotonic()
        try:
            reply = self.connection.call_sync(
                destination, path, interface, method, parameters, None,
                Gio.DBusCallFlags.NO_AUTO_START, int(timeout * 1000), None)
            return None, reply.unpack() if reply is not None else None, time.monotonic() - started
        except GLib.Error as err:
            name = Gio.DBusError.get_remote_error(err) or "local:%s" % err.message
            return name, err.message, time.monotonic() - started

    def close(self):
        self.connection.close_sync(None)


@pytest.fixture
def caller(rig):
    c = Caller(rig.bus)
    yield c
    c.close()


def assert_errors(rig, caller, cases):
    """cases: (interface, method, parameters, expected error name (None: a reply; a tuple:
    any of these)[, path])."""
    wrong = []
    for case in cases:
        interface, method, parameters, expected = case[:4]
        path = case[4] if len(case) > 4 else OBJECT_PATH
        name, detail, seconds = caller.call(interface, method, parameters, path=path)
        signature = parameters.get_type_string() if parameters is not None else "()"
        if name not in (expected if isinstance(expected, tuple) else (expected,)):
            wrong.append("%s.%s%s on %s: got %s (%s), expected %s"
                         % (interface, method, signature, path, name, str(detail)[:120], expected))
        elif seconds > ANSWER:
            wrong.append("%s.%s%s took %.2f s" % (interface, method, signature, seconds))
        assert rig.daemon.running(), "the daemon died on %s.%s%s:\n%s" % (
            interface, method, signature, rig.daemon.log()[-3000:])
    assert not wrong, "\n".join(wrong)
    assert_still_serving(rig, caller)


def assert_still_serving(rig, caller):
    assert rig.daemon.running(), rig.daemon.log()[-3000:]
    assert caller.call(PEER, "Ping")[0] is None
    error, props, _ = caller.call(PROPERTIES, "GetAll", V("(s)", (INTERFACE,)))
    assert error is None and props[0]["HasAccelerometer"] is True, (error, props)
    assert rig.get_property("LowEnergyModeSetting") == "auto"  # nothing slipped through


# ---------------------------------------------------------------------------
# methods


def test_wrong_argument_types_are_invalid_args(rig, caller):
    assert_errors(rig, caller, [
        (INTERFACE, "Start", V("(s)", ("please",)), INVALID_ARGS),
        (INTERFACE, "Start", V("(i)", (1,)), INVALID_ARGS),
        (INTERFACE, "Stop", V("(b)", (True,)), INVALID_ARGS),
        (INTERFACE, "ReadOrientation", V("(s)", ("now",)), INVALID_ARGS),
        (INTERFACE, "ReadOrientation", V("(ss)", ("portrait", "portrait")), INVALID_ARGS),
        (INTERFACE, "SetLowEnergyMode", None, INVALID_ARGS),
        (INTERFACE, "SetLowEnergyMode", V("(i)", (1,)), INVALID_ARGS),
        (INTERFACE, "SetLowEnergyMode", V("(b)", (True,)), INVALID_ARGS),
        (INTERFACE, "SetLowEnergyMode", V("(ss)", ("on", "off")), INVALID_ARGS),
        (INTERFACE, "SetLowEnergyMode", V("(v)", (V("s", "on"),)), INVALID_ARGS),
        (INTERFACE, "SetLowEnergyMode", V("(as)", (["on"],)), INVALID_ARGS),
        (INTERFACE, "SetLowEnergyMode", V("(o)", ("/on",)), INVALID_ARGS),
        (INTERFACE, "SetLowEnergyMode", V("(g)", ("s",)), INVALID_ARGS),
        (INTROSPECTABLE, "Introspect", V("(s)", ("x",)), INVALID_ARGS),
        # sd-bus answers Peer.Ping whatever follows (its choice, harmless).
        (PEER, "Ping", V("(s)", ("x",)), None),
    ])
    # A wrong type is refused before it could claim: nobody holds a claim now.
    assert rig.get_property("Active") is False


@pytest.mark.parametrize("word", ["", "ON", "yes", " on", "on\n", "automatic", "1", "\u00fcber",
                                  "onx"])
def test_bad_low_energy_words_are_invalid_args(rig, caller, word):
    error, detail, _ = caller.call(INTERFACE, "SetLowEnergyMode", V("(s)", (word,)))
    assert error == INVALID_ARGS, (error, detail)
    assert_still_serving(rig, caller)


def test_unknown_methods_interfaces_and_objects(rig, caller):
    assert_errors(rig, caller, [
        (INTERFACE, "NoSuchMethod", None, UNKNOWN_METHOD),
        (INTERFACE, "start", None, UNKNOWN_METHOD),  # names are case-sensitive
        (INTERFACE, "DeviceOrientationChanged", V("(su)", ("portrait", 1)), UNKNOWN_METHOD),
        (INTERFACE, "DeviceOrientation", None, UNKNOWN_METHOD),  # a property, not a method
        ("org.example.NoSuchInterface", "Start", None, UNKNOWN_METHOD),
        ("net.hadess.SensorProxy", "ClaimAccelerometer", None, UNKNOWN_METHOD),  # compat is off
        ("org.freedesktop.DBus.ObjectManager", "GetManagedObjects", None, UNKNOWN_METHOD),
        (INTERFACE, "Start", None, UNKNOWN_OBJECT, "/io/github/MotionOrientation1/nothing"),
        (INTERFACE, "Start", None, UNKNOWN_OBJECT, "/net/hadess/SensorProxy"),
        (INTERFACE, "Start", None, UNKNOWN_OBJECT, "/"),
    ])
    assert rig.get_property("Active") is False


# ---------------------------------------------------------------------------
# properties


def test_property_misuse(rig, caller):
    assert_errors(rig, caller, [
        (PROPERTIES, "Get", V("(ss)", (INTERFACE, "NoSuchProperty")), UNKNOWN_PROPERTY),
        (PROPERTIES, "Get", V("(ss)", (INTERFACE, "active")), UNKNOWN_PROPERTY),
        (PROPERTIES, "Get", V("(ss)", (INTERFACE, "Start")), UNKNOWN_PROPERTY),  # a method
        (PROPERTIES, "Get", V("(ss)", ("org.example.NoSuchInterface", "Active")), UNKNOWN_PROPERTY),
        (PROPERTIES, "Get", V("(ss)", ("", "")), UNKNOWN_PROPERTY),
        (PROPERTIES, "Get", V("(s)", (INTERFACE,)), INVALID_ARGS),
        (PROPERTIES, "Get", V("(ii)", (1, 2)), INVALID_ARGS),
        # sd-bus reads the two strings it needs and ignores the rest (harmless).
        (PROPERTIES, "Get", V("(sss)", (INTERFACE, "Active", "x")), None),
        (PROPERTIES, "Get", None, INVALID_ARGS),
        (PROPERTIES, "GetAll", V("(s)", ("org.example.NoSuchInterface",)), UNKNOWN_INTERFACE),
        (PROPERTIES, "GetAll", None, INVALID_ARGS),
        (PROPERTIES, "GetAll", V("(i)", (0,)), INVALID_ARGS),
        # Every property is read-only, whatever the value.
        (PROPERTIES, "Set", V("(ssv)", (INTERFACE, "Active", V("b", False))), READ_ONLY),
        (PROPERTIES, "Set", V("(ssv)", (INTERFACE, "Active", V("s", "no"))), READ_ONLY),
        (PROPERTIES, "Set", V("(ssv)", (INTERFACE, "LowEnergyModeSetting", V("s", "on"))), READ_ONLY),
        (PROPERTIES, "Set", V("(ssv)", (INTERFACE, "DeviceOrientation", V("s", "face-down"))),
         READ_ONLY),
        (PROPERTIES, "Set", V("(ssv)", (INTERFACE, "SampleIntervalMsec", V("u", 1))), READ_ONLY),
        (PROPERTIES, "Set", V("(ssv)", (INTERFACE, "NoSuchProperty", V("s", "x"))),
         UNKNOWN_PROPERTY),
        # A Set without a variant: refused either way (sd-bus checks writability first).
        (PROPERTIES, "Set", V("(ss)", (INTERFACE, "Active")), (READ_ONLY, INVALID_ARGS)),
        (PROPERTIES, "Set", V("(sss)", (INTERFACE, "Active", "x")), (READ_ONLY, INVALID_ARGS)),
        (PROPERTIES, "Set", V("(ss)", (INTERFACE, "NoSuchProperty")),
         (UNKNOWN_PROPERTY, INVALID_ARGS)),
    ])
    props = rig.get_properties()
    assert props["Active"] is False and props["SampleIntervalMsec"] == 0
    assert props["LowEnergyModeSetting"] == "auto"


# ---------------------------------------------------------------------------
# huge arguments


HUGE = 1024 * 1024  # 1 MiB strings and arrays (dbus-daemon allows messages up to 32 MiB)


def test_huge_arguments(rig, caller):
    word = "on" * (HUGE // 2)
    error, detail, seconds = caller.call(INTERFACE, "SetLowEnergyMode", V("(s)", (word,)),
                                         timeout=10)
    assert error == INVALID_ARGS, (error, str(detail)[:200])
    assert seconds < 5.0, seconds
    assert_errors(rig, caller, [
        (INTERFACE, "Start", V("(s)", ("x" * HUGE,)), INVALID_ARGS),
        (INTERFACE, "ReadOrientation", V("(as)", (["portrait"] * 100000,)), INVALID_ARGS),
        (INTERFACE, "Stop", V("(ay)", (b"\0" * HUGE,)), INVALID_ARGS),
        (PROPERTIES, "Get", V("(ss)", (INTERFACE, "P" * HUGE)), UNKNOWN_PROPERTY),
        (PROPERTIES, "Get", V("(ss)", ("a." * (HUGE // 4), "Active")), UNKNOWN_PROPERTY),
        (PROPERTIES, "Set", V("(ssv)", (INTERFACE, "Active", V("s", "x" * HUGE))), READ_ONLY),
        (INTERFACE, "x" * 255, None, UNKNOWN_METHOD),  # the longest member name D-Bus allows
    ])
    if os.environ.get("MO_SANITIZER"):
        return  # ASan's quarantine keeps freed memory resident: no RSS figure then
    # The daemon did not keep the huge strings: its resident set stays small.
    rss = int(next(line.split()[1] for line in
                   open("/proc/%d/status" % rig.daemon.pid) if line.startswith("VmRSS:")))
    assert rss < 64 * 1024, "VmRSS %d kB after huge arguments" % rss


def test_bad_calls_while_sampling_do_not_disturb_a_claim(rig, caller):
    """A claimer keeps its claim and its signals while another caller misbehaves."""
    claimer = rig.bus_client(start=True, signals=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    for _ in range(20):
        caller.call(INTERFACE, "Start", V("(s)", ("x",)))
        caller.call(INTERFACE, "Stop", V("(i)", (7,)))
        caller.call(PROPERTIES, "Set", V("(ssv)", (INTERFACE, "Active", V("b", False))))
        caller.call(INTERFACE, "NoSuchMethod")
    assert rig.get_property("Active") is True
    rig.accel.set_pose("landscape-left")
    deadline = time.monotonic() + CHANGE
    while True:
        member, payload = claimer.next_signal(max(0.1, deadline - time.monotonic()))
        if member == "DeviceOrientationChanged" and payload[0] == "landscape-left":
            break
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


def test_bad_input_to_the_compatibility_interface(make_rig):
    rig = make_rig(config_text="[Compatibility]\nSensorProxy=yes\n")
    caller = Caller(rig.bus)
    try:
        proxy = "net.hadess.SensorProxy"
        path = "/net/hadess/SensorProxy"
        wrong = []
        for interface, method, parameters, expected in [
                (proxy, "ClaimAccelerometer", V("(s)", ("x",)), INVALID_ARGS),
                (proxy, "ReleaseAccelerometer", V("(i)", (1,)), INVALID_ARGS),
                (proxy, "ClaimLight", V("(b)", (True,)), INVALID_ARGS),
                (proxy, "NoSuchMethod", None, UNKNOWN_METHOD),
                (PROPERTIES, "Get", V("(ss)", (proxy, "NoSuchProperty")), UNKNOWN_PROPERTY),
                (PROPERTIES, "Set", V("(ssv)", (proxy, "HasAccelerometer", V("b", False))),
                 READ_ONLY)]:
            error, detail, _ = caller.call(interface, method, parameters, path=path,
                                           destination=proxy)
            if error != expected:
                wrong.append("%s.%s: %s (%s), expected %s" % (interface, method, error, detail,
                                                             expected))
        assert not wrong, "\n".join(wrong)
        assert rig.daemon.running()
        assert rig.get_property("Active") is False
    finally:
        caller.close()


# ---------------------------------------------------------------------------
# forged signals


def nobody():
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def forge(rig, destination, path, interface, member, signature, *args):
    """`busctl emit` by uid nobody, addressed to `destination` (a unicast signal, which the
    system bus delivers whatever the receiver's match rules say)."""
    result = subprocess.run(
        ["busctl", "--system", "emit", "--destination=%s" % destination, path, interface, member,
         signature, *[str(a) for a in args]],
        env=rig.bus.env(), preexec_fn=nobody, capture_output=True, text=True, timeout=10,
        stdin=subprocess.DEVNULL)
    assert result.returncode == 0, "the bus refused the forged signal: %s" % result.stderr
    # A round trip to the daemon: it has read everything sent to it before.
    rig.get_property("Active")


@pytest.fixture
def policed_rig(make_rig):
    """The daemon (as root) on a bus with system.conf's default policy and ours, and the bus
    socket open to other users."""
    rig = make_rig(bus_policy=SYSTEM_DEFAULT_POLICY, bus_includes=[POLICY],
                   config_text="[Sampling]\nMotionLingerMsec=0\n")
    for directory in (rig.tmp, rig.tmp / "bus"):
        os.chmod(directory, 0o755)
    return rig


def daemon_unique_name(rig):
    result = rig.busctl("call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                        "org.freedesktop.DBus", "GetNameOwner", "s", BUS_NAME)
    return json.loads(result.stdout)["data"][0]


FORGERIES = {
    # The bus driver's "this client left": would drop the claim of a client still there.
    "name-owner-changed": lambda claimer: (
        "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged", "sss",
        claimer.unique_name, claimer.unique_name, ""),
    # logind's "going to sleep": would pause sampling for everyone.
    "prepare-for-sleep": lambda claimer: (
        "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b",
        "true"),
    # power-profiles-daemon's power-saver: would force low energy mode.
    "power-saver": lambda claimer: (
        "/net/hadess/PowerProfiles", PROPERTIES, "PropertiesChanged", "sa{sv}as",
        "net.hadess.PowerProfiles", 1, "ActiveProfile", "s", "power-saver", 0),
    # UPower's lid: would pause sampling (PauseWhenLidClosed=yes by default).
    "lid-closed": lambda claimer: (
        "/org/freedesktop/UPower", PROPERTIES, "PropertiesChanged", "sa{sv}as",
        "org.freedesktop.UPower", 1, "LidIsClosed", "b", "true", 0),
}


@pytest.mark.parametrize("to", ["unique-name", "bus-name"])
@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_forged_signals_from_an_unprivileged_peer_change_nothing(policed_rig, forgery, to):
    """Only the bus driver, logind, UPower and power-profiles-daemon speak for themselves.
    sd-bus cannot check a well-known `sender=` of a match on a dbus-daemon bus (it accepts
    any unique sender for it), and the system bus delivers unicast signals to their
    destination whatever its match rules; so the daemon must not act on a signal that
    was addressed to it by someone else."""
    rig = policed_rig
    claimer = rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    rig.wait_for_property("SampleIntervalMsec", STILL_INTERVAL_MSEC, CHANGE)
    before = rig.get_properties()
    destination = daemon_unique_name(rig) if to == "unique-name" else BUS_NAME

    forge(rig, destination, *FORGERIES[forgery](claimer))
    time.sleep(0.3)

    after = rig.get_properties()
    changed = {k: (before[k], after[k]) for k in ("Active", "SampleIntervalMsec", "LowEnergyMode",
                                                  "LowEnergyReasons") if before[k] != after[k]}
    assert not changed, "a forged %s from uid nobody changed %r" % (forgery, changed)
    # Still sampling for the claimer: a rotation is seen.
    rig.accel.set_pose("landscape-right")
    rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE)
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)
