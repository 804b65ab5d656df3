"""udev events into the testbed, sent from outside the preload: the libudev wire format
of umockdev's uevent sender, to the monitor sockets of the preloaded processes."""

import os
import socket
from pathlib import Path


def _murmur_hash2(text):
    """systemd's (and umockdev's) string_hash32: MurmurHash2 with the length as seed."""
    data = text.encode()
    m, mask = 0x5BD1E995, 0xFFFFFFFF
    h = len(data)
    whole = len(data) - len(data) % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * m) & mask
        k ^= k >> 24
        k = (k * m) & mask
        h = ((h * m) & mask) ^ k
    rest = data[whole:]
    if rest:
        for i in reversed(range(len(rest))):
            h ^= rest[i] << (8 * i)
        h = (h * m) & mask
    h ^= h >> 13
    h = (h * m) & mask
    h ^= h >> 15
    return h


_uevent_seqnum = [0]


def read_uevent(root, syspath):
    """The properties in a testbed device's uevent file ({} when it is gone)."""
    uevent = {}
    try:
        for line in (Path(root) / syspath.lstrip("/") / "uevent").read_text().splitlines():
            key, _, value = line.partition("=")
            uevent[key] = value
    except OSError:
        pass
    return uevent


def send_uevent(root, syspath, action="change", subsystem=None, uevent=None):
    """What umockdev's uevent_sender does, done from outside the preload: a libudev
    monitor message to every monitor socket ($UMOCKDEV_DIR/event<N>) of preloaded
    processes. syspath is the device's path under the preload (/sys/devices/...).
    For a device already removed from the testbed, give its subsystem, and its
    properties as read_uevent read them before (udev's remove events carry them)."""
    root = Path(root)
    directory = root / syspath.lstrip("/")
    if subsystem is None:
        subsystem = os.path.basename(os.readlink(directory / "subsystem"))
    if uevent is None:
        uevent = read_uevent(root, syspath)
    _uevent_seqnum[0] += 1
    properties = [("ACTION", action), ("DEVPATH", syspath[len("/sys"):]),
                  ("SUBSYSTEM", subsystem), ("SEQNUM", str(_uevent_seqnum[0]))]
    if uevent.get("DEVNAME"):
        properties.append(("DEVNAME", "/dev/" + uevent["DEVNAME"]))
    devtype = uevent.get("DEVTYPE")
    if devtype:
        properties.append(("DEVTYPE", devtype))
    # The device's other properties, as udev sends them (ID_INPUT_ACCELEROMETER, ...).
    named = {key for key, _ in properties}
    properties += [(key, value) for key, value in uevent.items() if key and key not in named]
    body = b"".join(("%s=%s" % kv).encode() + b"\0" for kv in properties)
    header_size = 40
    header = b"libudev\0" + (0xFEEDCAFE).to_bytes(4, "big") + b"".join(
        v.to_bytes(4, "little") for v in (header_size, header_size, len(body))) + b"".join(
        v.to_bytes(4, "big") for v in (_murmur_hash2(subsystem),
                                       _murmur_hash2(devtype) if devtype else 0, 0, 0))
    assert len(header) == header_size
    sent = 0
    for path in sorted(root.glob("event[0-9]*")):
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect(str(path))
                sock.sendmsg([header, body])
                sent += 1
            except ConnectionRefusedError:
                pass  # that monitor is gone
    return sent
