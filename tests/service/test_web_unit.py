"""The web view's unit: off unless asked for, hardened on its own, read-only, localhost by default.

The referee's own unit keeps no network listener (its exposure stays at most
2.5: tests/service/test_service_files.py); the web view is a unit of its own.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.errors import UserError
from cogtable.service import install

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
OPT_EXEC = "/opt/cogtable/bin/cogtable"
WEB_EXPOSURE_GOAL = 2.0
"""The web unit's exposure as systemd-analyze scores it (measured 1.3 local, 1.4 with --listen)."""


@pytest.fixture
def opt_install(monkeypatch: pytest.MonkeyPatch) -> str:
    """The installer sees cogtable installed in /opt, as the README's Pi steps do."""
    monkeypatch.setattr(install, "installed_executable", lambda: OPT_EXEC)
    return OPT_EXEC


def web_unit(tmp_path: Path, listen: str) -> Path:
    """The web unit as installed, pointing at a cogtable that exists on this machine."""
    unit = tmp_path / install.WEB_SERVICE
    unit.write_text(install.render_web_unit(install.installed_executable(), listen), "utf-8")
    return unit


def exposure(unit: Path) -> float:
    assert shutil.which("systemd-analyze"), "systemd-analyze is needed (Debian package systemd)"
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit)],
        capture_output=True,
        text=True,
        check=False,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert match, done.stdout[-500:] + done.stderr
    return float(match.group(1))


@pytest.mark.parametrize("listen", ["127.0.0.1", "0.0.0.0"])
def test_the_web_unit_verifies_and_is_hardened(tmp_path: Path, listen: str) -> None:
    unit = web_unit(tmp_path, listen)
    done = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "Unknown key" not in done.stderr, done.stderr
    assert exposure(unit) <= WEB_EXPOSURE_GOAL


def test_the_web_unit_reads_only_and_listens_on_localhost() -> None:
    lines = (SYSTEMD / install.WEB_SERVICE).read_text(encoding="utf-8").splitlines()
    for line in (
        "DynamicUser=yes",
        "SupplementaryGroups=cogtable",
        "ReadOnlyPaths=/var/lib/cogtable",
        "ProtectSystem=strict",
        "IPAddressDeny=any",
        "IPAddressAllow=localhost",
        "NoNewPrivileges=yes",
        "CapabilityBoundingSet=",
    ):
        assert line in lines, line
    start = next(line for line in lines if line.startswith("ExecStart="))
    assert f"{OPT_EXEC} web --listen 127.0.0.1 " in start
    for writable in ("ReadWritePaths=", "StateDirectory=", "LogsDirectory=", "CacheDirectory="):
        assert not any(line.startswith(writable) for line in lines), writable


def test_the_referee_unit_keeps_no_network() -> None:
    lines = (SYSTEMD / install.SERVICE).read_text(encoding="utf-8").splitlines()
    assert "RestrictAddressFamilies=AF_UNIX" in lines
    assert "PrivateNetwork=yes" in lines and "IPAddressDeny=any" in lines
    assert not any(line.startswith("ExecStart=") and " web" in line for line in lines)


def test_listen_elsewhere_opens_the_filter_only_then(tmp_path: Path) -> None:
    local = install.render_web_unit(OPT_EXEC, "127.0.0.1")
    wide = install.render_web_unit(OPT_EXEC, "::")
    assert "IPAddressAllow=localhost" in local and "IPAddressAllow=any" not in local
    assert "--listen :: " in wide and "IPAddressAllow=any" in wide
    assert "IPAddressAllow=localhost" in install.render_web_unit(OPT_EXEC, "::1")


def test_install_without_web_leaves_the_web_view_off(tmp_path: Path, opt_install: str) -> None:
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    assert not (tmp_path / "etc/systemd/system" / install.WEB_SERVICE).exists()


def test_install_with_web_writes_and_enables_it_then_uninstall_removes_it(
    tmp_path: Path, opt_install: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["service", "install", "--web", "--listen", "0.0.0.0", "--root", str(tmp_path)]) == 0
    )
    unit = tmp_path / "etc/systemd/system" / install.WEB_SERVICE
    assert f"ExecStart={opt_install} web --listen 0.0.0.0 " in unit.read_text()
    wants = tmp_path / "etc/systemd/system/multi-user.target.wants" / install.WEB_SERVICE
    assert wants.is_symlink()
    capsys.readouterr()
    assert (
        main(["service", "install", "--web", "--listen", "0.0.0.0", "--root", str(tmp_path)]) == 0
    )
    assert capsys.readouterr().out.count("[done]") == 6  # the five of the referee, and the web unit
    assert main(["service", "uninstall", "--root", str(tmp_path)]) == 0
    assert not unit.exists() and not wants.exists()


@pytest.mark.parametrize(
    ("argv", "expect"),
    [
        (["--web", "--listen", "pi.local"], "not an IP address"),
        (["--listen", "0.0.0.0"], "give it with --web"),
    ],
)
def test_a_bad_web_option_is_one_line_and_writes_nothing(
    tmp_path: Path,
    opt_install: str,
    argv: list[str],
    expect: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["service", "install", *argv, "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert expect in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_web_without_the_web_extra_is_refused_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = install.importlib.util.find_spec
    monkeypatch.setattr(
        install.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "uvicorn" else real(name, *a),
    )
    with pytest.raises(UserError, match=r"uvicorn missing .*cogtable\[web\]"):
        install.install_plan(tmp_path, OPT_EXEC, web="127.0.0.1")
    assert list(tmp_path.iterdir()) == []
