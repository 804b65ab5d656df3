"""`make install` and `make uninstall` with DESTDIR and PREFIX: what goes where, the unit's
ExecStart, the user's configuration kept. The binaries are the ones the suite runs (`make test`
builds them first), so `build` is taken as done here: a no-op `swift build` can still take half a
minute on a loaded machine, and what is under test is the install layout."""

import os
import subprocess
from pathlib import Path

from rig import REPO_ROOT, default_daemon


def run(argv, **kwargs):
    release = str(Path(default_daemon()).resolve().parent)
    argv = argv[:3] + ["-o", "build", "RELEASE=%s" % release] + argv[3:]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, **kwargs)


def test_install_builds_first():
    planned = subprocess.run(["make", "-C", str(REPO_ROOT), "--no-print-directory", "-n", "install"],
                             capture_output=True, text=True, timeout=20)
    assert planned.returncode == 0, planned.stderr
    assert "--static-swift-stdlib" in planned.stdout.splitlines()[0], planned.stdout


def test_install_honours_destdir_and_prefix(tmp_path):
    root = tmp_path / "root"
    result = run(["make", "-C", str(REPO_ROOT), "--no-print-directory", "install",
                  "DESTDIR=%s" % root, "PREFIX=/opt/mo"])
    assert result.returncode == 0, result.stdout + result.stderr
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    for expected in ("opt/mo/bin/motion-orientationd", "opt/mo/bin/motion-orientation",
                     "opt/mo/share/dbus-1/system.d/io.github.MotionOrientation1.conf",
                     "opt/mo/share/dbus-1/system-services/io.github.MotionOrientation1.service",
                     "etc/motion-orientationd.conf"):
        assert expected in files, files
    assert any(f.endswith("motion-orientationd.service") and "system-services" not in f
               for f in files), files
    assert any(f.endswith("rules.d/80-motion-orientation.rules") for f in files), files
    helper = [f for f in files if f.endswith("udev/motion-orientation-access")]
    assert helper and os.access(root / helper[0], os.X_OK), files
    assert any(f.endswith("sysusers.d/motion-orientation.conf") for f in files), files
    unit = next(root.rglob("system/motion-orientationd.service")).read_text()
    assert "ExecStart=/opt/mo/bin/motion-orientationd" in unit
    assert "@bindir@" not in unit
    assert os.access(root / "opt/mo/bin/motion-orientationd", os.X_OK)
    # A configuration already there is the user's: install keeps it.
    (root / "etc/motion-orientationd.conf").write_text("[Orientation]\nSwitchAngle=58\n")
    again = run(["make", "-C", str(REPO_ROOT), "--no-print-directory", "install",
                 "DESTDIR=%s" % root, "PREFIX=/opt/mo"])
    assert again.returncode == 0
    assert (root / "etc/motion-orientationd.conf").read_text() == "[Orientation]\nSwitchAngle=58\n"
    removed = run(["make", "-C", str(REPO_ROOT), "--no-print-directory", "uninstall",
                   "DESTDIR=%s" % root, "PREFIX=/opt/mo"])
    assert removed.returncode == 0
    left = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert left == ["etc/motion-orientationd.conf"], left


def section_names(path):
    result = subprocess.run(["readelf", "-S", "-W", str(path)], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_install_strips_the_binaries_unless_strip_is_empty(tmp_path):
    for strip, stripped in (("strip", True), ("", False)):
        root = tmp_path / ("strip-%s" % (strip or "none"))
        argv = ["make", "-C", str(REPO_ROOT), "--no-print-directory", "install",
                "DESTDIR=%s" % root, "PREFIX=/usr"]
        if strip != "strip":
            argv.append("STRIP=%s" % strip)
        result = run(argv)
        assert result.returncode == 0, result.stdout + result.stderr
        for binary in ("motion-orientationd", "motion-orientation"):
            installed = root / "usr/bin" / binary
            assert os.access(installed, os.X_OK)
            assert (".symtab" not in section_names(installed)) == stripped, (binary, strip)
        if stripped:
            built = Path(default_daemon())
            assert (root / "usr/bin/motion-orientationd").stat().st_size < built.stat().st_size
