"""Integration rig for motion-orientationd: fake sysfs, private system bus, real binaries.

Used by the pytest suite (conftest.py), demo.py, the bench (bench/) and
build-aux/hot-functions.py. Run with Debian's /usr/bin/python3 (it has gi, UMockdev and
dbusmock); the scripts outside Tests/integration find this package through PYTHONPATH, which
the Makefile sets (RIG_PYTHON).

    with Rig() as rig:                      # bus + testbed + accelerometer + daemon
        rig.accel.set_gravity(*POSES["landscape-left"])
        with rig.bus_client(start=True):    # a claim: sampling runs
            rig.wait_for_property("DeviceOrientation", "landscape-left")

Modules, each usable alone (everything is also importable from `rig` itself):
  contract   the service's bus names, orientation values, reference poses
  processes  children that die with us (spawn, kill_process), wait_until, LineReader
  binaries   where the daemon and client are; the daemon must be the shipped build
  linkage    ELF DT_NEEDED entries: a statically linked Swift runtime or not
  bus        SystemBus: a private dbus-daemon with a system-bus config (busctl helpers)
  devices    FakeAccelerometer (IIO, values written in place), FakeInputAccelerometer
             (evdev, EVIOCGABS answered by this process)
  uevents    send_uevent: a udev event into the testbed for preloaded processes
  daemon     Daemon: motion-orientationd under libumockdev-preload, stderr in a file
  clients    BusClient (busclient.py in its own process: a claim holder), RunningClient
  monitor    BusMonitor: `busctl monitor --json=short`, messages parsed into dicts
  mocks      DBusMock: a python-dbusmock template (logind, UPower, ...) on the private bus
  faults     the fault injector (faultinject.c, an LD_PRELOAD library the rig builds)
  tablet     tablet mode: FakeTabletModeSwitch (evdev, a FIFO node), FakeUinput (records the
             daemon's uinput calls and writes), hinge_readings/set_hinge (display and base),
             tablet_rig (a Rig with those, before its daemon starts) and set_rig_hinge
  rig        Rig: all of the above for one test; close() ends everything
"""

from .binaries import (BUSCLIENT, PYTHON, RELEASE, REPO_ROOT, default_client,  # noqa: F401
                       default_daemon, require_shipped_daemon)
from .bus import (BUS_CONFIG, PERMISSIVE_POLICY, SYSTEM_DEFAULT_POLICY, BusctlError,  # noqa: F401
                  SystemBus)
from .clients import (BusCallError, BusClient, RunningClient,  # noqa: F401
                      copy_for_other_users)
from .contract import (BUS_NAME, DEVICE_VALUES, INTERFACE, INTERFACE_FOR_DEVICE,  # noqa: F401
                       INTERFACE_VALUES, OBJECT_PATH, POSES, STANDARD_GRAVITY,
                       STILL_INTERVAL_MSEC, G)
from .daemon import Daemon, ctxt_switches  # noqa: F401
from .devices import (CHANNELS, DEFAULT_SCALE, VALUE_WIDTH, FakeAccelerometer,  # noqa: F401
                      FakeInputAccelerometer, parse_mount_matrix)
from .linkage import WrongBuild, needed_libraries, require_static_swift  # noqa: F401
from .faults import Faults, build_fault_injector  # noqa: F401
from .mocks import MOCK_IFACE, DBusMock, busctl_values  # noqa: F401
from .monitor import BusMonitor, is_orientation_signal, is_properties_changed  # noqa: F401
from .processes import (LineReader, RigError, _child_setup, _children,  # noqa: F401
                        _children_lock, _spawn_raw, kill_all_children, kill_process, spawn,
                        wait_for_property, wait_until)
from .rig import Rig  # noqa: F401
from .uevents import read_uevent, send_uevent  # noqa: F401
