"""The shipped service files: D-Bus policy, units, sysusers, default config, udev rule."""

import configparser
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rig import (BUS_NAME, REPO_ROOT, STILL_INTERVAL_MSEC, SYSTEM_DEFAULT_POLICY, BusCallError,
                 RigError, SystemBus, default_daemon)

SYSTEMD = REPO_ROOT / "systemd"
UDEV = REPO_ROOT / "udev"
POLICY = SYSTEMD / "io.github.MotionOrientation1.conf"
UNIT = SYSTEMD / "motion-orientationd.service"
ACTIVATION = SYSTEMD / "io.github.MotionOrientation1.service"
SYSUSERS = SYSTEMD / "motion-orientation.sysusers"
CONFIG = SYSTEMD / "motion-orientationd.conf"
RULES = UDEV / "80-motion-orientation.rules"
USER = "motion-orientation"
NOBODY = (65534, 65534)
SETTING = "LowEnergyModeSetting"


def read_ini(path):
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read_string(path.read_text())
    return parser


# -- D-Bus policy


def start_bus_with(tmp_path, policy_file):
    return SystemBus(tmp_path / "bus", policy=SYSTEM_DEFAULT_POLICY,
                     includes=[policy_file]).start()


@pytest.mark.files
def test_policy_parses(tmp_path):
    bus = start_bus_with(tmp_path, POLICY)
    try:
        assert bus.name_has_owner("org.freedesktop.DBus")
    finally:
        bus.stop()
    log = (tmp_path / "bus" / "bus.log").read_text()
    complaints = [line for line in log.splitlines()
                  if "fd limit" not in line  # containers refuse RLIMIT_NOFILE raises
                  and 'Unknown username "%s"' % USER not in line]  # not created here
    assert not complaints, log


@pytest.mark.files
def test_policy_check_catches_a_broken_file(tmp_path):
    """Control: the parse test above does fail on a malformed policy."""
    broken = tmp_path / "broken.conf"
    broken.write_text(POLICY.read_text().replace("</busconfig>", "</busconfg>"))
    with pytest.raises(RigError):
        start_bus_with(tmp_path, broken)


def policed(make_rig, **kwargs):
    """The daemon (as root) on a bus with a system.conf-like default and our policy."""
    if os.geteuid() != 0:
        pytest.skip("needs root: the daemon owns the name as root, a client runs as nobody")
    rig = make_rig(bus_policy=SYSTEM_DEFAULT_POLICY, bus_includes=[POLICY], **kwargs)
    # Let an unprivileged client reach the socket.
    for directory in (rig.tmp, rig.tmp / "bus"):
        os.chmod(directory, 0o755)
    return rig


@pytest.fixture
def policed_rig(make_rig):
    return policed(make_rig)


@pytest.mark.daemon
def test_policy_lets_anyone_use_the_service(policed_rig):
    rig = policed_rig
    user = rig.bus_client(user=NOBODY)
    assert user.get("HasAccelerometer") is True
    assert "io.github.MotionOrientation1" in user.introspect()
    user.ping()
    user.start()
    rig.wait_for_property("Active", True, 2.0)
    device, interface = user.read_orientation()
    assert device == "portrait"
    user.stop()
    rig.wait_for_property("Active", False, 5.0)


@pytest.mark.daemon
def test_policy_guards_owning_and_privileged_calls(policed_rig):
    rig = policed_rig
    user = rig.bus_client(user=NOBODY)
    # The bus lets SetLowEnergyMode through (who may is the daemon's decision: the
    # configured group is unknown to the policy); the daemon refuses a stranger.
    with pytest.raises(BusCallError) as denied:
        user.call("SetLowEnergyMode", "s", ["on"])
    assert denied.value.name == "org.freedesktop.DBus.Error.AccessDenied"
    assert "rejected" not in denied.value.message.lower(), denied.value.message  # not the bus
    assert "only root" in denied.value.message.lower(), denied.value.message  # the daemon
    assert rig.get_property(SETTING) == "auto"
    with pytest.raises(BusCallError) as denied:
        user.own(BUS_NAME)
    assert denied.value.name == "org.freedesktop.DBus.Error.AccessDenied"
    with pytest.raises(BusCallError) as denied:
        user.call("NoSuchMethod")
    assert denied.value.name == "org.freedesktop.DBus.Error.AccessDenied"
    assert "rejected" in denied.value.message.lower(), denied.value.message  # by the bus
    root = rig.bus_client()
    root.call("SetLowEnergyMode", "s", ["on"])
    rig.wait_for_property(SETTING, "on", 1.0)
    root.call("SetLowEnergyMode", "s", ["auto"])
    rig.wait_for_property(SETTING, "auto", 1.0)


# -- systemd unit and D-Bus activation


@pytest.mark.files
def test_unit_verifies(tmp_path):
    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze not installed")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    daemon = Path(default_daemon())
    target = bindir / "motion-orientationd"
    if daemon.exists():
        target.symlink_to(daemon)
    else:
        shutil.copy("/bin/true", target)
    unit = tmp_path / UNIT.name
    text = UNIT.read_text()
    assert "@bindir@/motion-orientationd" in text
    unit.write_text(text.replace("@bindir@", str(bindir)))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    # Unknown keys and bad values are only warned about: none allowed.
    assert result.stderr.strip() == "", result.stderr


@pytest.mark.files
def test_unit_exposure_is_at_most_two(tmp_path):
    """systemd-analyze security --offline rates the shipped unit 2.0 or less."""
    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze not installed")
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace("@bindir@", "/usr/bin"))
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)],
                            capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 2.0, result.stdout


@pytest.mark.files
def test_unit_contents():
    unit = read_ini(UNIT)
    service = unit["Service"]
    assert service["Type"] == "dbus"
    assert service["BusName"] == BUS_NAME
    assert service["User"] == USER and service["Group"] == USER
    assert service.get("DynamicUser", "no") == "no"
    assert service.get("PrivateNetwork", "no") == "no"
    assert service.get("ProtectKernelTunables", "no") == "no"
    assert service.get("PrivateDevices", "no") == "no"
    assert "AF_NETLINK" in service["RestrictAddressFamilies"]
    assert "AF_UNIX" in service["RestrictAddressFamilies"]
    assert service["ExecReload"].endswith("-HUP $MAINPID")
    assert service["Restart"] == "on-failure"
    # The virtual switch's state survives a crash and its restart, not a stop.
    assert service["RuntimeDirectory"] == "motion-orientationd"
    assert service["RuntimeDirectoryPreserve"] == "restart"
    assert service.get("WatchdogSec")


@pytest.mark.files
def test_dbus_activation_file_matches_the_unit_and_policy():
    activation = read_ini(ACTIVATION)["D-BUS Service"]
    assert activation["Name"] == BUS_NAME
    assert activation["SystemdService"] == UNIT.name
    assert activation["User"] == USER
    assert activation["Exec"] == "/bin/false"
    assert read_ini(UNIT)["Service"]["BusName"] == BUS_NAME
    policy = POLICY.read_text()
    assert re.search(r'<policy user="%s">\s*<allow own="%s"/>' % (USER, re.escape(BUS_NAME)),
                     policy)


@pytest.mark.files
def test_sysusers_creates_the_user(tmp_path):
    if not shutil.which("systemd-sysusers"):
        pytest.skip("systemd-sysusers not installed")
    (tmp_path / "etc").mkdir()
    result = subprocess.run(["systemd-sysusers", "--root=%s" % tmp_path, str(SYSUSERS)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    passwd = (tmp_path / "etc/passwd").read_text()
    group = (tmp_path / "etc/group").read_text()
    entry = [line for line in passwd.splitlines() if line.startswith(USER + ":")]
    assert len(entry) == 1, passwd
    fields = entry[0].split(":")
    assert 0 < int(fields[2]) < 1000, "not a system user: %s" % entry[0]
    assert fields[4] == "Motion orientation daemon"
    assert fields[6].endswith("nologin")
    assert any(line.startswith(USER + ":") for line in group.splitlines()), group


# -- default configuration


@pytest.mark.files
def test_default_config_has_every_key_commented():
    text = CONFIG.read_text()
    sections, keys = [], {}
    current = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("["):
            assert re.match(r"^\[[A-Za-z]+\]$", stripped), line
            current = stripped[1:-1]
            sections.append(current)
            continue
        assert stripped.startswith("#"), "an active setting in the default config: %r" % line
        match = re.match(r"^#([A-Z][A-Za-z]+)=(.*)$", stripped)
        if match:
            keys[(current, match.group(1))] = match.group(2)
    assert sections == ["Energy", "Compatibility", "Orientation", "TabletMode", "Sensor", "Thermal",
                        "Sampling"]
    assert keys[("Energy", "LowEnergyMode")] == "auto"
    assert keys[("Energy", "BatteryLowPercent")] == "20"
    assert keys[("Sampling", "StillIntervalMsec")] == str(STILL_INTERVAL_MSEC)
    assert keys[("Thermal", "FallbackCriticalCelsius")] == "95"
    assert keys[("Orientation", "AllowedInterfaceOrientations")].split() == [
        "portrait", "portrait-upside-down", "landscape-left", "landscape-right"]
    assert keys[("Orientation", "SettleTimeMsec")] == "200"
    assert keys[("Orientation", "SwitchAngle")] == "60"
    assert keys[("Orientation", "LockInLaptopMode")] == ""
    assert keys[("TabletMode", "Source")] == "auto"
    assert keys[("TabletMode", "EnterAngle")] == "200"
    assert keys[("TabletMode", "ExitAngle")] == "160"
    assert keys[("TabletMode", "VirtualSwitch")] == "auto"
    assert keys[("Sampling", "HingeIntervalMsec")] == "1000"


@pytest.mark.daemon
def test_daemon_accepts_the_default_config(make_rig):
    """The shipped file loads silently."""
    rig = make_rig(config_text=CONFIG.read_text())
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    warnings = [line for line in rig.daemon.log_lines() if re.match(r"^<[0-4]>", line)]
    assert not warnings, "\n".join(warnings)


@pytest.mark.daemon
def test_daemon_understands_every_documented_key(make_rig):
    """The shipped file with every key uncommented (the defaults) loads silently too."""
    uncommented = re.sub(r"(?m)^#([A-Z][A-Za-z]+=)", r"\1", CONFIG.read_text())
    rig = make_rig(config_text=uncommented)
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    warnings = [line for line in rig.daemon.log_lines() if re.match(r"^<[0-4]>", line)]
    assert not warnings, "\n".join(warnings)


@pytest.mark.daemon
def test_daemon_reports_a_bad_config_value_with_its_place(make_rig):
    rig = make_rig(config_text="[Orientation]\nSettleTimeMsec=soon\n")
    assert rig.get_property("HasAccelerometer") is True  # still serving
    complaints = [line for line in rig.daemon.log_lines()
                  if re.match(r"^<[0-4]>", line) and "SettleTimeMsec" in line]
    assert len(complaints) == 1, rig.daemon.log()
    assert "%s:2" % rig.config_path in complaints[0], complaints[0]


# -- udev rule

UDEV_KEYS = {"ACTION", "SUBSYSTEM", "TEST", "ENV", "TAG", "GOTO", "LABEL", "ATTR", "KERNEL",
             "DRIVERS", "SUBSYSTEMS", "ATTRS", "GROUP", "MODE", "RUN"}
UDEV_TERM = re.compile(r'^\s*([A-Z]+)(\{[^}]+\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*$')


def udev_rules():
    rules = []
    for number, line in enumerate(RULES.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        terms = []
        for term in line.split(","):
            match = UDEV_TERM.match(term)
            assert match, "%s:%d: cannot parse %r" % (RULES.name, number, term)
            key, attr, op, value = match.groups()
            assert key in UDEV_KEYS, "%s:%d: unknown key %s" % (RULES.name, number, key)
            terms.append((key, attr, op, value))
        rules.append(terms)
    return rules


@pytest.mark.files
def test_udev_rule_syntax():
    rules = udev_rules()
    labels = {t[3] for r in rules for t in r if t[0] == "LABEL"}
    gotos = {t[3] for r in rules for t in r if t[0] == "GOTO"}
    assert gotos <= labels, "GOTO without LABEL: %r" % (gotos - labels)


@pytest.mark.files
def test_udev_rule_tags_accelerometers():
    rules = udev_rules()
    flat = [t for r in rules for t in r]
    tests = {t[3] for t in flat if t[0] == "TEST" and t[2] == "=="}
    for channel in "xyz":
        assert "in_accel_%s_raw" % channel in tests
        assert "scan_elements/in_accel_%s_en" % channel in tests
    assert ("SUBSYSTEM", None, "!=", "iio") in flat or ("SUBSYSTEM", None, "==", "iio") in flat
    tagging = [r for r in rules if ("TAG", None, "+=", "systemd") in r]
    assert tagging, "no TAG+=\"systemd\""
    assert any(("ENV", "{SYSTEMD_WANTS}", "+=", UNIT.name) in r for r in tagging)


@pytest.mark.files
def test_udev_rule_takes_input_accelerometers_and_grants_the_daemon_its_devices():
    rules = udev_rules()
    marking = [r for r in rules if ("ENV", "{MOTION_ORIENTATION_ACCEL}", "=", "1") in r]
    assert any(("SUBSYSTEM", None, "==", "input") in r
               and ("ENV", "{ID_INPUT_ACCELEROMETER}", "==", "1") in r
               and ("KERNEL", None, "==", "event*") in r for r in marking), marking
    # Everything after the skip of unmarked devices applies to accelerometers only.
    flat = [t for r in rules for t in r]
    skip = flat.index(("ENV", "{MOTION_ORIENTATION_ACCEL}", "!=", "1"))
    after = flat[skip:]
    assert ("GROUP", None, "=", "motion-orientation") in after
    assert ("MODE", None, "=", "0640") in after
    assert ("RUN", None, "+=", "motion-orientation-access %S%p motion-orientation") in after
    assert ("TAG", None, "+=", "systemd") in after
    sysusers = (SYSTEMD / "motion-orientation.sysusers").read_text()
    assert re.search(r"^u motion-orientation ", sysusers, re.M)  # the group the rule names
    unit = UNIT.read_text()
    assert "DeviceAllow=char-iio r" in unit and "DeviceAllow=char-input r" in unit


@pytest.mark.files
def test_access_helper_grants_the_group_only_what_the_daemon_writes(tmp_path):
    import grp
    helper = UDEV / "motion-orientation-access"
    group = grp.getgrgid(os.getgid()).gr_name
    device = tmp_path / "iio:device0"
    written = ["buffer/enable", "trigger/current_trigger", "scan_elements/in_accel_x_en",
               "scan_elements/in_timestamp_en", "sampling_frequency"]
    untouched = ["in_accel_x_raw", "scan_elements/in_accel_x_type", "name"]
    for name in written + untouched:
        (device / name).parent.mkdir(parents=True, exist_ok=True)
        (device / name).write_text("0\n")
        (device / name).chmod(0o644)
    result = subprocess.run([str(helper), str(device), group], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    for name in written:
        info = (device / name).stat()
        assert info.st_mode & 0o777 == 0o664, name
        assert info.st_gid == os.getgid(), name
    for name in untouched:
        assert (device / name).stat().st_mode & 0o777 == 0o644, name
    # An input device: its driver's poll interval.
    event = tmp_path / "event5"
    (event / "device").mkdir(parents=True)
    (event / "device/poll").write_text("100\n")
    (event / "device/poll").chmod(0o644)
    assert subprocess.run([str(helper), str(event), group]).returncode == 0
    assert (event / "device/poll").stat().st_mode & 0o777 == 0o664
    # A group that does not exist: said on stderr, the device left as it was.
    (event / "device/poll").chmod(0o644)
    refused = subprocess.run([str(helper), str(event), "no-such-group-here"],
                             capture_output=True, text=True)
    assert refused.returncode == 0
    assert "device/poll: not granted" in refused.stderr
    assert (event / "device/poll").stat().st_mode & 0o777 == 0o644
    usage = subprocess.run([str(helper)], capture_output=True, text=True)
    assert usage.returncode == 2 and "usage" in usage.stderr


def fake_setfacl(tmp_path):
    """A setfacl on PATH that records its arguments (the real one may be missing, and the
    test files need no ACL support)."""
    bindir = tmp_path / "fakebin"
    bindir.mkdir()
    record = tmp_path / "setfacl.calls"
    script = bindir / "setfacl"
    script.write_text('#!/bin/sh\necho "$@" >> %s\n' % record)
    script.chmod(0o755)
    env = dict(os.environ, PATH="%s:%s" % (bindir, os.environ.get("PATH", "")))
    return env, record


def calls(record):
    return record.read_text().splitlines() if record.exists() else []


@pytest.mark.files
def test_udev_rule_grants_switches_and_uinput_only_where_they_belong():
    rules = udev_rules()
    switch = [r for r in rules if ("ENV", "{ID_INPUT_SWITCH}", "==", "1") in r]
    assert len(switch) == 1
    assert ("ENV", "{ID_INPUT_KEYBOARD}", "!=", "1") in switch[0]
    assert ("RUN", None, "+=", "motion-orientation-access --switch %S%p motion-orientation $devnode") in switch[0]
    # No group or mode change for a switch: its node stays the input group's.
    assert not [t for t in switch[0] if t[0] in ("GROUP", "MODE")]
    # /dev/uinput only for base accelerometers, after the skip of non-accelerometers.
    flat = [t for r in rules for t in r]
    skip = flat.index(("ENV", "{MOTION_ORIENTATION_ACCEL}", "!=", "1"))
    uinput = [r for r in rules if any(t[0] == "RUN" and "--uinput" in t[3] for t in r)]
    assert uinput and all(flat.index(r[0]) > skip for r in uinput)
    assert all(any("base" in t[3] for t in r if t[0] in ("ENV", "ATTR")) for r in uinput), uinput
    assert "DeviceAllow=/dev/uinput w" in UNIT.read_text()


@pytest.mark.files
def test_access_helper_grants_read_to_tablet_mode_switches_only(tmp_path):
    helper = UDEV / "motion-orientation-access"
    env, record = fake_setfacl(tmp_path)
    for name, capabilities, granted in (("event1", "2", True), ("event2", "3", True),
                                        ("event3", "1", False), ("event4", "0 2", True),
                                        ("event5", "2 0", False)):
        device = tmp_path / name
        (device / "device/capabilities").mkdir(parents=True)
        (device / "device/capabilities/sw").write_text(capabilities + "\n")
        result = subprocess.run([str(helper), "--switch", str(device), USER, "/dev/input/" + name],
                                env=env, capture_output=True, text=True)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        wanted = ["-m u:%s:r /dev/input/%s" % (USER, name)]
        assert (calls(record)[-1:] == wanted) == granted, (name, calls(record))
    assert len(calls(record)) == 3


@pytest.mark.files
def test_access_helper_grants_uinput_only_with_two_accelerometers(tmp_path):
    helper = UDEV / "motion-orientation-access"
    env, record = fake_setfacl(tmp_path)
    env["MOTION_ORIENTATION_UINPUT"] = str(tmp_path / "uinput")
    sys = tmp_path / "sys"
    iio = sys / "bus/iio/devices"
    iio.mkdir(parents=True)

    def add(name):
        device = sys / "devices" / name
        device.mkdir(parents=True)
        (device / "in_accel_x_raw").write_text("0\n")
        (iio / name).symlink_to(device)
        return device
    base = add("iio:device1")
    lone = subprocess.run([str(helper), "--uinput", str(base), USER], env=env,
                          capture_output=True, text=True)
    assert lone.returncode == 0 and "not granted" in lone.stderr
    assert calls(record) == []
    add("iio:device0")
    paired = subprocess.run([str(helper), "--uinput", str(base), USER], env=env,
                            capture_output=True, text=True)
    assert paired.returncode == 0 and paired.stderr == "", paired.stderr
    assert calls(record) == ["-m u:%s:w %s" % (USER, tmp_path / "uinput")]
