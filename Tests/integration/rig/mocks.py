"""python-dbusmock services (logind, UPower, power-profiles-daemon) on the private bus."""

import json
import os
import signal
from pathlib import Path

from .binaries import PYTHON
from .processes import RigError, kill_process, spawn, wait_until


MOCK_IFACE = "org.freedesktop.DBus.Mock"


def busctl_values(values):
    """(signature, value) pairs as busctl arguments; the signatures must be basic types."""
    out = []
    for signature, value in values:
        if isinstance(value, bool):
            value = "true" if value else "false"
        out += [signature, str(value)]
    return out


class DBusMock:
    """`python3 -m dbusmock --template ...` on the private bus, driven through busctl.

    The template's name is owned only once its object and properties exist (dbusmock
    loads the template before its main loop answers anyone).
    """

    def __init__(self, bus, template, parameters=None, log_path=None, timeout=5.0):
        from dbusmock.mockobject import load_module  # only the suites that use mocks need it
        module = load_module(str(template))
        self.bus = bus
        self.name = module.BUS_NAME
        self.path = module.MAIN_OBJ
        self.interface = module.MAIN_IFACE
        argv = [PYTHON, "-m", "dbusmock", "--system", "--template", str(template)]
        if parameters:
            argv += ["--parameters", json.dumps(parameters)]
        self.log_path = Path(log_path) if log_path else None
        with open(self.log_path or os.devnull, "wb") as log:
            self.proc = spawn(argv, env=bus.env(), stdout=log, stderr=log)
        try:
            wait_until(lambda: self.proc.poll() is not None or bus.name_has_owner(self.name),
                       timeout, interval=0.05, what="dbusmock to own %s" % self.name)
        except RigError:
            self.close()
            raise
        if self.proc.poll() is not None:
            raise RigError("dbusmock %s exited with %s:\n%s"
                           % (template, self.proc.returncode, self.log()))

    def log(self):
        try:
            return self.log_path.read_text(errors="replace") if self.log_path else ""
        except FileNotFoundError:
            return ""

    def mock_call(self, method, signature, *args):
        return self.bus.busctl("call", self.name, self.path, MOCK_IFACE, method, signature,
                               *[str(a) for a in args])

    def add_property(self, name, signature, value, interface=None):
        """A new property (no PropertiesChanged: add it before anyone looks)."""
        self.mock_call("AddProperty", "ssv", interface or self.interface, name,
                       *busctl_values([(signature, value)]))

    def update_properties(self, properties, interface=None):
        """properties: {name: (signature, value)}; emits one PropertiesChanged."""
        args = []
        for name, typed in properties.items():
            args += [name] + busctl_values([typed])
        self.mock_call("UpdateProperties", "sa{sv}", interface or self.interface,
                       len(properties), *args)

    def emit_signal(self, member, values, interface=None):
        """values: [(signature, value)] of the signal's arguments."""
        signature = "".join(s for s, _ in values)
        self.mock_call("EmitSignal", "sssav", interface or self.interface, member, signature,
                       len(values), *busctl_values(values))

    def get_property(self, name, interface=None):
        result = self.bus.busctl("get-property", self.name, self.path,
                                 interface or self.interface, name)
        return json.loads(result.stdout)["data"]

    def close(self):
        """The service leaves the bus."""
        if self.proc is not None:
            kill_process(self.proc, signal.SIGTERM)
            self.proc = None
