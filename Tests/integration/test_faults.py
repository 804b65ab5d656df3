"""Faults: the sensor's files vanish, fail with EIO, turn into something
else or block; the device goes away while claimed; thermal zones and batteries become
unreadable; the configuration is unreadable on reload; the bus goes away. Each test asserts
that the daemon keeps serving or recovers, and that what should survive (claims, settings)
does.

Errors a umockdev testbed cannot produce with files (EIO, EACCES for root, a read that
takes seconds) come from the rig's fault injector (rig/faults.py, rig/faultinject.c): an
LD_PRELOAD library in front of umockdev's preload that, while its control file exists, makes
open() or read()/pread() of files whose path ends in a given suffix fail with an errno or
sleep.

What happens when the system bus goes away: the daemon exits with status 1 at once
(sd-bus exit-on-disconnect ends the loop), and the unit's Restart=on-failure has systemd
start it again; it does not reconnect by itself.
"""

import os
import re
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest

from rig import BUS_NAME, REPO_ROOT, Faults, RigError, kill_process, send_uevent, wait_until
from rig.faults import build_fault_injector, compiler

pytestmark = pytest.mark.daemon

CHANGE = 5.0
ANSWER = 2.0  # a property read must come back within this, whatever the sensor does


@pytest.fixture(scope="session")
def fault_injector():
    if compiler() is None:
        pytest.skip("no C compiler for the fault injector")
    return build_fault_injector()


def faulty_rig(make_rig, fault_injector, **kwargs):
    rig = make_rig(start_daemon=False, **kwargs)
    faults = Faults(rig, fault_injector)
    rig.daemon.start()
    return rig, faults


def complaints(rig, text, worst=4):
    """Log lines mentioning text at priority `worst` (<N>) or more urgent."""
    return [line for line in rig.daemon.log_lines()
            if text in line and int(re.match(r"^<([0-7])>", line + "<7>").group(1)) <= worst]


def claim(rig, signals=False):
    claimer = rig.bus_client(start=True, signals=signals)
    rig.wait_for_property("Active", True, CHANGE)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    return claimer


def assert_answers(rig, what="a property read"):
    """The daemon is alive and answers at once."""
    assert rig.daemon.running(), "the daemon died:\n%s" % rig.daemon.log()[-3000:]
    started = time.monotonic()
    try:
        rig.bus.busctl("get-property", BUS_NAME, "/io/github/MotionOrientation1",
                       "io.github.MotionOrientation1", "HasAccelerometer", timeout=ANSWER + 1)
    except (subprocess.TimeoutExpired, AssertionError) as err:
        raise AssertionError("the daemon did not answer %s within %.0f s (%s); log tail:\n%s"
                             % (what, ANSWER, err, "\n".join(rig.daemon.log_lines()[-15:])))
    seconds = time.monotonic() - started
    assert seconds < ANSWER, "%s took %.2f s" % (what, seconds)


def recreate_channels(rig):
    """New channel files (e.g. after they were deleted) that the rig writes from now on."""
    accel = rig.accel
    for channel in ("x", "y", "z"):
        path = accel.file_path(channel)
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        elif path.exists() or path.is_symlink():
            path.unlink()
        path.write_text("0\n")
        os.close(accel._fds[channel])
        accel._fds[channel] = os.open(path, os.O_WRONLY | os.O_CLOEXEC)


# ---------------------------------------------------------------------------
# the sensor's files


def test_channel_files_deleted_while_sampling(rig):
    """The daemon keeps its channel files open: deleted names change nothing until the
    device is looked at again (a udev change event); then the sensor is gone, the claim
    stays, and new files bring it back."""
    claimer = claim(rig)
    for channel in ("x", "y", "z"):
        rig.accel.file_path(channel).unlink()
    # The open files still work (the rig writes through its own open descriptors).
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    assert_answers(rig)

    rig.uevent(rig.accel, "change")  # the device is looked at again: no channels now
    rig.wait_for_property("HasAccelerometer", False, CHANGE)
    assert rig.get_property("DeviceOrientation") == "unknown"
    assert rig.read_orientation(timeout=5) == ("unknown", "unknown")
    assert_answers(rig)

    # Back (as after a driver rebind: udev says "add"; a "change" of a device that is not
    # the current sensor is not looked at).
    recreate_channels(rig)
    rig.accel.set_pose("portrait-upside-down")
    rig.uevent(rig.accel, "add")
    rig.wait_for_property("HasAccelerometer", True, CHANGE)
    rig.wait_for_property("Active", True, CHANGE)  # the claim survived
    rig.wait_for_property("DeviceOrientation", "portrait-upside-down", CHANGE)
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


@pytest.mark.parametrize("error", ["EIO", "EAGAIN", "ETIMEDOUT", "ENODEV"])
def test_channel_read_errors(make_rig, fault_injector, error):
    """A channel whose reads fail: one complaint naming the file and the error, the bad
    samples skipped (the orientation holds), every call answered, and the orientation
    follows again once the reads work."""
    rig, faults = faulty_rig(make_rig, fault_injector)
    claimer = claim(rig)
    path = rig.accel.daemon_path("y")
    faults.inject("in_accel_y_raw read %s" % error)
    wait_until(lambda: complaints(rig, path), CHANGE, what="a complaint naming %s" % path)
    rig.accel.set_pose("landscape-right")  # not seen: every sample fails
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:
        assert rig.get_property("DeviceOrientation") == "portrait"
        time.sleep(0.1)
    assert len(faults.hits()) >= 3, faults.hits()
    assert_answers(rig)
    answer = rig.read_orientation(timeout=5)  # answers (with the last known orientation)
    assert answer == ("portrait", "portrait"), answer
    assert rig.get_property("Active") is True
    logged = complaints(rig, path)
    assert len(logged) == 1, logged
    assert os.strerror(getattr(__import__("errno"), error)) in logged[0] or error in logged[0], (
        "the error is not named: %r" % logged[0])

    faults.clear()
    rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE)
    assert complaints(rig, path) == logged  # no new complaint when it recovers
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


def test_slow_channel_read_stalls_then_recovers(make_rig, fault_injector):
    """A sysfs read that takes seconds (a slow I2C sensor) holds up the one-thread loop for
    that long; afterwards everything answers again, and no claim is lost. (The figure is
    printed: the loop is blocked while the kernel read blocks.)"""
    rig, faults = faulty_rig(make_rig, fault_injector)
    claim(rig)
    faults.inject("in_accel_x_raw read sleep 2000")
    wait_until(faults.hits, CHANGE, what="a slow read")
    faults.clear()
    started = time.monotonic()
    assert rig.get_property("Active") is True
    stalled = time.monotonic() - started
    print("\nfaults: a property read during a 2 s channel read took %.2f s" % stalled)
    time.sleep(0.3)
    assert_answers(rig, "a property read after the slow read")
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    assert rig.get_property("Active") is True


@pytest.mark.parametrize("error", ["EACCES", "EIO"])
def test_refused_scale_is_reported_not_taken_for_missing(make_rig, fault_injector, error):
    """A scale attribute that exists and cannot be read (EACCES for a service user, EIO)
    is named with its errno, not passed over as if the file were missing; the sensor is
    served with the scale it falls back to (the generic `scale`)."""
    rig = make_rig(start_daemon=False, accelerometer=False)
    rig.add_accelerometer(extra_attributes={"scale": "0.00980665"})
    faults = Faults(rig, fault_injector)
    faults.inject("in_accel_scale open %s" % error)
    rig.daemon.start()
    assert rig.read_orientation(timeout=5)[0] == "portrait"
    assert faults.hits(), "the scale was never read"
    logged = complaints(rig, "in_accel_scale")
    assert len(logged) == 1, rig.daemon.log()
    assert os.strerror(getattr(__import__("errno"), error)) in logged[0], logged[0]


def test_unreadable_sampling_frequency_is_reported(make_rig, fault_injector):
    """A rate that cannot be read leaves the device's rate alone, and says so (with the
    path and errno) instead of silently turning rate control off; sampling goes on."""
    rig = make_rig(start_daemon=False, accelerometer=False)
    accel = rig.add_accelerometer(extra_attributes={
        "sampling_frequency": "100", "sampling_frequency_available": "1 10 25 50 100"})
    faults = Faults(rig, fault_injector)
    faults.inject("/sampling_frequency open EIO")
    rig.daemon.start()
    claimer = claim(rig)
    logged = complaints(rig, accel.syspath + "/sampling_frequency")
    assert len(logged) == 1 and "Input/output error" in logged[0], rig.daemon.log()
    assert (accel.directory / "sampling_frequency").read_text().strip() == "100"
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


def test_channel_replaced_by_a_directory(rig):
    """EISDIR on every read after the device was looked at again: complained about once,
    served meanwhile, and back to normal with a file again."""
    claimer = claim(rig)
    path = rig.accel.file_path("z")
    path.unlink()
    path.mkdir()
    rig.uevent(rig.accel, "change")
    daemon_path = rig.accel.daemon_path("z")
    wait_until(lambda: complaints(rig, daemon_path) or not rig.get_property("HasAccelerometer"),
               CHANGE, what="a complaint naming %s (or no accelerometer)" % daemon_path)
    for _ in range(10):
        assert_answers(rig)
        time.sleep(0.1)
    assert rig.get_property("Active") in (True, False)
    assert len(complaints(rig, daemon_path)) <= 1, complaints(rig, daemon_path)

    recreate_channels(rig)
    rig.accel.set_pose("landscape-right")
    rig.uevent(rig.accel, "add")
    rig.wait_for_property("HasAccelerometer", True, CHANGE)
    rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE)
    assert rig.get_property("Active") is True
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


def _fifo_channel(rig, channel="x"):
    path = rig.accel.file_path(channel)
    path.unlink()
    os.mkfifo(path)
    return path


def _release_fifo(path):
    """Unblock a reader stuck in open() or read() of the FIFO (a writer that writes a
    value and goes away), so that teardown can proceed."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return
    try:
        os.write(fd, b"0\n")
    finally:
        os.close(fd)


@pytest.mark.timeout(40)
def test_channel_that_blocks_on_open_does_not_hang_the_daemon(rig):
    """A channel file whose open() blocks (a FIFO without a writer stands in for a sysfs
    attribute that never answers) when the device is looked at again: the daemon must
    keep answering on the bus."""
    claimer = claim(rig)
    path = _fifo_channel(rig)
    try:
        rig.uevent(rig.accel, "change")
        time.sleep(0.5)
        for _ in range(3):
            assert_answers(rig, "a property read after a udev change of a blocking sensor")
            time.sleep(0.2)
        claimer.stop()
        rig.wait_for_property("Active", False, CHANGE)
    finally:
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            _release_fifo(path)
            time.sleep(0.1)


@pytest.mark.timeout(40)
def test_channel_that_blocks_at_start_does_not_keep_the_daemon_off_the_bus(make_rig):
    """Started with a channel whose open() blocks: the daemon must still come on the bus
    (without that sensor, or with it once it answers) instead of hanging before it owns
    its name until systemd's start timeout."""
    rig = make_rig(start_daemon=False)
    path = _fifo_channel(rig)
    try:
        try:
            rig.daemon.start(timeout=5.0)
        except RigError as err:
            raise AssertionError("the daemon did not own its name with a blocking channel: %s"
                                 % str(err)[:300]) from None
        assert_answers(rig)
    finally:
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            _release_fifo(path)
            time.sleep(0.1)


# ---------------------------------------------------------------------------
# the device goes away


def test_device_removed_while_claimed_and_read_pending(make_rig):
    """Removed while two clients claim and a ReadOrientation() waits: every call answers,
    HasAccelerometer goes false, a claim released meanwhile stays released, the other
    stays, and a device coming back is sampled for it."""
    rig = make_rig()
    first = claim(rig)
    second = rig.bus_client(start=True)
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    syspath = rig.accel.syspath

    # Gone from sysfs, the udev event late: the daemon still reads its open files.
    rig.accel.close()
    rig.testbed.remove_device(syspath)
    time.sleep(0.3)
    assert_answers(rig)
    send_uevent(rig.umockdev_dir, syspath, "remove", subsystem="iio")
    rig.wait_for_property("HasAccelerometer", False, CHANGE)
    assert rig.get_property("DeviceOrientation") == "unknown"
    started = time.monotonic()
    assert rig.read_orientation(timeout=5) == ("unknown", "unknown")
    assert time.monotonic() - started < ANSWER
    first.stop()
    assert_answers(rig)

    rig.accel = rig.add_accelerometer(name="iio:device0", gravity=(9.80665, 0.0, 0.0))
    rig.uevent(rig.accel, "add")
    rig.wait_for_property("HasAccelerometer", True, CHANGE)
    rig.wait_for_property("Active", True, CHANGE)  # the second claim survived
    rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE)
    second.close()
    rig.wait_for_property("Active", False, CHANGE)


def test_device_flapping(make_rig):
    """Remove/add events in quick succession, with and without the files: the daemon
    settles on what is there at the end."""
    rig = make_rig()
    claimer = claim(rig)
    syspath = rig.accel.syspath
    for _ in range(10):
        rig.uevent(rig.accel, "remove")
        rig.uevent(rig.accel, "add")
        rig.uevent(rig.accel, "change")
    assert_answers(rig)
    rig.wait_for_property("HasAccelerometer", True, CHANGE)
    rig.accel.set_pose("face-up")
    rig.wait_for_property("DeviceOrientation", "face-up", CHANGE)
    rig.accel.close()
    rig.testbed.remove_device(syspath)
    for _ in range(5):
        send_uevent(rig.umockdev_dir, syspath, "add", subsystem="iio")
        send_uevent(rig.umockdev_dir, syspath, "remove", subsystem="iio")
    rig.wait_for_property("HasAccelerometer", False, CHANGE)
    assert_answers(rig)
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


# ---------------------------------------------------------------------------
# thermal zones and batteries


def energy_config(**sampling):
    keys = {"MotionLingerMsec": "0", "ThermalIntervalMsec": "200"}
    keys.update(sampling)
    return "[Sampling]\n" + "".join("%s=%s\n" % kv for kv in keys.items())


def test_thermal_zone_unreadable_or_removed_while_sampling(make_rig, fault_injector):
    rig = make_rig(start_daemon=False, config_text=energy_config())
    zone = rig.add_thermal_zone("x86_pkg_temp", 92, [(90, "passive")], name="thermal_zone0")
    faults = Faults(rig, fault_injector)
    rig.daemon.start()
    claimer = claim(rig)
    rig.wait_for_property("ThermalState", "serious", CHANGE)

    # EIO on the temperature: skipped with one complaint, the state it had is kept.
    faults.inject("thermal_zone0/temp read EIO")
    wait_until(lambda: complaints(rig, "thermal_zone0"), CHANGE, what="a complaint naming the zone")
    time.sleep(1.0)  # several thermal reads
    assert len(complaints(rig, "thermal_zone0")) == 1, complaints(rig, "thermal_zone0")
    assert_answers(rig)
    faults.clear()

    # Garbage, then a file that is gone: still serving.
    rig.set_attribute(zone, "temp", "\x00\xff not a number")
    time.sleep(0.6)
    assert_answers(rig)
    zone_dir = rig.umockdev_dir / zone.lstrip("/")
    (zone_dir / "temp").unlink()
    time.sleep(0.6)
    assert_answers(rig)
    assert rig.get_property("Active") is True

    # The whole zone removed: it no longer counts.
    rig.testbed.remove_device(zone)
    rig.wait_for_property("ThermalState", "nominal", CHANGE)
    assert rig.get_property("LowEnergyReasons") == []
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


def test_battery_unreadable_or_removed(make_rig, fault_injector):
    rig = make_rig(start_daemon=False, config_text=energy_config())
    battery = rig.add_battery("BAT0", "Discharging", 10)
    faults = Faults(rig, fault_injector)
    rig.daemon.start()
    claimer = rig.bus_client(start=True)
    rig.wait_for_property("LowEnergyReasons", ["battery-low"], CHANGE)

    # Capacity unreadable (EIO) on the next change event, then garbage: serving throughout.
    faults.inject("BAT0/capacity read EIO", "BAT0/status read EIO")
    rig.uevent(battery)
    wait_until(lambda: faults.hits(), CHANGE, what="the battery read")
    assert_answers(rig)
    faults.clear()
    rig.set_attribute(battery, "capacity", "lots", uevent="change")
    time.sleep(0.3)
    assert_answers(rig)
    assert len(complaints(rig, "BAT0")) <= 3, complaints(rig, "BAT0")

    # Readable and low again, then removed: the trigger goes with it.
    rig.set_attribute(battery, "capacity", "10", uevent="change")
    rig.wait_for_property("LowEnergyReasons", ["battery-low"], CHANGE)
    rig.testbed.remove_device(battery)
    send_uevent(rig.umockdev_dir, battery, "remove", subsystem="power_supply")
    rig.wait_for_property("LowEnergyReasons", [], CHANGE)
    assert rig.get_property("Active") is True
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


# ---------------------------------------------------------------------------
# the configuration on reload


def reload_rig(make_rig, fault_injector=None):
    config = "[Energy]\nLowEnergyMode=on\n" + energy_config()
    rig = make_rig(start_daemon=False, config_text=config)
    faults = Faults(rig, fault_injector) if fault_injector else None
    rig.daemon.start()
    claimer = rig.bus_client(start=True)
    rig.wait_for_property("SampleIntervalMsec", 1500, CHANGE)
    return rig, faults, claimer


def assert_settings_kept(rig):
    props = rig.get_properties()
    assert (props["Active"], props["LowEnergyModeSetting"], props["LowEnergyReasons"],
            props["SampleIntervalMsec"]) == (True, "on", ["forced"], 1500), props


def test_config_removed_on_reload(make_rig):
    rig, _, _ = reload_rig(make_rig)
    rig.config_path.unlink()
    rig.reload()
    wait_until(lambda: complaints(rig, str(rig.config_path), worst=3), CHANGE,
               what="an error naming the missing file")
    assert_settings_kept(rig)


@pytest.mark.parametrize("error", ["EACCES", "EIO"])
def test_config_unreadable_on_reload(make_rig, fault_injector, error):
    """Permission denied (which chmod cannot show a root daemon) and EIO, injected."""
    rig, faults, _ = reload_rig(make_rig, fault_injector)
    if error == "EACCES":
        faults.inject("motion-orientationd.conf open EACCES")
    else:
        faults.inject("motion-orientationd.conf read EIO")
    rig.reload("[Energy]\nLowEnergyMode=off\n")  # would change things, if it could be read
    wait_until(lambda: complaints(rig, str(rig.config_path), worst=3), CHANGE,
               what="an error naming the unreadable file")
    assert faults.hits(), "the fault was not injected"
    assert_settings_kept(rig)
    faults.clear()
    rig.reload()  # readable again: the new text applies
    rig.wait_for_property("LowEnergyModeSetting", "off", CHANGE)
    assert rig.get_property("Active") is True


def test_config_replaced_by_a_directory_on_reload(make_rig):
    rig, _, _ = reload_rig(make_rig)
    rig.config_path.unlink()
    rig.config_path.mkdir()
    rig.reload()
    wait_until(lambda: complaints(rig, str(rig.config_path), worst=3), CHANGE,
               what="an error naming the directory")
    assert_settings_kept(rig)


def test_config_garbage_on_reload(make_rig):
    """Binary garbage and very long lines: reported, the claims stay, and the forced flag
    stays (the file's only LowEnergyMode line is bad)."""
    rig, _, _ = reload_rig(make_rig)
    garbage = (b"\x00\xff\xfe[Energy\n[Energy]\nLowEnergyMode=\xff\n" + b"A" * 20000 + b"=\n"
               + os.urandom(32 * 1024).replace(b"\n", b"#").replace(b"\r", b"#"))
    rig.config_path.write_bytes(garbage)
    rig.reload()
    wait_until(lambda: complaints(rig, "LowEnergyMode"), CHANGE, what="a complaint about the key")
    assert_answers(rig)
    props = rig.get_properties()
    # (The interval may differ: the other keys of the old file are gone with it.)
    assert (props["Active"], props["LowEnergyModeSetting"], props["LowEnergyReasons"]) == (
        True, "on", ["forced"]), props
    lines = rig.daemon.log_lines()
    assert max(len(line) for line in lines) < 64 * 1024, "a log line of %d bytes" % max(
        len(line) for line in lines)


def test_long_config_is_read_whole_or_refused_aloud(make_rig):
    """A configuration longer than 64 KiB (long comments): a key after that point is
    applied, or the daemon says that it stopped reading; it is never dropped silently."""
    rig, _, _ = reload_rig(make_rig)
    text = "# " + "x" * 100 * 1024 + "\n[Energy]\nLowEnergyMode=off\n"
    rig.reload(text)
    deadline = time.monotonic() + CHANGE
    while time.monotonic() < deadline:
        if rig.get_property("LowEnergyModeSetting") == "off":
            break
        if complaints(rig, str(rig.config_path)):
            break
        time.sleep(0.1)
    setting = rig.get_property("LowEnergyModeSetting")
    assert setting == "off" or complaints(rig, str(rig.config_path)), (
        "the key after 64 KiB was ignored without a word (LowEnergyModeSetting=%s):\n%s"
        % (setting, "\n".join(rig.daemon.log_lines()[-8:])))
    assert rig.get_property("Active") is True


def test_reload_storm_keeps_claims(make_rig):
    rig, _, claimer = reload_rig(make_rig)
    for _ in range(50):
        rig.daemon.send_signal(signal.SIGHUP)
    time.sleep(0.5)
    assert_answers(rig)
    assert_settings_kept(rig)
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


# ---------------------------------------------------------------------------
# the bus


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("claimed", [False, True], ids=["idle", "sampling"])
def test_bus_goes_away_daemon_exits_non_zero_at_once(rig, how, claimed):
    """The daemon does not reconnect: it exits with status 1 at once, for systemd's
    Restart=on-failure to start it again on the new bus."""
    # Fully up first: the name is owned before the energy sources are set up.
    wait_until(lambda: any("serving" in line for line in rig.daemon.log_lines()), CHANGE,
               what="the daemon serving")
    if claimed:
        claim(rig)
    bus = rig.bus.proc
    bus.send_signal(how)
    started = time.monotonic()
    try:
        code = rig.daemon.proc.wait(5)
    except subprocess.TimeoutExpired:
        raise AssertionError("the daemon outlived the bus by 5 s:\n%s" % rig.daemon.log()[-2000:])
    seconds = time.monotonic() - started
    assert code == 1, "exit status %r:\n%s" % (code, rig.daemon.log()[-2000:])
    assert seconds < 1.0, "took %.2f s to notice" % seconds
    assert complaints(rig, "", worst=3), "no error logged:\n%s" % rig.daemon.log()


def test_unit_restarts_on_failure():
    unit = (REPO_ROOT / "systemd/motion-orientationd.service").read_text()
    assert re.search(r"^Restart=on-failure$", unit, re.M), "the unit does not restart on failure"
    assert re.search(r"^Type=dbus$", unit, re.M)


def test_restart_after_the_bus_came_back(make_rig):
    """What systemd does after the exit above: a new daemon on a new bus serves again."""
    rig = make_rig()
    rig.bus.proc.kill()
    assert rig.daemon.proc.wait(5) == 1
    kill_process(rig.daemon.proc)  # reaped; the rig starts a new one below
    rig.bus.stop()
    rig.bus.start()
    # The new bus has a new guid in its address (sd-bus refuses a mismatch with EPERM).
    rig.daemon.env["DBUS_SYSTEM_BUS_ADDRESS"] = rig.bus.address
    rig.daemon.start()
    claimer = claim(rig)
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)


def test_fifo_path_sanity(tmp_path):
    """Control for the blocking tests: a FIFO without a writer really blocks open()."""
    path = tmp_path / "fifo"
    os.mkfifo(path)
    assert stat.S_ISFIFO(os.stat(path).st_mode)
    child = subprocess.Popen(["/usr/bin/python3", "-c", "open(%r).read()" % str(path)])
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(0.5)
    finally:
        _release_fifo(path)
        child.wait(5)
    assert Path(path).exists()
