"""A private dbus-daemon configured as a system bus, and busctl against it."""

import json
import os
import re
import select
import signal
import subprocess
from pathlib import Path

from .processes import RigError, kill_process, spawn


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
{policy}
{includes}
  <limit name="max_connections_per_user">{max_connections}</limit>
  <limit name="max_completed_connections">{max_connections}</limit>
  <limit name="max_incomplete_connections">{max_connections}</limit>
  <limit name="max_match_rules_per_connection">4096</limit>
</busconfig>
"""

# Everything allowed: the daemon runs as root in the tests and owns its name.
PERMISSIVE_POLICY = """  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_type="method_return"/>
    <allow send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="signal"/>
    <allow receive_type="error"/>
  </policy>"""

# The default context of Debian's /usr/share/dbus-1/system.conf: services must
# punch their own holes (used to test the shipped policy file).
SYSTEM_DEFAULT_POLICY = """  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
    <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus" send_member="UpdateActivationEnvironment"/>
  </policy>
  <policy user="root">
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Monitoring"/>
  </policy>"""


class SystemBus:
    """A private dbus-daemon configured as a system bus, listening in `directory`."""

    def __init__(self, directory, policy=PERMISSIVE_POLICY, includes=(), max_connections=4096,
                 limits=None):
        """limits: {limit name: value} replacing or adding <limit> lines of the config,
        e.g. {"max_match_rules_per_connection": 512} for the stock system-bus value."""
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.socket = self.directory / "system_bus_socket"
        self.config = self.directory / "bus.conf"
        self.log = self.directory / "bus.log"
        includes_xml = "\n".join("  <include>%s</include>" % Path(p).resolve() for p in includes)
        config = BUS_CONFIG.format(
            socket=self.socket, policy=policy, includes=includes_xml,
            max_connections=max_connections)
        for name, value in (limits or {}).items():
            line = '  <limit name="%s">%s</limit>\n' % (name, value)
            config, found = re.subn(r'  <limit name="%s">[^<]*</limit>\n' % re.escape(name),
                                    lambda _m, line=line: line, config)
            if not found:
                config = config.replace("</busconfig>", line + "</busconfig>")
        self.config.write_text(config)
        self.proc = None
        self.address = None

    def start(self, timeout=5.0):
        with open(self.log, "wb") as log:
            self.proc = spawn(["dbus-daemon", "--config-file=%s" % self.config,
                               "--print-address=1", "--nofork"],
                              stdout=subprocess.PIPE, stderr=log)
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], timeout)
        line = os.read(fd, 4096).decode().strip() if ready else ""
        if not line.startswith("unix:"):
            kill_process(self.proc, signal.SIGKILL)
            raise RigError("dbus-daemon did not start (%s):\n%s"
                           % (line or "no address", self.log.read_text()))
        self.address = line.splitlines()[0]
        return self

    def env(self, base=None):
        env = dict(os.environ if base is None else base)
        env["DBUS_SYSTEM_BUS_ADDRESS"] = self.address
        # Never let a child wander off to the real buses.
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        return env

    def busctl(self, *args, json_output=True, timeout=5.0, check=True):
        """Run `busctl --system ...` against this bus. Returns the CompletedProcess.

        Method calls time out after `timeout` - 1 s (busctl --timeout) unless args
        give their own --timeout; the process is killed after `timeout`.
        """
        argv = ["busctl", "--system", "--no-pager"]
        if json_output:
            argv.append("--json=short")
        if not any(str(a).startswith("--timeout") for a in args):
            argv.append("--timeout=%g" % max(1.0, timeout - 1.0))
        argv += [str(a) for a in args]
        result = subprocess.run(argv, env=self.env(), capture_output=True, text=True,
                                timeout=timeout, stdin=subprocess.DEVNULL)
        if check and result.returncode != 0:
            raise BusctlError(argv, result)
        return result

    def name_has_owner(self, name):
        result = self.busctl("call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                             "org.freedesktop.DBus", "NameHasOwner", "s", name)
        return json.loads(result.stdout)["data"][0]

    def stop(self):
        if self.proc is not None:
            kill_process(self.proc, signal.SIGTERM)
            self.proc = None


class BusctlError(AssertionError):
    def __init__(self, argv, result):
        self.result = result
        self.message = result.stderr.strip()
        super().__init__("busctl %s failed (exit %d): %s"
                         % (" ".join(a for a in argv[3:] if not a.startswith("--")),
                            result.returncode, self.message))
