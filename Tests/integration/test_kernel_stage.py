"""The VM stages' wiring on the host (Tests/kernel runs inside the VM): `make test` runs
`make test-kernel` and `make test-systemd`, and where no VM can start each says why in one
line and exits 0 (skipped, never passed)."""

import subprocess

import pytest

from rig import PYTHON, REPO_ROOT

RUN = REPO_ROOT / "Tests" / "kernel" / "run.py"


@pytest.mark.files
def test_make_test_runs_the_vm_stage():
    planned = subprocess.run(["make", "-C", str(REPO_ROOT), "--no-print-directory", "-n", "test"],
                             capture_output=True, text=True, timeout=60)
    assert planned.returncode == 0, planned.stderr
    assert "Tests/kernel/run.py" in planned.stdout
    assert "Tests/kernel/systemd/run.py" in planned.stdout


@pytest.mark.files
def test_without_virtme_ng_the_stage_is_skipped_with_its_reason(tmp_path):
    result = subprocess.run([PYTHON, str(RUN), "--venv", str(tmp_path / "none")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "test-kernel: skipped: virtme-ng is not installed in %s (make deps)" % (tmp_path / "none")]
    assert "passed" not in result.stdout


@pytest.mark.files
def test_a_build_under_tmp_skips_the_systemd_stage_with_its_reason():
    """The systemd VM has its own /tmp and /var/tmp: a checkout or build there cannot be run."""
    result = subprocess.run([PYTHON, str(REPO_ROOT / "Tests" / "kernel" / "systemd" / "run.py"),
                             "--build-dir", "/tmp/motion-orientation-build"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("test-systemd: skipped: "), result.stdout
    # Where the VM's tools are installed, the reason is the kept-out /tmp.
    assert "under /tmp, which the VM keeps out" in lines[0] or "install" in lines[0], lines[0]
