"""pytest fixtures for the motion-orientationd integration suite (see the rig package)."""

import faulthandler
import os
import signal
import threading

import pytest

import rig as rigmod

DEFAULT_TIMEOUT = 30


class TimeLimitExceeded(Exception):
    pass


def pytest_collection_finish(session):
    """Stop at once, with the reason, when the tests would run a daemon other than the one
    `make build` makes (rather than fail every test that starts it)."""
    if not any(item.get_closest_marker("daemon") for item in session.items):
        return
    daemon = rigmod.default_daemon()
    if not os.path.exists(daemon):
        return  # each test that needs it says it is missing
    try:
        rigmod.require_shipped_daemon(daemon)
    except rigmod.WrongBuild as err:
        pytest.exit("the daemon under test is not the shipped build: %s" % err, returncode=1)


@pytest.fixture(autouse=True)
def _time_limit(request):
    """Fail a test (and its teardown) that runs longer than its timeout mark."""
    marker = request.node.get_closest_marker("timeout")
    seconds = int(marker.args[0]) if marker else DEFAULT_TIMEOUT

    def expired(_signum, _frame):
        raise TimeLimitExceeded("test exceeded its %d s limit" % seconds)

    if threading.current_thread() is not threading.main_thread():
        # pytest-xdist's worker may run a test outside its main thread (the firmware matrix,
        # make test-integration), where no signal handler can be set: a test over its limit
        # then ends its worker, with every thread's traceback, and xdist fails the test.
        faulthandler.dump_traceback_later(seconds, exit=True)
        yield
        faulthandler.cancel_dump_traceback_later()
        return
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def make_rig(request):
    """Factory: make_rig(**Rig kwargs) -> a started Rig, closed after the test.

    At teardown the daemon, if still running, gets SIGTERM and must exit with
    status 0 within 5 s.
    """
    rigs = []
    request.node.mo_rigs = rigs

    def factory(**kwargs):
        r = rigmod.Rig(**kwargs)
        rigs.append(r)
        return r

    yield factory
    failures = []
    for r in rigs:
        was_running = r.daemon is not None and r.daemon.running()
        result = r.close()
        if was_running:
            code, seconds = result
            if code != 0:
                failures.append("daemon exit status on SIGTERM: %r after %.2f s\n%s"
                                % (code, seconds, r.final_log[-3000:]))
    leftover = [p.pid for p in rigmod._children]
    rigmod.kill_all_children()
    assert not leftover, "processes left behind: %r" % leftover
    assert not failures, "\n".join(failures)


@pytest.fixture
def rig(make_rig):
    """A rig with an accelerometer held upright (portrait), the daemon idle."""
    return make_rig()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for n, r in enumerate(getattr(item, "mo_rigs", [])):
            log = r.final_log if r.final_log is not None else (
                r.daemon.log() if r.daemon else "")
            report.sections.append(("daemon %d stderr (%s)" % (n, report.when), log[-6000:]))
