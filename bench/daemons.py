"""The two daemons measured side by side, behind one interface: start, stop, claim,
release, the orientation now and its changes seen by the bus monitor."""

import json
import subprocess

import rig

ISP_BINARY = "/usr/sbin/iio-sensor-proxy"
ISP_NAME = "net.hadess.SensorProxy"
ISP_PATH = "/net/hadess/SensorProxy"
MONITOR_SENSOR = "/usr/bin/monitor-sensor"
# Our device orientation -> iio-sensor-proxy's AccelerometerOrientation
# (docs/migrating-from-iio-sensor-proxy.md, Names).
ISP_NAMES = {"portrait": "normal", "portrait-upside-down": "bottom-up",
             "landscape-left": "right-up", "landscape-right": "left-up"}


class Ours:
    label = "motion-orientationd"
    bus_name = rig.BUS_NAME

    def __init__(self, r):
        self.rig = r
        self.daemon = r.daemon
        self.claim = None

    @property
    def pid(self):
        return self.daemon.pid

    def start(self):
        self.daemon.start()

    def stop(self):
        self.release()
        self.daemon.stop()

    def claim_sensor(self):
        self.claim = self.rig.bus_client(start=True)

    def release(self):
        if self.claim is not None:
            self.claim.close()
            self.claim = None

    def orientation(self):
        return self.rig.get_property("DeviceOrientation")

    def changes(self, monitor, since):
        """Device orientation changes on the bus from `since` on: [(timestamp s, name)]."""
        with monitor._cond:
            messages = monitor.messages[since:]
        return [(m["timestamp-realtime"] / 1e6, m["payload"]["data"][0]) for m in messages
                if m.get("type") == "signal" and m.get("path") == rig.OBJECT_PATH
                and m.get("member") == "DeviceOrientationChanged"]

    def name_for(self, device):
        return device


class SensorProxy:
    """iio-sensor-proxy under the same preload and bus; claimed by monitor-sensor."""
    label = "iio-sensor-proxy"
    bus_name = ISP_NAME

    def __init__(self, r):
        self.rig = r
        self.env = r.bus.env()
        self.env["LD_PRELOAD"] = "libumockdev-preload.so.0"
        self.env["UMOCKDEV_DIR"] = str(r.umockdev_dir)
        self.log_path = r.tmp / "iio-sensor-proxy.log"
        self.proc = None
        self.claim = None

    @property
    def pid(self):
        return self.proc.pid

    def start(self, timeout=5.0):
        with open(self.log_path, "ab") as out:
            self.proc = rig.spawn([ISP_BINARY], env=self.env, stdout=out, stderr=out)
        rig.wait_until(lambda: self.proc.poll() is not None or self.rig.bus.name_has_owner(ISP_NAME),
                       timeout, what="iio-sensor-proxy on the bus")
        if self.proc.poll() is not None:
            raise rig.RigError("iio-sensor-proxy exited with %s:\n%s"
                               % (self.proc.returncode, self.log_path.read_text(errors="replace")))

    def stop(self):
        self.release()
        if self.proc is not None:
            rig.kill_process(self.proc)
            self.proc = None
        rig.wait_until(lambda: not self.rig.bus.name_has_owner(ISP_NAME), 5,
                       what="iio-sensor-proxy off the bus")

    def claim_sensor(self):
        self.claim = rig.spawn([MONITOR_SENSOR], env=self.rig.bus.env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def release(self):
        if self.claim is not None:
            rig.kill_process(self.claim)
            self.claim = None

    def orientation(self):
        result = self.rig.busctl("get-property", ISP_NAME, ISP_PATH, ISP_NAME,
                                 "AccelerometerOrientation")
        return json.loads(result.stdout)["data"]

    def changes(self, monitor, since):
        with monitor._cond:
            messages = monitor.messages[since:]
        out = []
        for m in messages:
            if (m.get("type") == "signal" and m.get("path") == ISP_PATH
                    and m.get("member") == "PropertiesChanged"):
                changed = m["payload"]["data"][1]
                if "AccelerometerOrientation" in changed:
                    out.append((m["timestamp-realtime"] / 1e6,
                                changed["AccelerometerOrientation"]["data"]))
        return out

    def name_for(self, device):
        return ISP_NAMES.get(device)
