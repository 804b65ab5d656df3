"""The shipped unit's sandbox as systemd-analyze rates it (offline: no systemd as PID 1 here)."""

import re

import vmrig
from rig.binaries import REPO_ROOT

# systemd-analyze's scale: 0 (sandboxed) to 10 (exposed); "OK" is below 2.
EXPOSURE_LIMIT = 2.0


def test_unit_exposure_as_systemd_analyze_rates_it(tmpdir_shared):
    unit = tmpdir_shared / "motion-orientationd.service"
    unit.write_text((REPO_ROOT / "systemd" / "motion-orientationd.service").read_text()
                    .replace("@bindir@", "/usr/bin"))
    result = vmrig.sh("systemd-analyze", "security", "--offline=yes", "--no-pager", unit,
                      check=False, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout)
    assert found, result.stdout + result.stderr
    exposure = float(found.group(1))
    vmrig.record_layout("unit-exposure", {"exposure": exposure})
    assert exposure <= EXPOSURE_LIMIT, result.stdout
