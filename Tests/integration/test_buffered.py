"""Buffered IIO accelerometers: scans read from the device node.

The fake device has scan_elements (channel types, indices, enables), a buffer, a trigger
offered by the driver, and a FIFO in the testbed's /dev standing in for /dev/iio:device0,
into which the test writes scans the way the kernel would.
"""

import os
import struct
import time

import pytest

from rig import Rig, wait_until
from rig.contract import DEFAULT_SCALE
from rig.drivers import ScanLayout as Layout, scan_elements
from test_faults import Faults, fault_injector  # noqa: F401  (the injector's fixture)

G_RAW = 1000  # raw counts per g (scale 0.00980665)


LAYOUTS = {
    # 16 significant bits in 32-bit little-endian storage: offsets 0, 4, 8; timestamp at 16.
    "le:s16/32>>0": Layout("le:s16/32>>0", lambda v: struct.pack("<i", v), 4, 16, 24),
    # 12 significant bits, big-endian, shifted left by 4 in 16-bit storage: offsets 0, 2, 4;
    # timestamp at 8. Values must fit 12 bits signed: use 1 g = 1000 with a scale that fits.
    "be:s12/16>>4": Layout("be:s12/16>>4",
                           lambda v: struct.pack(">H", (v << 4) & 0xFFFF), 2, 8, 16),
}


def buffered_rig(layout, with_trigger=True, config_text="", raw_channels=True, start=True,
                 scale=DEFAULT_SCALE):
    rig = Rig(accelerometer=False, start_daemon=False, config_text=config_text)
    attributes = scan_elements(layout, length="128")
    # The polled channels say face-up: a decision of anything upright came from the buffer.
    rig.accel = rig.add_accelerometer(gravity=(0, 0, -9.80665), scale=scale, extra_attributes=attributes,
                                      extra_properties={"DEVNAME": "iio:device0"})
    if with_trigger:
        rig.add_device("iio", "trigger0", {"name": "accel_3d-dev0"})
    node = rig.umockdev_dir / "dev" / "iio:device0"
    node.parent.mkdir(exist_ok=True)
    if node.exists():
        node.unlink()
    os.mkfifo(node)
    rig.fifo = os.open(node, os.O_RDWR | os.O_NONBLOCK)
    if not raw_channels:
        for axis in "xyz":
            rig.accel.file_path(axis).unlink()
    if start:
        rig.daemon.start()
    return rig


def feed(rig, layout, vectors, spacing=0.02):
    """Writes one scan per raw vector in a single write, timestamps `spacing` apart and
    ending now."""
    now = time.monotonic_ns()
    count = len(vectors)
    data = b"".join(layout.scan(x, y, z, now - int((count - 1 - i) * spacing * 1e9))
                    for i, (x, y, z) in enumerate(vectors))
    os.write(rig.fifo, data)


def feed_until(rig, layout, raw, device, timeout=5.0):
    """Feeds scans of one raw vector until the daemon decides `device`."""
    deadline = time.monotonic() + timeout
    while rig.get_property("DeviceOrientation") != device:
        assert time.monotonic() < deadline, "no %s from the buffer" % device
        feed(rig, layout, [raw] * 3)
        time.sleep(0.06)


def attribute(rig, name):
    return (rig.accel.directory / name).read_text().strip()


@pytest.mark.parametrize("type_text", sorted(LAYOUTS))
def test_scans_give_the_right_orientations(make_rig, type_text):
    layout = LAYOUTS[type_text]
    rig = buffered_rig(layout)
    try:
        client = rig.bus_client(start=True)
        wait_until(lambda: attribute(rig, "buffer/enable") == "1", 5.0, what="buffer enabled")
        assert attribute(rig, "trigger/current_trigger") == "accel_3d-dev0"
        for axis in "xyz":
            assert attribute(rig, "scan_elements/in_accel_%s_en" % axis) == "1"
        assert attribute(rig, "scan_elements/in_timestamp_en") == "1"
        for raw, device in [((0, -G_RAW, 0), "portrait"), ((G_RAW, 0, 0), "landscape-right"),
                            ((0, G_RAW, 0), "portrait-upside-down"),
                            ((-G_RAW, 0, 0), "landscape-left")]:
            deadline = time.monotonic() + 5
            while rig.get_property("DeviceOrientation") != device:
                assert time.monotonic() < deadline, "no %s from the buffer" % device
                feed(rig, layout, [raw] * 3)
                time.sleep(0.06)
        client.close()
        # Sampling stopped: the buffer is off again, the channels stay enabled as iio-sensor-proxy
        # leaves them (switched off on exit: test_scan_elements_as_iio_sensor_proxy_leaves_them_while_idle).
        wait_until(lambda: attribute(rig, "buffer/enable") == "0", 5.0, what="buffer disabled")
        for axis in "xyz":
            assert attribute(rig, "scan_elements/in_accel_%s_en" % axis) == "1"
        assert not any("polling the channels instead" in l for l in rig.daemon.log_lines())
    finally:
        rig.close()


def test_every_scan_counts_with_its_timestamp(make_rig):
    """One write holding a whole second at 50 Hz: portrait, then a quarter turn. With the
    scans' own timestamps the turn has held long enough by the last scan, so it is decided
    from this one write; were the scans taken at their arrival time, it could not be."""
    layout = LAYOUTS["le:s16/32>>0"]
    rig = buffered_rig(layout)
    try:
        rig.bus_client(start=True)
        wait_until(lambda: attribute(rig, "buffer/enable") == "1", 5.0, what="buffer enabled")
        feed(rig, layout, [(0, -G_RAW, 0)] * 10)
        rig.wait_for_property("DeviceOrientation", "portrait", 5.0)
        time.sleep(0.5)
        feed(rig, layout, [(0, -G_RAW, 0)] * 10 + [(G_RAW, 0, 0)] * 40)
        rig.wait_for_property("DeviceOrientation", "landscape-right", 2.0)
    finally:
        rig.close()


def test_silent_buffer_falls_back_to_polling(make_rig):
    rig = buffered_rig(LAYOUTS["le:s16/32>>0"])
    try:
        rig.bus_client(start=True)
        # Nothing is written to the device node: after its deadline the daemon polls the
        # channel files, which say face-up.
        rig.wait_for_property("DeviceOrientation", "face-up", 5.0)
        # Its channels are read once first; nothing comes through the buffer after that either.
        wait_until(lambda: any("polling the channels instead" in l for l in rig.daemon.log_lines()), 5.0,
                   what="the fall back to polling")
        assert attribute(rig, "buffer/enable") == "0"
        rig.accel.set_pose("landscape-left")
        rig.wait_for_property("DeviceOrientation", "landscape-left", 5.0)
    finally:
        rig.close()


def test_no_trigger_offered_and_a_silent_buffer_means_polling(make_rig):
    """Without a trigger the buffer is enabled anyway (test_drivers.py has one that then
    delivers); this one stays silent, as a driver that needs a trigger would, and is polled."""
    rig = buffered_rig(LAYOUTS["le:s16/32>>0"], with_trigger=False)
    try:
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "face-up", 5.0)
        wait_until(lambda: any("polling the channels instead" in l for l in rig.daemon.log_lines()), 5.0,
                   what="the fall back to polling")
        assert any("enabling the buffer without one" in l for l in rig.daemon.log_lines()), rig.daemon.log()
    finally:
        rig.close()


def test_scan_elements_as_iio_sensor_proxy_leaves_them_while_idle(make_rig):
    """Enabled when the sensor is taken, with the buffer off; kept while idle between claims;
    switched off on exit."""
    layout = LAYOUTS["le:s16/32>>0"]
    rig = buffered_rig(layout)
    enables = ["scan_elements/in_accel_%s_en" % axis for axis in "xyz"] + ["scan_elements/in_timestamp_en"]
    try:
        assert rig.get_property("Active") is False
        assert [attribute(rig, name) for name in enables] == ["1"] * 4
        assert attribute(rig, "buffer/enable") == "0"
        client = rig.bus_client(start=True)
        wait_until(lambda: attribute(rig, "buffer/enable") == "1", 5.0, what="buffer enabled")
        feed_until(rig, layout, (0, -G_RAW, 0), "portrait")
        client.close()
        wait_until(lambda: attribute(rig, "buffer/enable") == "0", 5.0, what="buffer disabled")
        assert [attribute(rig, name) for name in enables] == ["1"] * 4
        code, _ = rig.daemon.stop()
        assert code == 0
        assert [attribute(rig, name) for name in enables] == ["0"] * 4
    finally:
        rig.close()


def test_a_buffer_without_a_scale_reads_raw_counts(make_rig):
    """No scale file: raw counts (1000 a g here, 102 g taken as m/s^2) still give every
    orientation; only the direction counts."""
    layout = LAYOUTS["le:s16/32>>0"]
    rig = buffered_rig(layout, raw_channels=False, scale=None)
    try:
        rig.bus_client(start=True)
        wait_until(lambda: attribute(rig, "buffer/enable") == "1", 5.0, what="buffer enabled")
        for raw, device in [((0, -G_RAW, 0), "portrait"), ((-G_RAW, 0, 0), "landscape-left"),
                            ((0, 0, -G_RAW), "face-up")]:
            feed_until(rig, layout, raw, device)
    finally:
        rig.close()


def test_buffer_disabled_on_exit(make_rig):
    rig = buffered_rig(LAYOUTS["be:s12/16>>4"])
    try:
        rig.bus_client(start=True)
        wait_until(lambda: attribute(rig, "buffer/enable") == "1", 5.0, what="buffer enabled")
        feed(rig, LAYOUTS["be:s12/16>>4"], [(0, -G_RAW, 0)] * 3)
        code, _ = rig.daemon.stop()
        assert code == 0
        assert attribute(rig, "buffer/enable") == "0"
    finally:
        rig.close()


def test_buffer_that_cannot_be_switched_off_is_reported(make_rig, fault_injector):
    """When sampling stops and the buffer refuses to be disabled, the daemon says so once,
    with the path and errno, and keeps serving; the next claim starts it again."""
    layout = LAYOUTS["le:s16/32>>0"]
    rig = buffered_rig(layout, start=False)
    try:
        faults = Faults(rig, fault_injector)
        rig.daemon.start()
        client = rig.bus_client(start=True)
        wait_until(lambda: attribute(rig, "buffer/enable") == "1", 5.0, what="buffer enabled")
        feed_until(rig, layout, (0, -G_RAW, 0), "portrait")
        faults.inject("buffer/enable open EIO")
        client.close()
        rig.wait_for_property("Active", False, 5.0)
        path = rig.accel.syspath + "/buffer/enable"
        wait_until(lambda: any(path in l for l in rig.daemon.log_lines()), 5.0,
                   what="a complaint naming %s" % path)
        logged = [l for l in rig.daemon.log_lines() if path in l]
        assert len(logged) == 1 and logged[0].startswith("<4>") and "Input/output error" in logged[0], logged
        assert attribute(rig, "buffer/enable") == "1"  # what the refusal left behind
        faults.clear()
        client = rig.bus_client(start=True)
        feed_until(rig, layout, (G_RAW, 0, 0), "landscape-right")
        client.close()
        wait_until(lambda: attribute(rig, "buffer/enable") == "0", 5.0, what="buffer disabled")
    finally:
        rig.close()


def test_scan_elements_are_written_only_with_the_buffer_off(make_rig, fault_injector):
    """The kernel refuses a scan element's write while the buffer is enabled (EBUSY; the
    injector enforces it): when the buffer cannot be switched off at exit, the channels are
    left on and that is said, with no write refused."""
    layout = LAYOUTS["le:s16/32>>0"]
    rig = buffered_rig(layout, start=False)
    try:
        faults = Faults(rig, fault_injector)
        rig.daemon.start()
        rig.bus_client(start=True)
        wait_until(lambda: attribute(rig, "buffer/enable") == "1", 5.0, what="buffer enabled")
        feed_until(rig, layout, (0, -G_RAW, 0), "portrait")
        faults.inject("buffer/enable open EIO")
        code, _ = rig.daemon.stop()
        assert code == 0
        assert attribute(rig, "buffer/enable") == "1"  # what the refusal left behind
        assert not [hit for hit in faults.hits() if "busy" in hit], faults.hits()
        assert not [l for l in rig.daemon.log_lines() if "Device or resource busy" in l]
        assert any("leaving the scan elements on" in l for l in rig.daemon.log_lines())
        assert attribute(rig, "scan_elements/in_accel_x_en") == "1"
    finally:
        rig.close()


def test_prefer_buffer_no_polls(make_rig):
    rig = buffered_rig(LAYOUTS["le:s16/32>>0"], config_text="[Sensor]\nPreferBuffer=no\n")
    try:
        rig.bus_client(start=True)
        rig.wait_for_property("DeviceOrientation", "face-up", 5.0)
        assert attribute(rig, "buffer/enable") == "0"
        assert not any("buffered" in l for l in rig.daemon.log_lines())
    finally:
        rig.close()


@pytest.mark.parametrize("config_text", ["", "[Sensor]\nPreferBuffer=no\n"])
def test_a_device_without_raw_channels_is_read_through_its_buffer(make_rig, config_text):
    layout = LAYOUTS["le:s16/32>>0"]
    rig = buffered_rig(layout, config_text=config_text, raw_channels=False)
    try:
        assert rig.get_property("HasAccelerometer") is True
        rig.bus_client(start=True)
        wait_until(lambda: attribute(rig, "buffer/enable") == "1", 5.0, what="buffer enabled")
        for raw, device in [((0, -G_RAW, 0), "portrait"), ((-G_RAW, 0, 0), "landscape-left")]:
            deadline = time.monotonic() + 5
            while rig.get_property("DeviceOrientation") != device:
                assert time.monotonic() < deadline, "no %s from the buffer" % device
                feed(rig, layout, [raw] * 3)
                time.sleep(0.06)
    finally:
        rig.close()


def test_a_silent_buffer_without_raw_channels_is_kept(make_rig):
    layout = LAYOUTS["le:s16/32>>0"]
    rig = buffered_rig(layout, raw_channels=False)
    try:
        rig.bus_client(start=True)
        wait_until(lambda: any("has no raw channels to poll, only its buffer" in l
                               for l in rig.daemon.log_lines()), 5.0, what="the warning")
        assert not any("polling the channels instead" in l for l in rig.daemon.log_lines())
        assert attribute(rig, "buffer/enable") == "1"
        # It delivers late: the orientation comes from it.
        deadline = time.monotonic() + 5
        while rig.get_property("DeviceOrientation") != "landscape-right":
            assert time.monotonic() < deadline, "nothing from the late buffer"
            feed(rig, layout, [(G_RAW, 0, 0)] * 3)
            time.sleep(0.06)
    finally:
        rig.close()
