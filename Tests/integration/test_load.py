"""Load: hundreds of bus clients claim, receive every change, leave or die, in rounds.

Clients are not one process each: a few worker processes (this file run as a script,
`python3 test_load.py worker`) each hold many private Gio connections to the rig's bus,
driven by line commands on stdin. One more worker with a single connection probes
ReadOrientation() and Properties.Get() latency while the others churn.

Per round: every client connects (subscribing to the service's signals first) and calls
Start(); one worker is SIGKILLed while its Start() calls are in flight and another after the
first change; the device turns through four orientations, and every connection still alive
must have received every DeviceOrientationChanged and InterfaceOrientationChanged, in order,
exactly once; then clients leave by Stop(), by closing without Stop(), or by SIGKILL, and
the claims must drain (Active=false, SampleIntervalMsec=0). The daemon's VmRSS is read after
each round; it must not grow from the second round to the last.

The bus runs with dbus-daemon's stock system-bus limits (notably 512 match rules per
connection, /usr/share/dbus-1/system.conf) except max_connections_per_user, which the stock
256 would refuse at these client counts (docs/architecture.md, Pitfalls); the daemon has to cope with
what a real system bus allows.

Knobs (environment): MO_LOAD_WORKERS (default 5) x MO_LOAD_CLIENTS (default 100 per worker),
plus a victim worker of MO_LOAD_CLIENTS / 2 killed mid-Start; MO_LOAD_ROUNDS (default 3);
MO_LOAD_SLOWDOWN scales every time bound (for slow daemons: sanitizers, valgrind);
MO_SANITIZER set (make test-asan) skips the memory comparison (ASan's quarantine keeps
freed memory resident).
"""

import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

BUS_NAME = "io.github.MotionOrientation1"
OBJECT_PATH = "/io/github/MotionOrientation1"
INTERFACE = "io.github.MotionOrientation1"
PROPERTIES = "org.freedesktop.DBus.Properties"


# ---------------------------------------------------------------------------
# the worker (runs in its own process: `python3 test_load.py worker`)


def worker_main():
    """Holds many connections; answers one JSON line per command line.

    connect N        open N connections, each subscribed to the service's signals
    start            Start() on every open connection; waits for all replies
    stop K           Stop() on the first K open connections; waits for all replies
    close            close every connection (no Stop())
    report           the orientation signals each connection has received
    probe            with one connection: call ReadOrientation() and Get() back to back
                     until `unprobe`, which answers with the latencies
    """
    import gi

    gi.require_version("Gio", "2.0")
    gi.require_version("GLib", "2.0")
    from gi.repository import Gio, GLib

    address = os.environ["DBUS_SYSTEM_BUS_ADDRESS"]
    loop = GLib.MainLoop()
    connections = []
    received = []  # per connection: ["DeviceOrientationChanged:portrait", ...]
    probe = {"running": False, "samples": [], "errors": []}

    def emit(obj):
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    def connect(count):
        errors = []
        for _ in range(count):
            try:
                conn = Gio.DBusConnection.new_for_address_sync(
                    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
                    | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
            except GLib.Error as err:
                errors.append(err.message)
                continue
            conn.set_exit_on_close(False)
            log = []

            def on_signal(_c, _sender, _path, _iface, member, params, log=log):
                log.append("%s:%s" % (member, params.unpack()[0]))
            conn.signal_subscribe(BUS_NAME, INTERFACE, None, OBJECT_PATH, None,
                                  Gio.DBusSignalFlags.NONE, on_signal)
            connections.append(conn)
            received.append(log)
        # A round trip on each connection: its AddMatch has reached the bus.
        sync_all()
        emit({"connected": len(connections), "errors": errors,
              "names": [c.get_unique_name() for c in connections]})

    def call_all(targets, interface, method, parameters, done):
        """Async calls on every target connection; done(results) once all answered."""
        results = [None] * len(targets)
        pending = [len(targets)]
        started = time.monotonic()
        if not targets:
            done(results)
            return

        def finish(conn, res, index):
            try:
                conn.call_finish(res)
                results[index] = ("ok", time.monotonic() - started)
            except GLib.Error as err:
                results[index] = (Gio.DBusError.get_remote_error(err) or err.message,
                                  time.monotonic() - started)
            pending[0] -= 1
            if pending[0] == 0:
                done(results)
        for index, conn in enumerate(targets):
            dest = "org.freedesktop.DBus" if interface == "org.freedesktop.DBus" else BUS_NAME
            path = "/org/freedesktop/DBus" if interface == "org.freedesktop.DBus" else OBJECT_PATH
            conn.call(dest, path, interface, method, parameters, None,
                      Gio.DBusCallFlags.NO_AUTO_START, 20000, None, finish, index)

    def sync_all():
        done = []
        call_all(connections, "org.freedesktop.DBus", "GetId", None, done.append)
        ctx = loop.get_context()
        while not done:
            ctx.iteration(True)

    def answer_calls(results):
        errors = [r[0] for r in results if r[0] != "ok"]
        emit({"calls": len(results), "errors": errors,
              "max_seconds": max([r[1] for r in results], default=0.0)})

    def start_probe():
        conn = connections[0]
        probe.update(running=True, samples=[], errors=[])
        calls = [("ReadOrientation", INTERFACE, "ReadOrientation", None),
                 ("Get", PROPERTIES, "Get", GLib.Variant("(ss)", (INTERFACE, "DeviceOrientation")))]
        state = {"n": 0}

        def next_call():
            if not probe["running"]:
                return
            name, iface, method, params = calls[state["n"] % len(calls)]
            state["n"] += 1
            started = time.monotonic()

            def finish(c, res, _data):
                try:
                    c.call_finish(res)
                except GLib.Error as err:
                    probe["errors"].append("%s: %s" % (name, err.message))
                probe["samples"].append((name, time.monotonic() - started))
                # A short pause between calls: a steady probe, not a flood of its own.
                GLib.timeout_add(10, lambda: next_call() and False)
            conn.call(BUS_NAME, OBJECT_PATH, iface, method, params, None,
                      Gio.DBusCallFlags.NO_AUTO_START, 20000, None, finish, None)
        next_call()
        emit({"probing": True})

    def stop_probe():
        probe["running"] = False
        emit({"samples": probe["samples"], "errors": probe["errors"]})

    def command(line):
        words = line.split()
        if not words:
            return
        verb = words[0]
        if verb == "connect":
            connect(int(words[1]))
        elif verb == "start":
            call_all(list(connections), INTERFACE, "Start", None, answer_calls)
        elif verb == "stop":
            call_all(connections[:int(words[1])], INTERFACE, "Stop", None, answer_calls)
        elif verb == "close":
            for conn in connections:
                conn.close_sync(None)
            emit({"closed": len(connections)})
        elif verb == "report":
            emit({"received": received})
        elif verb == "probe":
            start_probe()
        elif verb == "unprobe":
            stop_probe()
        elif verb == "quit":
            loop.quit()
        else:
            emit({"error": "unknown command %s" % verb})

    def on_stdin(channel, condition):
        if condition & GLib.IOCondition.IN:
            line = channel.readline()
            if line:
                command(line.strip())
                return True
        loop.quit()
        return False

    channel = GLib.IOChannel.unix_new(sys.stdin.fileno())
    GLib.io_add_watch(channel, GLib.PRIORITY_DEFAULT,
                      GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR, on_stdin)
    loop.run()
    return 0


if __name__ == "__main__" and sys.argv[1:2] == ["worker"]:
    sys.exit(worker_main())


# ---------------------------------------------------------------------------
# the test

import pytest  # noqa: E402

import rig as rigmod  # noqa: E402
from rig import POSES, RigError, wait_until  # noqa: E402

pytestmark = pytest.mark.daemon

WORKERS = int(os.environ.get("MO_LOAD_WORKERS", "5"))
CLIENTS = int(os.environ.get("MO_LOAD_CLIENTS", "100"))
ROUNDS = int(os.environ.get("MO_LOAD_ROUNDS", "3"))
SLOWDOWN = float(os.environ.get("MO_LOAD_SLOWDOWN", "1"))
# A sanitizer build (make test-asan) holds freed memory in quarantine: no RSS figures then.
SANITIZED = bool(os.environ.get("MO_SANITIZER"))

# Time bounds (seconds, times SLOWDOWN).
CHANGE = 5.0        # a pose change shows on the bus
DELIVERY = 5.0      # every live client has the signal after the property changed
DRAIN = 5.0         # the claims are gone after the last client left
LATENCY_MAX = 1.0   # the slowest ReadOrientation()/Get() under load
LATENCY_MEDIAN = 0.1
# VmRSS growth allowed from round 2 to the last round (allocator noise).
RSS_SLACK_KB = 256

# The poses of one round, from portrait (where each round starts and ends).
TOUR = ["landscape-left", "portrait-upside-down", "landscape-right", "portrait"]
INTERFACE_FOR = {"landscape-left": "landscape-right", "portrait-upside-down": "portrait-upside-down",
                 "landscape-right": "landscape-left", "portrait": "portrait"}

# dbus-daemon's built-in system-bus limits, except the connections per user.
STOCK_MATCH_RULES = 512


class Worker:
    """A worker process holding `count` connections."""

    def __init__(self, bus, name):
        self.name = name
        self.proc = rigmod.spawn([rigmod.PYTHON, __file__, "worker"], env=bus.env(),
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.reader = rigmod.LineReader(self.proc)
        self.names = []

    def send(self, line):
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def answer(self, timeout):
        line = self.reader.next_line(timeout * SLOWDOWN)
        if line is None:
            raise RigError("worker %s exited (%s)" % (self.name, self.proc.poll()))
        return json.loads(line)

    def request(self, line, timeout=30.0):
        self.send(line)
        return self.answer(timeout)

    def kill(self):
        rigmod.kill_process(self.proc, signal.SIGKILL)

    def quit(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        rigmod.kill_process(self.proc, signal.SIGKILL)


def vm_rss_kb(pid):
    text = Path("/proc/%d/status" % pid).read_text()
    return int(re.search(r"^VmRSS:\s*(\d+) kB", text, re.M).group(1))


def expected_signals(poses):
    out = []
    for pose in poses:
        out.append("DeviceOrientationChanged:%s" % pose)
        out.append("InterfaceOrientationChanged:%s" % INTERFACE_FOR[pose])
    return out


def check_delivery(workers, poses):
    """Every connection of every worker got exactly the signals of `poses`, in order."""
    wanted = expected_signals(poses)
    deadline = time.monotonic() + DELIVERY * SLOWDOWN
    while True:
        bad = []
        for worker in workers:
            received = worker.request("report")["received"]
            for index, got in enumerate(received):
                # Device and interface signals of one change may come in either order.
                if sorted(got) != sorted(wanted) or not _in_change_order(got, wanted):
                    bad.append((worker.name, index, got))
        if not bad:
            return
        if time.monotonic() > deadline:
            raise AssertionError("%d connections missed or duplicated signals; wanted %r; first: %r"
                                 % (len(bad), wanted, bad[:3]))
        time.sleep(0.1)


def _in_change_order(got, wanted):
    """The device orientations come in the order of the tour (each signal once)."""
    device = [s for s in got if s.startswith("DeviceOrientationChanged:")]
    return device == [s for s in wanted if s.startswith("DeviceOrientationChanged:")]


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_hundreds_of_clients_in_rounds(make_rig):
    rig = make_rig(config_text="[Sampling]\nMotionLingerMsec=0\n", verbose=False)
    daemon_pid = rig.daemon.pid
    # A first decision (portrait), so that every round starts from a known orientation.
    warm_up = rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE * SLOWDOWN)
    warm_up.close()
    rig.wait_for_property("Active", False, DRAIN * SLOWDOWN)
    time.sleep(0.2)
    rss_before = vm_rss_kb(daemon_pid)
    rss = []
    latencies = []
    held = []
    probe = Worker(rig.bus, "probe")
    assert probe.request("connect 1")["connected"] == 1
    try:
        for round_number in range(1, ROUNDS + 1):
            held.append(_one_round(rig, probe, round_number, latencies))
            rss.append(vm_rss_kb(daemon_pid))
            assert rig.daemon.running(), rig.daemon.log()[-3000:]
    finally:
        probe.quit()

    print("\nload: clients held per round %r, VmRSS before %d kB, after each round (kB) %r"
          % (held, rss_before, rss))
    print("load: ReadOrientation/Get latency under load: median %.1f ms, max %.1f ms, %d calls"
          % (1000 * statistics.median(latencies), 1000 * max(latencies), len(latencies)))
    assert min(held) >= 500
    if len(rss) >= 3 and not SANITIZED:
        assert rss[-1] - rss[1] <= RSS_SLACK_KB, "VmRSS grew from %d kB (round 2) to %d kB" % (
            rss[1], rss[-1])
    assert rig.get_property("Active") is False
    assert rig.read_orientation(timeout=5) == ("portrait", "portrait")


def _one_round(rig, probe, round_number, latencies):
    workers = [Worker(rig.bus, "r%d-w%d" % (round_number, n)) for n in range(WORKERS)]
    victim = Worker(rig.bus, "r%d-victim" % round_number)
    everyone = workers + [victim]
    try:
        for worker in workers:
            worker.send("connect %d" % CLIENTS)
        victim.send("connect %d" % max(1, CLIENTS // 2))
        held = 0
        for worker in everyone:
            answer = worker.answer(60)
            assert not answer["errors"], "%s could not connect: %r" % (worker.name, answer["errors"][:3])
            held += answer["connected"]

        assert probe.request("probe")["probing"]
        # Start() everywhere; the victim dies while its calls are in flight.
        for worker in everyone:
            worker.send("start")
        time.sleep(0.02)
        victim.kill()
        for worker in workers:
            answer = worker.answer(30)
            assert not answer["errors"], "Start() failed for %s: %r" % (worker.name, answer["errors"][:3])
        rig.wait_for_property("Active", True, CHANGE * SLOWDOWN)
        assert rig.get_property("DeviceOrientation") == "portrait"

        # The tour; the last worker dies after the first change.
        survivors = list(workers)
        for step, pose in enumerate(TOUR):
            rig.accel.set_pose(pose)
            rig.wait_for_property("DeviceOrientation", pose, CHANGE * SLOWDOWN)
            if step == 0:
                check_delivery(survivors, TOUR[:1])
                survivors[-1].kill()
                survivors = survivors[:-1]
        check_delivery(survivors, TOUR)

        # The probe stops here: a ReadOrientation() with nobody claiming starts a short
        # acquisition of its own, which would keep Active true below.
        answer = probe.request("unprobe")
        assert not answer["errors"], answer["errors"][:5]
        samples = [seconds for _name, seconds in answer["samples"]]
        assert len(samples) >= 10, "the probe made only %d calls" % len(samples)
        latencies.extend(samples)
        assert max(samples) < LATENCY_MAX * SLOWDOWN, "slowest call %.3f s" % max(samples)
        assert statistics.median(samples) < LATENCY_MEDIAN * SLOWDOWN, (
            "median call %.3f s" % statistics.median(samples))

        # Leave: Stop() then close, close without Stop(), Stop() by half then quit, SIGKILL.
        assert rig.get_property("Active") is True
        ways = ["stop-close", "close", "half-stop-quit", "kill"]
        for index, worker in enumerate(survivors):
            way = ways[index % len(ways)]
            if way == "stop-close":
                answer = worker.request("stop %d" % CLIENTS)
                assert not answer["errors"], answer["errors"][:3]
                worker.request("close")
            elif way == "close":
                worker.request("close")
            elif way == "half-stop-quit":
                answer = worker.request("stop %d" % (CLIENTS // 2))
                assert not answer["errors"], answer["errors"][:3]
                worker.quit()
            else:
                worker.kill()
        rig.wait_for_property("Active", False, DRAIN * SLOWDOWN)
        assert rig.get_property("SampleIntervalMsec") == 0

        return held
    finally:
        for worker in everyone:
            worker.quit()


@pytest.mark.timeout(120)
def test_more_claimers_than_the_stock_match_rule_limit(make_rig):
    """dbus-daemon's stock system bus allows 512 match rules per connection. 600 clients
    claiming at once must all be served, and the daemon must stay on the bus: claims may
    not cost the daemon one match rule each without a bound (sd_bus_track adds one
    NameOwnerChanged match per tracked name, and sd-bus drops the whole connection when
    the bus refuses a match it added without an install callback)."""
    rig = make_rig(config_text="[Sampling]\nMotionLingerMsec=0\n", verbose=False,
                   bus_limits={"max_match_rules_per_connection": STOCK_MATCH_RULES})
    warm_up = rig.bus_client(start=True)
    rig.wait_for_property("DeviceOrientation", "portrait", CHANGE * SLOWDOWN)
    warm_up.close()
    rig.wait_for_property("Active", False, DRAIN * SLOWDOWN)

    workers = [Worker(rig.bus, "w%d" % n) for n in range(2)]
    try:
        for worker in workers:
            worker.send("connect 300")
        for worker in workers:
            answer = worker.answer(60)
            assert answer["connected"] == 300 and not answer["errors"], answer["errors"][:3]
        for worker in workers:
            worker.send("start")
        for worker in workers:
            answer = worker.answer(30)
            assert not answer["errors"], "Start() failed: %r" % answer["errors"][:3]
        time.sleep(0.5)
        assert rig.daemon.running(), (
            "the daemon left the bus with %d claimers (exit status %s):\n%s"
            % (600, rig.daemon.proc.returncode, rig.daemon.log()[-1500:]))
        rig.wait_for_property("Active", True, CHANGE * SLOWDOWN)
        rig.accel.set_pose("landscape-right")
        rig.wait_for_property("DeviceOrientation", "landscape-right", CHANGE * SLOWDOWN)
        check_delivery(workers, ["landscape-right"])
        for worker in workers:
            worker.request("close")
        rig.wait_for_property("Active", False, DRAIN * SLOWDOWN)
    finally:
        for worker in workers:
            worker.quit()


# ---------------------------------------------------------------------------
# the same kind of workload under valgrind (`make valgrind`)


VALGRIND_ARGS = ["valgrind", "--tool=memcheck", "--leak-check=full", "--show-leak-kinds=definite",
                 "--errors-for-leak-kinds=definite", "--error-exitcode=99", "--num-callers=30"]


def parse_valgrind(text):
    """(definitely lost bytes, error count) from a memcheck log."""
    lost = re.findall(r"definitely lost: ([\d,]+) bytes", text)
    errors = re.findall(r"ERROR SUMMARY: ([\d,]+) errors", text)
    as_int = lambda s: int(s.replace(",", ""))  # noqa: E731
    return (as_int(lost[-1]) if lost else 0), (as_int(errors[-1]) if errors else None)


@pytest.mark.skipif(not os.environ.get("MO_VALGRIND"), reason="set MO_VALGRIND=1 (make valgrind)")
@pytest.mark.timeout(900)
def test_valgrind_claim_workload(make_rig):
    """The daemon under memcheck through rounds of claims (hundreds of clients, some
    killed), signals, ReadOrientation() with and without claims, SetLowEnergyMode(), a
    reload and a thermal zone; then SIGTERM. No memory error, nothing definitely lost.
    MO_VALGRIND_LOG names the log (default: a file next to the rig); MO_VALGRIND_SUPP adds
    a suppressions file; MO_LOAD_* size the rounds as for the load test."""
    log = Path(os.environ.get("MO_VALGRIND_LOG") or "/tmp/motion-orientationd-valgrind.log")
    workers = int(os.environ.get("MO_LOAD_WORKERS", "2"))
    clients = int(os.environ.get("MO_LOAD_CLIENTS", "50"))
    rounds = int(os.environ.get("MO_LOAD_ROUNDS", "3"))
    slow = max(SLOWDOWN, 10.0)
    rig = make_rig(start_daemon=False, verbose=True,
                   config_text="[Sampling]\nMotionLingerMsec=0\nThermalIntervalMsec=200\n")
    rig.add_thermal_zone("x86_pkg_temp", 50, [(90, "passive")])
    argv = VALGRIND_ARGS + ["--log-file=%s" % log]
    if os.environ.get("MO_VALGRIND_SUPP"):
        argv.append("--suppressions=%s" % os.environ["MO_VALGRIND_SUPP"])
    rig.daemon.argv = argv + rig.daemon.argv
    rig.daemon.start(timeout=60)

    assert rig.read_orientation(timeout=30) == ("portrait", "portrait")  # no claim
    for round_number in range(rounds):
        group = [Worker(rig.bus, "v%d-%d" % (round_number, n)) for n in range(workers)]
        try:
            for worker in group:
                worker.send("connect %d" % clients)
            for worker in group:
                assert not worker.answer(120)["errors"]
            for worker in group:
                worker.send("start")
            for worker in group:
                assert not worker.answer(120)["errors"]
            rig.wait_for_property("Active", True, 10 * slow)
            pose = TOUR[round_number % len(TOUR)]
            rig.accel.set_pose(pose)
            rig.wait_for_property("DeviceOrientation", pose, 10 * slow)
            rig.call("SetLowEnergyMode", "s", ["on", "auto"][round_number % 2], timeout=30)
            assert rig.read_orientation(timeout=30)[0] == pose
            group[0].kill()  # the rest leave politely
            for worker in group[1:]:
                worker.request("stop %d" % (clients // 2), timeout=120)
                worker.request("close", timeout=120)
            rig.wait_for_property("Active", False, 10 * slow)
        finally:
            for worker in group:
                worker.quit()
        rig.reload()
        time.sleep(0.5)
    assert rig.daemon.running()

    code, seconds = rig.daemon.stop(signal.SIGTERM, timeout=120)
    text = log.read_text(errors="replace")
    lost, errors = parse_valgrind(text)
    print("\nvalgrind: exit %s after %.1f s; definitely lost %d bytes; %s errors; log %s"
          % (code, seconds, lost, errors, log))
    print("\n".join(line for line in text.splitlines() if re.search(
        r"(definitely|indirectly|possibly) lost:|still reachable:|ERROR SUMMARY", line)))
    assert errors is not None, "no valgrind summary (killed before the end?):\n%s" % text[-2000:]
    assert lost == 0, "definitely lost %d bytes:\n%s" % (lost, text[-6000:])
    assert errors == 0 and code == 0, "memcheck errors (exit %s):\n%s" % (code, text[-6000:])
