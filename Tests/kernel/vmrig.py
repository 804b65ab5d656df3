"""The real-kernel rig, used inside the VM only (Tests/kernel/run.py boots it).

What the umockdev rig fakes is real here: the kernel's drivers make the devices, the VM's
systemd-udevd applies the project's udev rule (and its helper) and the hwdb, and the daemon
runs as its own user, without any preload, on a private system bus with the shipped policy.
"""

import fcntl
import grp
import json
import os
import pwd
import shutil
import signal
import subprocess
import time
from pathlib import Path

from rig import (BUS_NAME, INTERFACE, OBJECT_PATH, SYSTEM_DEFAULT_POLICY, BusClient, RigError,
                 SystemBus, copy_for_other_users, ctxt_switches, kill_process, spawn, wait_for_property,
                 wait_until)
from rig.binaries import REPO_ROOT, default_client, default_daemon
from rig.tablet import (EV_SYN, INPUT_EVENT, SYN_REPORT, UI_DEV_CREATE, UI_DEV_DESTROY, UI_DEV_SETUP,
                        UI_SET_EVBIT, UI_SET_KEYBIT, UINPUT_SETUP)

USER = "motion-orientation"
RULES = ("80-motion-orientation.rules",)
BUS_TIMEOUT = 20.0
MODULES = ("uhid", "hid-sensor-hub", "hid-sensor-accel-3d", "uinput", "i2c-dev")


def in_vm():
    """True inside the virtme-ng guest that run.py boots (never on the host)."""
    return os.environ.get("MO_KERNEL_VM") == "1" and Path("/proc/cmdline").read_text().count("virtme") > 0


def sh(*argv, check=True, timeout=30):
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise RigError("%s failed (%d): %s" % (" ".join(map(str, argv)), result.returncode,
                                                result.stderr.strip() or result.stdout.strip()))
    return result


def settle():
    sh("udevadm", "settle", "--timeout=20")


def install_system_files():
    """The shipped udev rule and helper, and the daemon's user (systemd-sysusers with the
    shipped sysusers file), into the VM's writable overlay of /etc and /usr; udevd reloads."""
    for name in MODULES:
        sh("modprobe", name)
    # virtme-ng mounts its own files over some of these; sysusers replaces them by rename.
    for name in ("passwd", "group", "shadow", "gshadow"):
        if sh("mountpoint", "-q", "/etc/" + name, check=False).returncode == 0:
            sh("umount", "/etc/" + name)
    sh("systemd-sysusers", REPO_ROOT / "systemd" / "motion-orientation.sysusers")
    helper_dir = Path("/usr/lib/udev")
    shutil.copy2(REPO_ROOT / "udev" / "motion-orientation-access", helper_dir / "motion-orientation-access")
    for rule in RULES:
        shutil.copy2(REPO_ROOT / "udev" / rule, Path("/etc/udev/rules.d") / rule)
    sh("udevadm", "control", "--reload")


def udev_properties(devnode_or_syspath):
    out = sh("udevadm", "info", "--query=property", devnode_or_syspath).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def iio_devices():
    return sorted(Path("/sys/bus/iio/devices").glob("iio:device*"))


def iio_named(name):
    """The resolved syspaths of the IIO devices called `name`."""
    return {p.resolve() for p in iio_devices() if read_attribute(p, "name") == name}


def wait_for_new_iio(name, before, timeout=20.0):
    """The syspath of an IIO device called `name` not in `before`, once udev is done with it."""
    new = wait_until(lambda: sorted(iio_named(name) - set(before)), timeout,
                     what="a new IIO device named %s" % name)
    settle()
    return new[0]


def wait_gone(path, timeout=20.0):
    wait_until(lambda: not Path(path).exists(), timeout, what="%s gone" % path)
    settle()


def list_attributes(directory):
    """The attribute files under an IIO device directory, relative, without the generic
    device-model entries (uevent, dev, power/, subsystem, links)."""
    directory = Path(directory)
    names = []
    for root, dirs, files in os.walk(directory):
        rel = Path(root).relative_to(directory)
        dirs[:] = [d for d in dirs if d in ("scan_elements", "buffer", "trigger")
                   and not Path(root, d).is_symlink() and rel == Path(".")]
        for f in files:
            path = Path(root, f)
            if path.is_symlink() or (rel == Path(".") and f in ("uevent", "dev")):
                continue
            names.append(str(rel / f) if str(rel) != "." else f)
    return sorted(names)


def layout_differences(real, replica, varying=()):
    """What differs between two {attribute: value} layouts: files only one has, and values
    of the files both have (but those in `varying`, e.g. live readings)."""
    out = {}
    for name in sorted(set(real) | set(replica)):
        if name not in replica:
            out[name] = ("real only", real[name])
        elif name not in real:
            out[name] = ("replica only", replica[name])
        elif name not in varying and real[name] != replica[name]:
            out[name] = (real[name], replica[name])
    return out


def record_layout(label, attributes):
    """Keeps a real driver's {attribute: value} in the results directory on the host
    (.build/kernel/layouts/LABEL.txt), for the record of what each driver showed."""
    results = os.environ.get("MO_KERNEL_RESULTS")
    if not results:
        return
    directory = Path(results) / "layouts"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / ("%s.txt" % label)).write_text(
        "".join("%s = %r\n" % item for item in sorted(attributes.items())))


def read_attribute(directory, name):
    try:
        return Path(directory, name).read_text().strip()
    except OSError as err:
        return "<%s>" % (os.strerror(err.errno) if err.errno else err)


class KernelRig:
    """A private system bus with the shipped policy, the daemon as its user on it, and the
    bus helpers the tests need; close() ends all."""

    def __init__(self, tmp, config_text=""):
        self.tmp = Path(tmp)
        self.tmp.mkdir(parents=True, exist_ok=True)
        os.chmod(self.tmp, 0o755)
        self.bus = SystemBus(self.tmp / "bus", policy=SYSTEM_DEFAULT_POLICY,
                             includes=[REPO_ROOT / "systemd" / "io.github.MotionOrientation1.conf"])
        self.bus.start()
        os.chmod(self.bus.socket, 0o666)
        self.config = self.tmp / "motion-orientationd.conf"
        self.config.write_text(config_text)
        os.chmod(self.config, 0o644)
        self.log_path = self.tmp / "daemon.log"
        # The daemon's runtime directory (systemd's RuntimeDirectory=, owned by its user),
        # kept across start_daemon() calls: the virtual switch's state is kept there.
        self.runtime_dir = self.tmp / "run"
        self.runtime_dir.mkdir()
        user = pwd.getpwnam(USER)
        os.chown(self.runtime_dir, user.pw_uid, user.pw_gid)
        self.daemon_binary = copy_for_other_users(default_daemon())
        self.client_binary = copy_for_other_users(default_client())
        self.proc = None
        self._closeables = []

    def start_daemon(self, timeout=20.0):
        user = pwd.getpwnam(USER)
        argv = ["setpriv", "--reuid=%d" % user.pw_uid, "--regid=%d" % user.pw_gid,
                "--init-groups", "--inh-caps=-all", self.daemon_binary, "--verbose",
                "--config", self.config]
        env = self.bus.env({"PATH": os.environ["PATH"], "LANG": "C.UTF-8",
                            "RUNTIME_DIRECTORY": str(self.runtime_dir)})
        with open(self.log_path, "ab") as log:
            self.proc = spawn(argv, env=env, stdout=log, stderr=log)
        try:
            wait_until(lambda: self.proc.poll() is not None or self.bus.name_has_owner(BUS_NAME),
                       timeout, what="the daemon owning %s" % BUS_NAME)
        except RigError as err:
            raise RigError("%s\n%s" % (err, self.log())) from None
        if self.proc.poll() is not None:
            raise RigError("the daemon exited with %s:\n%s" % (self.proc.returncode, self.log()))
        return self

    def stop_daemon(self, sig=signal.SIGTERM, timeout=10.0):
        """Signals the daemon and waits (SIGKILL after `timeout`); its exit code."""
        if self.proc is not None:
            code = kill_process(self.proc, sig, timeout)
            self.proc = None
            return code
        return None

    def log(self):
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def wakeups_over(self, seconds):
        before = ctxt_switches(self.proc.pid)[0]
        time.sleep(seconds)
        return ctxt_switches(self.proc.pid)[0] - before

    def get_property(self, name):
        # TCG on a loaded host: a call can take seconds.
        result = self.bus.busctl("get-property", BUS_NAME, OBJECT_PATH, INTERFACE, name,
                                 timeout=BUS_TIMEOUT)
        return json.loads(result.stdout)["data"]

    def wait_for_property(self, name, value, timeout=20.0):
        wait_for_property(self.get_property, name, value, timeout, lambda: self.log().splitlines())

    def claim(self, user="nobody"):
        """A client holding a claim (Start), as `user`."""
        entry = pwd.getpwnam(user)
        client = BusClient(self.bus, start=True, user=(entry.pw_uid, entry.pw_gid), timeout=30.0)
        self._closeables.append(client)
        return client

    def run_client(self, *args, user="nobody", timeout=30.0):
        entry = pwd.getpwnam(user)
        argv = ["setpriv", "--reuid=%d" % entry.pw_uid, "--regid=%d" % entry.pw_gid,
                "--clear-groups", self.client_binary, *args]
        return subprocess.run([str(a) for a in argv], env=self.bus.env(), capture_output=True,
                              text=True, timeout=timeout, stdin=subprocess.DEVNULL)

    def close(self):
        for closeable in reversed(self._closeables):
            closeable.close()
        self.stop_daemon()
        self.bus.stop()


EV_KEY = 1
BUS_I8042 = 0x11
KEY_A = 30


class InternalKeyboard:
    """A keyboard on BUS_I8042 made through /dev/uinput: libinput tags it internal and pairs
    it with a tablet-mode switch, which suspends it while the switch is on."""

    NAME = "Motion Orientation test internal keyboard"

    def __init__(self):
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_CLOEXEC)
        fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_KEY)
        for code in range(1, 128):  # KEY_ESC to KEY_RIGHTMETA: the main block, Q to P among them
            fcntl.ioctl(self.fd, UI_SET_KEYBIT, code)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, UINPUT_SETUP.pack(BUS_I8042, 1, 1, 1, self.NAME.encode(), 0))
        fcntl.ioctl(self.fd, UI_DEV_CREATE)

    def press(self, code=KEY_A):
        """A press and a release of `code`."""
        for value in (1, 0):
            os.write(self.fd, INPUT_EVENT.pack(0, 0, EV_KEY, code, value)
                     + INPUT_EVENT.pack(0, 0, EV_SYN, SYN_REPORT, 0))

    def close(self):
        fcntl.ioctl(self.fd, UI_DEV_DESTROY)
        os.close(self.fd)


def group_of(path):
    return grp.getgrgid(os.stat(path).st_gid).gr_name
