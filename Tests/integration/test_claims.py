"""Sampling runs only while claimed: Start/Stop per caller, claims die with the caller."""

import time

import pytest

from rig import is_properties_changed

pytestmark = pytest.mark.daemon

CHANGE = 5.0
RELEASE = 5.0  # a dropped connection must release its claim within this


def assert_idle(rig):
    assert rig.get_property("Active") is False
    assert rig.get_property("SampleIntervalMsec") == 0


def assert_sampling(rig):
    rig.wait_for_property("Active", True, 2.0)
    interval = rig.get_property("SampleIntervalMsec")
    assert isinstance(interval, int) and 0 < interval <= 1000, interval


@pytest.mark.slow
def test_no_sampling_before_start(rig):
    assert_idle(rig)
    assert rig.get_property("DeviceOrientation") == "unknown"
    # Let start-up settle, then measure an idle window with nobody talking to it.
    time.sleep(0.3)
    before = rig.daemon.ctxt_switches()
    for pose in ("landscape-left", "portrait-upside-down", "landscape-right", "portrait"):
        rig.accel.set_pose(pose)
        time.sleep(0.5)
    after = rig.daemon.ctxt_switches()
    wakeups = after[0] - before[0]
    assert wakeups <= 3, "idle daemon woke up %d times in 2 s" % wakeups
    assert rig.get_property("DeviceOrientation") == "unknown"
    assert_idle(rig)


def test_active_follows_one_claim(rig):
    assert_idle(rig)
    claimer = rig.bus_client(start=True)
    assert_sampling(rig)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    claimer.stop()
    rig.wait_for_property("Active", False, RELEASE)
    assert rig.get_property("SampleIntervalMsec") == 0


def test_sampling_wakes_up_only_when_claimed(rig):
    time.sleep(0.2)
    idle_before = rig.daemon.ctxt_switches()[0]
    time.sleep(1.0)
    idle = rig.daemon.ctxt_switches()[0] - idle_before
    rig.bus_client(start=True)
    assert_sampling(rig)
    busy_before = rig.daemon.ctxt_switches()[0]
    time.sleep(1.0)
    busy = rig.daemon.ctxt_switches()[0] - busy_before
    assert idle <= 2 and busy >= 1, (idle, busy)


def test_two_claims_one_leaves(rig):
    first = rig.bus_client(start=True)
    second = rig.bus_client(start=True)
    assert_sampling(rig)
    first.close()  # leaves the bus without Stop()
    rig.assert_property_stays("Active", True, 0.7)
    # Still sampling for real: a rotation is seen.
    rig.accel.set_pose("landscape-left")
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)
    second.kill()  # the last claimer dies: SIGKILL, no Stop()
    rig.wait_for_property("Active", False, RELEASE)
    assert rig.get_property("SampleIntervalMsec") == 0


def test_last_claimer_killed(rig):
    claimer = rig.bus_client(start=True)
    assert_sampling(rig)
    claimer.kill()
    rig.wait_for_property("Active", False, RELEASE)
    assert rig.get_property("SampleIntervalMsec") == 0
    # And sampling really stopped: the orientation no longer follows.
    rig.accel.set_pose("landscape-right")
    rig.assert_property_stays("DeviceOrientation", rig.get_property("DeviceOrientation"), 1.0)


def test_stop_releases_only_the_callers_claim(rig):
    first = rig.bus_client(start=True)
    second = rig.bus_client(start=True)
    assert_sampling(rig)
    first.stop()
    rig.assert_property_stays("Active", True, 0.7)
    first.stop()  # a second Stop() from the same caller changes nothing either
    rig.assert_property_stays("Active", True, 0.3)
    second.stop()
    rig.wait_for_property("Active", False, RELEASE)


def test_start_is_idempotent_per_caller(rig):
    claimer = rig.bus_client()
    claimer.start()
    claimer.start()
    assert_sampling(rig)
    claimer.stop()  # one Stop() releases the caller's one claim
    rig.wait_for_property("Active", False, RELEASE)


def test_stop_without_claim_is_harmless(rig):
    other = rig.bus_client(start=True)
    assert_sampling(rig)
    stranger = rig.bus_client()
    stranger.stop()
    rig.assert_property_stays("Active", True, 0.5)
    other.stop()
    rig.wait_for_property("Active", False, RELEASE)


def test_claim_again_after_release(rig):
    claimer = rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE)
    claimer.stop()
    rig.wait_for_property("Active", False, RELEASE)
    rig.accel.set_pose("landscape-left")
    claimer.start()
    assert_sampling(rig)
    rig.wait_for_property("DeviceOrientation", "landscape-left", CHANGE)


def test_active_changes_are_announced(rig):
    monitor = rig.monitor()
    claimer = rig.bus_client(start=True)
    monitor.wait_for(is_properties_changed("Active", True), 2.0, "PropertiesChanged Active=true")
    monitor.wait_for(lambda m: is_properties_changed("SampleIntervalMsec")(m)
                     and m["payload"]["data"][1]["SampleIntervalMsec"]["data"] > 0, 2.0,
                     "PropertiesChanged SampleIntervalMsec>0")
    since = monitor.mark()
    claimer.kill()
    monitor.wait_for(is_properties_changed("Active", False), RELEASE,
                     "PropertiesChanged Active=false", since=since)
    monitor.wait_for(is_properties_changed("SampleIntervalMsec", 0), RELEASE,
                     "PropertiesChanged SampleIntervalMsec=0", since=since)
