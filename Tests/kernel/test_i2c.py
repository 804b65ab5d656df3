"""Polled I2C accelerometers on the real kernel: i2c-stub (a bus of register files) hosts the
real bmc150-accel and kxcjk-1013 drivers; the test sets the chip-ID register before the
driver probes, and the data registers (i2cset -f once a driver has bound) for each pose.

i2c-stub keeps a byte and a word per register: bmc150 reads its axes with I2C block reads
(bytes of consecutive registers), kxcjk-1013 with SMBus word reads (the word of the LSB's
register), so each is written the way its driver reads it."""

import subprocess
import time
from pathlib import Path

import pytest

import vmrig
from rig import POSES, STANDARD_GRAVITY, LineReader, Rig, drivers, spawn

BMC150_ADDRESS = 0x10
KXCJK_ADDRESS = 0x0E
CHANGE = 20.0


@pytest.fixture(scope="module")
def stub_bus(system):
    vmrig.sh("modprobe", "i2c-stub", "chip_addr=0x%02x,0x%02x" % (BMC150_ADDRESS, KXCJK_ADDRESS))
    for adapter in Path("/sys/bus/i2c/devices").glob("i2c-*"):
        if vmrig.read_attribute(adapter, "name").startswith("SMBus stub"):
            yield int(adapter.name.split("-")[1])
            break
    else:
        pytest.fail("i2c-stub made no adapter")
    vmrig.sh("rmmod", "i2c-stub", check=False)


def i2cset(bus, address, register, value, mode="b", force=False):
    argv = ["i2cset", "-y"] + (["-f"] if force else []) + [str(bus), "0x%02x" % address,
                                                           "0x%02x" % register, "0x%x" % value, mode]
    vmrig.sh(*argv)


class I2cAccelerometer:
    """One driver on the stub: `registers(raw x, y, z)` -> [(register, value, mode)]."""

    def __init__(self, bus, address, driver, iio_name, chip_id_register, chip_id, registers,
                 counts_per_g):
        self.bus, self.address, self.iio_name = bus, address, iio_name
        self.registers, self.counts_per_g = registers, counts_per_g
        self.bound = False
        i2cset(bus, address, chip_id_register, chip_id)
        self.set_gravity(*POSES["portrait"])
        before = vmrig.iio_named(iio_name)
        adapter = Path("/sys/bus/i2c/devices/i2c-%d" % bus)
        (adapter / "new_device").write_text("%s 0x%02x\n" % (driver, address))
        self.adapter = adapter
        self.syspath = vmrig.wait_for_new_iio(iio_name, before)
        self.bound = True

    def set_gravity(self, x, y, z):
        raw = [int(round(v / STANDARD_GRAVITY * self.counts_per_g)) for v in (x, y, z)]
        for register, value, mode in self.registers(*raw):
            i2cset(self.bus, self.address, register, value, mode, force=self.bound)

    def remove(self):
        (self.adapter / "delete_device").write_text("0x%02x\n" % self.address)
        vmrig.wait_gone(self.syspath)


def bmc150_registers(x, y, z):
    # ACCD_X_LSB 0x02 ... ACCD_Z_MSB 0x07: 12 bits, left-justified in 16.
    out = []
    for index, value in enumerate((x, y, z)):
        word = (value << 4) & 0xFFFF
        out += [(0x02 + 2 * index, word & 0xFF, "b"), (0x03 + 2 * index, word >> 8, "b")]
    return out


def kxcjk_registers(x, y, z):
    # XOUT_L 0x06, YOUT_L 0x08, ZOUT_L 0x0A, each read as one little-endian word, 12 bits
    # left-justified.
    return [(0x06 + 2 * index, (value << 4) & 0xFFFF, "w") for index, value in enumerate((x, y, z))]


@pytest.fixture
def bmc150(stub_bus):
    # BMC150's accelerometer (and BMI055's) answers 0xFA at register 0 (chip ID).
    accel = I2cAccelerometer(stub_bus, BMC150_ADDRESS, "bmc150_accel", "bmc150_accel", 0x00, 0xFA,
                             bmc150_registers, counts_per_g=1024)
    yield accel
    accel.remove()


@pytest.fixture
def kxcjk(stub_bus):
    # KXCJK-1013 answers 0x11 at WHO_AM_I (0x0F).
    accel = I2cAccelerometer(stub_bus, KXCJK_ADDRESS, "kxcjk1013", "kxcjk1013", 0x0F, 0x11,
                             kxcjk_registers, counts_per_g=1024)
    yield accel
    accel.remove()


def replica_attributes(make):
    with Rig(accelerometer=False, start_daemon=False) as rig:
        accel = make(rig)
        return {name: vmrig.read_attribute(accel.directory, name)
                for name in vmrig.list_attributes(accel.directory)}


def real_attributes(syspath):
    return {name: vmrig.read_attribute(syspath, name) for name in vmrig.list_attributes(syspath)}


def test_bmc150_replica_has_the_real_drivers_attributes(bmc150):
    """drivers.bmc150 (buffered) lays out what bmc150-accel makes on a chip without an
    interrupt line: the same files, the same values but the live readings."""
    real = real_attributes(bmc150.syspath)
    vmrig.record_layout("bmc150_accel", real)
    replica = replica_attributes(lambda rig: drivers.bmc150(rig, buffered=True))
    varying = ("in_accel_x_raw", "in_accel_y_raw", "in_accel_z_raw", "current_timestamp_clock")
    assert vmrig.layout_differences(real, replica, varying) == {}


def follow_turns(kernel_rig, accel, turns=("landscape-left", "portrait-upside-down",
                                           "landscape-right", "portrait")):
    kernel_rig.start_daemon()
    kernel_rig.claim()
    kernel_rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    for pose in turns:
        accel.set_gravity(*POSES[pose])
        kernel_rig.wait_for_property("DeviceOrientation", pose, CHANGE)


@pytest.mark.timeout(180)
def test_bmc150_orientations_from_its_registers(bmc150, kernel_rig):
    follow_turns(kernel_rig, bmc150)
    # Polled (no interrupt on the stub, so no trigger): at least the 10 Hz floor, on the
    # driver's own list.
    rate = float(vmrig.read_attribute(bmc150.syspath, "in_accel_sampling_frequency"))
    available = [float(v) for v in vmrig.read_attribute(
        bmc150.syspath, "sampling_frequency_available").split()]
    assert rate in available and rate >= 10, (rate, available)


def test_kxcjk1013_replica_has_the_real_drivers_attributes(kxcjk):
    real = real_attributes(kxcjk.syspath)
    vmrig.record_layout("kxcjk1013", real)
    replica = replica_attributes(lambda rig: drivers.kxcjk1013(rig, buffered=True))
    varying = ("in_accel_x_raw", "in_accel_y_raw", "in_accel_z_raw", "current_timestamp_clock")
    assert vmrig.layout_differences(real, replica, varying) == {}


@pytest.mark.timeout(180)
def test_kxcjk1013_orientations_from_its_registers(kxcjk, kernel_rig):
    follow_turns(kernel_rig, kxcjk)
    rate = float(vmrig.read_attribute(kxcjk.syspath, "in_accel_sampling_frequency"))
    available = [float(v) for v in vmrig.read_attribute(
        kxcjk.syspath, "in_accel_sampling_frequency_available").split()]
    assert rate in available and rate >= 10, (rate, available)


@pytest.mark.timeout(180)
def test_monitor_sensor_in_compatibility_mode(bmc150, tmpdir_shared):
    """`[Compatibility] SensorProxy=yes` on the real bmc150: monitor-sensor, unchanged,
    follows a turn through net.hadess.SensorProxy."""
    rig = vmrig.KernelRig(tmpdir_shared / "compat", config_text="[Compatibility]\nSensorProxy=yes\n")
    try:
        rig.start_daemon()
        monitor = spawn(["stdbuf", "-oL", "monitor-sensor"], env=rig.bus.env(),
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines = LineReader(monitor)
        lines.expect(lambda line: "Accelerometer orientation changed: normal" in line
                     or "=== Has accelerometer (orientation: normal)" in line, CHANGE,
                     what="monitor-sensor: normal")
        bmc150.set_gravity(*POSES["landscape-left"])
        # Device landscape-left is iio-sensor-proxy's right-up (test_compat.py).
        lines.expect(lambda line: "orientation changed: right-up" in line, CHANGE,
                     what="monitor-sensor: right-up")
        time.sleep(0.5)
    finally:
        rig.close()
