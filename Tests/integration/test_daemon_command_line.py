"""The daemon's command line: --version, --help, refused arguments, a missing --config file."""

import subprocess

import pytest

from rig import default_daemon


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, timeout=20,
                          stdin=subprocess.DEVNULL, **kwargs)


def test_daemon_version_and_help():
    version = run([default_daemon(), "--version"])
    assert version.returncode == 0
    assert version.stdout.startswith("motion-orientationd ")
    helptext = run([default_daemon(), "--help"])
    assert helptext.returncode == 0
    for option in ("--config", "--verbose", "--version", "--help"):
        assert option in helptext.stdout


@pytest.mark.parametrize("argv", [["--bogus"], ["--config"], ["--config="], ["extra"]])
def test_daemon_refuses_a_bad_command_line(argv):
    result = run([default_daemon(), *argv])
    assert result.returncode == 2
    assert result.stderr.startswith("motion-orientationd: ")
    assert "Traceback" not in result.stderr and "Fatal error" not in result.stderr


def test_daemon_refuses_a_missing_config_file_it_was_given(tmp_path):
    missing = tmp_path / "nope.conf"
    result = run([default_daemon(), "--config", str(missing)],
                 env={"DBUS_SYSTEM_BUS_ADDRESS": "unix:path=%s" % (tmp_path / "no-bus")})
    assert result.returncode == 1
    assert str(missing) in result.stderr
    assert "No such file or directory" in result.stderr
