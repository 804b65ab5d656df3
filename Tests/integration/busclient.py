#!/usr/bin/python3
"""A scriptable D-Bus client of motion-orientationd, driven line by line.

The integration rig starts this as a separate process so that each instance is
a separate connection on the bus: a "claimer" that calls Start() and can then
be stopped politely, told to call Stop(), or killed with SIGKILL (its claim must
then be dropped by the daemon when the bus reports the connection gone).

It connects to DBUS_SYSTEM_BUS_ADDRESS (the rig's private system bus).

Output, one line each, flushed at once:
    ready <unique-name>
    ok <json>                       reply to a command (json of the reply body)
    error <dbus-error-name> <text>  a command failed
    signal <member> <json>          with --signals: a signal from the service

Commands on stdin, one per line:
    start | stop | read
    call <Method> [<signature> <json array of arguments>]
    get <Property>
    introspect | ping               Introspectable.Introspect, Peer.Ping
    own <bus name>                  RequestName (for policy tests)
    quit
"""

import argparse
import json
import os
import sys

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

BUS_NAME = "io.github.MotionOrientation1"
OBJECT_PATH = "/io/github/MotionOrientation1"
INTERFACE = "io.github.MotionOrientation1"
CALL_TIMEOUT_MSEC = 5000


def emit(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def error_line(err):
    name = Gio.DBusError.get_remote_error(err) or "local.Error"
    Gio.DBusError.strip_remote_error(err)
    return "error %s %s" % (name, " ".join(err.message.split()))


class Client:
    def __init__(self, connection, loop):
        self.connection = connection
        self.loop = loop

    def call(self, destination, path, interface, method, parameters=None):
        try:
            reply = self.connection.call_sync(
                destination, path, interface, method, parameters, None,
                Gio.DBusCallFlags.NO_AUTO_START, CALL_TIMEOUT_MSEC, None)
        except GLib.Error as err:
            emit(error_line(err))
            return
        emit("ok " + json.dumps(reply.unpack() if reply is not None else []))

    def service(self, method, parameters=None):
        self.call(BUS_NAME, OBJECT_PATH, INTERFACE, method, parameters)

    def command(self, line):
        words = line.split(None, 3)
        if not words:
            return
        verb = words[0]
        if verb == "start":
            self.service("Start")
        elif verb == "stop":
            self.service("Stop")
        elif verb == "read":
            self.service("ReadOrientation")
        elif verb == "call":
            parameters = None
            if len(words) >= 4:
                parameters = GLib.Variant("(" + words[2] + ")", tuple(json.loads(words[3])))
            self.service(words[1], parameters)
        elif verb == "get":
            self.call(BUS_NAME, OBJECT_PATH, "org.freedesktop.DBus.Properties", "Get",
                      GLib.Variant("(ss)", (INTERFACE, words[1])))
        elif verb == "introspect":
            self.call(BUS_NAME, OBJECT_PATH, "org.freedesktop.DBus.Introspectable", "Introspect")
        elif verb == "ping":
            self.call(BUS_NAME, OBJECT_PATH, "org.freedesktop.DBus.Peer", "Ping")
        elif verb == "own":
            self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                      "RequestName", GLib.Variant("(su)", (words[1], 4)))
        elif verb == "quit":
            self.loop.quit()
        else:
            emit("error local.UnknownCommand %s" % verb)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", action="store_true", help="call Start() at once")
    parser.add_argument("--signals", action="store_true", help="print the service's signals")
    args = parser.parse_args()

    address = os.environ.get("DBUS_SYSTEM_BUS_ADDRESS")
    if not address:
        emit("error local.NoBus DBUS_SYSTEM_BUS_ADDRESS is not set")
        return 1
    try:
        connection = Gio.DBusConnection.new_for_address_sync(
            address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
            | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
    except GLib.Error as err:
        emit(error_line(err))
        return 1
    connection.set_exit_on_close(False)
    loop = GLib.MainLoop()
    client = Client(connection, loop)

    if args.signals:
        def on_signal(_conn, _sender, _path, _iface, member, parameters):
            emit("signal %s %s" % (member, json.dumps(parameters.unpack())))
        # The match rule is sent before anything else on this connection, so the
        # bus applies it before any Start() below reaches the daemon.
        connection.signal_subscribe(None, INTERFACE, None, OBJECT_PATH, None,
                                    Gio.DBusSignalFlags.NONE, on_signal)
        connection.signal_subscribe(None, "org.freedesktop.DBus.Properties",
                                    "PropertiesChanged", OBJECT_PATH, None,
                                    Gio.DBusSignalFlags.NONE, on_signal)

    emit("ready " + connection.get_unique_name())
    if args.start:
        client.service("Start")

    def on_stdin(channel, condition):
        if condition & GLib.IOCondition.IN:
            line = channel.readline()
            if line:
                client.command(line.strip())
                return True
        loop.quit()  # stdin closed: the rig let go of us
        return False

    channel = GLib.IOChannel.unix_new(sys.stdin.fileno())
    GLib.io_add_watch(channel, GLib.PRIORITY_DEFAULT,
                      GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR,
                      on_stdin)
    loop.run()
    connection.close_sync(None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
