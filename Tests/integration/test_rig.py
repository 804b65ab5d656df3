"""The rig itself (no daemon): bus, fake sysfs under the preload, in-place writes, cleanup.

When daemon tests fail, these tell whether the rig or the daemon is at fault.
"""

import ast
import os
import subprocess

import pytest

from rig import PYTHON, Rig, SystemBus, _children, kill_all_children

pytestmark = pytest.mark.rig

# Runs under libumockdev-preload: what libudev (the daemon's view) reports, then
# a reader that keeps the x channel open and preads it for every line on stdin.
PROBE = r"""
import ctypes, os, sys
udev = ctypes.CDLL("libudev.so.1")
for name in ("udev_new", "udev_enumerate_new", "udev_enumerate_get_list_entry",
             "udev_list_entry_get_next", "udev_device_new_from_syspath"):
    getattr(udev, name).restype = ctypes.c_void_p
for name in ("udev_list_entry_get_name", "udev_device_get_subsystem",
             "udev_device_get_sysname", "udev_device_get_property_value"):
    getattr(udev, name).restype = ctypes.c_char_p
for name in ("udev_enumerate_new", "udev_enumerate_add_match_subsystem",
             "udev_enumerate_scan_devices", "udev_enumerate_get_list_entry",
             "udev_list_entry_get_next", "udev_list_entry_get_name",
             "udev_device_new_from_syspath", "udev_device_get_subsystem",
             "udev_device_get_sysname", "udev_device_get_property_value"):
    getattr(udev, name).argtypes = [ctypes.c_void_p] * (
        2 if name in ("udev_enumerate_add_match_subsystem", "udev_device_new_from_syspath",
                      "udev_device_get_property_value") else 1)
u = udev.udev_new()
e = udev.udev_enumerate_new(u)
udev.udev_enumerate_add_match_subsystem(e, b"iio")
udev.udev_enumerate_scan_devices(e)
entry = udev.udev_enumerate_get_list_entry(e)
syspath = None
while entry:
    syspath = udev.udev_list_entry_get_name(entry).decode()
    d = udev.udev_device_new_from_syspath(u, syspath.encode())
    mm = udev.udev_device_get_property_value(d, b"ACCEL_MOUNT_MATRIX")
    print("device", syspath, udev.udev_device_get_subsystem(d).decode(),
          (mm or b"-").decode().replace(" ", ""), flush=True)
    entry = udev.udev_list_entry_get_next(entry)
print("end", flush=True)
if syspath:
    fd = os.open(syspath + "/in_accel_x_raw", os.O_RDONLY)
    for _ in sys.stdin:
        print("read", repr(os.pread(fd, 4096, 0).decode()), flush=True)
"""


def run_probe(rig):
    env = rig.daemon.env  # exactly what the daemon gets (preload, UMOCKDEV_DIR, bus)
    return subprocess.Popen([PYTHON, "-c", PROBE], env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def test_bus_starts_answers_and_stops(tmp_path):
    bus = SystemBus(tmp_path / "bus").start()
    assert bus.address.startswith("unix:path=%s" % (tmp_path / "bus"))
    assert bus.name_has_owner("org.freedesktop.DBus") is True
    assert bus.name_has_owner("io.github.MotionOrientation1") is False
    proc = bus.proc
    bus.stop()
    assert proc.poll() is not None


def test_fake_accelerometer_as_the_daemon_sees_it():
    with Rig(start_daemon=False, mount_matrix="0, 1, 0; 1, 0, 0; 0, 0, 1") as rig:
        probe = run_probe(rig)
        try:
            first = probe.stdout.readline().split()
            assert first == ["device", "/sys/devices/iio:device0", "iio", "0,1,0;1,0,0;0,0,1"]
            assert rig.accel.syspath == "/sys/devices/iio:device0"
            assert probe.stdout.readline().strip() == "end"
            inode = os.stat(rig.accel.file_path("x")).st_ino
            for raw in ("1000", "-981", "abc", "99999999999999999999"):
                rig.accel.set_raw("x", raw)
                probe.stdin.write("\n")
                probe.stdin.flush()
                seen = ast.literal_eval(probe.stdout.readline().split(" ", 1)[1])
                assert seen.strip() == raw, seen
            rig.accel.set_raw("x", "")
            probe.stdin.write("\n")
            probe.stdin.flush()
            assert probe.stdout.readline().strip() == "read ''"
            # Same file all along: written in place, never replaced.
            assert os.stat(rig.accel.file_path("x")).st_ino == inode
        finally:
            probe.kill()
            probe.wait()


def test_gravity_to_raw_values():
    with Rig(start_daemon=False, mount_matrix="0, 1, 0; 1, 0, 0; 0, 0, 1",
             channel_scales={"z": 0.0196133}) as rig:
        rig.accel.set_gravity(9.80665, 0.0, 0.0)  # the mount matrix is undone
        assert [rig.accel.read_back(c).strip() for c in "xyz"] == ["0", "1000", "0"]
        rig.accel.set_gravity(0.0, 0.0, -9.80665)  # per-channel scale: 2 mg per unit
        assert [rig.accel.read_back(c).strip() for c in "xyz"] == ["0", "0", "-500"]
        assert len(rig.accel.read_back("x")) == len(rig.accel.read_back("z"))


def test_no_accelerometer_testbed_is_empty():
    with Rig(start_daemon=False, accelerometer=False) as rig:
        probe = run_probe(rig)
        try:
            assert probe.stdout.readline().strip() == "end"
        finally:
            probe.kill()
            probe.wait()


def test_close_leaves_nothing_behind():
    rig = Rig(start_daemon=False)
    client = rig.bus_client()
    monitor = rig.monitor()
    pids = [rig.bus.proc.pid, client.proc.pid, monitor.proc.pid]
    root, tmp = rig.umockdev_dir, rig.tmp
    rig.close()
    for pid in pids:
        assert not os.path.exists("/proc/%d" % pid) or \
            open("/proc/%d/stat" % pid).read().split()[2] == "Z", pid
    assert not root.exists() and not tmp.exists()
    assert _children == []
    kill_all_children()
