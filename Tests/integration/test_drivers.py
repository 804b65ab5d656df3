"""Real drivers' layouts: change-only HID sensor hubs, rate files as each driver names them,
raw values with a fraction, files replaced underneath (see docs/drivers.md)."""

import time

import pytest

from rig import STILL_INTERVAL_MSEC, wait_until
from rig.contract import POSES
from rig.drivers import attribute, bmc150, cros_ec, feed, hid_hub, mma8452

G = 9.80665


# [Sampling] with the linger at the moving interval: a test that polls the device's rate file
# sees the moving rate for the whole linger, not only for the tenths of a second a turn takes.
MOVING_LINGER = "[Sampling]\nLingerIntervalMsec=40\n"


def started(make_rig, add, config_text="", **kwargs):
    rig = make_rig(accelerometer=False, start_daemon=False, config_text=config_text)
    rig.accel = add(rig, **kwargs)
    rig.daemon.start()
    return rig


def quiet_wakeups(rig, seconds):
    """The daemon's context switches over `seconds`, with no bus traffic meanwhile."""
    before = rig.daemon.ctxt_switches()[0]
    time.sleep(seconds)
    return rig.daemon.ctxt_switches()[0] - before


# -- item 1: a change-only HID sensor hub


def test_a_still_change_only_hub_decides_from_its_power_up_report_and_then_costs_nothing(make_rig):
    rig = started(make_rig, hid_hub)
    accel = rig.accel
    rig.bus_client(start=True)
    wait_until(lambda: attribute(accel, "buffer/enable") == "1", 5.0, what="buffer enabled")
    assert attribute(accel, "trigger/current_trigger") == "accel_3d-dev0"
    # Power-up: the hub reports once, then (lying still) never again.
    feed(accel, [POSES["portrait"]])
    rig.wait_for_property("DeviceOrientation", "portrait", 2.0)
    # Still, claimed, decided: no wakeups at all (the 1 s buffer deadline has passed too).
    time.sleep(1.5)
    wakeups = quiet_wakeups(rig, 4.0)
    assert wakeups <= 2, "a still change-only hub woke the daemon %d times in 4 s" % wakeups
    assert rig.get_property("Active") is True
    assert attribute(accel, "buffer/enable") == "1"
    log = rig.daemon.log()
    assert "polling the channels instead" not in log, log
    # From rest, a turn: the hub reports while it turns, then falls silent in the new pose.
    started_at = time.monotonic()
    feed(accel, [(G * 0.5, -G * 0.87, 0), (G * 0.87, -G * 0.5, 0), POSES["landscape-right"]],
         spacing=0.04)
    rig.wait_for_property("DeviceOrientation", "landscape-right", 2.0)
    reaction = time.monotonic() - started_at
    assert reaction < 1.0, "reaction from rest took %.2f s" % reaction
    # And silence again costs nothing.
    time.sleep(1.0)
    wakeups = quiet_wakeups(rig, 3.0)
    assert wakeups <= 2, "after the turn the daemon woke %d times in 3 s" % wakeups


def test_a_change_only_hub_runs_at_the_moving_rate_and_a_0_hz_hub_gets_one(make_rig):
    rig = started(make_rig, hid_hub, rate="0.000000")
    accel = rig.accel
    assert attribute(accel, "in_accel_sampling_frequency") == "0.000000"  # idle: untouched
    client = rig.bus_client(start=True)
    # Still or moving, the hub reports only changes: its rate serves the reaction (25 Hz
    # for the 40 ms moving interval), and a report interval of 0 (no reports) is never left.
    wait_until(lambda: attribute(accel, "in_accel_sampling_frequency") == "25", 5.0, what="25 Hz")
    feed(accel, [POSES["portrait"]])
    rig.wait_for_property("DeviceOrientation", "portrait", 2.0)
    assert rig.get_property("SampleIntervalMsec") == 40
    client.close()
    code, _ = rig.daemon.stop()
    assert code == 0
    assert attribute(accel, "in_accel_sampling_frequency") == "0.000000", "not restored on exit"


def test_a_hub_silent_even_at_power_up_is_read_once_and_keeps_its_buffer(make_rig):
    rig = started(make_rig, hid_hub, gravity=POSES["landscape-left"])
    rig.bus_client(start=True)
    # Nothing comes through the buffer: after its deadline the raw channels answer once.
    rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
    assert attribute(rig.accel, "buffer/enable") == "1"
    assert "polling the channels instead" not in rig.daemon.log()
    # The buffer still serves the next change.
    feed(rig.accel, [POSES["portrait"]] * 2)
    rig.wait_for_property("DeviceOrientation", "portrait", 3.0)


def test_read_orientation_on_a_change_only_hub(make_rig):
    rig = started(make_rig, hid_hub)
    accel = rig.accel

    def report_when_enabled():
        wait_until(lambda: attribute(accel, "buffer/enable") == "1", 5.0, what="buffer enabled")
        feed(accel, [POSES["portrait-upside-down"]])

    import threading
    feeder = threading.Thread(target=report_when_enabled)
    feeder.start()
    try:
        assert rig.read_orientation(timeout=5.0) == ("portrait-upside-down", "portrait-upside-down")
    finally:
        feeder.join()
    wait_until(lambda: attribute(accel, "buffer/enable") == "0", 5.0, what="buffer disabled")


def test_a_hub_without_a_change_sensitivity_that_falls_silent_is_polled(make_rig):
    """Without in_accel_hysteresis, a buffer silent from its start whose channels, read once,
    send nothing through it either is a fault: polled (a real hub's answer to that read
    comes back through its buffer, test_firmware.py in Tests/kernel)."""
    rig = started(make_rig, hid_hub, change_only=False, gravity=POSES["face-up"])
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "face-up", 5.0)
    wait_until(lambda: "nor after a read of its channels; polling the channels instead" in rig.daemon.log(),
               5.0, what="the fall back to polling")


# -- item 4: rates as each driver names them


def wait_for_rate(accel, name, value, timeout=10.0):
    wait_until(lambda: attribute(accel, name) == value, timeout,
               what="%s == %s (reads %s)" % (name, value, attribute(accel, name)))


@pytest.mark.parametrize("add, name, original, still, moving", [
    # The generic list pairs with in_accel_sampling_frequency; a polled device gets at
    # least 10 Hz (a raw read may wait a whole period), the lowest offered at or above it.
    (bmc150, "in_accel_sampling_frequency", "125.000000", "15.62", "31.26"),
    (mma8452, "in_accel_sampling_frequency", "800.000000", "12.5", "50"),
    # cros-ec's "off, minimum, maximum" is a range: 25 Hz exactly while moving.
    (cros_ec, "sampling_frequency", "0.000000", "12.5", "25"),
    # No list (iio-sensor-proxy's test device): the rate the plan needs, never under 10 Hz
    # while polled, is written and read back.
    (lambda rig: rig.add_accelerometer(extra_attributes={"sampling_frequency": "5.2"}),
     "sampling_frequency", "5.2", "10", "25"),
], ids=["bmc150", "mma8452", "cros-ec", "no-list"])
def test_the_rate_serves_the_plan_and_is_restored(make_rig, add, name, original, still, moving):
    # The linger at the moving rate, so that rate lasts the 5 s linger and not only the turn.
    rig = started(make_rig, add, config_text=MOVING_LINGER)
    accel = rig.accel
    client = rig.bus_client(start=True)
    wait_until(lambda: rig.get_property("SampleIntervalMsec") == STILL_INTERVAL_MSEC, 10.0,
               what="still interval")
    wait_for_rate(accel, name, still)
    accel.set_pose("landscape-left")
    wait_for_rate(accel, name, moving, 5.0)
    rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
    client.close()
    code, _ = rig.daemon.stop()
    assert code == 0
    assert attribute(accel, name) == original, "not restored on exit"


def test_a_polled_device_under_10_hz_is_raised_when_taken(make_rig):
    """Before any claim, a polled device slower than 10 Hz is raised to the lowest offered
    rate at or above it (12.5 Hz here), so its first raw read does not wait long."""
    rig = make_rig(accelerometer=False, start_daemon=False)
    rig.accel = mma8452(rig)
    (rig.accel.directory / "in_accel_sampling_frequency").write_text("6.250000\n")
    rig.daemon.start()
    wait_for_rate(rig.accel, "in_accel_sampling_frequency", "12.5", 5.0)
    code, _ = rig.daemon.stop()
    assert code == 0
    assert attribute(rig.accel, "in_accel_sampling_frequency") == "6.250000"


def test_a_buffered_device_gets_the_lowest_rate_that_serves_the_plan(make_rig):
    """Buffered, an mma8452 at 800 Hz would deliver 800 scans a second while the plan asks
    for one every 750 ms: it gets 1.56 Hz (no floor: scans come on their own)."""
    import threading
    rig = started(make_rig, mma8452, buffered=True)
    accel = rig.accel
    rig.bus_client(start=True)
    done = threading.Event()

    def device():  # the chip keeps scanning at (about) its rate
        while not done.is_set():
            if attribute(accel, "buffer/enable") == "1":
                feed(accel, [POSES["portrait"]] * 2)
            time.sleep(0.1)

    scanner = threading.Thread(target=device)
    scanner.start()
    try:
        wait_until(lambda: rig.get_property("SampleIntervalMsec") == STILL_INTERVAL_MSEC, 15.0,
                   what="still interval")
        wait_for_rate(accel, "in_accel_sampling_frequency", "1.56", 5.0)
        assert attribute(accel, "trigger/current_trigger") == "mma8452-dev0"
    finally:
        done.set()
        scanner.join()


def test_a_buffer_faster_than_the_still_plan_is_polled_instead(make_rig):
    """A buffered bmc150 scans at 15.62 Hz at the slowest, and every scan would wake the daemon
    where the still plan reads every 750 ms: its channels are polled at the plan's rate
    instead (said once), and it follows a turn. An mma8452, which goes down to 1.56 Hz, keeps its
    buffer (test_a_buffered_device_gets_the_lowest_rate_that_serves_the_plan)."""
    rig = started(make_rig, bmc150, buffered=True)
    rig.bus_client(start=True)
    wait_until(lambda: rig.get_property("SampleIntervalMsec") == STILL_INTERVAL_MSEC, 15.0,
               what="still interval")
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
    assert attribute(rig.accel, "buffer/enable") == "0"
    log = rig.daemon.log()
    assert log.count("polling its channels, not its buffer: at its slowest rate, 15.62 Hz") == 1, log
    assert "(buffered)" not in log, log


# -- item 3: raw values with a fraction; buffers without a matching trigger


def test_raw_values_with_a_fraction_are_read_as_numbers(make_rig):
    rig = make_rig(accelerometer=False, start_daemon=False)
    rig.accel = rig.add_accelerometer(scale=0.01)
    for axis, text in zip("xyz", ("0", "-980.6", "0.4")):
        rig.accel.set_raw(axis, text)
    rig.daemon.start()
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    for axis, text in zip("xyz", ("-980.6", "0.5", "-0.25")):
        rig.accel.set_raw(axis, text)
    rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
    assert "malformed" not in rig.daemon.log()


def test_a_buffer_without_a_matching_trigger_is_enabled_without_one(make_rig):
    rig = make_rig(accelerometer=False, start_daemon=False)
    rig.accel = hid_hub(rig, change_only=False, gravity=POSES["face-up"])
    # No trigger set at probe (the hub driver sets its own; this device's driver does not),
    # and the only trigger belongs to some other device.
    (rig.accel.directory / "trigger/current_trigger").write_text("\n")
    (rig.umockdev_dir / "sys/devices/trigger0/name").write_text("other-dev7\n")
    rig.daemon.start()
    rig.bus_client(start=True)
    wait_until(lambda: attribute(rig.accel, "buffer/enable") == "1", 5.0, what="buffer enabled")
    assert attribute(rig.accel, "trigger/current_trigger") == ""
    deadline = time.monotonic() + 5
    while rig.get_property("DeviceOrientation") != "landscape-right":
        assert time.monotonic() < deadline, "no landscape-right from the buffer"
        feed(rig.accel, [POSES["landscape-right"]] * 3)
        time.sleep(0.06)
    assert any("enabling the buffer without one" in l for l in rig.daemon.log_lines())


# -- a channel file replaced underneath (a new inode, as umockdev's set_attribute does)


def test_a_replaced_channel_file_is_opened_again(make_rig):
    rig = make_rig()
    rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
    x, y, z = rig.accel.raw_for(*POSES["landscape-right"])
    for axis, value in zip("xyz", (x, y, z)):
        rig.set_attribute(rig.accel.syspath, "in_accel_%s_raw" % axis, value)
    rig.wait_for_property("DeviceOrientation", "landscape-right", 5.0)
