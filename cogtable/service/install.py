"""``cogtable service install`` and ``uninstall``: put the kiosk service on a Pi.

An installation is a plan of small steps, each of which says what it will do
and is skipped when already done, so running it twice changes nothing the
second time and ``--dry-run`` prints the plan without touching the system.

Against a root other than ``/`` (an image being prepared, or a test) only
files are written and the service is enabled offline with
``systemctl --root``; nothing talks to a running systemd or udev.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from cogtable.errors import UserError

SERVICE = "cogtable.service"
RULES = "99-cogtable.rules"
USER = "cogtable"
GROUPS = ("gpio", "dialout", "video")
DEFAULT_EXEC = "/opt/cogtable/bin/cogtable"


@dataclass(frozen=True)
class Step:
    """One thing the installer does: a line for the reader and an action."""

    description: str
    action: Callable[[], None]
    done: bool = False

    def line(self) -> str:
        """How the step reads in a plan: already done, or about to be done."""
        return f"{'[done] ' if self.done else ''}{self.description}"


def systemd_folder() -> Path:
    """Where the unit and udev rule are: the checkout's systemd/, else the installed copy."""
    for candidate in (
        Path(__file__).resolve().parents[2] / "systemd",
        Path(sys.prefix) / "share" / "cogtable" / "systemd",
    ):
        if (candidate / SERVICE).is_file():
            return candidate
    raise UserError("cannot find the cogtable systemd files (reinstall cogtable)")


def render_unit(executable: str) -> str:
    """The unit file with ExecStart pointing at this installation's cogtable."""
    text = (systemd_folder() / SERVICE).read_text(encoding="utf-8")
    return text.replace(DEFAULT_EXEC, executable)


def starter_profile() -> str:
    """The reference table's profile, for /etc/cogtable/profile.toml."""
    return resources.files("hardware").joinpath("profiles", "reference.toml").read_text("utf-8")


def installed_executable() -> str:
    """The cogtable command of the running Python environment."""
    return str(Path(sys.executable).with_name("cogtable"))


def _write_step(path: Path, text: str, keep_existing: bool = False) -> Step:
    """Write ``text`` to ``path`` unless it is already there (or kept as the user's)."""
    exists = path.is_file()
    same = exists and path.read_text(encoding="utf-8") == text
    done = same or (exists and keep_existing)
    verb = "keep the existing" if exists and keep_existing and not same else "write"

    def write() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    return Step(f"{verb} {path}", write, done)


def _command_step(argv: Sequence[str], done: bool = False) -> Step:
    def run() -> None:
        result = subprocess.run(list(argv), capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise UserError(f"{' '.join(argv)} failed: {result.stderr.strip()}")

    return Step("run " + " ".join(argv), run, done)


def _user_exists() -> bool:
    return _succeeds(["getent", "passwd", USER])


def _existing_groups() -> list[str]:
    return [group for group in GROUPS if _succeeds(["getent", "group", group])]


def _succeeds(argv: list[str]) -> bool:
    if shutil.which(argv[0]) is None:
        return False
    return subprocess.run(argv, capture_output=True, check=False).returncode == 0


def install_plan(root: Path, executable: str) -> list[Step]:
    """Every step of an installation into ``root``."""
    files = systemd_folder()
    steps = [
        _write_step(root / "etc/systemd/system" / SERVICE, render_unit(executable)),
        _write_step(root / "etc/udev/rules.d" / RULES, (files / RULES).read_text(encoding="utf-8")),
        _write_step(root / "etc/cogtable/profile.toml", starter_profile(), keep_existing=True),
    ]
    if root != Path("/"):
        return [*steps, _command_step(["systemctl", f"--root={root}", "enable", SERVICE])]
    return [*_live_user_steps(), *steps, *_live_service_steps()]


def _live_user_steps() -> list[Step]:
    groups = ",".join(_existing_groups())
    argv = ["useradd", "--system", "--no-create-home", "--home-dir", "/var/lib/cogtable"]
    argv += ["--shell", "/usr/sbin/nologin", *(["--groups", groups] if groups else []), USER]
    return [_command_step(argv, done=_user_exists())]


def _live_service_steps() -> list[Step]:
    return [
        _command_step(["systemctl", "daemon-reload"]),
        _command_step(["udevadm", "control", "--reload-rules"]),
        _command_step(["udevadm", "trigger", "--subsystem-match=tty"]),
        _command_step(["systemctl", "enable", "--now", SERVICE]),
    ]


def uninstall_plan(root: Path, purge: bool) -> list[Step]:
    """Every step of an uninstallation; the profile and journal stay unless ``purge``."""
    steps: list[Step] = []
    if root == Path("/"):
        steps.append(_command_step(["systemctl", "disable", "--now", SERVICE]))
    else:
        steps.append(_command_step(["systemctl", f"--root={root}", "disable", SERVICE]))
    targets = [root / "etc/systemd/system" / SERVICE, root / "etc/udev/rules.d" / RULES]
    if purge:
        targets += [root / "etc/cogtable", root / "var/lib/cogtable"]
    steps += [_remove_step(path) for path in targets]
    if root == Path("/"):
        steps.append(_command_step(["systemctl", "daemon-reload"]))
    return steps


def _remove_step(path: Path) -> Step:
    def remove() -> None:
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)

    return Step(f"remove {path}", remove, done=not path.exists())


def carry_out(steps: list[Step], dry_run: bool, say: Callable[[str], None] = print) -> None:
    """Print each step; unless ``dry_run``, do the ones not done yet."""
    for step in steps:
        say(("would " if dry_run and not step.done else "") + step.line())
        if not dry_run and not step.done:
            step.action()
