"""Fake sensors in a umockdev testbed: an IIO accelerometer whose channel files are
written in place, and an evdev accelerometer whose EVIOCGABS ioctls this process answers.

The daemon sees the first fake device at /sys/devices/iio:device0 (and through
/sys/bus/iio/devices/iio:device0), so it names e.g.
/sys/devices/iio:device0/in_accel_x_raw in its logs; FakeAccelerometer.daemon_path()
gives that path, file_path() the real file in the testbed."""

import os
import struct
from pathlib import Path

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import GLib, UMockdev  # noqa: E402

from .contract import POSES, STANDARD_GRAVITY  # noqa: E402
from .processes import RigError  # noqa: E402


# in_accel_scale such that a raw value of 1000 is 1 g.
DEFAULT_SCALE = 0.00980665

CHANNELS = ("x", "y", "z")
# Width of every value written into a channel file: the file never shrinks, so a
# reader racing a write never sees a half-empty file. Wide enough for garbage tests.
VALUE_WIDTH = 31


def parse_mount_matrix(text):
    rows = [r for r in text.split(";")]
    m = [[float(v) for v in row.split(",")] for row in rows]
    if len(m) != 3 or any(len(r) != 3 for r in m):
        raise ValueError("bad mount matrix %r" % text)
    return m


def _invert3(m):
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if abs(det) < 1e-12:
        raise ValueError("mount matrix is singular")
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def add_event_device(testbed, number, parent, attributes, properties):
    """An input event device `eventN` in the testbed (no node yet); returns its syspath."""
    syspath = testbed.add_device("input", "event%d" % number, parent,
                                 [str(s) for kv in attributes.items() for s in kv],
                                 [str(s) for kv in properties.items() for s in kv])
    if not syspath:
        raise RigError("umockdev refused to add event%d" % number)
    return syspath


def node_path(testbed, devnode):
    """Where the device node `devnode` (/dev/...) is in the testbed, its directory made."""
    node = Path(testbed.get_root_dir()) / devnode.lstrip("/")
    node.parent.mkdir(parents=True, exist_ok=True)
    return node


class FakeAccelerometer:
    """An IIO accelerometer in a umockdev testbed.

    The daemon keeps the channel files open and rereads them with pread at
    offset 0, so values are written in place (same inode, fixed width), never
    through Testbed.set_attribute (which replaces the file with a new inode).
    """

    def __init__(self, testbed, name="iio:device0", scale=DEFAULT_SCALE, channel_scales=None,
                 mount_matrix=None, gravity=POSES["portrait"], extra_attributes=None,
                 extra_properties=None, parent=None, without=()):
        self.testbed = testbed
        self.root = Path(testbed.get_root_dir())
        self.scale = scale
        self.channel_scales = dict(channel_scales or {})
        self.mount_matrix = mount_matrix
        self._unmount = _invert3(parse_mount_matrix(mount_matrix)) if mount_matrix else None
        attributes = {"name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": "0",
                      "in_accel_z_raw": "0", "sampling_frequency": "10"}
        if scale is not None:
            attributes["in_accel_scale"] = "%.9f" % scale
        for channel, value in self.channel_scales.items():
            attributes["in_accel_%s_scale" % channel] = "%.9f" % value
        for name_ in without:  # defaults a driver's layout does not have
            attributes.pop(name_, None)
        attributes.update(extra_attributes or {})
        properties = {}
        if mount_matrix is not None:
            properties["ACCEL_MOUNT_MATRIX"] = mount_matrix
        properties.update(extra_properties or {})
        flat_attributes = [s for kv in attributes.items() for s in kv]
        flat_properties = [s for kv in properties.items() for s in kv]
        # The sysfs path as the daemon sees it under the preload, e.g. /sys/devices/iio:device0.
        self.syspath = testbed.add_device("iio", name, parent, flat_attributes, flat_properties)
        if not self.syspath:
            raise RigError("umockdev refused to add %s" % name)
        self.name = name
        self.directory = self.root / self.syspath.lstrip("/")
        self._fds = {}
        for channel in CHANNELS:
            self._fds[channel] = os.open(self.file_path(channel), os.O_WRONLY | os.O_CLOEXEC)
        self.set_gravity(*gravity)

    def file_path(self, channel):
        """Real path of a channel file in the testbed (what the rig writes)."""
        return self.directory / ("in_accel_%s_raw" % channel)

    def daemon_path(self, channel):
        """The same file as the daemon sees it (and should name in its logs)."""
        return "%s/in_accel_%s_raw" % (self.syspath, channel)

    def channel_scale(self, channel):
        return self.channel_scales.get(channel, self.scale if self.scale is not None else 1.0)

    def set_raw(self, channel, text):
        """Write text into a channel file in place, padded to a fixed width.

        An empty string truncates the file to zero bytes (a read returns nothing).
        """
        fd = self._fds[channel]
        if text == "":
            os.ftruncate(fd, 0)
            return
        data = ("%-*s\n" % (VALUE_WIDTH, text)).encode()
        if len(data) > VALUE_WIDTH + 1:
            raise ValueError("value %r wider than %d" % (text, VALUE_WIDTH))
        os.pwrite(fd, data, 0)

    def set_raw_values(self, x, y, z):
        for channel, value in zip(CHANNELS, (x, y, z)):
            self.set_raw(channel, str(int(value)))

    def raw_for(self, x, y, z):
        """Raw integers for a gravity vector in the docs/axes.md frame (mount matrix undone)."""
        vector = (x, y, z)
        if self._unmount is not None:
            vector = tuple(sum(self._unmount[r][c] * vector[c] for c in range(3))
                           for r in range(3))
        return tuple(int(round(v / self.channel_scale(ch))) for ch, v in zip(CHANNELS, vector))

    def set_gravity(self, x, y, z):
        """Set the reading, in m/s^2 in the docs/axes.md frame (after the mount matrix)."""
        self.set_raw_values(*self.raw_for(x, y, z))

    def set_pose(self, pose):
        self.set_gravity(*POSES[pose])

    def read_back(self, channel):
        return self.file_path(channel).read_text()

    def close(self):
        for fd in self._fds.values():
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = {}
        self.testbed = None  # let the testbed be finalized (it removes its directory)


class FakeInputAccelerometer:
    """An input-subsystem accelerometer (ID_INPUT_ACCELEROMETER=1) in a umockdev testbed.

    The testbed has the event device with its udev properties, a file at
    /dev/input/eventN, and an ioctl handler (umockdev runs it in its own thread) that
    answers EVIOCGABS(ABS_X/Y/Z) with the current values; other ioctls fail with ENOTTY.
    `fail_errno`, when set, makes EVIOCGABS fail with that errno. `poll` adds the poll,
    min and max attributes of a polled driver (under device/, as the event device sees
    its input device). `recorded` adds it as `umockdev-run -d` adds a recorded description:
    with its node's numbers and no udev database entry, so udev has not set it up."""

    ABSINFO = struct.Struct("6i")  # value, minimum, maximum, fuzz, flat, resolution
    EVIOCGABS_X = (2 << 30) | (ABSINFO.size << 16) | (ord("E") << 8) | 0x40

    def __init__(self, testbed, number=5, name="Fake Accelerometer", resolution=256,
                 mount_matrix=None, gravity=POSES["portrait"], extra_properties=None,
                 poll=None, recorded=False):
        self.testbed = testbed
        self.root = Path(testbed.get_root_dir())
        self.resolution = resolution
        self.per_g = resolution if resolution > 0 else 256
        self._unmount = _invert3(parse_mount_matrix(mount_matrix)) if mount_matrix else None
        self.devnode = "/dev/input/event%d" % number
        self.values = [0, 0, 0]
        self.requests = []
        self.fail_errno = None
        attributes = {"device/name": name}
        if poll is not None:
            attributes.update({"device/poll": str(poll[0]), "device/min": str(poll[1]),
                               "device/max": str(poll[2])})
        properties = {"ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1", "DEVNAME": self.devnode}
        if mount_matrix is not None:
            properties["ACCEL_MOUNT_MATRIX"] = mount_matrix
        properties.update(extra_properties or {})
        if recorded:
            self.syspath = self._add_recorded(number, attributes, properties)
        else:
            self.syspath = add_event_device(testbed, number, None, attributes, properties)
            node_path(testbed, self.devnode).touch()
        self.directory = self.root / self.syspath.lstrip("/")
        self.handler = self._make_handler()
        testbed.attach_ioctl(self.devnode, self.handler)
        self.set_gravity(*gravity)

    def _add_recorded(self, number, attributes, properties):
        """The device as `umockdev-run -d FILE` adds a recorded description (what
        umockdev-record writes: the device, then its parent): the event device under its
        input device (here lis3lv02d's, a platform driver), with its node's numbers (evdev:
        major 13, minors from 64). libudev then sees a node without a udev database entry,
        as where udevd has not processed the device or does not run: not set up."""
        majmin = "13:%d" % (64 + number)
        major, minor = majmin.split(":")
        input_path = "/devices/platform/lis3lv02d/input/input%d" % number
        event = ["P: %s/event%d" % (input_path, number), "N: input/event%d" % number]
        event += ["E: %s=%s" % kv for kv in properties.items()]
        event += ["E: MAJOR=%s" % major, "E: MINOR=%s" % minor, "E: SUBSYSTEM=input",
                  "A: dev=%s" % majmin, "L: device=../../input%d" % number]
        parent = ["P: %s" % input_path, "E: PRODUCT=19/0/0/0",
                  "E: NAME=\"%s\"" % attributes["device/name"], "E: PHYS=\"lis3lv02d/input0\"",
                  "E: PROP=0", "E: EV=9", "E: ABS=7", "E: SUBSYSTEM=input", "E: ID_INPUT=1",
                  "E: ID_INPUT_ACCELEROMETER=1", "A: capabilities/abs=7", "A: capabilities/ev=9",
                  "A: phys=lis3lv02d/input0", "A: properties=0"]
        parent += ["A: %s=%s" % (name[len("device/"):], value) for name, value in attributes.items()]
        self.testbed.add_from_string("\n".join(event) + "\n\n" + "\n".join(parent) + "\n")
        return "/sys%s/event%d" % (input_path, number)

    def _make_handler(self):
        fake = self

        class Handler(UMockdev.IoctlBase):
            def do_handle_ioctl(self, client):
                request = client.get_request()
                fake.requests.append(request)
                axis = request - fake.EVIOCGABS_X
                if 0 <= axis <= 2 and fake.fail_errno is None:
                    data = client.get_arg().resolve(0, fake.ABSINFO.size)
                    data.update(0, fake.ABSINFO.pack(fake.values[axis], -8 * fake.per_g,
                                                     8 * fake.per_g, 0, 0, fake.resolution))
                    client.complete(0, 0)
                else:
                    client.complete(-1, fake.fail_errno if 0 <= axis <= 2 else 25)  # ENOTTY
                return True

        return Handler()

    def set_gravity(self, x, y, z):
        """Set the axes, in m/s^2 in the docs/axes.md frame (after the mount matrix)."""
        vector = (x, y, z)
        if self._unmount is not None:
            vector = tuple(sum(self._unmount[r][c] * vector[c] for c in range(3))
                           for r in range(3))
        self.values = [int(round(v / STANDARD_GRAVITY * self.per_g)) for v in vector]

    def set_pose(self, pose):
        self.set_gravity(*POSES[pose])

    def attribute(self, name):
        return (self.directory / name).read_text().strip()

    def close(self):
        if self.testbed is not None:
            try:
                self.testbed.detach_ioctl(self.devnode)
            except GLib.Error:
                pass
        self.testbed = None
