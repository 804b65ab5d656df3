"""Energy: the forced flag, power-saver / battery / thermal triggers, adaptive sampling,
suspend and lid (docs/dbus-api.md, motion-orientationd(8)).

Mocks: python-dbusmock templates on the rig's private bus (energy_mocks.py) for
power-profiles-daemon (both names), logind and UPower; umockdev thermal zones and
batteries. Devices and mocks are set up before the daemon starts unless a test is
about something appearing later.
"""

import os
import re
import time

import pytest

import energy_mocks as em
from rig import (REPO_ROOT, STILL_INTERVAL_MSEC, SYSTEM_DEFAULT_POLICY, BusCallError, RigError,
                 wait_until)

pytestmark = pytest.mark.daemon

# The sampling intervals (defaults) a claimed, still device shows.
STILL = STILL_INTERVAL_MSEC
MOVING = 40
LOW_STILL = 1500
LOW_MOVING = 100
CRITICAL_STILL = 3000
CRITICAL_MOVING = 250
CHANGE = 5.0  # a trigger must show on the bus within this
THERMAL_MSEC = 200  # ThermalIntervalMsec in these tests
# Long enough for several thermal reads: a state that is going to change has changed.
SEVERAL_READS = 5 * THERMAL_MSEC / 1000.0

ENERGY = "LowEnergyMode"
REASONS = "LowEnergyReasons"
SETTING = "LowEnergyModeSetting"
INTERVAL = "SampleIntervalMsec"
THERMAL = "ThermalState"

NOBODY = (65534, 65534)
ACCESS_DENIED = "org.freedesktop.DBus.Error.AccessDenied"
INVALID_ARGS = "org.freedesktop.DBus.Error.InvalidArgs"


def config(**sections):
    """Config text: the test defaults ([Sampling] MotionLingerMsec=0, a fast thermal
    interval) merged with sections given as {key: value} dicts."""
    merged = {"Sampling": {"MotionLingerMsec": "0", "ThermalIntervalMsec": str(THERMAL_MSEC)}}
    for name, keys in sections.items():
        merged.setdefault(name, {}).update(keys)
    return "".join("[%s]\n%s\n" % (name, "".join("%s=%s\n" % kv for kv in keys.items()))
                   for name, keys in merged.items())


def energy_rig(make_rig, setup=None, **sections):
    """A rig whose devices and mocks are set up by setup(rig) before the daemon starts."""
    rig = make_rig(start_daemon=False, config_text=config(**sections))
    if setup is not None:
        setup(rig)
    rig.daemon.start()
    return rig


class Signals:
    """Everything a busclient (signals=True) received, searchable from a mark."""

    def __init__(self, client):
        self.client = client
        self.seen = []

    def _drain(self, timeout=0.0):
        try:
            self.seen.append(self.client.next_signal(timeout))
        except RigError:
            return False
        while True:
            try:
                self.seen.append(self.client.next_signal(0))
            except RigError:
                return True

    def mark(self):
        self._drain()
        return len(self.seen)

    def since(self, mark):
        self._drain()
        return self.seen[mark:]

    def wait(self, predicate, timeout, what, since=0):
        deadline = time.monotonic() + timeout
        while True:
            for member, payload in self.seen[since:]:
                if predicate(member, payload):
                    return payload
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RigError("no %s within %.1f s; got %r" % (what, timeout, self.seen[since:]))
            self._drain(min(remaining, 0.2))


def changed(prop, value):
    def predicate(member, payload):
        return (member == "PropertiesChanged" and prop in payload[1]
                and payload[1][prop] == value)
    return predicate


def orientation_signal(name=None):
    def predicate(member, payload):
        return member == "DeviceOrientationChanged" and (name is None or payload[0] == name)
    return predicate


def claim(rig, still=STILL):
    """A claimer (with its signals), once sampling runs at the still interval."""
    claimer = rig.bus_client(start=True, signals=True)
    rig.wait_for_property("Active", True, 2.0)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    rig.wait_for_property(INTERVAL, still, CHANGE)
    return claimer


def assert_energy(rig, on, reasons, interval=None, timeout=CHANGE):
    rig.wait_for_property(REASONS, reasons, timeout)
    rig.wait_for_property(ENERGY, on, 1.0)
    if interval is not None:
        rig.wait_for_property(INTERVAL, interval, 2.0)


def assert_energy_stays(rig, on, reasons, interval, duration=1.0):
    deadline = time.monotonic() + duration
    while True:
        props = rig.get_properties()
        got = (props[ENERGY], props[REASONS], props[INTERVAL])
        assert got == (on, reasons, interval), "energy state changed to %r" % (got,)
        if time.monotonic() >= deadline:
            return
        time.sleep(0.1)


def warnings_naming(rig, text):
    return [line for line in rig.daemon.log_lines()
            if text in line and re.match(r"^<[0-4]>", line)]


def let_anyone_connect(rig):
    """Let a non-root client reach the private bus socket."""
    for directory in (rig.tmp, rig.tmp / "bus"):
        os.chmod(directory, 0o755)


# ---------------------------------------------------------------------------
# power-saver


@pytest.mark.parametrize("name", em.PPD_NAMES)
def test_power_saver_turns_low_energy_on_and_off(make_rig, name):
    mocks = {}
    rig = energy_rig(make_rig, lambda r: mocks.update(ppd=em.start_power_profiles(r, name)))
    claimer = claim(rig)
    signals = Signals(claimer)
    assert_energy_stays(rig, False, [], STILL, 0.3)
    assert rig.get_property(SETTING) == "auto"

    mark = signals.mark()
    em.set_profile(mocks["ppd"], "power-saver")
    assert_energy(rig, True, ["power-saver"], LOW_STILL)
    for prop, value in ((ENERGY, True), (REASONS, ["power-saver"]), (INTERVAL, LOW_STILL)):
        signals.wait(changed(prop, value), 2.0, "PropertiesChanged %s=%r" % (prop, value), mark)
    assert rig.get_property("Active") is True

    mark = signals.mark()
    em.set_profile(mocks["ppd"], "performance")
    assert_energy(rig, False, [], STILL)
    signals.wait(changed(ENERGY, False), 2.0, "PropertiesChanged LowEnergyMode=false", mark)
    signals.wait(changed(INTERVAL, STILL), 2.0, "PropertiesChanged SampleIntervalMsec", mark)


@pytest.mark.parametrize("name", em.PPD_NAMES)
def test_power_saver_service_leaving_and_coming(make_rig, name):
    """Already in power-saver at start-up; the service leaves (trigger gone), comes back."""
    mocks = {}
    rig = energy_rig(make_rig, lambda r: mocks.update(
        ppd=em.start_power_profiles(r, name, "power-saver")))
    assert_energy(rig, True, ["power-saver"])
    claim(rig, still=LOW_STILL)
    mocks["ppd"].close()
    assert_energy(rig, False, [], STILL)
    em.start_power_profiles(rig, name, "power-saver")
    assert_energy(rig, True, ["power-saver"], LOW_STILL)


def test_no_power_profiles_service_no_trigger(make_rig):
    rig = energy_rig(make_rig)
    claim(rig)
    assert_energy_stays(rig, False, [], STILL, 1.0)
    # A service that appears with another profile changes nothing either.
    em.start_power_profiles(rig, em.PPD_HADESS, "performance")
    assert_energy_stays(rig, False, [], STILL, 1.0)


def test_both_power_profiles_names_count_independently(make_rig):
    mocks = {}

    def setup(r):
        mocks["upower"] = em.start_power_profiles(r, em.PPD_UPOWER, "balanced")
        mocks["hadess"] = em.start_power_profiles(r, em.PPD_HADESS, "power-saver")
    rig = energy_rig(make_rig, setup)
    assert_energy(rig, True, ["power-saver"])
    mocks["hadess"].close()
    assert_energy(rig, False, [])
    em.set_profile(mocks["upower"], "power-saver")
    assert_energy(rig, True, ["power-saver"])


# ---------------------------------------------------------------------------
# the forced flag, reload, SetLowEnergyMode


def test_forced_on_holds_without_trigger(make_rig):
    rig = energy_rig(make_rig, Energy={"LowEnergyMode": "on"})
    assert rig.get_property(SETTING) == "on"
    assert_energy(rig, True, ["forced"])
    claim(rig, still=LOW_STILL)
    assert_energy_stays(rig, True, ["forced"], LOW_STILL, 1.0)


def all_triggers(mocks):
    """Setup: power-saver, a low battery and a zone past its passive trip."""
    def setup(rig):
        mocks["ppd"] = em.start_power_profiles(rig, em.PPD_UPOWER, "power-saver")
        rig.add_battery(status="Discharging", capacity=15)
        rig.add_thermal_zone("x86_pkg_temp", 92, [(90, "passive"), (105, "critical")])
    return setup


def test_forced_off_holds_against_every_trigger(make_rig):
    mocks = {}
    rig = energy_rig(make_rig, all_triggers(mocks), Energy={"LowEnergyMode": "off"})
    claimer = claim(rig)
    signals = Signals(claimer)
    rig.wait_for_property(THERMAL, "serious", CHANGE)  # the zone was read
    assert rig.get_property(SETTING) == "off"
    assert_energy_stays(rig, False, [], STILL, 1.0)
    # The same triggers in auto, all at once, in the documented order.
    mark = signals.mark()
    rig.reload(config(Energy={"LowEnergyMode": "auto"}))
    assert_energy(rig, True, ["power-saver", "battery-low", "thermal"], LOW_STILL)
    assert rig.get_property(SETTING) == "auto"
    assert not [p for m, p in signals.since(mark) if changed("Active", False)(m, p)]


def test_sighup_applies_a_changed_file_and_keeps_the_claim(make_rig):
    rig = energy_rig(make_rig, Energy={"LowEnergyMode": "off"})
    claimer = claim(rig)
    signals = Signals(claimer)
    mark = signals.mark()
    rig.reload(config(Energy={"LowEnergyMode": "on"}))
    rig.wait_for_property(SETTING, "on", CHANGE)
    assert_energy(rig, True, ["forced"], LOW_STILL)
    signals.wait(changed(SETTING, "on"), 2.0, "PropertiesChanged LowEnergyModeSetting=on", mark)
    assert rig.get_property("Active") is True
    assert not [p for m, p in signals.since(mark) if changed("Active", False)(m, p)]
    # The claim is still there and working: a turn reaches the claimer.
    rig.accel.set_pose("landscape-left")
    signals.wait(orientation_signal("landscape-left"), CHANGE + LOW_STILL / 1000.0,
                 "DeviceOrientationChanged landscape-left", mark)
    rig.reload(config(Energy={"LowEnergyMode": "auto"}))
    rig.wait_for_property(SETTING, "auto", CHANGE)
    assert_energy(rig, False, [])
    assert rig.get_property("Active") is True


def test_bad_value_on_reload_keeps_the_previous_setting(make_rig):
    rig = energy_rig(make_rig, Energy={"LowEnergyMode": "on"})
    claim(rig, still=LOW_STILL)
    text = config(Energy={"LowEnergyMode": "sometimes"},
                  Sampling={"LowEnergyStillIntervalMsec": "1600"})
    line = text.splitlines().index("LowEnergyMode=sometimes") + 1
    rig.reload(text)
    where = "%s:%d: [Energy] LowEnergyMode" % (rig.config_path, line)
    wait_until(lambda: warnings_naming(rig, where), CHANGE, what="a warning naming " + where)
    assert "sometimes" in warnings_naming(rig, where)[0]
    # The good key of the same file is applied, the bad one keeps the value in force.
    rig.wait_for_property(INTERVAL, 1600, CHANGE)
    assert rig.get_property(SETTING) == "on"
    assert_energy_stays(rig, True, ["forced"], 1600, 0.5)
    assert rig.get_property("Active") is True


def test_unreadable_config_on_reload_keeps_everything(make_rig):
    rig = energy_rig(make_rig, Energy={"LowEnergyMode": "on"})
    claim(rig, still=LOW_STILL)
    rig.config_path.unlink()
    rig.reload()
    wait_until(lambda: warnings_naming(rig, str(rig.config_path)), CHANGE,
               what="a complaint about the missing config file")
    assert rig.get_property(SETTING) == "on"
    assert_energy_stays(rig, True, ["forced"], LOW_STILL, 0.5)
    assert rig.daemon.running()


def test_set_low_energy_mode_from_root(make_rig):
    mocks = {}
    rig = energy_rig(make_rig, lambda r: mocks.update(
        ppd=em.start_power_profiles(r, em.PPD_HADESS, "power-saver")))
    claimer = claim(rig, still=LOW_STILL)
    signals = Signals(claimer)
    assert_energy(rig, True, ["power-saver"])

    mark = signals.mark()
    assert rig.call("SetLowEnergyMode", "s", "off") == []
    assert rig.get_property(SETTING) == "off"
    assert_energy(rig, False, [], STILL)
    signals.wait(changed(SETTING, "off"), 2.0, "PropertiesChanged LowEnergyModeSetting=off", mark)

    rig.call("SetLowEnergyMode", "s", "on")
    assert rig.get_property(SETTING) == "on"
    assert_energy(rig, True, ["forced", "power-saver"], LOW_STILL)

    root = rig.bus_client()
    for word in ("sometimes", "ON", ""):
        with pytest.raises(BusCallError) as refused:
            root.call("SetLowEnergyMode", "s", [word])
        assert refused.value.name == INVALID_ARGS, refused.value
    assert rig.get_property(SETTING) == "on"

    # A reload ends the override: the file says auto (by default).
    rig.call("SetLowEnergyMode", "s", "off")
    rig.wait_for_property(SETTING, "off", 1.0)
    rig.reload()
    rig.wait_for_property(SETTING, "auto", CHANGE)
    assert_energy(rig, True, ["power-saver"], LOW_STILL)


def test_set_low_energy_mode_refused_to_others(make_rig):
    rig = energy_rig(make_rig)
    let_anyone_connect(rig)
    user = rig.bus_client(user=NOBODY)
    assert user.get(SETTING) == "auto"  # reading is for everyone
    for word in ("on", "off", "auto"):
        with pytest.raises(BusCallError) as denied:
            user.call("SetLowEnergyMode", "s", [word])
        assert denied.value.name == ACCESS_DENIED, denied.value
        # The daemon refused, not the (permissive) bus.
        assert "rejected" not in denied.value.message.lower(), denied.value.message
    assert rig.get_property(SETTING) == "auto"
    assert_energy(rig, False, [])


def test_privileged_group_lets_members_in(make_rig):
    """Members of [Energy] PrivilegedGroup= (as effective or supplementary group) may
    set the mode, on a bus configured like a distribution's system bus (deny by default,
    the installed policy), as the man page's example promises. An existing group is used,
    so nothing is added to /etc/group."""
    import grp
    try:
        group = grp.getgrnam("users")
    except KeyError:
        pytest.skip("no group 'users' to configure as PrivilegedGroup")
    if group.gr_gid == NOBODY[1]:
        pytest.skip("group 'users' is nobody's own group")
    if os.geteuid() != 0:
        pytest.skip("needs root: the daemon owns the name as root, a client runs as nobody")
    rig = make_rig(config_text=config(Energy={"PrivilegedGroup": "users"}),
                   bus_policy=SYSTEM_DEFAULT_POLICY,
                   bus_includes=[REPO_ROOT / "systemd/io.github.MotionOrientation1.conf"])
    let_anyone_connect(rig)

    stranger = rig.bus_client(user=NOBODY)
    with pytest.raises(BusCallError) as denied:
        stranger.call("SetLowEnergyMode", "s", ["on"])
    assert denied.value.name == ACCESS_DENIED, denied.value
    assert rig.get_property(SETTING) == "auto"

    by_gid = rig.bus_client(user=(NOBODY[0], group.gr_gid))
    by_gid.call("SetLowEnergyMode", "s", ["on"])
    rig.wait_for_property(SETTING, "on", 1.0)
    assert_energy(rig, True, ["forced"])

    supplementary = rig.bus_client(user=(NOBODY[0], NOBODY[1], [group.gr_gid]))
    supplementary.call("SetLowEnergyMode", "s", ["off"])
    rig.wait_for_property(SETTING, "off", 1.0)
    assert_energy(rig, False, [])


# ---------------------------------------------------------------------------
# thermal


def thermal_step(rig, zone, celsius, state, stays=False):
    rig.set_attribute(zone, "temp", "%d" % round(celsius * 1000))
    if stays:
        rig.assert_property_stays(THERMAL, state, SEVERAL_READS)
    else:
        rig.wait_for_property(THERMAL, state, CHANGE)


def test_thermal_trip_crossings_with_hysteresis(make_rig):
    """passive 90, critical 105, margin 10, hysteresis 3 (the defaults):
    fair from 80, serious from 90, critical from 105; down only 3 degrees below."""
    zones = {}
    rig = energy_rig(make_rig, lambda r: zones.update(zone=r.add_thermal_zone(
        "x86_pkg_temp", 45, [(75, "active"), (90, "passive"), (105, "critical")])))
    claimer = claim(rig)
    signals = Signals(claimer)
    zone = zones["zone"]
    assert rig.get_property(THERMAL) == "nominal"
    mark = signals.mark()
    thermal_step(rig, zone, 79, "nominal", stays=True)  # an active trip decides nothing
    thermal_step(rig, zone, 80, "fair")
    signals.wait(changed(THERMAL, "fair"), 2.0, "PropertiesChanged ThermalState=fair", mark)
    assert_energy(rig, False, [], STILL)
    thermal_step(rig, zone, 89.9, "fair", stays=True)
    thermal_step(rig, zone, 90, "serious")
    assert_energy(rig, True, ["thermal"], LOW_STILL)
    thermal_step(rig, zone, 87.5, "serious", stays=True)  # not yet below 90 - 3
    thermal_step(rig, zone, 86.5, "fair")
    assert_energy(rig, False, [], STILL)
    thermal_step(rig, zone, 78, "fair", stays=True)  # not yet below 80 - 3
    thermal_step(rig, zone, 76, "nominal")
    thermal_step(rig, zone, 105, "critical")  # straight up two states
    assert_energy(rig, True, ["thermal"], CRITICAL_STILL)
    thermal_step(rig, zone, 102.5, "critical", stays=True)
    thermal_step(rig, zone, 101, "serious")
    assert_energy(rig, True, ["thermal"], LOW_STILL)
    thermal_step(rig, zone, 50, "nominal")  # far below: straight down
    assert_energy(rig, False, [], STILL)
    assert rig.get_property("Active") is True


def test_thermal_fallback_thresholds_for_a_zone_without_trips(make_rig):
    zones = {}
    rig = energy_rig(make_rig, lambda r: zones.update(zone=r.add_thermal_zone("acpitz", 40)),
                     Thermal={"FallbackFairCelsius": "60", "FallbackSeriousCelsius": "70",
                              "FallbackCriticalCelsius": "80", "HysteresisCelsius": "2"})
    claim(rig)
    zone = zones["zone"]
    thermal_step(rig, zone, 59, "nominal", stays=True)
    thermal_step(rig, zone, 60, "fair")
    thermal_step(rig, zone, 70, "serious")
    assert_energy(rig, True, ["thermal"], LOW_STILL)
    thermal_step(rig, zone, 80, "critical")
    assert_energy(rig, True, ["thermal"], CRITICAL_STILL)
    thermal_step(rig, zone, 78.5, "critical", stays=True)
    thermal_step(rig, zone, 77, "serious")
    thermal_step(rig, zone, 40, "nominal")
    assert_energy(rig, False, [], STILL)


@pytest.mark.parametrize("selection", [
    {"ExcludeZones": "iwlwifi_1"},
    {"IncludeZones": "x86_pkg_temp acpitz"},
], ids=["exclude", "include"])
def test_thermal_zone_selection_by_type(make_rig, selection):
    zones = {}

    def setup(r):
        zones["hot"] = r.add_thermal_zone("iwlwifi_1", 120)  # past every fallback
        zones["cpu"] = r.add_thermal_zone("x86_pkg_temp", 45, [(90, "passive")])
    rig = energy_rig(make_rig, setup, Thermal=selection)
    claim(rig)
    rig.assert_property_stays(THERMAL, "nominal", SEVERAL_READS)
    assert_energy(rig, False, [], STILL)
    thermal_step(rig, zones["cpu"], 91, "serious")  # the used zone is read
    thermal_step(rig, zones["cpu"], 45, "nominal")


def test_unreadable_zone_is_logged_once_and_skipped(make_rig):
    zones = {}

    def setup(r):
        zones["bad"] = r.add_thermal_zone("acpitz", 50, name="thermal_zone0")
        zones["good"] = r.add_thermal_zone("x86_pkg_temp", 45, [(90, "passive")],
                                           name="thermal_zone1")
    rig = energy_rig(make_rig, setup)
    claim(rig)
    rig.set_attribute(zones["bad"], "temp", "garbage")
    wait_until(lambda: warnings_naming(rig, "thermal_zone0"), CHANGE,
               what="a warning naming thermal_zone0")
    thermal_step(rig, zones["good"], 92, "serious")  # the other zone still counts
    time.sleep(SEVERAL_READS)
    logged = warnings_naming(rig, "thermal_zone0")
    assert len(logged) == 1, logged
    assert not warnings_naming(rig, "thermal_zone1")
    assert rig.daemon.running()
    # Readable again and hot: it counts again (one notice at most, no new warning).
    rig.set_attribute(zones["bad"], "temp", "90000")  # fallbacks: serious from 85
    thermal_step(rig, zones["good"], 45, "serious", stays=True)
    assert warnings_naming(rig, "thermal_zone0") == logged


def test_thermal_zones_are_read_only_while_sampling(make_rig):
    zones = {}
    rig = energy_rig(make_rig, lambda r: zones.update(zone=r.add_thermal_zone(
        "x86_pkg_temp", 95, [(90, "passive")])))
    rig.assert_property_stays(THERMAL, "nominal", SEVERAL_READS)  # nobody sampling
    claimer = claim(rig, still=LOW_STILL)
    rig.wait_for_property(THERMAL, "serious", 1.0)
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)
    rig.set_attribute(zones["zone"], "temp", "40000")
    rig.assert_property_stays(THERMAL, "serious", SEVERAL_READS)  # not read while idle


# ---------------------------------------------------------------------------
# adaptive sampling


@pytest.mark.parametrize("mode,still,moving", [
    ("normal", STILL, MOVING),
    ("low-energy", LOW_STILL, LOW_MOVING),
    ("critical", CRITICAL_STILL, CRITICAL_MOVING),
])
def test_motion_uses_the_fast_interval_of_the_mode(make_rig, mode, still, moving):
    def setup(r):
        if mode == "critical":  # past a hot trip
            r.add_thermal_zone("x86_pkg_temp", 100, [(85, "passive"), (95, "hot")])
    energy = {"LowEnergyMode": "on"} if mode == "low-energy" else {}
    rig = energy_rig(make_rig, setup, Energy=energy, Sampling={"MotionLingerMsec": "1000"})
    claimer = claim(rig, still=still)
    signals = Signals(claimer)
    mark = signals.mark()
    rig.accel.set_pose("landscape-left")
    signals.wait(changed(INTERVAL, moving), still / 1000.0 + CHANGE,
                 "PropertiesChanged SampleIntervalMsec=%d" % moving, mark)
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    rig.wait_for_property(INTERVAL, still, CHANGE)


def test_after_the_motion_the_linger_reads_at_its_own_interval_for_its_time(make_rig):
    rig = energy_rig(make_rig, Sampling={"MotionLingerMsec": "1500", "LingerIntervalMsec": "200",
                                         "RepeatWindowMsec": "0"})
    claimer = claim(rig)
    signals = Signals(claimer)
    mark = signals.mark()
    rig.accel.set_pose("landscape-left")
    signals.wait(changed(INTERVAL, 200), STILL / 1000.0 + CHANGE, "the linger's interval", mark)
    lingered = time.monotonic()
    signals.wait(changed(INTERVAL, STILL), 1.5 + CHANGE, "the still interval again", mark)
    # The linger counts from the last reading that saw motion, a moving interval before it
    # began; each signal is seen up to 0.2 s late here.
    assert time.monotonic() - lingered >= 1.5 - 0.25
    intervals = [payload[1][INTERVAL] for member, payload in signals.since(mark)
                 if member == "PropertiesChanged" and INTERVAL in payload[1]]
    # The turn at the moving rate, then the linger's rate, then still again.
    assert intervals == [MOVING, 200, STILL], intervals
    assert rig.get_property("DeviceOrientation") == "landscape-left"


# ---------------------------------------------------------------------------
# batteries


def set_battery(rig, battery, uevent=True, **attributes):
    for name, value in attributes.items():
        rig.set_attribute(battery, name, value)
    if uevent:
        rig.uevent(battery)


def test_battery_low_follows_udev_events(make_rig):
    batteries = {}

    def setup(r):
        batteries["bat"] = r.add_battery("BAT0", "Discharging", 50)
        # A mouse's battery (scope Device) never counts.
        r.add_battery("hidpp_battery_0", "Discharging", 5, extra={"scope": "Device"})
    rig = energy_rig(make_rig, setup)
    bat = batteries["bat"]
    claim(rig)
    assert_energy_stays(rig, False, [], STILL, 0.3)

    set_battery(rig, bat, capacity=21)
    assert_energy_stays(rig, False, [], STILL, 0.5)
    set_battery(rig, bat, capacity=20)  # at the threshold (default 20) is low
    assert_energy(rig, True, ["battery-low"], LOW_STILL)
    set_battery(rig, bat, status="Charging", capacity=15)
    assert_energy(rig, False, [], STILL)
    set_battery(rig, bat, status="Discharging")
    assert_energy(rig, True, ["battery-low"], LOW_STILL)
    set_battery(rig, bat, capacity=50)
    assert_energy(rig, False, [], STILL)
    # Followed through udev events, not polled: no event, no change.
    set_battery(rig, bat, uevent=False, capacity=10)
    assert_energy_stays(rig, False, [], STILL, 1.0)
    rig.uevent(bat)
    assert_energy(rig, True, ["battery-low"], LOW_STILL)


def test_battery_threshold_from_config(make_rig):
    batteries = {}
    rig = energy_rig(make_rig, lambda r: batteries.update(bat=r.add_battery(capacity=35)),
                     Energy={"BatteryLowPercent": "40"})
    assert_energy(rig, True, ["battery-low"])
    claim(rig, still=LOW_STILL)
    set_battery(rig, batteries["bat"], capacity=45)
    assert_energy(rig, False, [], STILL)
    # A reload with another threshold applies at once to the battery as it is.
    rig.reload(config(Energy={"BatteryLowPercent": "50"}))
    assert_energy(rig, True, ["battery-low"], LOW_STILL)


# ---------------------------------------------------------------------------
# suspend and lid


def test_suspend_pauses_and_resume_acquires_afresh(make_rig):
    mocks = {}
    rig = energy_rig(make_rig, lambda r: mocks.update(logind=em.start_logind(r)))
    logind = mocks["logind"]
    claimer = claim(rig)
    signals = Signals(claimer)

    mark = signals.mark()
    em.prepare_for_sleep(logind, True)
    rig.wait_for_property("Active", False, CHANGE)
    assert rig.get_property(INTERVAL) == 0
    signals.wait(changed("Active", False), 2.0, "PropertiesChanged Active=false", mark)
    rig.accel.set_pose("landscape-left")  # turned while asleep
    rig.assert_property_stays("DeviceOrientation", "portrait", 1.0)
    assert rig.get_property("Active") is False

    mark = signals.mark()
    em.prepare_for_sleep(logind, False)
    rig.wait_for_property("Active", True, CHANGE)  # the claim survived
    signals.wait(orientation_signal("landscape-left"), CHANGE,
                 "DeviceOrientationChanged landscape-left", mark)
    rig.wait_for_property(INTERVAL, STILL, CHANGE)
    announced = [p[0] for m, p in signals.since(mark) if m == "DeviceOrientationChanged"]
    assert announced == ["landscape-left"], announced

    # Asleep and back without a turn: nothing is announced again.
    em.prepare_for_sleep(logind, True)
    rig.wait_for_property("Active", False, CHANGE)
    mark = signals.mark()
    em.prepare_for_sleep(logind, False)
    rig.wait_for_property("Active", True, CHANGE)
    rig.wait_for_property(INTERVAL, STILL, CHANGE)
    time.sleep(0.5)
    announced = [p[0] for m, p in signals.since(mark)
                 if m in ("DeviceOrientationChanged", "InterfaceOrientationChanged")]
    assert announced == [], announced
    assert rig.get_property("DeviceOrientation") == "landscape-left"


def test_logind_lid_pauses_and_wins_over_upower(make_rig):
    mocks = {}

    def setup(r):
        mocks["logind"] = em.start_logind(r, lid_closed=False)
        mocks["upower"] = em.start_upower(r, lid_closed=True)  # logind's word counts
    rig = energy_rig(make_rig, setup)
    claimer = claim(rig)
    signals = Signals(claimer)

    em.set_logind_lid(mocks["logind"], True)
    rig.wait_for_property("Active", False, CHANGE)
    assert rig.get_property(INTERVAL) == 0
    em.set_upower_lid(mocks["upower"], False)
    rig.assert_property_stays("Active", False, 0.5)

    mark = signals.mark()
    em.set_logind_lid(mocks["logind"], False)
    rig.wait_for_property("Active", True, CHANGE)  # the claim survived
    rig.accel.set_pose("landscape-right")
    signals.wait(orientation_signal("landscape-right"), CHANGE,
                 "DeviceOrientationChanged landscape-right", mark)


def test_upower_lid_when_logind_has_none(make_rig):
    mocks = {}

    def setup(r):
        mocks["logind"] = em.start_logind(r)  # no LidClosed property
        mocks["upower"] = em.start_upower(r, lid_closed=True)
    rig = energy_rig(make_rig, setup)
    rig.bus_client(start=True)
    rig.assert_property_stays("Active", False, 0.5)  # claimed, but the lid is closed
    em.set_upower_lid(mocks["upower"], False)
    rig.wait_for_property("Active", True, CHANGE)
    rig.wait_for_property(INTERVAL, STILL, CHANGE)
    em.set_upower_lid(mocks["upower"], True)
    rig.wait_for_property("Active", False, CHANGE)
    assert rig.get_property(INTERVAL) == 0


def test_wrong_typed_lid_property_is_logged_once_and_counts_as_absent(make_rig):
    mocks = {}

    def setup(r):
        mocks["logind"] = em.start_logind(r)
        mocks["logind"].add_property("LidClosed", "s", "no")  # logind's is a boolean
        mocks["upower"] = em.start_upower(r, lid_closed=True)
    rig = energy_rig(make_rig, setup)
    rig.bus_client(start=True)
    # logind's value is unusable, so UPower's word counts: closed.
    rig.assert_property_stays("Active", False, 0.5)
    wait_until(lambda: warnings_naming(rig, "LidClosed"), CHANGE, what="a warning about LidClosed")
    logged = warnings_naming(rig, "LidClosed")
    assert len(logged) == 1, logged
    assert "expected a value of type b, got s" in logged[0], logged
    # A new value of the same wrong type in PropertiesChanged is the same known problem.
    mocks["logind"].update_properties({"LidClosed": ("s", "yes")})
    em.set_upower_lid(mocks["upower"], False)
    rig.wait_for_property("Active", True, CHANGE)
    time.sleep(0.3)  # the second PropertiesChanged has been read by now
    assert warnings_naming(rig, "LidClosed") == logged


def test_lid_ignored_when_configured(make_rig):
    mocks = {}
    rig = energy_rig(make_rig, lambda r: mocks.update(logind=em.start_logind(r, lid_closed=False)),
                     Energy={"PauseWhenLidClosed": "no"})
    claim(rig)
    em.set_logind_lid(mocks["logind"], True)
    rig.assert_property_stays("Active", True, 1.0)
    assert rig.get_property(INTERVAL) == STILL


# ---------------------------------------------------------------------------
# no claims, no wakeups


@pytest.mark.slow
@pytest.mark.timeout(40)
def test_only_a_motion_that_repeats_one_lingers(make_rig):
    """A turn a minute does not linger: the linger (LingerIntervalMsec, MotionLingerMsec)
    follows only a motion that began within RepeatWindowMsec of the one before it."""
    rig = energy_rig(make_rig, Sampling={"MotionLingerMsec": "2000", "LingerIntervalMsec": "200",
                                         "RepeatWindowMsec": "3000"})
    claimer = claim(rig)
    signals = Signals(claimer)
    time.sleep(3.5)  # the first decision was a motion too: longer than the window since

    def turn(pose):
        mark = signals.mark()
        rig.accel.set_pose(pose)
        rig.wait_for_property("DeviceOrientation", pose, CHANGE)
        signals.wait(changed(INTERVAL, STILL), 2.0 + CHANGE, "the still interval again", mark)
        return [payload[1][INTERVAL] for member, payload in signals.since(mark)
                if member == "PropertiesChanged" and INTERVAL in payload[1]]
    assert turn("landscape-left") == [MOVING, STILL]  # alone: no linger
    assert turn("portrait") == [MOVING, 200, STILL]  # again within the window: the linger


def test_no_wakeups_without_claims(make_rig):
    def setup(r):
        em.start_power_profiles(r, em.PPD_UPOWER)
        em.start_power_profiles(r, em.PPD_HADESS)
        em.start_logind(r, lid_closed=False)
        em.start_upower(r)
        r.add_battery(capacity=50)
        r.add_thermal_zone("x86_pkg_temp", 95, [(90, "passive"), (105, "critical")])
        r.add_thermal_zone("acpitz", 50)
    rig = energy_rig(make_rig, setup)
    # A claim comes and goes first, so every timer has existed once.
    claimer = rig.bus_client(start=True)
    rig.wait_for_property("Active", True, 2.0)
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)
    time.sleep(0.5)
    wakeups = rig.daemon.wakeups_over(10)
    assert wakeups <= 2, "the idle daemon woke up %d times in 10 s" % wakeups
    assert rig.get_property("Active") is False
    assert rig.get_property(INTERVAL) == 0
