#!/usr/bin/python3
"""make demo: motion-orientationd end to end with no hardware.

A fake accelerometer (umockdev), a private system bus, the real daemon, the real
client in `monitor` mode (its output printed live), and a scripted motion replayed
into the fake sysfs channel files. Ends by itself within 30 s, leaves no process
behind (also on Ctrl-C); exit status 0 only if the client saw every expected change.

    /usr/bin/python3 Tests/integration/demo.py [--hold SECONDS] [--daemon-log]
"""

import argparse
import math
import signal
import sys
import threading
import time

import rig as rigmod
from rig import G, Rig, RigError, WrongBuild

FRAME_HZ = 25
TURN_SECONDS = 0.5
DEADLINE_SECONDS = 28.0


def upright(degrees):
    """Gravity with the device upright, turned `degrees` clockwise from portrait."""
    a = math.radians(degrees)
    return (G * math.sin(a), -G * math.cos(a), 0.0)


def tilt_to_face_up(start, degrees):
    """From an upright pose `start` (degrees), laid back by `degrees` towards face up."""
    x, y, _ = upright(start)
    a = math.radians(degrees)
    return (x * math.cos(a), y * math.cos(a), -G * math.sin(a))


# (narration, motion from t=0 to t=1, expected client lines)
STEPS = [
    ("holding the tablet upright (portrait)",
     lambda t: upright(0), ["device portrait", "interface portrait"]),
    ("turning a quarter clockwise (landscape-right)",
     lambda t: upright(90 * t), ["device landscape-right", "interface landscape-left"]),
    ("turning back upright (portrait)",
     lambda t: upright(90 * (1 - t)), ["device portrait", "interface portrait"]),
    ("turning a quarter counter-clockwise (landscape-left)",
     lambda t: upright(-90 * t), ["device landscape-left", "interface landscape-right"]),
    ("turning another quarter counter-clockwise (upside down)",
     lambda t: upright(-90 - 90 * t),
     ["device portrait-upside-down", "interface portrait-upside-down"]),
    ("laying it on the table, screen up (face-up; the interface stays)",
     lambda t: tilt_to_face_up(180, 90 * t), ["device face-up"]),
    ("picking it up again (portrait)",
     lambda t: tilt_to_face_up(0, 90 * (1 - t)), ["device portrait", "interface portrait"]),
]


def say(text):
    print(text, flush=True)


class Terminate(Exception):
    pass


def main():
    parser = argparse.ArgumentParser(description="motion-orientationd demo")
    parser.add_argument("--hold", type=float, default=2.0, help="seconds to hold each pose")
    parser.add_argument("--daemon-log", action="store_true", help="also print the daemon's log")
    args = parser.parse_args()

    def on_term(_signum, _frame):
        raise Terminate()
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)

    started = time.monotonic()
    lines = []  # (time, line) the client printed
    lock = threading.Lock()

    def echo(line):
        with lock:
            lines.append((time.monotonic(), line))
        say("client | %s" % line)

    rig = None
    missing = []
    unexpected = []
    try:
        say("demo: fake accelerometer (umockdev), private system bus, motion-orientationd")
        rig = Rig(gravity=upright(0), verbose=args.daemon_log)
        say("demo: daemon on the bus after %.0f ms: %s"
            % (rig.daemon.startup_seconds * 1000, rig.daemon.binary))
        say("demo: starting `motion-orientation monitor`")
        client = rig.start_client("monitor", echo=echo)

        expected_total = 0
        for number, (narration, motion, expected) in enumerate(STEPS):
            say("demo: %s" % narration)
            step_started = time.monotonic()
            # The first step is the starting pose: anything the client printed counts.
            since = 0.0 if number == 0 else step_started
            if number > 0:
                frames = max(1, int(TURN_SECONDS * FRAME_HZ))
                for frame in range(1, frames + 1):
                    rig.accel.set_gravity(*motion(frame / frames))
                    time.sleep(1.0 / FRAME_HZ)
            rig.accel.set_gravity(*motion(1.0))
            expected_total += len(expected)

            def seen_all():
                with lock:
                    got = [line for t, line in lines if t >= since]
                return all(e in got for e in expected)

            hold_until = step_started + TURN_SECONDS + args.hold
            # Hold the pose; give a late change a little extra, within the deadline.
            while time.monotonic() < hold_until:
                time.sleep(0.05)
            grace = min(hold_until + 2.0, started + DEADLINE_SECONDS)
            while not seen_all() and time.monotonic() < grace:
                time.sleep(0.05)
            with lock:
                got = [line for t, line in lines if t >= since]
            for line in expected:
                if line not in got:
                    missing.append("%s: %s" % (narration, line))
                    say("demo: MISSING %r after %s" % (line, narration))
            for line in got:
                if line not in expected and number > 0:
                    unexpected.append(line)
            if time.monotonic() - started > DEADLINE_SECONDS:
                missing.append("deadline of %.0f s passed" % DEADLINE_SECONDS)
                break

        code, seconds = rig.daemon.stop()
        if code != 0:
            missing.append("daemon exit status %r on SIGTERM" % code)
        rigmod.kill_process(client.proc, signal.SIGTERM)
        client.reader.join(1.0)
        if args.daemon_log or code != 0:
            for line in rig.daemon.log_lines():
                say("daemon | %s" % line)
    except (KeyboardInterrupt, Terminate):
        say("demo: interrupted, cleaning up")
        return 130
    except (RigError, WrongBuild) as err:  # WrongBuild: not the daemon `make build` makes
        say("demo: %s" % err)
        return 1
    finally:
        if rig is not None:
            rig.close()
        rigmod.kill_all_children()

    elapsed = time.monotonic() - started
    if unexpected:
        say("demo: note: %d extra change(s) on the way: %s" % (len(unexpected),
                                                               ", ".join(unexpected)))
    if missing:
        say("demo: FAILED after %.1f s, %d of %d expected changes missing"
            % (elapsed, len(missing), expected_total))
        return 1
    say("demo: all %d expected changes seen in %.1f s; daemon stopped cleanly"
        % (expected_total, elapsed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
