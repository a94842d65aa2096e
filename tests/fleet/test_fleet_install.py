"""``service install`` with a [fleet] profile: a drop-in that lets the referee only connect out."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cogtable.fleet.unit import DROPIN
from cogtable.service import install
from hardware.profile import default_profile_path

EXPOSURE_GOAL = 2.5


def installed(root: Path, fleet: str | None) -> Path:
    """Carry out an install into ``root`` whose profile has ``fleet`` (or no [fleet])."""
    profile = root / install.PROFILE
    profile.parent.mkdir(parents=True)
    text = default_profile_path().read_text(encoding="utf-8")
    profile.write_text(text + (f"\n[fleet]\n{fleet}" if fleet else ""), encoding="utf-8")
    steps = install.install_plan(root, shutil.which("cogtable") or "/usr/bin/env", live=False)
    writes = [step for step in steps if "systemctl" not in step.description]
    install.carry_out(writes, dry_run=False, say=lambda line: None)
    return root / "etc/systemd/system" / install.SERVICE


def exposure(unit: Path) -> float:
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit)],
        capture_output=True,
        text=True,
        check=False,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert match, done.stdout[-500:] + done.stderr
    return float(match.group(1))


@pytest.mark.parametrize(
    ("broker", "allowed"), [("mqtt://10.0.0.7", "10.0.0.7"), ("mqtt://broker.lan", "any")]
)
def test_a_fleet_profile_gets_the_network_drop_in_and_stays_hardened(
    tmp_path: Path, broker: str, allowed: str
) -> None:
    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze is needed here: apt-get install -y systemd")
    unit = installed(tmp_path, f'broker = "{broker}"\nvenue = "bar"\ntable = "t1"\n')
    dropin = (tmp_path / DROPIN).read_text(encoding="utf-8")
    assert "PrivateNetwork=no" in dropin and f"IPAddressAllow={allowed}" in dropin
    assert "IPAddressDeny" not in dropin  # the unit's deny-all stays: only the broker is allowed
    assert exposure(unit) <= EXPOSURE_GOAL
    plan = [step.line() for step in install.uninstall_plan(tmp_path, purge=False)]
    assert f"remove {(tmp_path / DROPIN).parent}" in plan


def test_a_table_that_does_not_publish_keeps_no_network(tmp_path: Path) -> None:
    unit = installed(tmp_path, None)
    assert not (tmp_path / DROPIN).exists()
    assert "PrivateNetwork=yes" in unit.read_text(encoding="utf-8")
