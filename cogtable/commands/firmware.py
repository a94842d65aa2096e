"""``cogtable firmware flash|check``: install the Pico firmware, or ask it what it is."""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import serial

from cogtable.errors import UserError
from firmware_bridge import wire
from firmware_bridge.link import Link, LinkError, find_pico

NAME = "firmware"
HELP = "Install the Pico firmware (flash) or report the connected firmware's version (check)."

FIRMWARE_DIR = Path(wire.__file__).resolve().parent / "firmware"
MPREMOTE_MISSING = (
    "mpremote is not installed; install it with `.venv/bin/pip install mpremote` and try again"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``flash`` or ``check``, the port, and a time-out."""
    parser.add_argument("action", choices=("flash", "check"), help="what to do")
    parser.add_argument(
        "--port",
        default="auto",
        help="the Pico's serial port: a path such as /dev/serial/by-id/..., "
        "'auto' (find the Pico by its USB vendor id) or 'sim' (the simulated Pico; check only)",
    )
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds to wait for the Pico (default 5)"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="flash: print the mpremote command, run nothing"
    )


def run(args: argparse.Namespace) -> int:
    """Carry out ``flash`` or ``check``."""
    if args.timeout <= 0:
        raise UserError(f"--timeout must be positive, got {args.timeout:g}")
    return flash(args) if args.action == "flash" else check(args)


# check --------------------------------------------------------------------------------


def check(args: argparse.Namespace) -> int:
    """Connect, shake hands, print what the firmware says it is."""
    with ExitStack() as stack:
        port = _port_for_check(args.port, stack)
        link = stack.enter_context(Link(port))
        try:
            info = link.wait_connected(args.timeout)
        except LinkError as error:
            raise UserError(str(error)) from None
    print(
        f"firmware {info.version_text} (protocol {info.protocol}) on {args.port}: "
        f"{info.leds} LEDs, {info.buttons} buttons, {info.dice} dice"
    )
    return 0


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


def firmware_files() -> list[Path]:
    """Every file the Pico needs: the firmware folder and the shared wire protocol."""
    return [*sorted(FIRMWARE_DIR.glob("*.py")), Path(wire.__file__).resolve()]


def mpremote_command() -> list[str]:
    """How to run mpremote here; UserError if it is not installed."""
    found = shutil.which("mpremote")
    if found:
        return [found]
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    raise UserError(MPREMOTE_MISSING)


def flash_command(mpremote: list[str], device: str) -> list[str]:
    """Copy every firmware file to the Pico's root, then reset it so main.py starts."""
    files = [str(path) for path in firmware_files()]
    return [*mpremote, "connect", device, "cp", *files, ":", "+", "reset"]


def flash(args: argparse.Namespace) -> int:
    """Install the firmware with mpremote."""
    if args.port == "sim":
        raise UserError("the simulated Pico runs the firmware sources directly: nothing to flash")
    mpremote = mpremote_command()
    device = _device(args.port)
    command = flash_command(mpremote, device)
    if args.dry_run:
        print(" ".join(command))
        return 0
    release_repl(device)
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
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
