"""A HID sensor hub with one 3D accelerometer, emulated through /dev/uhid (real kernel only).

The kernel's hid-sensor-hub binds to it (the Sensors usage page makes it a sensor hub) and
hands its accelerometer collection to hid-sensor-accel-3d, which makes an IIO device named
accel_3d. This process answers what the driver asks over the hub's feature report (reporting
state, power state, sensor state, report interval and, on a change-only hub, the change
sensitivity) and input report (the three axes), keeps every feature value the driver writes,
and pushes input reports the way a hub does:

  change_only=True   only when the value changes by more than the change sensitivity
                     (most x86 2-in-1 hubs: a still device sends nothing)
  change_only=False  at the report interval while the driver has reporting on (a streaming hub)

Reports (report ID 1 for both):
  feature  reporting state u8, power state u8, sensor state u8, report interval u32 (ms),
           [change sensitivity u16, units of 0.01 g: change-only hubs only]
  input    sensor state u8, sensor event u8, x s16, y s16, z s16 (units of 0.01 g)

Array fields (the states) hold 1 + the index of the selector in their usage list: the kernel
treats their logical minimum as 1 (hid-sensor-attributes.c) and so writes e.g. 2 for
"all events" and 2 for "D0 full power".

Needs root (or write access to /dev/uhid) and the uhid module.
"""

import os
import select
import struct
import threading
import time

from .contract import STANDARD_GRAVITY

UHID_PATH = "/dev/uhid"

# struct uhid_event types (linux/uhid.h).
UHID_DESTROY = 1
UHID_START = 2
UHID_STOP = 3
UHID_OPEN = 4
UHID_CLOSE = 5
UHID_OUTPUT = 6
UHID_GET_REPORT = 9
UHID_GET_REPORT_REPLY = 10
UHID_CREATE2 = 11
UHID_INPUT2 = 12
UHID_SET_REPORT = 13
UHID_SET_REPORT_REPLY = 14
UHID_FEATURE_REPORT = 0
UHID_INPUT_REPORT = 2
UHID_DATA_MAX = 4096
# The union's largest member is uhid_create2_req: name, phys, uniq, rd_size, bus, vendor,
# product, version, country, rd_data[4096].
UHID_EVENT_SIZE = 4 + 128 + 64 + 64 + 2 + 2 + 4 * 4 + 4096
BUS_VIRTUAL = 0x06

REPORT_ID = 1
# Units of the axes and the sensitivity: unit exponent -2 of the default unit (g).
RAW_PER_G = 100
SCALE_TEXT = "0.098066500"

# Usages of the Sensors page (0x20), low 16 bits.
ACCEL_3D = 0x73
SENSOR_STATE = 0x201
SENSOR_EVENT = 0x202
REPORT_INTERVAL = 0x30E
REPORTING_STATE = 0x316
POWER_STATE = 0x319
ACCEL_X, ACCEL_Y, ACCEL_Z = 0x453, 0x454, 0x455
# HID_USAGE_SENSOR_DATA_MOD_CHANGE_SENSITIVITY_ABS | HID_USAGE_SENSOR_DATA_ACCELERATION
SENSITIVITY_ACCEL = 0x1452
REPORTING_SELECTORS = range(0x840, 0x846)  # no events, all events, threshold, ... wake
POWER_SELECTORS = range(0x850, 0x856)      # undefined, D0 full power, D1, D2, D3, D4 off
STATE_SELECTORS = range(0x800, 0x807)      # unknown, ready, not available, ...
EVENT_SELECTORS = range(0x810, 0x816)      # unknown, state changed, ..., data updated, ...
REPORTING_ALL_EVENTS = 2  # 1 + index of "all events"
POWER_D0 = 2              # 1 + index of "D0 full power"
STATE_READY = 2           # 1 + index of "ready"
EVENT_DATA_UPDATED = 4    # 1 + index of "data updated"


def _item(prefix, value=None, size=None):
    """One short item: prefix (tag and type, size bits clear) and its data, little-endian."""
    if value is None:
        return bytes([prefix])
    if size is None:
        size = 1 if -0x80 <= value <= 0xFF else 2 if -0x8000 <= value <= 0xFFFF else 4
    code = {1: 1, 2: 2, 4: 3}[size]
    return bytes([prefix | code]) + (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def usage(value):
    return _item(0x08, value, 2 if value > 0xFF else 1)


def logical(minimum, maximum):
    return _item(0x14, minimum) + _item(0x24, maximum)


def field_size(bits, count=1):
    return _item(0x74, bits) + _item(0x94, count)


FEATURE_VARIABLE = _item(0xB0, 0x02)
FEATURE_ARRAY = _item(0xB0, 0x00)
INPUT_VARIABLE = _item(0x80, 0x02)
INPUT_ARRAY = _item(0x80, 0x00)
UNIT_EXPONENT_MINUS_2 = _item(0x54, 0x0E)


def selector_field(property_usage, selectors, main_item):
    """An 8-bit array field: the property's usage, then a logical collection of selectors."""
    return (usage(property_usage) + logical(1, len(selectors)) + field_size(8)
            + _item(0xA0, 0x02) + b"".join(usage(s) for s in selectors) + main_item
            + _item(0xC0))


def report_descriptor(change_only=True):
    """The report descriptor of a hub with one accelerometer (see the module docstring)."""
    feature = (selector_field(REPORTING_STATE, REPORTING_SELECTORS, FEATURE_ARRAY)
               + selector_field(POWER_STATE, POWER_SELECTORS, FEATURE_ARRAY)
               + selector_field(SENSOR_STATE, STATE_SELECTORS, FEATURE_ARRAY)
               + usage(REPORT_INTERVAL) + logical(0, 0x7FFFFFFF) + field_size(32)
               + _item(0x54, 0) + FEATURE_VARIABLE)
    if change_only:
        feature += (usage(SENSITIVITY_ACCEL) + logical(0, 0x7FFF) + field_size(16)
                    + UNIT_EXPONENT_MINUS_2 + FEATURE_VARIABLE)
    inputs = (selector_field(SENSOR_STATE, STATE_SELECTORS, INPUT_ARRAY)
              + selector_field(SENSOR_EVENT, EVENT_SELECTORS, INPUT_ARRAY))
    for axis in (ACCEL_X, ACCEL_Y, ACCEL_Z):
        inputs += (usage(axis) + logical(-0x8000, 0x7FFF) + field_size(16)
                   + UNIT_EXPONENT_MINUS_2 + INPUT_VARIABLE)
    return (_item(0x04, 0x20) + usage(ACCEL_3D) + _item(0xA0, 0x00)  # physical collection
            + _item(0x84, REPORT_ID) + feature + inputs + _item(0xC0))


class SensorHub:
    """One emulated hub: create() makes the uhid device, destroy() removes it (the kernel
    unbinds the drivers); set_gravity() moves it. Use as a context manager."""

    def __init__(self, name="MotionOrientation test hub", change_only=True, interval_ms=0,
                 sensitivity=5, vendor=0x1D6B, product=0x0A01, gravity=(0.0, -STANDARD_GRAVITY, 0.0)):
        self.name = name
        self.change_only = change_only
        self.vendor = vendor
        self.product = product
        # Feature values as the driver last wrote them (or as the hub starts).
        self.reporting_state = 1  # no events
        self.power_state = 6      # D4 power off
        self.interval_ms = interval_ms
        self.sensitivity = sensitivity  # units of 0.01 g
        self.raw = self._to_raw(gravity)
        self.last_sent = None
        self.fd = None
        self.opened = False
        self.events = []          # (monotonic time, kind, detail) of everything asked
        self.input_reports = 0    # input reports pushed (not answers to GET_REPORT)
        self.lock = threading.RLock()
        self._stop = threading.Event()
        self._thread = None

    # -- the device

    def create(self):
        self.fd = os.open(UHID_PATH, os.O_RDWR | os.O_CLOEXEC)
        descriptor = report_descriptor(self.change_only)
        event = struct.pack("<I128s64s64sHHIIII", UHID_CREATE2, self.name.encode(),
                            b"motion-orientation/uhid", b"", len(descriptor), BUS_VIRTUAL,
                            self.vendor, self.product, 1, 0) + descriptor
        self._write(event)
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="uhid-hub", daemon=True)
        self._thread.start()
        return self

    def destroy(self):
        if self.fd is None:
            return
        self._stop.set()
        self._thread.join(5)
        try:
            self._write(struct.pack("<I", UHID_DESTROY))
        finally:
            os.close(self.fd)
            self.fd = None
            self.opened = False

    def __enter__(self):
        return self.create()

    def __exit__(self, *_exc):
        self.destroy()

    # -- what the test does

    @staticmethod
    def _to_raw(gravity):
        """A reading in m/s^2 (the rig's POSES, the docs/axes.md frame) in the hub's units."""
        return tuple(int(round(v / STANDARD_GRAVITY * RAW_PER_G)) for v in gravity)

    def set_gravity(self, x, y, z):
        """The new reading; a change-only hub pushes it (if reporting is on and it moved by
        more than the sensitivity), a streaming hub sends it at its next interval."""
        with self.lock:
            self.raw = self._to_raw((x, y, z))
            if self.change_only and self._reporting():
                moved = self.last_sent is None or max(
                    abs(a - b) for a, b in zip(self.raw, self.last_sent)) > self.sensitivity
                if moved:
                    self._push()

    def _reporting(self):
        return (self.opened and self.reporting_state == REPORTING_ALL_EVENTS
                and self.power_state == POWER_D0)

    # -- reports

    def feature_report(self):
        data = struct.pack("<BBBBI", REPORT_ID, self.reporting_state, self.power_state,
                           STATE_READY, self.interval_ms)
        if self.change_only:
            data += struct.pack("<H", self.sensitivity)
        return data

    def input_report(self):
        return struct.pack("<BBBhhh", REPORT_ID, STATE_READY, EVENT_DATA_UPDATED, *self.raw)

    def _set_feature(self, data):
        if len(data) < 8 or data[0] != REPORT_ID:
            return 22  # EINVAL
        self.reporting_state, self.power_state = data[1], data[2]
        self.interval_ms = struct.unpack_from("<I", data, 4)[0]
        if self.change_only and len(data) >= 10:
            self.sensitivity = struct.unpack_from("<H", data, 8)[0]
        self._note("set-feature", dict(reporting=self.reporting_state, power=self.power_state,
                                       interval_ms=self.interval_ms, sensitivity=self.sensitivity))
        if self.change_only and self._reporting() and self.last_sent is None:
            self._push()  # a hub reports its first value when reporting starts
        return 0

    def _push(self):
        self._write(struct.pack("<IH", UHID_INPUT2, len(self.input_report())) + self.input_report())
        self.last_sent = self.raw
        self.input_reports += 1

    def _note(self, kind, detail=None):
        self.events.append((time.monotonic(), kind, detail))

    def _write(self, data):
        os.write(self.fd, data.ljust(UHID_EVENT_SIZE, b"\0"))

    def _serve(self):
        next_stream = time.monotonic()
        while not self._stop.is_set():
            timeout = 0.1
            with self.lock:
                streaming = not self.change_only and self._reporting() and self.interval_ms > 0
            if streaming:
                timeout = max(0.0, min(timeout, next_stream - time.monotonic()))
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if ready:
                self._handle(os.read(self.fd, UHID_EVENT_SIZE))
            with self.lock:
                if not self.change_only and self._reporting() and self.interval_ms > 0:
                    now = time.monotonic()
                    if now >= next_stream:
                        self._push()
                        next_stream = max(next_stream + self.interval_ms / 1000.0, now)
                else:
                    next_stream = time.monotonic()

    def _handle(self, event):
        kind = struct.unpack_from("<I", event)[0]
        with self.lock:
            if kind == UHID_OPEN:
                self.opened = True
                self._note("open")
            elif kind == UHID_CLOSE:
                self.opened = False
                self.last_sent = None
                self._note("close")
            elif kind in (UHID_START, UHID_STOP):
                self._note("start" if kind == UHID_START else "stop")
            elif kind == UHID_GET_REPORT:
                request, number, rtype = struct.unpack_from("<IBB", event, 4)
                if number != REPORT_ID or rtype not in (UHID_FEATURE_REPORT, UHID_INPUT_REPORT):
                    reply, err = b"", 5  # EIO
                else:
                    reply = self.feature_report() if rtype == UHID_FEATURE_REPORT else self.input_report()
                    err = 0
                self._note("get-report", "feature" if rtype == UHID_FEATURE_REPORT else "input")
                self._write(struct.pack("<IIHH", UHID_GET_REPORT_REPLY, request, err, len(reply)) + reply)
            elif kind == UHID_SET_REPORT:
                request, number, rtype, size = struct.unpack_from("<IBBH", event, 4)
                data = event[12:12 + size]
                err = self._set_feature(data) if rtype == UHID_FEATURE_REPORT else 5
                self._write(struct.pack("<IIH", UHID_SET_REPORT_REPLY, request, err))
