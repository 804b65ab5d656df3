"""The check that the tests, the demo and the bench run the shipped daemon (statically linked
Swift runtime, `make build`), not the dynamically linked one a plain `swift build -c release`
writes into the same .build/release: the ELF reader, the refusal and its message, the rig's
Daemon refusing to start such a binary, the suite, the demo and the bench stopping at once,
the script the Makefile runs after `make build`.

The dynamically linked stand-in is a small C program linked against an empty library named
libswiftCore.so, so the check is shown the ELF dynamic section a plain Swift build has."""

import os
import shutil
import subprocess

import pytest

from rig import (PYTHON, REPO_ROOT, Rig, RigError, WrongBuild, default_daemon, needed_libraries,
                 require_shipped_daemon, require_static_swift)
from rig.binaries import INTEGRATION, PACKAGE

pytestmark = pytest.mark.rig

LINKAGE_SCRIPT = PACKAGE / "linkage.py"


def compile_c(tmp_path, name, text, *flags):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler for the stand-in binaries")
    source = tmp_path / (name + ".c")
    source.write_text(text)
    output = tmp_path / name
    result = subprocess.run([cc, "-o", str(output), str(source), *flags],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise RigError("cc %s failed:\n%s" % (name, result.stderr))
    return output


@pytest.fixture(scope="module")
def dynamic_swift(tmp_path_factory):
    """An executable whose DT_NEEDED entries name libswiftCore.so, as a plain build's do."""
    directory = tmp_path_factory.mktemp("linkage")
    compile_c(directory, "libswiftCore.so", "int swift_stand_in(void) { return 0; }\n",
              "-shared", "-fPIC", "-Wl,-soname,libswiftCore.so")
    return compile_c(directory, "motion-orientationd",
                     "int swift_stand_in(void);\nint main(void) { return swift_stand_in(); }\n",
                     "-L%s" % directory, "-lswiftCore")


def test_needed_libraries_of_a_dynamically_linked_swift_binary(dynamic_swift):
    needed = needed_libraries(dynamic_swift)
    assert "libswiftCore.so" in needed
    assert any(name.startswith("libc.so") for name in needed), needed


def test_needed_libraries_agree_with_readelf(dynamic_swift):
    if shutil.which("readelf") is None:
        pytest.skip("no readelf")
    for binary in (dynamic_swift, default_daemon(), "/bin/sh"):
        if not os.path.exists(binary):
            continue
        text = subprocess.run(["readelf", "-d", str(binary)], capture_output=True,
                              text=True).stdout
        expected = [line.split("[", 1)[1].rstrip("]") for line in text.splitlines()
                    if "(NEEDED)" in line]
        assert needed_libraries(binary) == expected, binary


def test_a_dynamically_linked_daemon_is_refused_with_the_way_out(dynamic_swift):
    with pytest.raises(WrongBuild) as refused:
        require_static_swift(dynamic_swift)
    message = str(refused.value)
    assert str(dynamic_swift) in message
    assert "libswiftCore.so" in message
    assert "make build" in message and "--static-swift-stdlib" in message


def test_the_rig_will_not_start_a_dynamically_linked_daemon(dynamic_swift, monkeypatch):
    monkeypatch.delenv("MO_SANITIZER", raising=False)
    with Rig(start_daemon=False, accelerometer=False, daemon=str(dynamic_swift)) as rig:
        with pytest.raises(WrongBuild):
            rig.daemon.start()
        assert rig.daemon.proc is None, "the refused binary was run"


def test_a_sanitizer_build_is_let_through(dynamic_swift, monkeypatch):
    monkeypatch.setenv("MO_SANITIZER", "address")
    require_shipped_daemon(dynamic_swift)


def test_a_static_executable_needs_nothing(tmp_path):
    try:
        binary = compile_c(tmp_path, "static", "int main(void) { return 0; }\n", "-static")
    except RigError as err:
        pytest.skip("no static libc to link with: %s" % err)
    assert needed_libraries(binary) == []
    require_static_swift(binary)


def test_what_is_not_elf_is_refused(tmp_path):
    script = tmp_path / "motion-orientationd"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    with pytest.raises(WrongBuild, match="ELF"):
        require_static_swift(script)
    with pytest.raises(WrongBuild, match="make build"):
        require_static_swift(tmp_path / "missing")


@pytest.mark.skipif(bool(os.environ.get("MO_SANITIZER")),
                    reason="a sanitizer build links the Swift runtime dynamically")
def test_the_daemon_under_test_is_the_shipped_build():
    daemon = default_daemon()
    if not os.path.exists(daemon):
        pytest.skip("%s is not built" % daemon)
    require_shipped_daemon(daemon)
    assert not [n for n in needed_libraries(daemon) if n.startswith("libswift")]


def test_the_makefile_check_fails_on_the_wrong_build(dynamic_swift):
    refused = subprocess.run([PYTHON, str(LINKAGE_SCRIPT), str(dynamic_swift)],
                             capture_output=True, text=True, timeout=20)
    assert refused.returncode == 1
    assert "libswiftCore.so" in refused.stderr and "make build" in refused.stderr
    accepted = subprocess.run([PYTHON, str(LINKAGE_SCRIPT), "/bin/sh"],
                              capture_output=True, text=True, timeout=20)
    assert accepted.returncode == 0, accepted.stderr
    usage = subprocess.run([PYTHON, str(LINKAGE_SCRIPT)], capture_output=True, text=True,
                           timeout=20)
    assert usage.returncode == 2


def refusing_run(argv, dynamic_swift, **kwargs):
    env = dict(os.environ, MO_DAEMON=str(dynamic_swift))
    env.pop("MO_SANITIZER", None)
    return subprocess.run([str(a) for a in argv], env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, **kwargs)


def test_the_suite_stops_at_once_on_the_wrong_build(dynamic_swift):
    result = refusing_run([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(INTEGRATION / "test_orientation.py")], dynamic_swift,
                          cwd=INTEGRATION)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "not the shipped build" in output and "make build" in output, output
    assert " passed" not in output and " failed" not in output, output


def test_the_demo_refuses_the_wrong_build(dynamic_swift):
    result = refusing_run([PYTHON, str(INTEGRATION / "demo.py")], dynamic_swift)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "libswiftCore.so" in result.stdout and "make build" in result.stdout, result.stdout
    assert "client |" not in result.stdout


def test_the_bench_refuses_the_wrong_build(dynamic_swift):
    env = dict(os.environ, PYTHONPATH=str(INTEGRATION))
    env.pop("MO_SANITIZER", None)
    result = subprocess.run([PYTHON, "-m", "bench", "--quick", "--build-dir",
                             str(dynamic_swift.parent)], env=env, cwd=REPO_ROOT,
                            capture_output=True, text=True, timeout=60,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "bench: " in result.stderr and "libswiftCore.so" in result.stderr, result.stderr
    assert "estimator-bench" not in result.stdout, "it measured before it refused"
