"""``cogtable service install`` and ``uninstall``: put the kiosk service on a Pi.

An installation is a plan of small steps, each of which says what it will do
and is skipped when already done, so running it twice changes nothing the
second time and ``--dry-run`` prints the plan without touching the system.
Notes in the plan say what the installer found and what to do about it.

What is installed: the unit (``ExecStart`` pointing at this installation's
``cogtable``), the udev rule for the Pico, the ``cogtable`` user and its groups
as a ``sysusers.d`` entry, a starter profile (an existing one is kept) and a
``/usr/local/bin/cogtable`` link, so that ``cogtable`` (and ``sudo cogtable``)
is on the PATH. With ``--web`` also the web live view's unit
(``cogtable-web.service``, off unless asked for), listening on localhost or on
the ``--listen`` address.

An installation that cannot work is refused before anything is written: an
``ExecStart`` under ``/home`` or ``/tmp``, which the unit hides from the service
(``ProtectHome=yes``, ``PrivateTmp=yes``).

Live (root ``/``), the user is made by ``systemd-sysusers`` from the entry,
and the service is started only if it can start: with a profile that loads.
Without a calibration it starts waiting for one
(:mod:`cogtable.service.waiting`), and the plan says how to calibrate.

Against a root other than ``/`` (an image being prepared, or a test) only
files are written and the service is enabled offline with
``systemctl --root``; nothing talks to a running systemd or udev, and the
image's ``systemd-sysusers`` makes the user at its first boot.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path, PurePosixPath

from cogtable.board_setup import calibration_path
from cogtable.errors import UserError
from cogtable.fleet.unit import DROPIN as FLEET_DROPIN
from cogtable.fleet.unit import render_fleet_dropin
from hardware.profile import ProfileError, load_profile

SERVICE = "cogtable.service"
WEB_SERVICE = "cogtable-web.service"
"""The web live view's unit, installed only with ``--web``."""
WEB_LOCALHOST = "127.0.0.1"
WEB_NEEDS = ("starlette", "uvicorn")
"""What ``cogtable web`` imports: the ``web`` extra."""
RULES = "99-cogtable.rules"
SYSUSERS = "cogtable.sysusers"
"""The sysusers.d entry in ``systemd/``; installed as ``/etc/sysusers.d/cogtable.conf``."""
USER = "cogtable"
GROUPS = ("gpio", "dialout", "video")
DEFAULT_EXEC = "/opt/cogtable/bin/cogtable"
PROFILE = PurePosixPath("etc/cogtable/profile.toml")
"""The service's profile, relative to the root (the unit's ``--profile``)."""
SYSUSERS_CONF = PurePosixPath("etc/sysusers.d/cogtable.conf")
COMMAND_LINK = PurePosixPath("usr/local/bin/cogtable")
HIDDEN = {
    "/home": "ProtectHome=yes hides /home from the service",
    "/root": "ProtectHome=yes hides /root from the service",
    "/run/user": "ProtectHome=yes hides /run/user from the service",
    "/tmp": "PrivateTmp=yes gives the service an empty /tmp of its own",
    "/var/tmp": "PrivateTmp=yes gives the service an empty /var/tmp of its own",
}
"""Folders the unit hides from the service, and why; an ExecStart there cannot start."""
GPIO_WORDS = {
    "gpio": "GPIO buttons and seat LEDs need the GPIO devices in it, as on Raspberry Pi OS",
    "dialout": "the Pico's serial port needs to be in it (the udev rule puts it there)",
    "video": "the camera needs to be in it",
}


@dataclass(frozen=True)
class Step:
    """One thing the installer does: a line for the reader and an action (or only a note)."""

    description: str
    action: Callable[[], None]
    done: bool = False
    note: bool = False
    """Nothing to do: a finding or a hint for the reader."""

    def line(self) -> str:
        """How the step reads in a plan: a note, already done, or about to be done."""
        if self.note:
            return f"note: {self.description}"
        return f"{'[done] ' if self.done else ''}{self.description}"


def note(text: str) -> Step:
    """A line of the plan that does nothing."""
    return Step(text, lambda: None, done=True, note=True)


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


def render_web_unit(executable: str, listen: str = WEB_LOCALHOST) -> str:
    """The web unit with ExecStart pointing at this cogtable and listening on ``listen``.

    A loopback address keeps the unit's ``IPAddressAllow=localhost``; any other
    address is a choice to serve a network, so the unit then allows any peer.
    """
    address = web_address(listen)
    text = (systemd_folder() / WEB_SERVICE).read_text(encoding="utf-8")
    text = text.replace(DEFAULT_EXEC, executable).replace(
        f"--listen {WEB_LOCALHOST}", f"--listen {address}"
    )
    if not ipaddress.ip_address(address).is_loopback:
        text = text.replace("IPAddressAllow=localhost", "IPAddressAllow=any")
    return text


def web_address(listen: str) -> str:
    """``listen`` as an IP address; UserError for anything else (a host name, garbage)."""
    try:
        return str(ipaddress.ip_address(listen))
    except ValueError:
        raise UserError(
            f"--listen {listen!r}: not an IP address (e.g. 127.0.0.1, 0.0.0.0, ::)"
        ) from None


def check_web_extra() -> None:
    """Refuse ``--web`` where ``cogtable web`` could not start: the ``web`` extra is missing."""
    missing = [name for name in WEB_NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        raise UserError(
            f"cannot install the web view: {', '.join(missing)} missing in this cogtable's "
            "environment; install the web extra first (pip install 'cogtable[web]')"
        )


def starter_profile() -> str:
    """The reference table's profile, for /etc/cogtable/profile.toml."""
    return resources.files("hardware").joinpath("profiles", "reference.toml").read_text("utf-8")


def installed_executable() -> str:
    """The cogtable command of the running Python environment."""
    return str(Path(sys.executable).with_name("cogtable"))


def installed_profile(root: Path = Path("/")) -> Path:
    """The profile the installed service reads (``/etc/cogtable/profile.toml``)."""
    return root / PROFILE


def check_executable(executable: str) -> None:
    """Refuse an ExecStart (or its interpreter) where the service cannot see it.

    The path is checked as written and with symbolic links resolved, and so is
    the ``#!`` interpreter of the script (a virtual environment's Python).
    """
    for path in _paths_of(executable):
        for folder, why in HIDDEN.items():
            if path == folder or path.startswith(folder + "/"):
                what = "" if path == executable else f" (through {path})"
                raise UserError(
                    f"cannot install: ExecStart {executable}{what} is under {folder} and {why}, "
                    "so the service could not start; install cogtable outside /home and /tmp, "
                    "e.g. sudo python3 -m venv --system-site-packages /opt/cogtable && "
                    "sudo /opt/cogtable/bin/pip install SOURCE, then run "
                    "sudo /opt/cogtable/bin/cogtable service install"
                )


def _paths_of(executable: str) -> list[str]:
    """The executable as written, resolved, and the interpreter its ``#!`` line names."""
    path = Path(executable)
    paths = [str(path), str(path.resolve())]
    try:
        with path.open("rb") as script:
            first = script.readline(4096)
    except OSError:
        return paths
    if first.startswith(b"#!"):
        words = first[2:].decode("utf-8", "replace").split()
        if words:
            paths += [words[0], str(Path(words[0]).resolve())]
    return paths


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


def _link_step(link: Path, target: str) -> Step:
    """Link ``link`` to ``target`` (so ``cogtable`` is on the PATH); another file there is kept."""
    if link.is_symlink() and os.readlink(link) == target:
        return Step(f"link {link} -> {target}", lambda: None, done=True)
    if link.exists() or link.is_symlink():
        return note(f"keep the existing {link}; cogtable is {target}")

    def make() -> None:
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)

    return Step(f"link {link} -> {target}", make)


def _command_step(argv: Sequence[str], done: bool = False) -> Step:
    def run() -> None:
        result = subprocess.run(list(argv), capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise UserError(f"{' '.join(argv)} failed: {result.stderr.strip()}")

    return Step("run " + " ".join(argv), run, done)


def _succeeds(argv: list[str]) -> bool:
    if shutil.which(argv[0]) is None:
        return False
    return subprocess.run(argv, capture_output=True, check=False).returncode == 0


def missing_groups(root: Path, live: bool) -> list[str]:
    """The groups of :data:`GROUPS` the system at ``root`` lacks (live: as getent says)."""
    if live:
        return [group for group in GROUPS if not _succeeds(["getent", "group", group])]
    try:
        lines = (root / "etc/group").read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    present = {line.split(":", 1)[0] for line in lines}
    return [group for group in GROUPS if group not in present]


def install_plan(
    root: Path, executable: str, live: bool | None = None, web: str | None = None
) -> list[Step]:
    """Every step of an installation into ``root``; UserError if it could not work.

    ``live`` (default: ``root`` is ``/``) installs for the running system:
    systemd-sysusers, udev and systemd are run, and the service is started.
    ``web``, an address to listen on, also installs and enables the web view.
    """
    check_executable(executable)
    web_unit = None
    if web is not None:
        web_unit = render_web_unit(executable, web)
        check_web_extra()
    live = root == Path("/") if live is None else live
    files = systemd_folder()
    sysusers = root / SYSUSERS_CONF
    steps = [
        _write_step(sysusers, (files / SYSUSERS).read_text(encoding="utf-8")),
        *([_command_step(["systemd-sysusers", str(sysusers)])] if live else []),
        *_group_notes(root, live),
        _write_step(root / "etc/systemd/system" / SERVICE, render_unit(executable)),
        _write_step(root / "etc/udev/rules.d" / RULES, (files / RULES).read_text(encoding="utf-8")),
        _write_step(installed_profile(root), starter_profile(), keep_existing=True),
        *_fleet_steps(root),
        _link_step(root / COMMAND_LINK, executable),
    ]
    if web_unit is not None:
        steps.append(_write_step(root / "etc/systemd/system" / WEB_SERVICE, web_unit))
    units = [SERVICE, *([WEB_SERVICE] if web_unit is not None else [])]
    if not live:
        return [*steps, _command_step(["systemctl", f"--root={root}", "enable", *units])]
    web_steps = [_command_step(["systemctl", "enable", "--now", WEB_SERVICE])] if web_unit else []
    return [*steps, *_live_service_steps(root), *web_steps]


def _fleet_steps(root: Path) -> list[Step]:
    """With a ``[fleet]`` in the profile: the drop-in that lets the referee reach its broker."""
    path = installed_profile(root)
    try:
        fleet = load_profile(path).fleet if path.is_file() else None
    except ProfileError:
        return []  # the profile is reported where the service's start is planned
    if fleet is None:
        return []
    if importlib.util.find_spec("paho") is None:
        raise UserError(
            f"{path} has a [fleet] section, but paho-mqtt is missing in this cogtable's "
            "environment; install the fleet extra first (pip install 'cogtable[fleet]')"
        )
    steps = [_write_step(root / FLEET_DROPIN, render_fleet_dropin(fleet.broker))]
    if fleet.credentials:
        steps.append(
            note(
                f"the credentials file {fleet.credentials} must belong to the {USER} user and be "
                f"readable by it only: sudo chown {USER}: {fleet.credentials} && "
                f"sudo chmod 600 {fleet.credentials}"
            )
        )
    return steps


def _group_notes(root: Path, live: bool) -> list[Step]:
    """A note for each group the system lacks: sysusers makes it, but nothing is in it."""
    return [
        note(
            f"there is no {group} group on this system: systemd-sysusers creates an empty one "
            f"so that the service can start, but {GPIO_WORDS[group]}"
        )
        for group in missing_groups(root, live)
    ]


def _live_service_steps(root: Path) -> list[Step]:
    """Reload systemd and udev; start the service only if it can, and say what it will wait for."""
    steps = [
        _command_step(["systemctl", "daemon-reload"]),
        _command_step(["udevadm", "control", "--reload-rules"]),
        _command_step(["udevadm", "trigger", "--subsystem-match=tty"]),
    ]
    profile = installed_profile(root)
    problem, waiting = _start_problem(root)
    if problem:
        fix = f"fix it (cogtable profile check {profile}), then: sudo systemctl start {SERVICE}"
        steps.append(_command_step(["systemctl", "enable", SERVICE]))
        return [*steps, note(f"not started: {problem}; {fix}")]
    steps.append(_command_step(["systemctl", "enable", "--now", SERVICE]))
    return [*steps, *([note(waiting)] if waiting else [])]


def _start_problem(root: Path) -> tuple[str, str]:
    """Why the service could not start (or ""), and what it will wait for once started (or "").

    The profile is the installed one, or the starter profile about to be written.
    """
    path = installed_profile(root)
    starter = Path(str(resources.files("hardware").joinpath("profiles", "reference.toml")))
    try:
        profile = load_profile(path if path.is_file() else starter)
    except (ProfileError, OSError) as error:
        return f"the profile {path} cannot be used: {error}", ""
    calibration = calibration_path(profile)
    if calibration is None or (root / calibration.relative_to(calibration.anchor)).is_file():
        return "", ""
    return "", (
        f"the service waits for calibration ({calibration} is not there yet): lay out the "
        f"Kogworks start and run: sudo cogtable calibrate --profile {path} --source 0"
    )


def _start_problem(root: Path) -> tuple[str, str]:
    """Why the service could not start (""), and what it will wait for once started ("")."""
    path = installed_profile(root)
    source = path if path.is_file() else resources.files("hardware") / "profiles" / "reference.toml"
    try:
        profile = load_profile(Path(str(source)))
    except (ProfileError, OSError) as error:
        return f"the profile {path} cannot be used: {error}", ""
    calibration = calibration_path(profile)
    if (
        calibration is None
        or (
            root / calibration.relative_to("/") if calibration.is_absolute() else calibration
        ).is_file()
    ):
        return "", ""
    return "", (
        f"the service waits for calibration ({calibration} is not there yet): lay out the "
        f"Kogworks start and run: sudo cogtable calibrate --profile {path} --source 0"
    )


def uninstall_plan(root: Path, purge: bool) -> list[Step]:
    """Every step of an uninstallation; profile, journal and user stay unless ``purge``.

    The ``cogtable`` link goes if it is the installer's (a link to a ``cogtable``);
    ``purge`` also removes the sysusers.d entry (the user itself is never deleted).
    """
    steps: list[Step] = []
    web_unit = root / "etc/systemd/system" / WEB_SERVICE
    units = [SERVICE, *([WEB_SERVICE] if web_unit.is_file() else [])]
    if root == Path("/"):
        steps.append(_command_step(["systemctl", "disable", "--now", *units]))
    else:
        steps.append(_command_step(["systemctl", f"--root={root}", "disable", *units]))
    targets = [root / "etc/systemd/system" / SERVICE, root / "etc/udev/rules.d" / RULES]
    targets += [web_unit] if web_unit.is_file() else []
    dropins = (root / FLEET_DROPIN).parent
    targets += [dropins] if dropins.is_dir() else []
    link = root / COMMAND_LINK
    if link.is_symlink() and Path(os.readlink(link)).name == "cogtable":
        targets.append(link)
    if purge:
        targets += [root / "etc/cogtable", root / "var/lib/cogtable", root / SYSUSERS_CONF]
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

    return Step(f"remove {path}", remove, done=not (path.exists() or path.is_symlink()))


def carry_out(steps: list[Step], dry_run: bool, say: Callable[[str], None] = print) -> None:
    """Print each step; unless ``dry_run``, do the ones not done yet."""
    for step in steps:
        say(("would " if dry_run and not step.done else "") + step.line())
        if not dry_run and not step.done:
            step.action()
