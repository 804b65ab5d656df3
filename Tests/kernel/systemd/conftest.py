"""The install-path tests run only inside the VM that Tests/kernel/systemd/run.py boots, where
systemd is PID 1; anywhere else (the host, make test-kernel's virtme-ng guest) they are not
collected."""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "integration"))
sys.path.insert(0, str(HERE.parent))


def in_systemd_vm():
    try:
        pid1 = os.path.basename(os.readlink("/proc/1/exe"))
    except OSError:
        return False
    return os.environ.get("MO_SYSTEMD_VM") == "1" and pid1 == "systemd"


collect_ignore_glob = [] if in_systemd_vm() else ["test_*.py"]
