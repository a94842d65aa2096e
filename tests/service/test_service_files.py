"""The unit file, the udev rule and the installer."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.service import install

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
needs_systemd_analyze = shutil.which("systemd-analyze")
OPT_EXEC = "/opt/cogtable/bin/cogtable"
"""Where the README installs cogtable (this checkout's may sit where the service cannot see)."""


@pytest.fixture
def opt_install(monkeypatch: pytest.MonkeyPatch) -> str:
    """The installer sees cogtable installed in /opt, as the README's Pi steps do."""
    monkeypatch.setattr(install, "installed_executable", lambda: OPT_EXEC)
    return OPT_EXEC


def rendered_unit(tmp_path: Path) -> Path:
    """The unit as installed, pointing at a cogtable that exists on this machine."""
    unit = tmp_path / install.SERVICE
    unit.write_text(install.render_unit(install.installed_executable()), encoding="utf-8")
    return unit


def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    assert needs_systemd_analyze, "systemd-analyze is needed (Debian package systemd)"
    done = subprocess.run(
        ["systemd-analyze", "verify", str(rendered_unit(tmp_path))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Unknown key" not in done.stderr, done.stderr


def test_security_exposure_is_at_most_2_5(tmp_path: Path) -> None:
    assert needs_systemd_analyze, "systemd-analyze is needed (Debian package systemd)"
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(rendered_unit(tmp_path))],
        capture_output=True,
        text=True,
        check=False,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert match, done.stdout[-500:] + done.stderr
    assert float(match.group(1)) <= 2.5


def test_unit_keeps_the_required_settings() -> None:
    text = (SYSTEMD / install.SERVICE).read_text(encoding="utf-8")
    for line in (
        "Type=notify",
        "Restart=always",
        "User=cogtable",
        "SupplementaryGroups=gpio dialout video",
        "StateDirectory=cogtable",
        "ConfigurationDirectory=cogtable",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "RestrictAddressFamilies=AF_UNIX",
    ):
        assert line in text.splitlines(), line
    assert re.search(r"^WatchdogSec=\d+", text, flags=re.MULTILINE)


def test_udev_rule_names_the_pico() -> None:
    rule = (SYSTEMD / install.RULES).read_text(encoding="utf-8")
    assert 'ATTRS{idVendor}=="2e8a"' in rule and 'ATTRS{idProduct}=="0005"' in rule
    assert 'SYMLINK+="cogtable-pico"' in rule and 'GROUP="dialout"' in rule


def test_dry_run_prints_the_plan_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opt_install: str
) -> None:
    assert main(["service", "install", "--dry-run", "--root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"would write {tmp_path}/etc/systemd/system/cogtable.service" in out
    assert "would run systemctl --root=" in out
    assert list(tmp_path.iterdir()) == []


def test_install_into_a_root_then_again_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opt_install: str
) -> None:
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    unit = tmp_path / "etc/systemd/system/cogtable.service"
    assert f"ExecStart={opt_install} service run" in unit.read_text()
    assert (tmp_path / "etc/udev/rules.d/99-cogtable.rules").is_file()
    wants = tmp_path / "etc/systemd/system/multi-user.target.wants/cogtable.service"
    assert wants.is_symlink()
    profile = tmp_path / "etc/cogtable/profile.toml"
    profile.write_text("# the owner's edits\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert profile.read_text() == "# the owner's edits\n"
    assert out.count("[done]") == 5, out  # sysusers entry, unit, rule, profile, command link


def test_uninstall_keeps_the_profile_unless_purged(tmp_path: Path, opt_install: str) -> None:
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    assert main(["service", "uninstall", "--root", str(tmp_path)]) == 0
    assert not (tmp_path / "etc/systemd/system/cogtable.service").exists()
    assert (tmp_path / "etc/cogtable/profile.toml").is_file()
    assert main(["service", "uninstall", "--purge", "--root", str(tmp_path)]) == 0
    assert not (tmp_path / "etc/cogtable").exists()
