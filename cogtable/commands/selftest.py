"""``cogtable selftest [--profile P]``: walk the table's parts one by one, then a table of results.

See :mod:`cogtable.selftest`. With the serial port ``sim`` (the mock table)
the real firmware runs on the simulated Pico and a simulated person answers
every question, so the test runs unattended; otherwise each question is
printed and a person at the table answers it with the seat buttons. Exit
status 0 when every part passed, 1 when one failed (the table says what to
fix), 2 for a profile or port that cannot be used at all.
"""

from __future__ import annotations

import argparse
import time
from contextlib import ExitStack
from pathlib import Path

from cogtable.errors import UserError
from cogtable.mock.people.selftest import SimulatedPerson
from cogtable.mock.world import SimClock
from cogtable.selftest import TableParts, open_table_parts, results_table, run_selftest
from cogtable.selftest_terms import ButtonPerson, Person, SelfTestStep
from firmware_bridge.firmware_config import (
    FirmwareConfig,
    FirmwareConfigError,
    read_firmware_config,
)
from firmware_bridge.link import LinkError, open_serial, resolve_port
from hardware.profile import Profile, ProfileError, load_profile

NAME = "selftest"
HELP = "Check the table's parts one by one (LEDs, buttons, dice, camera, Pico firmware)."
MAX_TIMEOUT_S = 600.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--profile P``, ``--timeout S`` (how long a person gets for each answer)."""
    parser.add_argument(
        "--profile", type=Path, default=None, help="table profile (default: the mock table)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=20.0,
        help="seconds a person gets to answer each question (default 20)",
    )


def run(args: argparse.Namespace) -> int:
    """Run every step, print each as it ends, then the table; 1 if a part failed."""
    if not 0 < args.timeout <= MAX_TIMEOUT_S:
        raise UserError(f"--timeout must be above 0 and at most {MAX_TIMEOUT_S:g} s")
    profile = _profile(args.profile)
    config = _firmware_config()
    with ExitStack() as stack:
        simulator, device = _device(profile, stack)
        clock = SimClock() if simulator is not None else None
        now = clock.now if clock is not None else time.monotonic
        parts = stack.enter_context(
            open_table_parts(profile, device, simulator=simulator, clock=now)
        )
        person = _person(parts, clock, args.timeout)
        print(f"self-test of {profile.name} ({profile.source}): {_who(simulator)}")
        steps = run_selftest(parts, person, config, progress=_say_step)
    print(results_table(steps))
    return 1 if any(step.failed for step in steps) else 0


def _profile(path: Path | None) -> Profile:
    try:
        return load_profile(path)
    except ProfileError as error:
        raise UserError(str(error)) from None


def _firmware_config() -> FirmwareConfig:
    try:
        return read_firmware_config()
    except FirmwareConfigError as error:
        raise UserError(str(error)) from None


def _device(profile: Profile, stack: ExitStack) -> tuple[object | None, str]:
    """(the simulator or None, the device path to open); UserError for a port that is not there."""
    port = profile.serial.port
    if port == "sim":
        from firmware_bridge.simulator import Simulator, SimulatorError

        try:
            simulator = stack.enter_context(Simulator())
        except SimulatorError as error:
            raise UserError(str(error)) from None
        return simulator, simulator.port
    try:
        path = resolve_port(port)
    except LinkError as error:
        raise UserError(str(error)) from None
    if not Path(path).exists():
        raise UserError(
            f"no serial port {path} ([serial] port in {profile.source}): is the Pico plugged in?"
        )
    _can_open(path, profile)
    return None, path


def _can_open(path: str, profile: Profile) -> None:
    """UserError unless ``path`` opens as a serial port (not a plain file, not held elsewhere)."""
    try:
        open_serial(path).close()
    except OSError as error:  # pyserial's SerialException is an OSError
        raise UserError(
            f"cannot open the serial port {path} ([serial] port in {profile.source}): {error}"
        ) from None


def _person(parts: TableParts, clock: SimClock | None, timeout: float) -> Person:
    if clock is not None:
        return SimulatedPerson(parts, clock)
    return ButtonPerson(parts.inbox, timeout)


def _who(simulator: object | None) -> str:
    if simulator is not None:
        return "the simulated Pico and mock pins, a simulated person answering (unattended)"
    return "answer each question with a seat's buttons (confirm = yes, undo = no)"


def _say_step(step: SelfTestStep) -> None:
    print(f"  {step.name}: {step.outcome.value}", flush=True)
