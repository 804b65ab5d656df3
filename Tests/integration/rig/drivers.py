"""Fake IIO accelerometers laid out the way real kernel drivers lay them out.

Each replica has the attribute names, scale text, scan types, triggers and rate files of its
driver (see docs/drivers.md): hid-sensor-accel-3d (HID sensor hubs), bmc150-accel,
kxcjk-1013, mma8452 and cros-ec; Tests/kernel compares the first three with what the real
drivers make (in a VM: make test-kernel). A buffered replica has a FIFO in the testbed's /dev
standing in for /dev/iio:device0, into which the test writes scans the way the kernel would
(`feed`).
"""

import os
import struct
import time

# Every replica is the testbed's first IIO device: iio:device0, trigger "<name>-dev0".
DEVICE = "iio:device0"


class ScanLayout:
    """x, y, z and a timestamp in one scan, as the driver's scan_elements describe them."""

    def __init__(self, type_text, pack_axis, axis_bytes, timestamp_offset, size):
        self.type_text = type_text
        self.pack_axis = pack_axis
        self.axis_bytes = axis_bytes
        self.timestamp_offset = timestamp_offset
        self.size = size

    def scan(self, x, y, z, stamp_ns):
        data = bytearray(self.size)
        for i, value in enumerate((x, y, z)):
            data[i * self.axis_bytes:(i + 1) * self.axis_bytes] = self.pack_axis(value)
        data[self.timestamp_offset:self.timestamp_offset + 8] = struct.pack("<q", stamp_ns)
        return bytes(data)


# hid-sensor-accel-3d: realbits from the report (16 here), 32-bit storage, timestamp index 3.
HID_LAYOUT = ScanLayout("le:s16/32>>0", lambda v: struct.pack("<i", v), 4, 16, 24)
# bmc150-accel: 12 bits, little-endian, shifted left by 4 in 16-bit storage.
BMC150_LAYOUT = ScanLayout("le:s12/16>>4", lambda v: struct.pack("<H", (v << 4) & 0xFFFF), 2, 8, 16)
# mma8452: 12 bits, big-endian, shifted left by 4 in 16-bit storage.
MMA8452_LAYOUT = ScanLayout("be:s12/16>>4", lambda v: struct.pack(">H", (v << 4) & 0xFFFF), 2, 8, 16)


def scan_elements(layout, length="2", trigger=""):
    """The buffer, trigger and scan_elements attributes of a buffered device, all off (the
    kernel's kfifo keeps 2 scans unless told otherwise, and wakes a reader at each); the IIO
    core's buffer/data_available and buffer/direction with them. `trigger`: the one the
    driver sets itself at probe (hid-sensor-accel-3d: its own), else none."""
    attributes = {"buffer/enable": "0", "buffer/length": length, "buffer/watermark": "1",
                  "buffer/data_available": "0", "buffer/direction": "in",
                  "trigger/current_trigger": trigger}
    for index, axis in enumerate("xyz"):
        attributes["scan_elements/in_accel_%s_en" % axis] = "0"
        attributes["scan_elements/in_accel_%s_index" % axis] = str(index)
        attributes["scan_elements/in_accel_%s_type" % axis] = layout.type_text
    attributes["scan_elements/in_timestamp_en"] = "0"
    attributes["scan_elements/in_timestamp_index"] = "3"
    attributes["scan_elements/in_timestamp_type"] = "le:s64/64>>0"
    return attributes


def _add(rig, name, attributes, gravity, scale, buffered, layout, trigger=True, properties=None,
         current_trigger=""):
    properties = dict(properties or {})
    # The IIO core gives every device its timestamp clock.
    attributes.setdefault("current_timestamp_clock", "realtime")
    if buffered:
        attributes.update(scan_elements(layout, trigger=current_trigger))
        properties["DEVNAME"] = DEVICE
    accel = rig.add_accelerometer(name=DEVICE, scale=scale, gravity=gravity, extra_attributes=attributes,
                                  extra_properties=properties, without=("sampling_frequency",))
    accel.layout = layout
    accel.fifo = None
    if buffered:
        if trigger:
            rig.add_device("iio", "trigger0", {"name": "%s-dev0" % attributes["name"]})
        node = rig.umockdev_dir / "dev" / DEVICE
        node.parent.mkdir(exist_ok=True)
        if node.exists():
            node.unlink()
        os.mkfifo(node)
        accel.fifo = os.open(node, os.O_RDWR | os.O_NONBLOCK)
    return accel


def hid_hub(rig, rate="10.000000", change_only=True, gravity=(0, -9.80665, 0), buffered=True,
            properties=None, trigger=True):
    """hid-sensor-accel-3d: name accel_3d, shared in_accel_{offset,scale,sampling_frequency}
    (the report interval, no _available list; 0 until one is written on some hubs) and
    in_accel_hysteresis (the change sensitivity; unreadable on a hub without one); units of 0.01 g (scale 0.098066500). The
    driver sets its own trigger at probe (trigger/current_trigger reads accel_3d-dev0)."""
    attributes = {"name": "accel_3d", "in_accel_offset": "0", "in_accel_sampling_frequency": rate}
    # The driver makes in_accel_hysteresis on every hub; without a sensitivity in the hub's
    # report a read fails (EINVAL), which an empty file stands in for here.
    attributes["in_accel_hysteresis"] = "0.050000" if change_only else ""
    return _add(rig, "accel_3d", attributes, gravity, 0.0980665, buffered, HID_LAYOUT, trigger=trigger,
                properties=properties, current_trigger="accel_3d-dev0" if buffered else "")


# bmc150-accel's scale at its default range, +-4 g (12 bits).
BMC150_SCALE = 0.019154


def bmc150(rig, gravity=(0, -9.80665, 0), buffered=False):
    """bmc150-accel: in_accel_sampling_frequency with the generic sampling_frequency_available
    (15.62 Hz at the slowest), 12 bits at +-4 g (scale 0.019154, the driver's default range),
    trigger bmc150_accel-dev0."""
    attributes = {"name": "bmc150_accel", "in_accel_sampling_frequency": "125.000000",
                  "sampling_frequency_available": "15.620000 31.260000 62.50000 125 250 500 1000 2000",
                  # The chip's temperature channel and the generic mount matrix (identity
                  # without firmware data).
                  "in_temp_raw": "0", "in_temp_offset": "23", "in_temp_scale": "0.500000",
                  "in_mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1"}
    if buffered:
        # The FIFO's attributes, there even where no interrupt line can serve it.
        attributes.update({"buffer/hwfifo_enabled": "0", "buffer/hwfifo_watermark": "0",
                           "buffer/hwfifo_watermark_min": "1", "buffer/hwfifo_watermark_max": "32"})
    accel = _add(rig, "bmc150_accel", attributes, gravity, BMC150_SCALE, buffered, BMC150_LAYOUT)
    # Printed with micro precision (IIO_VAL_INT_PLUS_MICRO), as the driver prints it.
    (accel.directory / "in_accel_scale").write_text("%.6f\n" % BMC150_SCALE)
    return accel


# kxcjk-1013's scale at its default range, +-4 g (12 bits), and its own lists.
KXCJK1013_SCALE = 0.019163
KXCJK1013_RATES = ("0.781000 1.563000 3.125000 6.250000 12.500000 25 50 100 200 400 800 1600")


def kxcjk1013(rig, gravity=(0, -9.80665, 0), buffered=False):
    """kxcjk-1013: the in_accel_ prefix on everything, in_accel_sampling_frequency with
    in_accel_sampling_frequency_available (12.5 Hz at probe), in_accel_scale with
    in_accel_scale_available, in_accel_mount_matrix; 12 bits left-justified in 16 like
    bmc150's; trigger kxcjk1013-dev0 only with an interrupt line (none set at probe)."""
    attributes = {"name": "kxcjk1013", "in_accel_sampling_frequency": "12.500000",
                  "in_accel_sampling_frequency_available": KXCJK1013_RATES,
                  "in_accel_scale_available": "0.009582 0.019163 0.038326",
                  "in_accel_mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1"}
    accel = _add(rig, "kxcjk1013", attributes, gravity, KXCJK1013_SCALE, buffered, BMC150_LAYOUT)
    (accel.directory / "in_accel_scale").write_text("%.6f\n" % KXCJK1013_SCALE)
    return accel


MMA8452_RATES = ("800.000000 400.000000 200.000000 100.000000 50.000000 12.500000 6.250000 "
                 "1.560000")


def mma8452(rig, gravity=(0, -9.80665, 0), buffered=False):
    """mma8452: in_accel_sampling_frequency with the generic sampling_frequency_available
    (high to low, micro precision), 12-bit big-endian scans, trigger mma8452-dev0."""
    attributes = {"name": "mma8452", "in_accel_sampling_frequency": "800.000000",
                  "sampling_frequency_available": MMA8452_RATES}
    return _add(rig, "mma8452", attributes, gravity, 0.009577, buffered, MMA8452_LAYOUT)


def cros_ec(rig, rate="0.000000", gravity=(0, -9.80665, 0)):
    """cros-ec-accel (polled here): shared scale and sampling_frequency, and the list "off,
    minimum, maximum", which is a range."""
    attributes = {"name": "cros-ec-accel", "sampling_frequency": rate,
                  "sampling_frequency_available": "0.000000 12.500000 100.000000",
                  "label": "accel-display", "location": "lid"}
    accel = _add(rig, "cros-ec-accel", attributes, gravity, None, False, None)
    # cros-ec's one scale is shared by all channels: "scale" (16 bits at +-2 g).
    (accel.directory / "scale").write_text("0.000598550\n")
    accel.scale = 0.000598550
    accel.set_gravity(*gravity)
    return accel


def feed(accel, vectors, spacing=0.02):
    """Writes one scan per gravity vector (m/s^2, docs/axes.md frame) in a single write,
    timestamps `spacing` apart and ending now."""
    now = time.monotonic_ns()
    count = len(vectors)
    data = b"".join(accel.layout.scan(*accel.raw_for(*v), now - int((count - 1 - i) * spacing * 1e9))
                    for i, v in enumerate(vectors))
    os.write(accel.fifo, data)


def attribute(accel, name):
    return (accel.directory / name).read_text().strip()
