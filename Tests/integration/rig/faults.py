"""Faults a umockdev testbed cannot produce with files (EIO, EACCES for root, a read that
takes seconds), from a small LD_PRELOAD library (faultinject.c, next to this file) put in
front of umockdev's preload: while its control file exists, it makes open() or
read()/pread() of files whose path ends in a given suffix fail with an errno or sleep; and
it makes a scan element refuse a write (EBUSY) while its device's buffer is enabled, as the
kernel does.

The library is built with the system C compiler into .build/rig/, named after a hash of its
source and of the command line, so an edit of faultinject.c builds it again and an unchanged
one is built once for every session.
"""

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .binaries import RELEASE
from .processes import RigError

SOURCE = Path(__file__).resolve().parent / "faultinject.c"
SCRATCH = RELEASE.parent / "rig"
FLAGS = ["-shared", "-fPIC", "-O2", "-Wall"]


def compiler():
    """The C compiler that builds the injector, or None when there is none."""
    return shutil.which("cc") or shutil.which("gcc")


def build_fault_injector(scratch=SCRATCH):
    """The injector library, built from SOURCE when that source has no build yet."""
    cc = compiler()
    if cc is None:
        raise RigError("no C compiler (cc or gcc) to build %s" % SOURCE)
    source = SOURCE.read_bytes()
    digest = hashlib.sha256(source + "\0".join([cc] + FLAGS).encode()).hexdigest()[:16]
    scratch = Path(scratch)
    library = scratch / ("libmo-faultinject-%s.so" % digest)
    if library.exists():
        return library
    scratch.mkdir(parents=True, exist_ok=True)
    # Built under a temporary name and renamed: a concurrent session never loads half a file.
    fd, partial = tempfile.mkstemp(prefix=".faultinject-", suffix=".so", dir=scratch)
    os.close(fd)
    try:
        result = subprocess.run([cc, *FLAGS, "-o", partial, str(SOURCE), "-ldl"],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RigError("%s failed to build %s (exit %d):\n%s"
                           % (cc, SOURCE, result.returncode, result.stderr))
        os.chmod(partial, 0o755)
        os.replace(partial, library)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    for stale in scratch.glob("libmo-faultinject-*.so"):
        if stale != library:
            stale.unlink(missing_ok=True)
    return library


class Faults:
    """The injector's control file for one daemon (before the daemon starts)."""

    def __init__(self, rig, library):
        self.control = rig.tmp / "faults"
        self.log = rig.tmp / "faults.log"
        rig.daemon.env["LD_PRELOAD"] = "%s %s" % (library, rig.daemon.env["LD_PRELOAD"])
        rig.daemon.env["MO_FAULT_CONTROL"] = str(self.control)
        rig.daemon.env["MO_IIO_BUSY"] = "1"

    def inject(self, *rules):
        """rules: "suffix open|read ERRNO" or "suffix read sleep MSEC"."""
        tmp = self.control.with_suffix(".new")
        tmp.write_text("".join(rule + "\n" for rule in rules))
        os.replace(tmp, self.control)

    def clear(self):
        try:
            self.control.unlink()
        except FileNotFoundError:
            pass

    def hits(self):
        try:
            return self.log.read_text().splitlines()
        except FileNotFoundError:
            return []
