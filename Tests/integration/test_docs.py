"""The documentation stays true: the man pages render without warnings and describe every
configuration key, bus member and client command; the introspection XML is the daemon's
interface; the docs pages cover the API; `make install` puts the pages and the XML in place."""

import os
import re
import signal
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rig import BUS_NAME, INTERFACE, OBJECT_PATH, REPO_ROOT, default_daemon

MAN = REPO_ROOT / "docs/man"


MAN_PAGES = {"motion-orientationd.8": 8, "motion-orientationd.conf.5": 5,
             "motion-orientation.1": 1}


@pytest.mark.parametrize("page", sorted(MAN_PAGES))
def test_man_page_renders_without_warnings(page):
    path = MAN / page
    result = subprocess.run(["groff", "-t", "-ww", "-man", "-z", str(path)],
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr
    text = path.read_text().replace("\\-", "-")
    title = page.rsplit(".", 1)[0].upper()
    assert re.search(r'^\.TH "?%s"? %d ' % (re.escape(title), MAN_PAGES[page]), text, re.M), \
        "bad .TH line"
    rendered = subprocess.run(["man", "--warnings", "-l", "-P", "cat", str(path)],
                              capture_output=True, text=True, timeout=20,
                              env={**os.environ, "MANWIDTH": "80"})
    assert rendered.returncode == 0
    assert rendered.stderr == "", rendered.stderr


def shipped_config_keys():
    """(section, key, default) of every key in the shipped configuration."""
    keys = []
    section = None
    for line in (REPO_ROOT / "systemd/motion-orientationd.conf").read_text().splitlines():
        match = re.match(r"^\[(\w+)\]$", line)
        if match:
            section = match.group(1)
            continue
        match = re.match(r"^#(\w+)=(.*)$", line)
        if match:
            keys.append((section, match.group(1), match.group(2)))
    return keys


def man_text(page):
    """A man page as plain text (no fonts, no hyphenation, one long line per paragraph)."""
    result = subprocess.run(["groff", "-t", "-man", "-Tutf8", "-P-cbou", "-rLL=500n", "-rHY=0",
                             str(MAN / page)], capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_config_man_page_lists_every_key_with_its_default():
    keys = shipped_config_keys()
    assert len(keys) >= 20
    text = man_text("motion-orientationd.conf.5")
    sections = re.split(r"^\[(\w+)\] section", text, flags=re.M)
    by_section = dict(zip(sections[1::2], sections[2::2]))
    for section, key, default in keys:
        assert section in by_section, "no [%s] section in the man page" % section
        body = by_section[section]
        match = re.search(r"^ *%s=(.*)$" % key, body, re.M)
        assert match, "%s= is not described under [%s]" % (key, section)
        after = body[match.end():match.end() + 1500]
        shown = default if default else "empty"
        assert re.search(r"Default: %s\b" % re.escape(shown), after), (
            "%s=: the default %r is not given" % (key, shown))


def test_man_pages_describe_the_bus_api_and_client_commands():
    daemon = man_text("motion-orientationd.8")
    for member in interface_members(ET.parse(REPO_ROOT / "docs/io.github.MotionOrientation1.xml")):
        assert member in daemon, member
    client = man_text("motion-orientation.1")
    for command in ("get", "status", "monitor", "exec", "wait", "replay", "record"):
        assert re.search(r"^ *%s\b" % command, client, re.M), command
    for name in ("MOTION_ORIENTATION", "MOTION_ORIENTATION_VALUE", "MOTION_ORIENTATION_STREAM",
                 "MOTION_ORIENTATION_DEVICE", "MOTION_ORIENTATION_DEVICE_VALUE",
                 "MOTION_ORIENTATION_INTERFACE", "MOTION_ORIENTATION_INTERFACE_VALUE"):
        assert name in client, name
    # The compatibility interface is documented exactly when the daemon has it.
    sensor_proxy = subprocess.run(["grep", "-rqs", "net.hadess.SensorProxy",
                                   str(REPO_ROOT / "Sources")]).returncode == 0
    assert ("net.hadess.SensorProxy" in daemon) == sensor_proxy
    assert ("SensorProxy=" in man_text("motion-orientationd.conf.5")) == sensor_proxy


def interface_members(tree):
    interface = tree.getroot().find("interface[@name='%s']" % INTERFACE)
    assert interface is not None
    return [element.get("name") for element in interface]


def normalized_interface(xml_text):
    """Our interface from introspection XML, as comparable data (comments dropped)."""
    root = ET.fromstring(xml_text.split("?>", 1)[-1] if xml_text.startswith("<?xml")
                         else re.sub(r"<!DOCTYPE[^>]*>", "", xml_text))
    interface = root.find("interface[@name='%s']" % INTERFACE)
    assert interface is not None, "no %s interface" % INTERFACE

    def element(e):
        return (e.tag, tuple(sorted(e.attrib.items())),
                tuple(element(c) for c in e if isinstance(c.tag, str)))
    return element(interface)


@pytest.mark.daemon
def test_introspection_xml_matches_the_daemon(rig):
    live = rig.busctl("introspect", "--xml-interface", BUS_NAME, OBJECT_PATH,
                      json_output=False).stdout
    shipped = (REPO_ROOT / "docs/io.github.MotionOrientation1.xml").read_text()
    assert normalized_interface(shipped) == normalized_interface(live)
    # Only our interface is shipped (the standard ones are everyone's).
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", shipped))
    assert [i.get("name") for i in root.findall("interface")] == [INTERFACE]


def test_docs_pages_cover_the_api():
    api = (REPO_ROOT / "docs/dbus-api.md").read_text()
    for member in interface_members(ET.parse(REPO_ROOT / "docs/io.github.MotionOrientation1.xml")):
        assert "`%s" % member in api, member
    assert "busctl" in api and "gdbus" in api
    axes = (REPO_ROOT / "docs/axes.md").read_text()
    for text in ("ACCEL_MOUNT_MATRIX", "60-sensor", "motion-orientation record", "systemd-hwdb"):
        assert text in axes, text
    migrating = (REPO_ROOT / "docs/migrating-from-iio-sensor-proxy.md").read_text()
    for text in ("net.hadess.SensorProxy", "monitor-sensor", "left-up", "right-up"):
        assert text in migrating, text


def test_install_puts_man_pages_and_interface_xml(tmp_path):
    root = tmp_path / "root"
    release = str(Path(default_daemon()).resolve().parent)
    common = ["make", "-C", str(REPO_ROOT), "--no-print-directory", "-o", "build",
              "DESTDIR=%s" % root, "PREFIX=/opt/mo", "RELEASE=%s" % release]
    result = subprocess.run(common + ["install"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    for page, section in MAN_PAGES.items():
        installed = root / ("opt/mo/share/man/man%d" % section) / page
        assert installed.read_text() == (MAN / page).read_text()
    xml = root / "opt/mo/share/dbus-1/interfaces/io.github.MotionOrientation1.xml"
    assert xml.read_text() == (REPO_ROOT / "docs/io.github.MotionOrientation1.xml").read_text()
    removed = subprocess.run(common + ["uninstall"], capture_output=True, text=True, timeout=60)
    assert removed.returncode == 0, removed.stderr
    left = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert left == ["etc/motion-orientationd.conf"], left


# ---------------------------------------------------------------------------
# docs/tablet-mode.md: the facts it must give, and every command in it run as written


def test_tablet_mode_page_covers_the_machines_the_desktops_and_uinput():
    page = (REPO_ROOT / "docs/tablet-mode.md").read_text()
    for text in ("drivers/platform/x86/dual_accel_detect.h", "60-sensor.hwdb", "SW_TABLET_MODE",
                 "ACCEL_LOCATION", "accel-base", "libinput", "GNOME", "KDE",
                 "SensorProxy=yes", "motion-orientation status", "ACCEL_MOUNT_MATRIX",
                 "t,x,y,z,base_x,base_y,base_z", "/dev/uinput", "DeviceAllow=/dev/uinput w",
                 "create a keyboard or a mouse", "EnterAngle=", "ExitAngle=", "Source=",
                 "VirtualSwitch=", "LockInLaptopMode=", "HingeIntervalMsec="):
        assert text in page, text
    for state in ("closed", "concave", "flat", "convex", "full", "unknown"):
        assert "| `%s` |" % state in page, state
    for page_name in ("README.md", "docs/man/motion-orientationd.8"):
        assert "tablet-mode.md" in (REPO_ROOT / page_name).read_text().replace("\\-", "-"), page_name


def test_client_man_page_describes_tablet_mode():
    client = man_text("motion-orientation.1")
    for text in ("--tablet-mode", "wait tablet|laptop", "tablet-mode tablet", "hinge-state",
                 "MOTION_ORIENTATION_TABLET_MODE", "MOTION_ORIENTATION_TABLET_MODE_SOURCE",
                 "MOTION_ORIENTATION_HINGE_STATE", "MOTION_ORIENTATION_HINGE_ANGLE",
                 "t,x,y,z,base_x,base_y,base_z", "HingeAngle"):
        assert text in client, text


def sh_blocks(path):
    """The ```sh blocks of a Markdown page, as written."""
    return re.findall(r"^```sh\n(.*?)^```$", path.read_text(), re.M | re.S)


def fold(rig, angles):
    from rig.tablet import set_rig_hinge
    for theta in angles:
        set_rig_hinge(rig, theta)
        time.sleep(0.4)


@pytest.mark.daemon
@pytest.mark.client
@pytest.mark.timeout(120)
def test_tablet_mode_page_commands_work_as_written(make_rig, tmp_path):
    """Each block runs in a shell (sudo dropped: the rig is root already) on a convertible
    open like a laptop (hinge at 90 degrees, base flat on a table). A block that is still
    running after 3 s gets the device folded into a tablet; it must then end with status 0,
    or, for the commands that run until killed (monitor, exec), have printed tablet mode."""
    from rig import default_client
    from rig.tablet import tablet_rig
    blocks = sh_blocks(REPO_ROOT / "docs/tablet-mode.md")
    assert len(blocks) >= 5
    rig = tablet_rig(make_rig, theta=90)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "motion-orientation").symlink_to(Path(default_client()).resolve())
    for block in blocks:
        if rig.get_property("HingeState") != "concave":  # opened back slowly, as a hand does
            fold(rig, [330, 290, 250, 210, 170, 130, 90])
        rig.wait_for_property("HingeState", "concave", 10.0)
        script = re.sub(r"^sudo ", "", block, flags=re.M)
        env = dict(rig.daemon.env if "record" in script else rig.client_env())
        env["PATH"] = "%s:/usr/bin:/bin" % bin_dir
        with open(tmp_path / "out", "wb") as out, open(tmp_path / "err", "wb") as err:
            proc = subprocess.Popen(["bash", "-e", "-c", script], cwd=tmp_path, env=env,
                                    stdout=out, stderr=err, start_new_session=True)
        try:
            try:
                proc.wait(3.0)
            except subprocess.TimeoutExpired:
                fold(rig, [130, 170, 210, 250, 290, 330, 359])
                try:
                    proc.wait(8.0)
                except subprocess.TimeoutExpired:
                    assert re.search(r"^(monitor|exec)\b", block.split("motion-orientation ", 1)[1])
                    assert "tablet-mode tablet" in (tmp_path / "out").read_text(), block
                    continue
            output = (tmp_path / "out").read_text()
            assert proc.returncode == 0, (block, output, (tmp_path / "err").read_text())
            assert output.strip(), block
            if "busctl" in block or "status" in block:
                assert len(output.splitlines()) == 4, output
            if "replay" in block:
                # The first time may be printed as Swift prints a small Double (9.6e-05).
                assert re.search(r"^[\d.e+-]+,hinge,laptop,concave,", output, re.M), output
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(5)
