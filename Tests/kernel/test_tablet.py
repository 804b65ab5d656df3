"""Two HID sensor hub accelerometers on the real kernel, a display's and a base's: the base is
named by a hwdb entry (ACCEL_LOCATION, ACCEL_MOUNT_MATRIX) that real systemd-hwdb compiles and
real udevd applies; the daemon's virtual SW_TABLET_MODE switch is created on the VM's real
/dev/uinput and read by libinput."""

import signal
import subprocess
import time
from pathlib import Path

import pytest

import vmrig
from rig import STANDARD_GRAVITY, LineReader, RigError, kill_process, spawn, wait_until
from rig.tablet import BASE_MOUNT_MATRIX, hinge_readings

DISPLAY_PRODUCT = 0x0A01
BASE_PRODUCT = 0x0A02
HWDB = Path("/etc/udev/hwdb.d/61-motion-orientation-test.hwdb")
RULE = Path("/etc/udev/rules.d/61-motion-orientation-test.rules")
SWITCH_NAME = "Motion Orientation tablet-mode switch"
CHANGE = 20.0


def hwdb_text():
    # The hid device's modalias, e.g. hid:b0006g0004v00001D6Bp00000A02 (bus virtual, group
    # sensor hub): the two hubs differ only in their product.
    return ("sensor:modalias:hid:b0006g*v00001D6Bp%08X*\n ACCEL_LOCATION=display\n\n"
            "sensor:modalias:hid:b0006g*v00001D6Bp%08X*\n ACCEL_LOCATION=base\n"
            " ACCEL_MOUNT_MATRIX=%s\n" % (DISPLAY_PRODUCT, BASE_PRODUCT, BASE_MOUNT_MATRIX))


@pytest.fixture(scope="module")
def hwdb(system):
    """The hwdb entry, and the one rule line that looks it up: systemd's 60-sensor.rules keys
    on the platform parent (HID-SENSOR-200073, the same for every hub), so this looks up the
    hid parent's modalias the same way, before 80-motion-orientation.rules reads it."""
    HWDB.parent.mkdir(parents=True, exist_ok=True)
    HWDB.write_text(hwdb_text())
    RULE.write_text('ACTION!="remove", SUBSYSTEM=="iio", KERNEL=="iio*", SUBSYSTEMS=="hid", '
                    "IMPORT{builtin}=\"hwdb 'sensor:modalias:$attr{modalias}'\"\n")
    vmrig.sh("systemd-hwdb", "update")
    vmrig.sh("udevadm", "control", "--reload")
    yield
    HWDB.unlink()
    RULE.unlink()
    vmrig.sh("systemd-hwdb", "update")


def unmount(reading):
    """The raw reading of the base hub whose matrix-applied reading is `reading`
    (BASE_MOUNT_MATRIX is its own inverse)."""
    x, y, z = reading
    return (x, -y, -z)


class Machine:
    """The display and base hubs, set from a hinge angle (base flat) or one gravity reading."""

    def __init__(self, make_hub, theta=90):
        display, base = hinge_readings(theta)
        self.display, self.display_path = make_hub(product=DISPLAY_PRODUCT, gravity=display)
        self.base, self.base_path = make_hub(product=BASE_PRODUCT, gravity=unmount(base))

    def hinge(self, theta):
        display, base = hinge_readings(theta)
        self.display.set_gravity(*display)
        self.base.set_gravity(*unmount(base))

    def sweep(self, start, stop, step=10, pause=0.3):
        angle = start
        direction = 1 if stop >= start else -1
        while (stop - angle) * direction > 0:
            angle += direction * min(step, abs(stop - angle))
            self.hinge(angle)
            time.sleep(pause)


def near(value, target, tolerance=3.0):
    return abs(value - target) <= tolerance


def test_hwdb_names_the_base_and_udev_grants_uinput(hwdb, make_hub):
    machine = Machine(make_hub)
    display = vmrig.udev_properties(machine.display_path)
    base = vmrig.udev_properties(machine.base_path)
    assert display.get("ACCEL_LOCATION") == "display"
    assert base.get("ACCEL_LOCATION") == "base"
    assert base.get("ACCEL_MOUNT_MATRIX") == BASE_MOUNT_MATRIX
    acl = vmrig.sh("getfacl", "-p", "/dev/uinput").stdout
    assert "user:%s:-w-" % vmrig.USER in acl, acl


@pytest.mark.timeout(240)
def test_hinge_tablet_mode_and_the_virtual_switch_in_libinput(hwdb, make_hub, kernel_rig):
    machine = Machine(make_hub)
    libinput = spawn(["stdbuf", "-oL", "libinput", "debug-events"], stdout=subprocess.PIPE,
                     stderr=subprocess.STDOUT)
    lines = LineReader(libinput)
    try:
        kernel_rig.start_daemon()
        # Only the virtual switch wants the hinge: sampling runs without a claim.
        kernel_rig.wait_for_property("Active", True, CHANGE)
        wait_until(lambda: near(kernel_rig.get_property("HingeAngle"), 90), CHANGE,
                   what="HingeAngle 90")
        assert kernel_rig.get_property("TabletMode") is False
        assert kernel_rig.get_property("TabletModeSource") == "hinge"
        added = lines.expect(lambda line: "DEVICE_ADDED" in line and SWITCH_NAME in line, CHANGE,
                                what="the switch in libinput")[0]
        assert "switch" in added
        machine.sweep(90, 300)
        kernel_rig.wait_for_property("TabletMode", True, CHANGE)
        toggle = lines.expect(lambda line: "SWITCH_TOGGLE" in line, CHANGE, what="a toggle")[0]
        assert "tablet-mode state 1" in toggle, toggle
        machine.sweep(300, 90)
        kernel_rig.wait_for_property("TabletMode", False, CHANGE)
        toggle = lines.expect(lambda line: "SWITCH_TOGGLE" in line, CHANGE, what="a toggle")[0]
        assert "tablet-mode state 0" in toggle, toggle
        wait_until(lambda: near(kernel_rig.get_property("HingeAngle"), 90), CHANGE,
                   what="HingeAngle 90 again")
    finally:
        kill_process(libinput)


@pytest.mark.timeout(240)
def test_laptop_on_its_side_keeps_its_interface_orientation(hwdb, make_hub, kernel_rig):
    machine = Machine(make_hub)
    kernel_rig.start_daemon()
    kernel_rig.claim()
    kernel_rig.wait_for_property("InterfaceOrientation", "portrait", CHANGE)
    wait_until(lambda: near(kernel_rig.get_property("HingeAngle"), 90), CHANGE, what="HingeAngle 90")
    # The open laptop lies on its right side: both halves read gravity along +x.
    side = (STANDARD_GRAVITY, 0.0, 0.0)
    machine.display.set_gravity(*side)
    machine.base.set_gravity(*unmount(side))
    kernel_rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE)
    time.sleep(2)
    assert kernel_rig.get_property("InterfaceOrientation") == "portrait"
    assert kernel_rig.get_property("TabletMode") is False
    # Folded into a tent it is a tablet: the interface follows the device again.
    machine.hinge(90)
    time.sleep(1)
    machine.sweep(90, 300)
    kernel_rig.wait_for_property("TabletMode", True, CHANGE)
    kernel_rig.wait_for_property("DeviceOrientation", "portrait-upside-down", CHANGE)
    kernel_rig.wait_for_property("InterfaceOrientation", "portrait-upside-down", CHANGE)


def key_reaches(keyboard, lines, timeout):
    """Whether a KEY_A press of the internal keyboard reaches libinput within `timeout`."""
    keyboard.press()
    try:
        lines.expect(lambda line: "KEYBOARD_KEY" in line and "KEY_A" in line, timeout,
                     what="KEY_A in libinput")
        return True
    except RigError:
        return False


def wait_for_keys(keyboard, lines, what):
    """Presses until one reaches libinput (it reopens a resumed keyboard on its own time)."""
    wait_until(lambda: key_reaches(keyboard, lines, 1.0), CHANGE, what=what)


def assert_keys_blocked(keyboard, lines, why):
    assert not key_reaches(keyboard, lines, 3.0), "a key press reached libinput %s" % why


@pytest.mark.timeout(420)
def test_internal_keyboard_comes_back_after_unfold_stop_and_crash(hwdb, make_hub, kernel_rig):
    """libinput suspends the internal keyboard while the virtual switch is 1 and resumes it only
    at a switch event to 0 (not when the switch disappears): the daemon sends 0 at an unfold,
    before it exits, and after a crash in tablet mode (the restarted daemon's switch)."""
    machine = Machine(make_hub)
    libinput = spawn(["stdbuf", "-oL", "libinput", "debug-events", "--show-keycodes"],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = LineReader(libinput)
    keyboard = vmrig.InternalKeyboard()

    def switch_added():
        lines.expect(lambda line: "DEVICE_ADDED" in line and SWITCH_NAME in line, CHANGE,
                     what="the switch in libinput")

    def toggled(state):
        toggle = lines.expect(lambda line: "SWITCH_TOGGLE" in line, CHANGE, what="a toggle")[0]
        assert "tablet-mode state %d" % state in toggle, toggle

    def fold():
        machine.sweep(90, 300)
        kernel_rig.wait_for_property("TabletMode", True, CHANGE)
        toggled(1)
        assert_keys_blocked(keyboard, lines, "while folded")

    try:
        lines.expect(lambda line: "DEVICE_ADDED" in line and vmrig.InternalKeyboard.NAME in line,
                     CHANGE, what="the keyboard in libinput")
        kernel_rig.start_daemon()
        switch_added()
        wait_for_keys(keyboard, lines, "a key press before any fold")
        # (c) an ordinary unfold
        fold()
        machine.sweep(300, 90)
        kernel_rig.wait_for_property("TabletMode", False, CHANGE)
        toggled(0)
        wait_for_keys(keyboard, lines, "a key press after the unfold")
        # (a) the daemon stopped while folded
        fold()
        assert kernel_rig.stop_daemon(signal.SIGTERM) == 0
        toggled(0)
        wait_for_keys(keyboard, lines, "a key press after SIGTERM while folded")
        # (b) the daemon killed while folded, the machine unfolded, the daemon started again
        kernel_rig.start_daemon()
        switch_added()
        kernel_rig.wait_for_property("TabletMode", True, CHANGE)
        toggled(1)
        assert_keys_blocked(keyboard, lines, "while folded, after a restart")
        assert kernel_rig.stop_daemon(signal.SIGKILL) == -signal.SIGKILL
        lines.expect(lambda line: "DEVICE_REMOVED" in line and SWITCH_NAME in line, CHANGE,
                     what="the killed daemon's switch gone from libinput")
        machine.sweep(300, 90)
        # libinput's own behaviour, which is why the state is kept: gone, the switch resumed nothing.
        assert_keys_blocked(keyboard, lines, "after the switch died with the daemon")
        kernel_rig.start_daemon()
        switch_added()
        wait_for_keys(keyboard, lines, "a key press after the restart that follows the crash")
        assert kernel_rig.get_property("TabletMode") is False
        assert "left on" in kernel_rig.log()
    finally:
        keyboard.close()
        kill_process(libinput)
