"""Tablet-mode fakes: a hardware tablet-mode switch (an evdev device whose node is a FIFO
the rig writes events into, with its EVIOCGBIT/EVIOCGSW ioctls answered here), a fake
/dev/uinput that records the daemon's uinput calls and written events, and the readings of a
display and a base accelerometer at a hinge angle (systemd's 60-sensor.hwdb frames: both read
the same when the lid is closed)."""

import math
import os
import struct
import threading
import time
from pathlib import Path

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

from .contract import STANDARD_GRAVITY  # noqa: E402
from .devices import add_event_device, node_path  # noqa: E402

EV_SYN, EV_SW = 0, 5
SYN_REPORT = 0
SW_LID, SW_TABLET_MODE = 0, 1
INPUT_EVENT = struct.Struct("<qqHHi")  # struct input_event on 64-bit Linux: 24 bytes
ENOTTY = 25

# uinput requests (x86_64), linux/uinput.h.
UI_DEV_CREATE = 0x5501
UI_DEV_DESTROY = 0x5502
UI_DEV_SETUP = 0x405C5503
UI_SET_EVBIT = 0x40045564
UI_SET_KEYBIT = 0x40045565
UI_SET_SWBIT = 0x4004556D
UI_SET_PHYS = 0x4008556C
UI_GET_VERSION = 0x8004552D
UINPUT_SETUP = struct.Struct("<HHHH80sI")  # struct uinput_setup: 92 bytes
BUS_VIRTUAL = 0x06
REQUEST_NAMES = {UI_DEV_CREATE: "UI_DEV_CREATE", UI_DEV_DESTROY: "UI_DEV_DESTROY",
                 UI_DEV_SETUP: "UI_DEV_SETUP", UI_SET_EVBIT: "UI_SET_EVBIT",
                 UI_SET_KEYBIT: "UI_SET_KEYBIT", UI_SET_SWBIT: "UI_SET_SWBIT",
                 UI_SET_PHYS: "UI_SET_PHYS", UI_GET_VERSION: "UI_GET_VERSION"}


class FakeTabletModeSwitch:
    """An input event device with SW_TABLET_MODE (and SW_LID with lid=True) in a testbed.

    Its node is a FIFO that this object holds open read-write (so the daemon's read end never
    sees end of file); `set(tablet=..., lid=...)` writes the EV_SW events and a SYN_REPORT,
    and the state EVIOCGSW answers follows. Add it before the daemon starts, or send an `add`
    uevent after."""

    def __init__(self, testbed, number=7, name="Fake Intel Virtual Switches", tablet=False,
                 lid=None, virtual=False, keyboard=False):
        self.root = Path(testbed.get_root_dir())
        self.devnode = "/dev/input/event%d" % number
        self.state = {SW_TABLET_MODE: bool(tablet)}
        if lid is not None:
            self.state[SW_LID] = bool(lid)
        self.requests = []
        capabilities = (1 << SW_TABLET_MODE) | ((1 << SW_LID) if lid is not None else 0)
        attributes = {"device/name": name, "device/capabilities/sw": "%x" % capabilities,
                      "device/capabilities/ev": "21"}
        properties = {"ID_INPUT": "1", "ID_INPUT_SWITCH": "1", "DEVNAME": self.devnode}
        if keyboard:
            properties["ID_INPUT_KEYBOARD"] = "1"
        parent = None
        if virtual:  # under /sys/devices/virtual/, where uinput devices live
            parent = testbed.add_device("virtual", "virtual", None, [], [])
        self.syspath = add_event_device(testbed, number, parent, attributes, properties)
        node = node_path(testbed, self.devnode)
        if node.exists() or node.is_symlink():
            node.unlink()
        os.mkfifo(node)  # pollable, unlike a regular file (epoll refuses those)
        self.fd = os.open(node, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
        self.handler = self._make_handler()
        testbed.attach_ioctl(self.devnode, self.handler)

    def _bits(self, size, bits):
        data = [0] * size
        for code in bits:
            data[code // 8] |= 1 << (code % 8)
        return data

    def _make_handler(self):
        fake = self

        class Handler(UMockdev.IoctlBase):
            def do_handle_ioctl(self, client):
                request = client.get_request()
                nr, size = request & 0xFF, (request >> 16) & 0x3FFF
                fake.requests.append(request)
                if nr == 0x1B:  # EVIOCGSW(size)
                    bits = [code for code, on in fake.state.items() if on]
                elif nr == 0x20:  # EVIOCGBIT(0, size): the event types
                    bits = [EV_SYN, EV_SW]
                elif nr == 0x20 + EV_SW:  # EVIOCGBIT(EV_SW, size)
                    bits = list(fake.state)
                else:
                    client.complete(-1, ENOTTY)
                    return True
                client.get_arg().resolve(0, size).update(0, fake._bits(size, bits))
                client.complete(size, 0)
                return True
        return Handler()

    def set(self, tablet=None, lid=None):
        """Flip switches: EV_SW events for the given ones, then SYN_REPORT."""
        events = b""
        for code, value in ((SW_TABLET_MODE, tablet), (SW_LID, lid)):
            if value is None:
                continue
            self.state[code] = bool(value)
            events += INPUT_EVENT.pack(0, 0, EV_SW, code, int(bool(value)))
        os.write(self.fd, events + INPUT_EVENT.pack(0, 0, EV_SYN, SYN_REPORT, 0))

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class FakeUinput:
    """/dev/uinput in a testbed: every ioctl and write the daemon makes on it is recorded
    in `calls` as (name, argument): ("UI_SET_EVBIT", 5), ("UI_DEV_SETUP", (bustype, vendor,
    product, version, name, ff_effects_max)), ("write", [(type, code, value), ...]), ...;
    all succeed."""

    def __init__(self, testbed):
        root = Path(testbed.get_root_dir())
        node = root / "dev/uinput"
        node.parent.mkdir(parents=True, exist_ok=True)
        node.touch()
        self.calls = []
        self.write_times = []  # time.monotonic() of each write, in order
        self.lock = threading.Lock()
        self.handler = self._make_handler()
        testbed.attach_ioctl("/dev/uinput", self.handler)

    def _record(self, call):
        with self.lock:
            self.calls.append(call)

    def snapshot(self):
        with self.lock:
            return list(self.calls)

    def writes(self):
        """(time.monotonic(), events) of each write so far."""
        with self.lock:
            written = [events for name, events in self.calls if name == "write"]
            return list(zip(self.write_times, written))

    def written(self):
        """The (type, code, value) events written so far, in order."""
        return [event for name, events in self.snapshot() if name == "write" for event in events]

    def _make_handler(self):
        fake = self

        class Handler(UMockdev.IoctlBase):
            def do_handle_ioctl(self, client):
                request = client.get_request()
                arg = client.get_arg()
                name = REQUEST_NAMES.get(request, hex(request))
                if request in (UI_SET_EVBIT, UI_SET_SWBIT, UI_SET_KEYBIT):
                    # An int by value: it arrives in the pointer-sized argument itself.
                    fake._record((name, struct.unpack("<Q", bytes(arg.retrieve()))[0]))
                elif request == UI_DEV_SETUP:
                    bustype, vendor, product, version, raw, ff = UINPUT_SETUP.unpack(
                        bytes(arg.resolve(0, UINPUT_SETUP.size).retrieve()))
                    fake._record((name, (bustype, vendor, product, version,
                                         raw.split(b"\0")[0].decode(), ff)))
                elif request == UI_GET_VERSION:
                    arg.resolve(0, 4).update(0, list(struct.pack("<I", 5)))
                    fake._record((name, None))
                else:
                    fake._record((name, None))
                client.complete(0, 0)
                return True

            def do_handle_write(self, client):
                data = bytes(client.get_arg().retrieve())
                count = len(data) // INPUT_EVENT.size
                events = [INPUT_EVENT.unpack_from(data, i * INPUT_EVENT.size)[2:]
                          for i in range(count)]
                with fake.lock:
                    fake.write_times.append(time.monotonic())
                fake._record(("write", events))
                client.complete(len(data), 0)
                return True
        return Handler()

    def close(self):
        pass


# The base's mount matrix of a chip mounted upside down in the base (a rotation by 180
# degrees about x), as an hwdb entry writes it.
BASE_MOUNT_MATRIX = "1, 0, 0; 0, -1, 0; 0, 0, -1"


def hinge_readings(theta, base=(0.0, 0.0, STANDARD_GRAVITY)):
    """(display, base) readings in m/s^2 (each in its own frame, after its mount matrix) at
    hinge angle theta (degrees: 0 closed, 180 flat, 360 folded back), given the base's
    reading: the display frame is the base's turned by theta about the hinge (x)."""
    t = math.radians(theta)
    bx, by, bz = base
    display = (bx, math.cos(t) * by - math.sin(t) * bz, math.sin(t) * by + math.cos(t) * bz)
    return display, tuple(base)


def set_hinge(display, base, theta, base_gravity=(0.0, 0.0, STANDARD_GRAVITY)):
    """Write the readings of hinge angle theta (base_gravity: the base's reading) into the
    display and base FakeAccelerometers."""
    display_reading, base_reading = hinge_readings(theta, base_gravity)
    display.set_gravity(*display_reading)
    base.set_gravity(*base_reading)


def tablet_rig(make_rig, display=True, base=True, switch=None, uinput=True, config_text="",
               theta=90, setup=None, base_attributes=None):
    """A rig with a display and/or a base accelerometer (at hinge angle theta, base flat), a
    hardware switch (FakeTabletModeSwitch keyword arguments, or None) and a fake
    /dev/uinput, set up before the daemon starts."""
    rig = make_rig(accelerometer=False, start_daemon=False, config_text=config_text)
    rig.display = rig.base = rig.switch = rig.uinput = None
    d, b = hinge_readings(theta)
    if display:
        rig.display = rig.add_accelerometer(
            name="iio:device0", gravity=d, extra_properties={"ACCEL_LOCATION": "display"})
        rig.accel = rig.display
    if base:
        rig.base = rig.add_accelerometer(
            name="iio:device1", gravity=b, mount_matrix=BASE_MOUNT_MATRIX,
            extra_properties={"ACCEL_LOCATION": "base"}, extra_attributes=base_attributes)
    if switch is not None:
        rig.switch = FakeTabletModeSwitch(rig.testbed, **switch)
        rig._closeables.append(rig.switch)
    if uinput:
        rig.uinput = FakeUinput(rig.testbed)
        rig._closeables.append(rig.uinput)
    if setup is not None:
        setup(rig)
    rig.daemon.start()
    return rig


def set_rig_hinge(rig, theta, base=(0.0, 0.0, STANDARD_GRAVITY)):
    """set_hinge on the display and base accelerometers of a tablet_rig."""
    set_hinge(rig.display, rig.base, theta, base)
