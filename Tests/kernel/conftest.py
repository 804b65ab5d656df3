"""pytest fixtures for the real-kernel tests (inside the VM that Tests/kernel/run.py boots)."""

import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "integration"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import vmrig  # noqa: E402
from rig.uhid_hub import SensorHub  # noqa: E402

DEFAULT_TIMEOUT = 120


def pytest_collection_modifyitems(config, items):
    if vmrig.in_vm():
        return
    skip = pytest.mark.skip(reason="runs inside the VM only (make test-kernel)")
    for item in items:
        item.add_marker(skip)


@pytest.fixture(autouse=True)
def _time_limit(request):
    marker = request.node.get_closest_marker("timeout")
    seconds = int(marker.args[0]) if marker else DEFAULT_TIMEOUT

    def expired(_signum, _frame):
        raise TimeoutError("test exceeded its %d s limit" % seconds)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="session")
def system():
    """The shipped udev rule, helper and user, installed once into the VM's overlay."""
    vmrig.install_system_files()


@pytest.fixture
def tmpdir_shared():
    """A temporary directory every user can enter (pytest's own is root's only)."""
    path = Path(tempfile.mkdtemp(prefix="mo-kernel-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def kernel_rig(system, tmpdir_shared):
    rig = vmrig.KernelRig(tmpdir_shared)
    yield rig
    rig.close()


@pytest.fixture
def make_hub(system):
    """Factory: make_hub(**SensorHub kwargs) -> (hub, its IIO syspath once udev is done);
    every hub is destroyed after the test."""
    hubs = []

    def make(**kwargs):
        before = vmrig.iio_named("accel_3d")
        hub = SensorHub(**kwargs).create()
        hubs.append(hub)
        return hub, vmrig.wait_for_new_iio("accel_3d", before)

    yield make
    for hub in hubs:
        hub.destroy()
    vmrig.wait_until(lambda: not vmrig.iio_named("accel_3d"), 20, what="hubs gone")
    vmrig.settle()
