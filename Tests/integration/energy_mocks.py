"""python-dbusmock services for the energy tests (test_energy.py), on a Rig's private bus.

Debian's python3-dbusmock ships templates for logind, UPower and power-profiles-daemon;
the last serves only the old name net.hadess.PowerProfiles. The current name,
org.freedesktop.UPower.PowerProfiles (power-profiles-daemon >= 0.20), is served by a
small template written next to the rig that reuses the stock one.
"""

PPD_HADESS = "net.hadess.PowerProfiles"
PPD_UPOWER = "org.freedesktop.UPower.PowerProfiles"
PPD_NAMES = (PPD_UPOWER, PPD_HADESS)

UPOWER_PPD_TEMPLATE = '''"""power-profiles-daemon under its current name (the stock template)."""
from dbusmock.templates import power_profiles_daemon as _stock

BUS_NAME = "org.freedesktop.UPower.PowerProfiles"
MAIN_OBJ = "/org/freedesktop/UPower/PowerProfiles"
MAIN_IFACE = "org.freedesktop.UPower.PowerProfiles"
SYSTEM_BUS = True


def load(mock, parameters):
    _stock.MAIN_IFACE = MAIN_IFACE  # the stock functions use their module's name
    _stock.load(mock, parameters)
'''


def start_power_profiles(rig, name=PPD_HADESS, profile="balanced"):
    """power-profiles-daemon under `name` with ActiveProfile `profile`."""
    if name == PPD_HADESS:
        template = "power_profiles_daemon"
    elif name == PPD_UPOWER:
        path = rig.tmp / "upower_power_profiles.py"
        if not path.exists():
            path.write_text(UPOWER_PPD_TEMPLATE)
        template = str(path)
    else:
        raise ValueError("no power-profiles-daemon template for %r" % name)
    mock = rig.start_mock(template, {"ActiveProfile": profile})
    assert mock.name == name
    return mock


def set_profile(mock, profile):
    """Change ActiveProfile the way power-profiles-daemon does (PropertiesChanged)."""
    mock.update_properties({"ActiveProfile": ("s", profile)})


def start_logind(rig, lid_closed=None):
    """logind; with lid_closed a bool, the Manager also has LidClosed (the stock template
    lacks it, as logind on a machine without a lid switch would not)."""
    mock = rig.start_mock("logind")
    if lid_closed is not None:
        mock.add_property("LidClosed", "b", lid_closed)
    return mock


def set_logind_lid(mock, closed):
    mock.update_properties({"LidClosed": ("b", closed)})


def prepare_for_sleep(mock, sleeping):
    mock.emit_signal("PrepareForSleep", [("b", sleeping)])


def start_upower(rig, lid_closed=False):
    """UPower with a lid (LidIsPresent, LidIsClosed)."""
    return rig.start_mock("upower", {"LidIsPresent": True, "LidIsClosed": lid_closed})


def set_upower_lid(mock, closed):
    mock.update_properties({"LidIsClosed": ("b", closed)})
