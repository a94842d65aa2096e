"""Installing on a Raspberry Pi: an install that cannot trap, and README steps that work as written.

- ``service install`` refuses an ExecStart the unit hides from the service;
- the ``cogtable`` user ships as a ``sysusers.d`` entry (``--root`` too), a
  missing group is said;
- ``cogtable`` is linked onto the PATH;
- the service is started only if it can start, and the plan says when it will
  wait for a calibration;
- the README's Pi steps call only commands that exist, with arguments that
  parse, and calibrate writes where the service reads.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from cogtable.board_setup import calibration_path
from cogtable.cli import build_parser, main
from cogtable.commands import calibrate
from cogtable.errors import UserError
from cogtable.service import install
from hardware.profile import load_profile

ROOT = Path(__file__).resolve().parents[2]
OPT_EXEC = "/opt/cogtable/bin/cogtable"


@pytest.fixture
def opt_install(monkeypatch: pytest.MonkeyPatch) -> str:
    """The installer sees cogtable installed in /opt, as the README's Pi steps do."""
    monkeypatch.setattr(install, "installed_executable", lambda: OPT_EXEC)
    return OPT_EXEC


def plan_text(root: Path, live: bool = False) -> str:
    return "\n".join(step.line() for step in install.install_plan(root, OPT_EXEC, live=live))


# -- an ExecStart the service cannot see -------------------------------------------------


@pytest.mark.parametrize(
    ("executable", "setting"),
    [
        ("/home/pi/cogtable/.venv/bin/cogtable", "ProtectHome=yes"),
        ("/root/venv/bin/cogtable", "ProtectHome=yes"),
        ("/tmp/cogtable/bin/cogtable", "PrivateTmp=yes"),
        ("/var/tmp/venv/bin/cogtable", "PrivateTmp=yes"),
    ],
)
def test_an_exec_start_the_service_cannot_see_is_refused_with_the_fix(
    executable: str, setting: str, tmp_path: Path
) -> None:
    with pytest.raises(UserError) as refused:
        install.install_plan(tmp_path, executable)
    message = str(refused.value)
    assert executable in message and setting in message
    assert "sudo python3 -m venv --system-site-packages /opt/cogtable" in message
    assert list(tmp_path.iterdir()) == [], "nothing written"


@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
def test_the_command_refuses_it_in_one_line_and_writes_nothing(
    dry_run: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(install, "installed_executable", lambda: "/home/pi/venv/bin/cogtable")
    assert main(["service", "install", *dry_run, "--root", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert "/home" in captured.err and "ProtectHome=yes" in captured.err
    assert list(tmp_path.iterdir()) == []


def test_a_script_is_checked_through_its_interpreter(tmp_path: Path) -> None:
    script = tmp_path / "cogtable"
    script.write_text("#!/home/pi/.pyenv/versions/3.11/bin/python3\nprint()\n", encoding="utf-8")
    assert "/home/pi/.pyenv/versions/3.11/bin/python3" in install._paths_of(str(script))


def test_a_place_the_service_can_see_is_taken(tmp_path: Path) -> None:
    install.check_executable("/opt/cogtable/bin/cogtable")
    install.check_executable("/usr/local/bin/cogtable")
    install.check_executable("/homestead/bin/cogtable")  # not under /home


# -- the user, its groups, the command link ----------------------------------------------


def test_a_root_gets_the_sysusers_entry_and_systemd_sysusers_makes_the_user_from_it(
    tmp_path: Path, opt_install: str
) -> None:
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    entry = tmp_path / "etc/sysusers.d/cogtable.conf"
    assert "u cogtable - " in entry.read_text(encoding="utf-8")
    assert shutil.which("systemd-sysusers"), "systemd-sysusers is needed (Debian package systemd)"
    done = subprocess.run(
        ["systemd-sysusers", f"--root={tmp_path}", str(entry)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    passwd = (tmp_path / "etc/passwd").read_text(encoding="utf-8")
    assert re.search(
        r"^cogtable:x:\d+:\d+:[^:]*:/var/lib/cogtable:/usr/sbin/nologin$", passwd, re.M
    )
    groups = dict(
        (line.split(":")[0], line.split(":")[3])
        for line in (tmp_path / "etc/group").read_text(encoding="utf-8").splitlines()
    )
    for group in ("gpio", "dialout", "video"):
        assert "cogtable" in groups[group].split(","), group


def test_a_missing_gpio_group_is_said(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/group").write_text("dialout:x:20:\nvideo:x:44:\n", encoding="utf-8")
    text = plan_text(tmp_path)
    assert "note: there is no gpio group on this system" in text
    assert "no dialout group" not in text and "no video group" not in text
    (tmp_path / "etc/group").write_text("gpio:x:997:\ndialout:x:20:\nvideo:x:44:\n", "utf-8")
    assert "there is no" not in plan_text(tmp_path)


def test_the_live_install_makes_the_user_with_systemd_sysusers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(install, "_succeeds", lambda argv: True)  # every group exists
    text = plan_text(tmp_path, live=True)
    assert f"run systemd-sysusers {tmp_path}/etc/sysusers.d/cogtable.conf" in text
    assert "useradd" not in text


def test_cogtable_is_linked_onto_the_path_and_unlinked_on_uninstall(
    tmp_path: Path, opt_install: str, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "usr/local/bin/cogtable"
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    assert link.is_symlink() and str(link.readlink()) == OPT_EXEC
    capsys.readouterr()
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    assert f"[done] link {link} -> {OPT_EXEC}" in capsys.readouterr().out
    assert main(["service", "uninstall", "--root", str(tmp_path)]) == 0
    assert not link.is_symlink()
    assert (tmp_path / "etc/sysusers.d/cogtable.conf").is_file(), "the user's entry stays"


def test_another_cogtable_on_the_path_is_kept(tmp_path: Path) -> None:
    link = tmp_path / "usr/local/bin/cogtable"
    link.parent.mkdir(parents=True)
    link.write_text("#!/bin/sh\necho mine\n", encoding="utf-8")
    assert f"note: keep the existing {link}" in plan_text(tmp_path)
    assert main(["service", "uninstall", "--root", str(tmp_path)]) == 0
    assert link.read_text(encoding="utf-8") == "#!/bin/sh\necho mine\n"


# -- starting only what can start ----------------------------------------------------------


def test_a_fresh_live_install_starts_the_service_waiting_for_calibration(tmp_path: Path) -> None:
    text = plan_text(tmp_path, live=True)
    assert "run systemctl enable --now cogtable.service" in text
    profile = install.installed_profile(tmp_path)
    assert "note: the service waits for calibration (/var/lib/cogtable/calibration.json" in text
    assert f"sudo cogtable calibrate --profile {profile} --source 0" in text


def test_a_calibrated_table_starts_without_a_note(tmp_path: Path) -> None:
    calibration = tmp_path / "var/lib/cogtable/calibration.json"
    calibration.parent.mkdir(parents=True)
    calibration.write_text("{}", encoding="utf-8")
    text = plan_text(tmp_path, live=True)
    assert "enable --now" in text and "waits for calibration" not in text


def test_a_profile_that_does_not_load_is_named_and_the_service_not_started(
    tmp_path: Path,
) -> None:
    profile = install.installed_profile(tmp_path)
    profile.parent.mkdir(parents=True)
    profile.write_text("[board]\npeg_pitch_mm = -3\n", encoding="utf-8")
    text = plan_text(tmp_path, live=True)
    assert "enable --now" not in text
    assert "run systemctl enable cogtable.service" in text
    assert f"note: not started: the profile {profile} cannot be used" in text
    assert "peg_pitch_mm" in text and "sudo systemctl start cogtable.service" in text


# -- the README's steps -------------------------------------------------------------------


def pi_steps() -> list[str]:
    """The README's Raspberry Pi steps, one text per numbered step."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## On a Raspberry Pi\n", 1)[1].split("\n## ", 1)[0]
    return re.split(r"\n(?=\d+\. )", section.split("\n1. ", 1)[1])


def cogtable_commands(step: str) -> list[list[str]]:
    """The cogtable command lines quoted in a step, sudo dropped (`cogtable` alone is a name)."""
    commands = []
    for quoted in re.findall(r"`([^`]+)`", step):
        words = shlex.split(quoted)
        words = words[1:] if words[:1] == ["sudo"] else words
        if len(words) > 1 and Path(words[0]).name == "cogtable":
            commands.append(words)
    return commands


def test_the_pi_steps_run_cogtable_from_the_venv_until_the_install_links_it(
    tmp_path: Path,
) -> None:
    steps = pi_steps()
    linked = next(
        i
        for i, step in enumerate(steps)
        if ["service", "install"] in [words[1:3] for words in cogtable_commands(step)]
    )
    for number, step in enumerate(steps):
        for words in cogtable_commands(step):
            if number <= linked:
                assert words[0] == OPT_EXEC, f"step {number + 1}: {' '.join(words)}"
            else:
                assert words[0] in (OPT_EXEC, "cogtable"), f"step {number + 1}"
    link = f"link {tmp_path}/usr/local/bin/cogtable -> {OPT_EXEC}"  # on sudo's secure_path too
    assert link in plan_text(tmp_path), "the install puts cogtable on the PATH"


def test_every_cogtable_command_in_the_pi_steps_parses() -> None:
    commands = [words for step in pi_steps() for words in cogtable_commands(step)]
    assert len(commands) >= 6
    for words in commands:
        args = build_parser().parse_args(words[1:])
        assert args.command is not None, words


def test_the_readme_calibrate_writes_where_the_service_reads(
    tmp_path: Path, opt_install: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    unit = (tmp_path / "etc/systemd/system/cogtable.service").read_text(encoding="utf-8")
    exec_start = shlex.split(re.search(r"^ExecStart=(.+)$", unit, re.M).group(1))  # type: ignore[union-attr]
    service_profile = exec_start[exec_start.index("--profile") + 1]
    service_state = exec_start[exec_start.index("--state-dir") + 1]
    (calibrate_words,) = [
        words
        for step in pi_steps()
        for words in cogtable_commands(step)
        if "calibrate" in words and "--source" in words
    ]
    args = build_parser().parse_args(calibrate_words[1:])
    assert str(args.profile) == service_profile, "the README calibrates the service's profile"
    installed = tmp_path / Path(service_profile).relative_to("/")
    profile = load_profile(installed)
    assert calibration_path(profile) == Path(service_state) / "calibration.json"
    monkeypatch.setattr(calibrate, "installed_profile", lambda: installed)
    _, written = calibrate._profile_geometry_and_out(None, None)
    assert written == calibration_path(profile), "calibrate alone calibrates the installed table"
