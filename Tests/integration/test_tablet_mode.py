"""Tablet mode (issue 14): hardware SW_TABLET_MODE switches, the hinge between a display and a
base accelerometer, the virtual uinput switch, and what the bus shows of them (TabletMode,
TabletModeSource, HingeAngle, HingeState, TabletModeChanged).

Fakes: rig/tablet.py (an evdev switch whose node is a FIFO, a fake /dev/uinput recording the
daemon's calls, hinge readings in the hwdb frames), two umockdev IIO accelerometers placed by
ACCEL_LOCATION, logind through python-dbusmock (energy_mocks.py)."""

import math
import re
import signal
import time

import pytest

import energy_mocks as em
from rig import RigError, wait_until
from rig.drivers import attribute, feed, hid_hub
from rig.tablet import (BUS_VIRTUAL, EV_SW, EV_SYN, SW_TABLET_MODE, FakeTabletModeSwitch,
                        FakeUinput, hinge_readings, set_rig_hinge, tablet_rig)

pytestmark = pytest.mark.daemon

CHANGE = 5.0
SWITCH_NAME = "Motion Orientation tablet-mode switch"
# What the daemon must ask of uinput, in order, and nothing else (no keys: see
# docs on what uinput access means).
CREATE_CALLS = [("UI_SET_EVBIT", EV_SW), ("UI_SET_SWBIT", SW_TABLET_MODE), ("UI_SET_PHYS", None),
                ("UI_DEV_SETUP", (BUS_VIRTUAL, 0, 0, 1, SWITCH_NAME, 0)), ("UI_DEV_CREATE", None)]


def state_events(on):
    return [(EV_SW, SW_TABLET_MODE, int(on)), (EV_SYN, 0, 0)]


def tablet_signals(client):
    """The TabletModeChanged values a busclient (signals=True) has received so far."""
    values = []
    while True:
        try:
            member, payload = client.next_signal(0.05)
        except RigError:
            return values
        if member == "TabletModeChanged":
            values.append(payload[0])


def log_lines_naming(rig, text):
    return [line for line in rig.daemon.log_lines() if text in line]


# ---------------------------------------------------------------------------
# no source


def test_no_sensors_and_no_switch_means_no_source(make_rig):
    rig = tablet_rig(make_rig, display=False, base=False)
    props = rig.get_properties()
    assert (props["TabletMode"], props["TabletModeSource"], props["HingeAngle"],
            props["HingeState"]) == (False, "none", -1.0, "unknown")
    # Nothing to decide from: no virtual switch either.
    assert rig.uinput.snapshot() == []


def test_display_alone_is_no_hinge(make_rig):
    rig = tablet_rig(make_rig, base=False)
    with rig.bus_client(start=True):
        rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
        assert rig.get_property("TabletModeSource") == "none"
        assert rig.get_property("HingeAngle") == -1.0
    assert rig.uinput.snapshot() == []


# ---------------------------------------------------------------------------
# hardware switches


def test_hardware_switch_state_at_start_and_its_events(make_rig):
    rig = tablet_rig(make_rig, base=False, switch={"tablet": True})
    props = rig.get_properties()
    assert (props["TabletModeSource"], props["TabletMode"], props["HingeAngle"]) == (
        "switch", True, -1.0)
    client = rig.bus_client(signals=True)
    client.ping()  # answered once it is subscribed: no signal is missed from here on
    rig.switch.set(tablet=False)
    rig.wait_for_property("TabletMode", False, CHANGE)
    rig.switch.set(tablet=True)
    rig.wait_for_property("TabletMode", True, CHANGE)
    deadline = time.monotonic() + CHANGE
    seen = []
    while time.monotonic() < deadline and seen != [False, True]:
        seen += tablet_signals(client)
    assert seen == [False, True]
    # A hardware switch is what libinput already sees: no virtual one repeats it.
    assert rig.uinput.snapshot() == []
    # Event-driven: the initial state came from EVIOCGSW, no polling ioctls after.
    assert any(request & 0xFF == 0x1B for request in rig.switch.requests)
    before = len(rig.switch.requests)
    time.sleep(0.5)
    assert len(rig.switch.requests) == before


def test_hardware_switch_wins_over_the_hinge_and_hotplugs(make_rig):
    rig = tablet_rig(make_rig)
    assert rig.get_property("TabletModeSource") == "hinge"
    switch = FakeTabletModeSwitch(rig.testbed, tablet=True)
    rig._closeables.append(switch)
    rig.uevent(switch.syspath, "add")
    rig.wait_for_property("TabletModeSource", "switch", CHANGE)
    rig.wait_for_property("TabletMode", True, CHANGE)
    # The source changed away from the hinge: the virtual switch is gone.
    wait_until(lambda: rig.uinput.snapshot()[-1:] == [("UI_DEV_DESTROY", None)], CHANGE,
               what="UI_DEV_DESTROY on the source change")
    rig.remove_device(switch.syspath, subsystem="input")
    rig.wait_for_property("TabletModeSource", "hinge", CHANGE)
    wait_until(lambda: [c for c in rig.uinput.snapshot() if c[0] == "UI_DEV_CREATE"] == [
        ("UI_DEV_CREATE", None)] * 2, CHANGE, what="a new virtual switch")


@pytest.mark.parametrize("kind", ["virtual", "keyboard"])
def test_virtual_and_keyboard_switches_are_not_read(make_rig, kind):
    rig = tablet_rig(make_rig, base=False, switch={"tablet": True, kind: True})
    assert rig.get_property("TabletModeSource") == "none"
    assert rig.switch.requests == []  # never opened
    assert len(log_lines_naming(rig, rig.switch.syspath)) == 1


def test_switch_lid_pauses_sampling(make_rig):
    rig = tablet_rig(make_rig, base=False, switch={"tablet": False, "lid": False})
    rig.bus_client(start=True)
    rig.wait_for_property("Active", True, CHANGE)
    rig.switch.set(lid=True)
    rig.wait_for_property("Active", False, CHANGE)
    rig.switch.set(lid=False)
    rig.wait_for_property("Active", True, CHANGE)


# ---------------------------------------------------------------------------
# the virtual switch


def test_virtual_switch_is_created_with_its_state_and_destroyed_on_sigterm(make_rig):
    rig = tablet_rig(make_rig)
    assert rig.get_property("TabletModeSource") == "hinge"
    wait_until(lambda: len(rig.uinput.snapshot()) >= len(CREATE_CALLS) + 1, CHANGE,
               what="the virtual switch")
    calls = rig.uinput.snapshot()
    assert calls[:len(CREATE_CALLS)] == CREATE_CALLS
    assert calls[len(CREATE_CALLS)] == ("write", state_events(False))
    assert not [c for c in calls if c[0] == "UI_SET_KEYBIT"]
    code, _ = rig.daemon.stop(signal.SIGTERM)
    assert code == 0
    assert rig.uinput.snapshot()[-1] == ("UI_DEV_DESTROY", None)


def test_virtual_switch_without_uinput_is_one_log_line(make_rig):
    rig = tablet_rig(make_rig, uinput=False)
    assert rig.get_property("TabletModeSource") == "hinge"
    lines = log_lines_naming(rig, "/dev/uinput")
    assert len(lines) == 1, lines
    assert re.search(r"errno 2\b", lines[0]) and "virtual tablet-mode switch" in lines[0], lines
    # The daemon goes on: the orientation still works.
    with rig.bus_client(start=True):
        rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    assert len(log_lines_naming(rig, "/dev/uinput")) == 1


def test_virtual_switch_is_tried_again_at_an_accelerometer_event(make_rig):
    """/dev/uinput refused at first (udev's RUN for the base, which grants it, may come after
    the daemon's attempt) is tried again at the next accelerometer udev event."""
    rig = tablet_rig(make_rig, uinput=False)
    assert rig.get_property("TabletModeSource") == "hinge"
    assert len(log_lines_naming(rig, "/dev/uinput")) == 1
    rig.uinput = FakeUinput(rig.testbed)
    rig._closeables.append(rig.uinput)
    rig.uevent(rig.base, "change")
    wait_until(lambda: len(rig.uinput.snapshot()) >= len(CREATE_CALLS) + 1, CHANGE,
               what="the virtual switch")
    assert rig.uinput.snapshot()[:len(CREATE_CALLS)] == CREATE_CALLS


# ---------------------------------------------------------------------------
# the virtual switch lets go (issue 29): libinput resumes the keyboard it suspended only at
# a switch event to 0, never when the switch disappears


STATE_FILE = "tablet-mode-switch"


def folded_rig(make_rig, **kwargs):
    """A tablet_rig folded into a tent, its virtual switch at 1."""
    rig = tablet_rig(make_rig, **kwargs)
    rig.wait_for_property("Active", True, CHANGE)
    sweep(rig, 90, 300)
    rig.wait_for_property("TabletMode", True, CHANGE)
    wait_until(lambda: rig.uinput.written()[-2:] == state_events(True), CHANGE,
               what="the virtual switch at 1")
    wait_until(lambda: state_file_text(rig) == "1\n", CHANGE, what="the state file at 1")
    return rig


def state_file_text(rig):
    return (rig.runtime_dir / STATE_FILE).read_text()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_virtual_switch_sends_0_before_it_goes_at_exit(make_rig, sig):
    rig = folded_rig(make_rig)
    code, _ = rig.daemon.stop(sig)
    assert code == 0
    assert rig.uinput.snapshot()[-2:] == [("write", state_events(False)), ("UI_DEV_DESTROY", None)]
    assert state_file_text(rig) == "0\n"


@pytest.mark.timeout(60)
def test_virtual_switch_sends_0_before_a_reload_turns_it_off(make_rig):
    rig = folded_rig(make_rig)
    rig.reload("[TabletMode]\nVirtualSwitch=no\n")
    wait_until(lambda: rig.uinput.snapshot()[-1:] == [("UI_DEV_DESTROY", None)], CHANGE,
               what="UI_DEV_DESTROY after the reload")
    assert rig.uinput.snapshot()[-2] == ("write", state_events(False))
    # Kept after the device is gone.
    wait_until(lambda: state_file_text(rig) == "0\n", CHANGE, what="the state file at 0")


@pytest.mark.timeout(60)
def test_virtual_switch_sends_0_before_a_hardware_switch_takes_over(make_rig):
    rig = folded_rig(make_rig)
    switch = FakeTabletModeSwitch(rig.testbed, tablet=True)
    rig._closeables.append(switch)
    rig.uevent(switch.syspath, "add")
    rig.wait_for_property("TabletModeSource", "switch", CHANGE)
    wait_until(lambda: rig.uinput.snapshot()[-1:] == [("UI_DEV_DESTROY", None)], CHANGE,
               what="UI_DEV_DESTROY on the source change")
    assert rig.uinput.snapshot()[-2] == ("write", state_events(False))


@pytest.mark.timeout(60)
def test_switch_left_on_by_a_killed_daemon_is_made_on_then_let_go(make_rig):
    rig = folded_rig(make_rig)
    code, _ = rig.daemon.stop(signal.SIGKILL)
    assert code == -signal.SIGKILL
    # Killed: no 0 was sent; the state kept says on.
    assert rig.uinput.written()[-2:] == state_events(True)
    assert state_file_text(rig) == "1\n"
    sweep(rig, 300, 90)
    before = len(rig.uinput.snapshot())
    rig.daemon.start()
    # The new switch is made on, although the laptop is open, and goes to 0 after its hold.
    wait_until(lambda: len(rig.uinput.snapshot()) >= before + len(CREATE_CALLS) + 1, CHANGE,
               what="the new virtual switch")
    calls = rig.uinput.snapshot()[before:]
    assert calls[:len(CREATE_CALLS) + 1] == CREATE_CALLS + [("write", state_events(True))]
    assert rig.get_property("TabletMode") is False
    wait_until(lambda: rig.uinput.snapshot()[-1:] == [("write", state_events(False))], 10.0,
               what="the held switch's 0")
    # Kept after the event is written.
    wait_until(lambda: state_file_text(rig) == "0\n", CHANGE, what="the state file at 0")
    assert any("left on" in line and str(rig.runtime_dir) in line for line in rig.daemon.log_lines())


@pytest.mark.parametrize("content", ["garbage\n", "", "2\n"])
def test_bad_state_file_is_reported_with_its_path_and_ignored(make_rig, content):
    def setup(rig):
        (rig.runtime_dir / STATE_FILE).write_text(content)

    rig = tablet_rig(make_rig, setup=setup)
    wait_until(lambda: len(rig.uinput.snapshot()) >= len(CREATE_CALLS) + 1, CHANGE,
               what="the virtual switch")
    assert rig.uinput.snapshot()[len(CREATE_CALLS)] == ("write", state_events(False))
    path = str(rig.runtime_dir / STATE_FILE)
    lines = log_lines_naming(rig, path)
    assert len(lines) == 1 and re.search(r"errno 22\b", lines[0]), lines
    wait_until(lambda: state_file_text(rig) == "0\n", CHANGE, what="the state file rewritten")


def test_unwritable_state_file_is_reported_once_and_the_switch_still_works(make_rig):
    missing = None

    def setup(rig):
        nonlocal missing
        missing = rig.tmp / "missing"
        rig.daemon.env["RUNTIME_DIRECTORY"] = str(missing)

    rig = tablet_rig(make_rig, setup=setup)
    rig.wait_for_property("Active", True, CHANGE)
    sweep(rig, 90, 300)
    rig.wait_for_property("TabletMode", True, CHANGE)
    wait_until(lambda: rig.uinput.written()[-2:] == state_events(True), CHANGE,
               what="the virtual switch at 1")
    lines = log_lines_naming(rig, str(missing))
    assert len(lines) == 1 and re.search(r"errno 2\b", lines[0]), lines


# ---------------------------------------------------------------------------
# the hinge


def sweep(rig, start, stop, step=10, pause=0.15):
    """Fold the hinge from start to stop degrees (base flat) in steps, pausing between."""
    angle = start
    direction = 1 if stop >= start else -1
    while (stop - angle) * direction > 0:
        angle += direction * min(step, abs(stop - angle))
        set_rig_hinge(rig, angle)
        time.sleep(pause)


def near(value, target, tolerance=3.0):
    return abs(value - target) <= tolerance


@pytest.mark.timeout(60)
def test_fold_sweep_through_tablet_mode_and_back_on_the_bus(make_rig):
    rig = tablet_rig(make_rig)
    client = rig.bus_client(signals=True)
    client.ping()  # answered once it is subscribed: no signal is missed from here on
    # Only the virtual switch wants the hinge: sampling runs without a claim.
    rig.wait_for_property("Active", True, CHANGE)
    wait_until(lambda: near(rig.get_property("HingeAngle"), 90), CHANGE, what="HingeAngle 90")
    assert rig.get_property("HingeState") == "concave"
    assert rig.get_property("TabletMode") is False
    sweep(rig, 90, 180)
    rig.wait_for_property("HingeState", "flat", CHANGE)
    assert rig.get_property("TabletMode") is False  # flat is not past EnterAngle=200
    sweep(rig, 180, 300)
    rig.wait_for_property("TabletMode", True, CHANGE)
    rig.wait_for_property("HingeState", "convex", CHANGE)
    wait_until(lambda: near(rig.get_property("HingeAngle"), 300), CHANGE, what="HingeAngle 300")
    wait_until(lambda: rig.uinput.written()[-2:] == state_events(True), CHANGE,
               what="the virtual switch's tablet-mode event")
    sweep(rig, 300, 90)
    rig.wait_for_property("TabletMode", False, CHANGE)
    rig.wait_for_property("HingeState", "concave", CHANGE)
    wait_until(lambda: rig.uinput.written()[-2:] == state_events(False), CHANGE,
               what="the virtual switch's laptop-mode event")
    seen = []
    deadline = time.monotonic() + CHANGE
    while time.monotonic() < deadline and seen != [True, False]:
        seen += tablet_signals(client)
    assert seen == [True, False]
    # Each change written once: created with 0, then 1, then 0.
    assert rig.uinput.written() == state_events(False) + state_events(True) + state_events(False)


@pytest.mark.timeout(40)
def test_hinge_vertical_changes_nothing(make_rig):
    rig = tablet_rig(make_rig)
    rig.wait_for_property("Active", True, CHANGE)
    wait_until(lambda: near(rig.get_property("HingeAngle"), 90), CHANGE, what="HingeAngle 90")
    # The whole device turned so that gravity lies within 10 degrees of the hinge: any fold
    # now is undefined, and must change nothing.
    vertical = (9.66, 0.0, 1.70)
    for angle in (90, 150, 220, 300, 330):
        set_rig_hinge(rig, angle, base=vertical)
        time.sleep(0.3)
    rig.assert_property_stays("TabletMode", False, 2.0)
    assert near(rig.get_property("HingeAngle"), 90)
    assert rig.get_property("HingeState") == "concave"
    assert rig.uinput.written() == state_events(False)


def first_state_write(rig, tablet, since, timeout):
    """The time.monotonic() of the virtual switch's first write of `tablet` after its
    `since`-th write, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for stamp, events in rig.uinput.writes()[since:]:
            if events and events[0] == (EV_SW, SW_TABLET_MODE, int(tablet)):
                return stamp
        time.sleep(0.005)
    return None


@pytest.mark.timeout(40)
def test_one_step_fold_from_still_is_followed_at_the_next_reading(make_rig):
    """A hand folds faster than the still hinge is read (every 1 s): 110 -> 330 written at once
    is a tent at the next reading, and tablet mode at the one after (0.1 s later), not 0.8
    degrees and closed."""
    rig = tablet_rig(make_rig, theta=110)
    rig.wait_for_property("SampleIntervalMsec", 1000, CHANGE)
    wait_until(lambda: near(rig.get_property("HingeAngle"), 110), CHANGE, what="HingeAngle 110")
    since = len(rig.uinput.writes())
    set_rig_hinge(rig, 330)
    written = time.monotonic()
    stamp = first_state_write(rig, True, since, CHANGE)
    assert stamp is not None, "no tablet mode after the fold"
    # One slow interval at most, then one fast one; slack for a loaded machine.
    assert stamp - written <= 1.0 + 0.1 + 0.5, stamp - written
    assert near(rig.get_property("HingeAngle"), 330)
    assert rig.get_property("HingeState") == "convex"
    # And back in one step.
    since = len(rig.uinput.writes())
    set_rig_hinge(rig, 110)
    assert first_state_write(rig, False, since, CHANGE) is not None
    wait_until(lambda: rig.get_property("HingeState") == "concave", CHANGE, what="concave")


@pytest.mark.timeout(40)
def test_one_step_fold_into_the_band_with_the_lid_switch_open_is_a_tablet(make_rig):
    """110 -> 355 at once: closed and folded back read alike there; the lid switch says open,
    so it is folded (continuity from 110 took it for closed)."""
    rig = tablet_rig(make_rig, theta=110, switch={"tablet": False, "lid": False},
                     config_text="[TabletMode]\nSource=hinge\n")
    rig.wait_for_property("SampleIntervalMsec", 1000, CHANGE)
    wait_until(lambda: near(rig.get_property("HingeAngle"), 110), CHANGE, what="HingeAngle 110")
    set_rig_hinge(rig, 355)
    rig.wait_for_property("TabletMode", True, CHANGE)
    assert rig.get_property("HingeState") == "full"
    assert near(rig.get_property("HingeAngle"), 355)


def hub_display(rig, theta):
    """A change-only HID sensor hub as the display (rig.display), at hinge angle theta."""
    rig.display = rig.accel = hid_hub(rig, gravity=hinge_readings(theta)[0],
                                      properties={"ACCEL_LOCATION": "display"})


@pytest.mark.timeout(40)
def test_change_only_display_hub_reports_a_fold_and_tablet_mode_follows_at_once(make_rig):
    """A change-only hub reports the fold as it happens (40 ms apart) and then nothing: the
    mode changes at its second report 30 degrees past EnterAngle, with no evidence time to
    wait out (it took 0.4 s of repeated reports before)."""
    rig = tablet_rig(make_rig, display=False, theta=120, setup=lambda r: hub_display(r, 120))
    rig.wait_for_property("Active", True, CHANGE)
    wait_until(lambda: attribute(rig.display, "buffer/enable") == "1", CHANGE, what="buffer enabled")
    feed(rig.display, [hinge_readings(120)[0]])  # the report at power-up
    wait_until(lambda: near(rig.get_property("HingeAngle"), 120), CHANGE, what="HingeAngle 120")
    time.sleep(1.0)
    since = len(rig.uinput.writes())
    set_rig_hinge(rig, 250)  # the raw channels and the polled base
    feed(rig.display, [hinge_readings(a)[0] for a in (150, 180, 210, 240, 250)], spacing=0.04)
    written = time.monotonic()
    stamp = first_state_write(rig, True, since, CHANGE)
    assert stamp is not None, "no tablet mode after the fold"
    assert stamp - written <= 0.3, stamp - written


@pytest.mark.timeout(40)
def test_change_only_display_report_near_enter_angle_is_held_until_the_evidence_time(make_rig):
    """The base turned under a still display: one small display report shows 215 degrees,
    past EnterAngle but not decisively, and the hub says nothing more. Its last report keeps
    counting while the tablet-mode decision gathers evidence, so tablet mode follows (before,
    nothing was read again and the mode never changed)."""
    rig = tablet_rig(make_rig, display=False, theta=120, setup=lambda r: hub_display(r, 120))
    rig.wait_for_property("Active", True, CHANGE)
    wait_until(lambda: attribute(rig.display, "buffer/enable") == "1", CHANGE, what="buffer enabled")
    display = hinge_readings(120)[0]
    feed(rig.display, [display])  # the report at power-up
    wait_until(lambda: near(rig.get_property("HingeAngle"), 120), CHANGE, what="HingeAngle 120")
    time.sleep(1.5)
    # The base's reading for 215 degrees under the same display: the display turned back.
    t = math.radians(-215)
    base = (display[0], math.cos(t) * display[1] - math.sin(t) * display[2],
            math.sin(t) * display[1] + math.cos(t) * display[2])
    rig.base.set_gravity(*base)
    since = len(rig.uinput.writes())
    feed(rig.display, [(display[0] + 0.05, display[1], display[2])])
    written = time.monotonic()
    stamp = first_state_write(rig, True, since, 5.0)
    assert stamp is not None, "no tablet mode after a report 15 degrees past EnterAngle"
    assert stamp - written <= 1.5, stamp - written
    assert near(rig.get_property("HingeAngle"), 215)


def test_logind_lid_closed_is_closed_and_stops_the_hinge(make_rig):
    mocks = {}
    rig = tablet_rig(make_rig, theta=120,
                     setup=lambda r: mocks.update(logind=em.start_logind(r, lid_closed=False)))
    rig.wait_for_property("HingeState", "concave", CHANGE)
    em.set_logind_lid(mocks["logind"], True)
    rig.wait_for_property("HingeState", "closed", CHANGE)
    assert rig.get_property("HingeAngle") == 0
    assert rig.get_property("TabletMode") is False
    # Nothing to read while the lid is closed, even for the virtual switch.
    rig.wait_for_property("Active", False, CHANGE)
    em.set_logind_lid(mocks["logind"], False)
    rig.wait_for_property("Active", True, CHANGE)
    rig.wait_for_property("HingeState", "concave", CHANGE)
    wait_until(lambda: near(rig.get_property("HingeAngle"), 120), CHANGE, what="HingeAngle 120")


def test_lid_switch_closing_when_folded_back_is_not_believed(make_rig):
    """Some convertibles' lid magnets trip when folded to 360: a lid closing while the hinge
    was just seen folded back leaves tablet mode on, and says so once."""
    mocks = {}
    rig = tablet_rig(make_rig, theta=300,
                     setup=lambda r: mocks.update(logind=em.start_logind(r, lid_closed=False)))
    rig.wait_for_property("TabletMode", True, CHANGE)
    em.set_logind_lid(mocks["logind"], True)
    wait_until(lambda: log_lines_naming(rig, "lid switch says closed"), CHANGE,
               what="the notice about the lid switch")
    rig.assert_property_stays("TabletMode", True, 1.0)
    assert len(log_lines_naming(rig, "lid switch says closed")) == 1


def test_hardware_switch_lid_closes_the_hinge(make_rig):
    rig = tablet_rig(make_rig, theta=120, switch={"tablet": False, "lid": False},
                     config_text="[TabletMode]\nSource=hinge\n")
    assert rig.get_property("TabletModeSource") == "hinge"
    rig.wait_for_property("HingeState", "concave", CHANGE)
    rig.switch.set(lid=True)
    rig.wait_for_property("HingeState", "closed", CHANGE)
    rig.wait_for_property("Active", False, CHANGE)


@pytest.mark.slow
@pytest.mark.timeout(40)
def test_no_wakeups_with_two_sensors_and_no_claim_or_switch(make_rig):
    rig = tablet_rig(make_rig, config_text="[TabletMode]\nVirtualSwitch=no\n")
    assert rig.get_property("TabletModeSource") == "hinge"
    assert rig.get_property("Active") is False
    assert rig.uinput.snapshot() == []
    claimer = rig.bus_client(start=True)
    rig.wait_for_property("Active", True, 2.0)
    wait_until(lambda: near(rig.get_property("HingeAngle"), 90), CHANGE, what="HingeAngle 90")
    claimer.stop()
    rig.wait_for_property("Active", False, CHANGE)
    time.sleep(0.5)
    wakeups = rig.daemon.wakeups_over(10)
    assert wakeups <= 2, "the idle daemon woke up %d times in 10 s" % wakeups


@pytest.mark.timeout(40)
def test_virtual_switch_alone_samples_at_the_hinge_interval(make_rig):
    rig = tablet_rig(make_rig)
    rig.wait_for_property("Active", True, CHANGE)
    rig.wait_for_property("SampleIntervalMsec", 1000, CHANGE)
    set_rig_hinge(rig, 120)
    rig.wait_for_property("SampleIntervalMsec", 100, CHANGE)  # the hinge moves
    rig.wait_for_property("SampleIntervalMsec", 1000, 10.0)  # still again


# ---------------------------------------------------------------------------
# the laptop-mode lock


@pytest.mark.parametrize("lock", [None, "no"])
@pytest.mark.timeout(40)
def test_laptop_on_its_side_keeps_its_interface_orientation(make_rig, lock):
    config_text = "[Orientation]\nLockInLaptopMode=%s\n" % lock if lock else ""
    rig = tablet_rig(make_rig, config_text=config_text)
    rig.bus_client(start=True)
    rig.wait_for_property("InterfaceOrientation", "portrait", CHANGE)
    wait_until(lambda: near(rig.get_property("HingeAngle"), 90), CHANGE, what="HingeAngle 90")
    # The open laptop lies on its right side: both halves read gravity along +x.
    side = (9.80665, 0.0, 0.0)
    rig.display.set_gravity(*side)
    rig.base.set_gravity(*side)
    rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE)
    if lock is None:  # the default with a tablet-mode source: locked while a laptop
        rig.assert_property_stays("InterfaceOrientation", "portrait", 1.0)
        assert rig.get_property("TabletMode") is False
        # Folded into a tent it is a tablet: the interface follows the device again.
        set_rig_hinge(rig, 90)
        time.sleep(0.5)
        sweep(rig, 90, 300)
        rig.wait_for_property("TabletMode", True, CHANGE)
        rig.wait_for_property("DeviceOrientation", "portrait-upside-down", CHANGE)
        rig.wait_for_property("InterfaceOrientation", "portrait-upside-down", CHANGE)
    else:
        rig.wait_for_property("InterfaceOrientation", "landscape-left", CHANGE)


def test_low_energy_slows_the_hinge_interval(make_rig):
    rig = tablet_rig(make_rig, config_text="[Energy]\nLowEnergyMode=on\n")
    rig.wait_for_property("Active", True, CHANGE)
    rig.wait_for_property("SampleIntervalMsec", 2000, CHANGE)


def test_base_sensor_rate_follows_the_display_plan_and_is_restored(make_rig):
    rig = tablet_rig(make_rig, base_attributes={
        "sampling_frequency": "100", "sampling_frequency_available": "1 10 25 50 100"})
    rate = rig.base.directory / "sampling_frequency"
    # The virtual switch alone: both sensors every 1000 ms. 1 Hz would serve that, but the
    # base is polled, and a polled device keeps at least the polled floor (10 Hz: a raw read
    # may wait for the device's next sample), so 10 of the list.
    rig.wait_for_property("SampleIntervalMsec", 1000, CHANGE)
    wait_until(lambda: rate.read_text().strip() == "10", CHANGE, what="the base at 10 Hz")
    code, _ = rig.daemon.stop()
    assert code == 0
    assert rate.read_text().strip() == "100", "the base's rate is not restored on exit"


def test_reload_with_virtual_switch_off_destroys_it_and_stops_sampling(make_rig):
    rig = tablet_rig(make_rig)
    rig.wait_for_property("Active", True, CHANGE)
    rig.reload("[TabletMode]\nVirtualSwitch=no\n")
    wait_until(lambda: rig.uinput.snapshot()[-1:] == [("UI_DEV_DESTROY", None)], CHANGE,
               what="UI_DEV_DESTROY after the reload")
    rig.wait_for_property("Active", False, CHANGE)
    assert rig.get_property("TabletModeSource") == "hinge"
    rig.reload("")
    wait_until(lambda: [c for c in rig.uinput.snapshot() if c[0] == "UI_DEV_CREATE"] == [
        ("UI_DEV_CREATE", None)] * 2, CHANGE, what="the virtual switch again")
    rig.wait_for_property("Active", True, CHANGE)
