"""``cogtable firmware flash|check``: install the Pico firmware, or check it against a profile.

``check`` compares the firmware (what the Pico reports at the handshake, and
the ``config.py`` it was flashed from) with a table profile and names every
difference on its own line. ``flash --dry-run`` prints what a flash would do
(the files, where they go, the mpremote command) without mpremote and without
a Pico.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import serial

from cogtable.errors import UserError
from cogtable.firmware_agreement import differences
from firmware_bridge import channel, wire
from firmware_bridge.firmware_config import (
    FirmwareConfig,
    FirmwareConfigError,
    read_firmware_config,
)
from firmware_bridge.link import PICO_VENDOR_ID, FirmwareInfo, Link, LinkError, find_pico
from hardware.profile import Profile, ProfileError, load_profile, pico_buttons

NAME = "firmware"
HELP = "Install the Pico firmware (flash) or check it against the table profile (check)."

FIRMWARE_DIR = Path(wire.__file__).resolve().parent / "firmware"
FLASH_TIMEOUT_S = 120
MAX_TIMEOUT_S = 3600.0
OFFLINE = "none"
"""``check --port none``: compare config.py with the profile, without a Pico."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``flash`` or ``check``, the port, the profile and config to compare, a time-out."""
    parser.add_argument("action", choices=("flash", "check"), help="what to do")
    parser.add_argument(
        "--port",
        default="auto",
        help="the Pico's serial port: a path such as /dev/serial/by-id/..., "
        "'auto' (find the Pico by its USB vendor id), 'sim' (the simulated Pico; check only) "
        "or 'none' (check only: compare config.py with the profile, no Pico)",
    )
    parser.add_argument(
        "--profile", type=Path, default=None, help="check: table profile (default: the mock table)"
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="check: the firmware's config.py (default: the one flash copies to the Pico)",
    )
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds to wait for the Pico (default 5)"
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="flash: print what would be copied where and the mpremote command; run nothing",
    )


def run(args: argparse.Namespace) -> int:
    """Carry out ``flash`` or ``check``."""
    if not 0 < args.timeout <= MAX_TIMEOUT_S:
        raise UserError(
            f"--timeout must be above 0 and at most {MAX_TIMEOUT_S:g} s, got {args.timeout:g}"
        )
    return flash(args) if args.action == "flash" else check(args)


# check --------------------------------------------------------------------------------


def check(args: argparse.Namespace) -> int:
    """Print what the firmware is; 0 if it matches the profile, else each difference and 2."""
    profile = _profile(args.profile)
    config = _config(args.config)
    running = None if args.port == OFFLINE else _ask_firmware(args.port, args.timeout)
    print(_describe(args.port, config, running))
    found = differences(profile, config, running)
    if not found:
        print(f"matches the profile {profile.source}: {_agreement(profile, config, running)}")
        return 0
    count = f"{len(found)} difference{'s' if len(found) != 1 else ''}"
    print(f"the firmware and the profile {profile.source} disagree: {count}", file=sys.stderr)
    for line in found:
        print(f"  {line}", file=sys.stderr)
    return 2


def _profile(path: Path | None) -> Profile:
    """The table profile, or a UserError naming its mistakes."""
    try:
        return load_profile(path)
    except ProfileError as error:
        raise UserError(str(error)) from None


def _config(path: Path | None) -> FirmwareConfig:
    """The firmware's config.py, or a UserError saying what is wrong with it."""
    try:
        return read_firmware_config(path)
    except FirmwareConfigError as error:
        raise UserError(str(error)) from None


def _ask_firmware(port: str, timeout: float) -> FirmwareInfo:
    """Connect, shake hands: what the running firmware says it is."""
    with ExitStack() as stack:
        link = stack.enter_context(Link(_port_for_check(port, stack)))
        try:
            return link.wait_connected(timeout)
        except LinkError as error:
            raise UserError(str(error)) from None


def _describe(port: str, config: FirmwareConfig, running: FirmwareInfo | None) -> str:
    """One line: the running firmware, or config.py when there is no Pico to ask."""
    if running is None:
        return (
            f"firmware {config.version_text} as {config.path} declares it (no Pico asked): "
            f"{config.led_count} LEDs, {len(config.buttons)} buttons, {len(config.dice)} dice"
        )
    return (
        f"firmware {running.version_text} (protocol {running.protocol}) on {port}: "
        f"{running.leds} LEDs, {running.buttons} buttons, {running.dice} dice"
    )


def _agreement(profile: Profile, config: FirmwareConfig, running: FirmwareInfo | None) -> str:
    """What agrees, in a few words."""
    leds = running.leds if running else config.led_count
    dice = ", ".join(str(die) for die in profile.dice.pico) or "none"
    return (
        f"{profile.leds.length} of {leds} LEDs, status LED {config.status_led}, "
        f"{len(pico_buttons(profile))} of {len(config.buttons)} buttons, Pico dice: {dice}"
    )


def _port_for_check(port: str, stack: ExitStack) -> str:
    """The device path to open: the simulator's for 'sim', the Pico's for 'auto'."""
    if port == "sim":
        from firmware_bridge.simulator import Simulator, SimulatorError

        try:
            return stack.enter_context(Simulator()).port
        except SimulatorError as error:
            raise UserError(str(error)) from None
    return _device(port)


def _device(port: str) -> str:
    """A device path that exists, or a UserError saying what is wrong."""
    try:
        path = find_pico() if port == "auto" else port
    except LinkError as error:
        raise UserError(str(error)) from None
    if not Path(path).exists():
        raise UserError(f"no serial port {path}; is the Pico plugged in?")
    return path


# flash --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Copy:
    """One file the flash puts on the Pico: from here, to there (``:name``, the root)."""

    source: Path
    target: str


@dataclass(frozen=True)
class FlashPlan:
    """Everything a flash does, in order, and what stands in its way now."""

    device: str
    """The Pico's port, or a placeholder when none is plugged in now."""
    copies: tuple[Copy, ...]
    command: tuple[str, ...]
    obstacles: tuple[str, ...]
    """Why the flash could not run now (no mpremote, no Pico); none: it can."""

    def lines(self) -> list[str]:
        """The plan as a person reads it."""
        lines = [
            "flash plan (dry run: nothing is run, nothing is written):",
            f"  1. ask the cogtable firmware on {self.device} to hand the line to the REPL "
            "(one REPL frame; other firmware ignores it)",
            f"  2. copy {len(self.copies)} files to the Pico's flash, at its root:",
        ]
        lines += [f"       {copy.source} -> {copy.target}" for copy in self.copies]
        lines.append("  3. reset the Pico, which then runs main.py")
        lines.append(f"command: {' '.join(self.command)}")
        lines += [f"before it can run: {obstacle}" for obstacle in self.obstacles]
        return lines


def firmware_files() -> list[Path]:
    """Every file the Pico needs: the firmware folder, the shared wire protocol and channel."""
    shared = [Path(wire.__file__).resolve(), Path(channel.__file__).resolve()]
    return [*sorted(FIRMWARE_DIR.glob("*.py")), *shared]


def find_mpremote() -> list[str] | None:
    """How to run mpremote here, or None if it is not installed."""
    found = shutil.which("mpremote")
    if found:
        return [found]
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    return None


def mpremote_install() -> str:
    """The command that installs mpremote into this installation (its own pip).

    On a Pi that is ``sudo /opt/cogtable/bin/pip``, not a ``.venv`` of a checkout.
    """
    pip = Path(sys.executable).parent / "pip"
    sudo = "" if os.access(pip.parent, os.W_OK) else "sudo "
    return f"`{sudo}{pip} install mpremote`"


def mpremote_command() -> list[str]:
    """How to run mpremote here; UserError if it is not installed."""
    command = find_mpremote()
    if command is None:
        raise UserError(
            f"mpremote is not installed; install it with {mpremote_install()} and try again"
        )
    return command


def flash_command(mpremote: list[str], device: str) -> list[str]:
    """Copy every firmware file to the Pico's root, then reset it so main.py starts."""
    files = [str(path) for path in firmware_files()]
    return [*mpremote, "connect", device, "cp", *files, ":", "+", "reset"]


def plan_flash(port: str) -> FlashPlan:
    """What flashing through ``port`` would do, found out without touching the Pico."""
    obstacles = []
    mpremote = find_mpremote()
    if mpremote is None:
        obstacles.append(f"install mpremote with {mpremote_install()}")
    device = _planned_device(port, obstacles)
    copies = tuple(Copy(path, f":{path.name}") for path in firmware_files())
    command = tuple(flash_command(mpremote or ["mpremote"], device))
    return FlashPlan(device, copies, command, tuple(obstacles))


def _planned_device(port: str, obstacles: list[str]) -> str:
    """The port a flash would use; what is missing goes into ``obstacles``."""
    if port == "auto":
        try:
            return find_pico()
        except LinkError:
            obstacles.append(
                f"plug in the Pico: none is on USB now ('auto' finds it by vendor id "
                f"{PICO_VENDOR_ID:04x})"
            )
            return "<the Pico's port>"
    if not Path(port).exists():
        obstacles.append(f"plug in the Pico: there is no serial port {port} now")
    return port


def flash(args: argparse.Namespace) -> int:
    """Install the firmware with mpremote (or, with --dry-run, say how)."""
    if args.port == "sim":
        raise UserError("the simulated Pico runs the firmware sources directly: nothing to flash")
    if args.port == OFFLINE:
        raise UserError("--port none is for check only: flash needs the Pico's port (or auto)")
    if args.dry_run:
        print("\n".join(plan_flash(args.port).lines()))
        return 0
    mpremote = mpremote_command()
    device = _device(args.port)
    command = flash_command(mpremote, device)
    release_repl(device)
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=FLASH_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        raise UserError(f"mpremote did not finish on {device} in {FLASH_TIMEOUT_S} s") from None
    except OSError as error:
        raise UserError(f"cannot run mpremote: {error}") from None
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise UserError(f"mpremote failed on {device}: {detail[-1] if detail else 'no output'}")
    print(f"flashed {len(firmware_files())} files to {device}; the Pico is restarting")
    return 0


def release_repl(device: str) -> None:
    """Ask a running cogtable firmware to hand the line back to the REPL.

    The firmware ignores Ctrl-C (0x03 is protocol data), so without this mpremote
    could not interrupt it. A Pico without our firmware just ignores the frame.
    """
    frame = wire.encode_frame(0, wire.REPL, wire.REPL_MAGIC)
    try:
        with serial.Serial(device, baudrate=115200, timeout=0.2) as port:
            port.write(b"\x00" + frame)
            port.flush()
    except (serial.SerialException, OSError) as error:
        raise UserError(f"cannot open {device}: {error}") from None
