#!/usr/bin/python3
"""make test-systemd: the install path under systemd as PID 1, in one QEMU boot.

Debian's kernel boots with a small initramfs (busybox, the 9p and overlay modules, init.sh):
the host's root file system, shared read-only over 9p, is the lower layer of an overlay on a
tmpfs, so the VM's `make install` and systemd-sysusers change nothing on the host. systemd then
boots into motion-orientation-vmtest.target, whose service runs the pytest suite in this
directory and powers the VM off; its log and status come back through a shared results
directory (.build/systemd-vm), and pytest's closing line is printed here.

KVM is tried when /dev/kvm is there (the guest must reach the initramfs within a short probe),
else TCG. Where no VM can start (no QEMU, kernel, busybox or cpio) it says why in one line and
exits 0: skipped, never passed.

  Tests/kernel/systemd/run.py [--build-dir .build/release] [--timeout S] [PYTEST ARGS...]

Exit status: pytest's inside the VM; 1 when the VM started but the tests did not finish.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.insert(0, str(HERE.parent))
from run import find_kernel  # noqa: E402  (Tests/kernel/run.py: the newest Debian kernel)

KVM_PROBE_SECONDS = 15
RUN_SECONDS = 420
# What the initramfs loads (with their dependencies, in modprobe's order): the root and the
# results directory over virtio-9p, the overlay, and entropy for systemd.
INITRAMFS_MODULES = ("virtio_pci", "9pnet_virtio", "9p", "overlay", "virtio-rng")
# Host units a test boot does not want; init.sh masks them in the VM's /etc. iio-sensor-proxy
# is on the host for the bench: its own udev rule wants its unit for the same accelerometer, and
# of two conflicting units wanted by one device systemd starts one (iio-sensor-proxy here);
# a machine that installs motion-orientationd does not run both.
MASKED = ("iio-sensor-proxy.service", "apparmor.service", "systemd-timesyncd.service", "systemd-pstore.service",
          "timers.target", "systemd-firstboot.service", "systemd-binfmt.service",
          "proc-sys-fs-binfmt_misc.automount", "systemd-repart.service", "remote-fs.target",
          "getty.target", "systemd-machine-id-commit.service", "e2scrub_reap.service")
TARGET = "motion-orientation-vmtest.target"
SERVICE = "motion-orientation-vmtest.service"
INITRAMFS_MARK = "mo-vm: initramfs"
SYSTEMD_MARK = "mo-vm: starting systemd"


def skip(reason):
    print("test-systemd: skipped: %s" % reason, flush=True)
    sys.exit(0)


def initramfs_modules(release):
    """The .ko files to insmod, dependencies first, each once."""
    order = []
    for name in INITRAMFS_MODULES:
        result = subprocess.run(["modprobe", "--show-depends", "-S", release, name],
                                capture_output=True, text=True)
        if result.returncode != 0:
            return None, "%s: %s" % (name, result.stderr.strip())
        for line in result.stdout.splitlines():
            fields = line.split()
            if fields[:1] == ["insmod"] and fields[1] not in order:
                order.append(fields[1])
    return order, None


def build_initramfs(release, out):
    """An uncompressed newc cpio: busybox, init.sh as /init, the modules and their order."""
    modules, problem = initramfs_modules(release)
    if modules is None:
        skip("the initramfs modules: %s" % problem)
    with tempfile.TemporaryDirectory(prefix="mo-initramfs-") as staging:
        root = Path(staging)
        for directory in ("bin", "dev", "proc", "sys", "modules"):
            (root / directory).mkdir()
        shutil.copy2("/bin/busybox", root / "bin" / "busybox")
        (root / "bin" / "sh").symlink_to("busybox")
        shutil.copy2(HERE / "init.sh", root / "init")
        (root / "init").chmod(0o755)
        for module in modules:
            shutil.copy2(module, root / "modules" / Path(module).name)
        (root / "modules" / "order").write_text("".join(Path(m).name + "\n" for m in modules))
        names = subprocess.run(["find", "."], cwd=root, capture_output=True, check=True).stdout
        with open(out, "wb") as cpio:
            subprocess.run(["cpio", "--quiet", "-o", "-H", "newc"], cwd=root, input=names,
                           stdout=cpio, check=True)


def write_units(results, pytest_args):
    """The test target and service, filled in, and the masked list, for init.sh to copy."""
    units = results / "units"
    units.mkdir()
    quoted = " ".join("'%s'" % a.replace("'", "") for a in pytest_args)
    for name in (TARGET, SERVICE):
        text = (HERE / name).read_text()
        text = text.replace("@REPO@", str(REPO)).replace("@RESULTS@", str(results))
        (units / name).write_text(text.replace("@PYTEST_ARGS@", quoted))
    (results / "masked").write_text("".join(unit + "\n" for unit in MASKED))


def qemu_argv(kernel, initramfs, results, kvm):
    cmdline = " ".join([
        "console=ttyS0", "panic=-1", "mo.results=%s" % results, "systemd.unit=%s" % TARGET,
        # No disks to unlock, no audit daemon; the journal not echoed to the console.
        "luks=no", "audit=0", "systemd.journald.forward_to_console=0"])
    argv = ["qemu-system-x86_64", "-nodefaults", "-no-user-config", "-no-reboot",
            "-m", "1G", "-smp", "2", "-display", "none", "-serial", "stdio",
            "-kernel", str(kernel), "-initrd", str(initramfs), "-append", cmdline,
            "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,"
                       "multidevs=remap",
            "-virtfs", "local,path=%s,mount_tag=results,security_model=none,multidevs=remap"
                       % results,
            "-device", "virtio-rng-pci"]
    argv += ["-enable-kvm", "-cpu", "host"] if kvm else ["-accel", "tcg"]
    return argv


class Boot:
    """One QEMU run in its own process group, its console kept line by line."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        self.lines = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\r\n"))

    def seen(self, mark):
        return any(mark in line for line in self.lines)

    def wait(self, timeout, until=None):
        """Waits for the exit (its status), or `until` seen (True), or the timeout (None)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.thread.join(5)
                return self.proc.returncode
            if until and self.seen(until):
                return True
            time.sleep(0.2)
        return None

    def kill(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.thread.join(5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=str(REPO / ".build" / "release"))
    parser.add_argument("--timeout", type=float, default=RUN_SECONDS,
                        help="hard limit on the boot and the tests (s)")
    args, pytest_args = parser.parse_known_args()

    for tool, package in (("qemu-system-x86_64", "qemu-system-x86"), ("cpio", "cpio"),
                          ("modprobe", "kmod")):
        if not shutil.which(tool):
            skip("%s is not installed (make deps: %s)" % (tool, package))
    if not Path("/bin/busybox").exists():
        skip("busybox-static is not installed (make deps)")
    if not Path("/lib/systemd/systemd").exists():
        skip("systemd is not installed (make deps)")
    kernel = find_kernel()
    if kernel is None:
        skip("no readable /boot/vmlinuz-* with its modules (make deps: linux-image-amd64)")
    for kept_out in (Path("/tmp"), Path("/var/tmp")):
        if REPO.resolve().is_relative_to(kept_out) or Path(args.build_dir).resolve().is_relative_to(kept_out):
            # init.sh gives the VM its own /tmp and /var/tmp (systemd-tmpfiles would empty the host's).
            skip("the checkout or its build is under %s, which the VM keeps out: clone elsewhere"
                 % kept_out)
    for binary in ("motion-orientationd", "motion-orientation"):
        if not (Path(args.build_dir) / binary).exists():
            print("test-systemd: %s is missing (make build)" % (Path(args.build_dir) / binary))
            return 1

    results = REPO / ".build" / "systemd-vm"
    shutil.rmtree(results, ignore_errors=True)
    results.mkdir(parents=True)
    initramfs = REPO / ".build" / "systemd-vm-initramfs.cpio"
    build_initramfs(kernel.name[len("vmlinuz-"):], initramfs)
    write_units(results, pytest_args)

    started = time.monotonic()
    forced = os.environ.get("MO_VM_ACCEL")
    boot, accel = None, "TCG"
    if forced != "tcg" and os.access("/dev/kvm", os.R_OK | os.W_OK):
        boot = Boot(qemu_argv(kernel, initramfs, results, kvm=True))
        if boot.wait(KVM_PROBE_SECONDS, until=INITRAMFS_MARK) is True:
            accel = "KVM"
        else:
            boot.kill()
            accel = "TCG (KVM did not reach the initramfs within %d s)" % KVM_PROBE_SECONDS
            boot = None
    if boot is None:
        boot = Boot(qemu_argv(kernel, initramfs, results, kvm=False))
    print("test-systemd: booting %s with systemd as PID 1 under QEMU with %s"
          % (kernel.name, accel), flush=True)
    status = boot.wait(max(1.0, args.timeout - (time.monotonic() - started)))
    boot.kill()
    seconds = time.monotonic() - started
    (results / "vm.log").write_text("\n".join(boot.lines) + "\n")

    log = results / "pytest.log"
    if log.exists():
        print(log.read_text(errors="replace"), end="")
    status_file = results / "pytest-status"
    why = "timeout after %.0f s" % seconds if status is None else "QEMU exit %s" % status
    if not status_file.exists():
        tail = "\n".join(boot.lines[-25:])
        if not boot.seen(INITRAMFS_MARK):
            last = [line for line in boot.lines if line.strip()][-1:] or ["no output"]
            skip("the VM did not start (%s): %s" % (why, last[0].strip()))
        print(tail)
        print("test-systemd: FAILED: the VM stopped before the tests finished (%s; log %s)"
              % (why, results / "vm.log"))
        return 1
    code = int(status_file.read_text().strip() or 1)
    closing = [line.strip("= ") for line in (log.read_text(errors="replace").splitlines()
                                             if log.exists() else [])
               if re.match(r"^=+ .*(passed|failed|error|skipped|no tests ran).* in [0-9.]+s", line)]
    print("test-systemd: %s (VM stage %.0f s, %s)"
          % (closing[-1] if closing else "pytest exit %d" % code, seconds, accel))
    return code


if __name__ == "__main__":
    sys.exit(main())
