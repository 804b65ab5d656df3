#!/usr/bin/python3
"""make test-kernel: boot Debian's kernel under QEMU (virtme-ng: the host's root file system
read-only, writable overlays on /etc, /usr, /var, /tmp), run the pytest suite in
Tests/kernel inside it, and print pytest's closing line here.

KVM is used when it boots a guest within a short probe; else TCG (nested KVM on some hosts
starts QEMU and never boots). Where no VM can start (no virtme-ng, QEMU, kernel or busybox)
it says why in one line and exits 0: the stage is skipped, never passed.

  Tests/kernel/run.py [--build-dir .build/release] [PYTEST ARGS...]

Exit status: pytest's inside the VM; 0 with "test-kernel: skipped: ..." when no VM starts.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
PYTHON = "/usr/bin/python3"
KVM_PROBE_SECONDS = 25
RUN_SECONDS = 900


def skip(reason):
    print("test-kernel: skipped: %s" % reason, flush=True)
    sys.exit(0)


def find_kernel():
    """Debian's newest installed kernel image that has its modules."""
    images = []
    for image in Path("/boot").glob("vmlinuz-*"):
        release = image.name[len("vmlinuz-"):]
        if Path("/lib/modules", release, "modules.dep").exists() and os.access(image, os.R_OK):
            images.append((image.stat().st_mtime, image))
    return max(images)[1] if images else None


def vng_command(vng, kernel, kvm, results, command):
    argv = [str(vng), "--run", str(kernel), "--memory", "1G", "--cpus", "2",
            "--rwdir", str(results), "--cwd", str(REPO), "--exec", command]
    if not kvm:
        argv.insert(3, "--disable-kvm")
    return argv


def run_bounded(argv, timeout, env, echo=False):
    """Runs argv in its own process group; kills the group at the timeout. Returns
    (exit status or None on timeout, output)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    output = []
    deadline = time.monotonic() + timeout

    def reader():
        for raw in proc.stdout:
            line = raw.decode(errors="replace")
            output.append(line)
            if echo:
                sys.stdout.write(line)
                sys.stdout.flush()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    try:
        proc.wait(max(0.0, deadline - time.monotonic()))
        status = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        status = None
    thread.join(5)
    return status, "".join(output)


def kvm_boots(vng, kernel, results, env):
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False, "no /dev/kvm"
    marker = results / "kvm-probe"
    marker.unlink(missing_ok=True)
    status, _ = run_bounded(vng_command(vng, kernel, True, results, "touch %s" % marker),
                            KVM_PROBE_SECONDS, env)
    if status == 0 and marker.exists():
        return True, "KVM"
    return False, "KVM did not boot a guest within %d s" % KVM_PROBE_SECONDS


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=str(REPO / ".build" / "release"))
    parser.add_argument("--venv", default=str(REPO / ".build" / "kernel-venv"),
                        help="where `make deps` installed virtme-ng")
    parser.add_argument("--bench", action="store_true",
                        help="run Tests/kernel/bench_kernel.py (figures) instead of the tests")
    args, pytest_args = parser.parse_known_args()

    vng = Path(args.venv) / "bin" / "vng"
    if not vng.exists():
        skip("virtme-ng is not installed in %s (make deps)" % args.venv)
    if not shutil.which("qemu-system-x86_64"):
        skip("qemu-system-x86_64 is not installed (make deps)")
    if not Path("/bin/busybox").exists():
        skip("busybox-static is not installed (make deps)")
    kernel = find_kernel()
    if kernel is None:
        skip("no readable /boot/vmlinuz-* with its modules (make deps: linux-image-amd64)")
    daemon = Path(args.build_dir) / "motion-orientationd"
    if not daemon.exists():
        print("test-kernel: %s is missing (make build)" % daemon)
        return 1

    results = REPO / ".build" / "kernel"
    shutil.rmtree(results, ignore_errors=True)
    results.mkdir(parents=True)
    env = dict(os.environ)
    env["PATH"] = "%s:%s" % (vng.parent, env.get("PATH", "/usr/bin:/bin"))

    started = time.monotonic()
    kvm, how = kvm_boots(vng, kernel, results, env)
    accel = "KVM" if kvm else "TCG (%s)" % how
    status_file = results / "pytest-status"
    command = ("%s Tests/kernel/bench_kernel.py" % PYTHON if args.bench else
               "%s -m pytest -c Tests/kernel/pytest.ini Tests/kernel %s"
               % (PYTHON, " ".join("'%s'" % a.replace("'", "'\\''") for a in pytest_args)))
    inner = ("MO_KERNEL_VM=1 MO_KERNEL_RESULTS=%s MO_DAEMON=%s MO_CLIENT=%s PYTHONDONTWRITEBYTECODE=1 "
             "%s; echo $? > %s"
             % (results, daemon.resolve(), (Path(args.build_dir) / "motion-orientation").resolve(),
                command, status_file))
    print("test-kernel: booting %s under QEMU with %s" % (kernel.name, accel), flush=True)
    status, output = run_bounded(vng_command(vng, kernel, kvm, results, inner), RUN_SECONDS,
                                 env, echo=True)
    seconds = time.monotonic() - started
    (results / "vm.log").write_text(output)
    closing = [line.strip() for line in output.splitlines()
               if re.match(r"^=+ .*(passed|failed|error|skipped|no tests ran).* in [0-9.]+s", line.strip())]
    if not status_file.exists():
        if "test session starts" in output or args.bench:
            print("test-kernel: FAILED: the VM stopped before pytest finished (%s; log %s)"
                  % ("timeout" if status is None else "exit %s" % status, results / "vm.log"))
            return 1
        last = [line for line in output.splitlines() if line.strip()][-1:] or ["no output"]
        skip("the VM did not start (%s): %s" % ("timeout" if status is None else "exit %s" % status,
                                               last[0].strip()))
    code = int(status_file.read_text().strip() or 1)
    if args.bench:
        print("bench-kernel: exit %d (VM stage %.0f s, %s; JSON in %s)"
              % (code, seconds, accel, results / "bench.json"))
        return code
    print("test-kernel: %s (VM stage %.0f s, %s)"
          % (closing[-1].strip("= ") if closing else "pytest exit %d" % code, seconds, accel))
    return code


if __name__ == "__main__":
    sys.exit(main())
