"""Where the programs the rig runs are, and the check that the daemon is the shipped kind."""

import os
from pathlib import Path

from .linkage import require_static_swift

PACKAGE = Path(__file__).resolve().parent
INTEGRATION = PACKAGE.parent
REPO_ROOT = INTEGRATION.parent.parent
RELEASE = REPO_ROOT / ".build" / "release"
BUSCLIENT = INTEGRATION / "busclient.py"
PYTHON = "/usr/bin/python3"


def default_daemon():
    return os.environ.get("MO_DAEMON") or str(RELEASE / "motion-orientationd")


def default_client():
    return os.environ.get("MO_CLIENT") or str(RELEASE / "motion-orientation")


def require_shipped_daemon(path):
    """Raise WrongBuild unless `path` is linked the way `make build` links the daemon.

    A sanitizer build (MO_SANITIZER set, as `make test-asan` does) links the Swift runtime
    dynamically by design and is let through: it is run for its reports, not measured."""
    if os.environ.get("MO_SANITIZER"):
        return
    require_static_swift(path)

