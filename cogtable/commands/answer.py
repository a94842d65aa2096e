"""``cogtable answer``: answer what the running table asks, from any shell on the Pi."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cogtable.console_inbox import Inbox
from cogtable.errors import UserError
from cogtable.inputs import ConsoleCommand
from cogtable.service.runner import default_state_dir, read_status
from hardware.profile import MAX_SEATS

NAME = "answer"
HELP = "Answer what the running table waits for (a die, a letter, a card, a choice)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The answer, whose it is, and where the service keeps its state."""
    parser.add_argument("text", nargs="?", help="the answer (without it: show the question)")
    parser.add_argument("--seat", type=int, help="the seat answering (1 = the first seat)")
    parser.add_argument("--state-dir", type=Path, default=None, help="the service's state folder")


def run(args: argparse.Namespace) -> int:
    """Print the open questions, or leave the answer for the service."""
    state_dir = args.state_dir or default_state_dir()
    status = read_status(state_dir)
    asked = status.get("waiting_for") or []
    if not isinstance(asked, list) or not all(isinstance(entry, dict) for entry in asked):
        raise UserError(f"the status in {state_dir} does not say what the table waits for")
    if args.text is None:
        print(status.get("asking") or "the table is not waiting for anything")
        return 0
    if args.seat is not None and not 1 <= args.seat <= MAX_SEATS:
        raise UserError(f"--seat is a seat number 1 to {MAX_SEATS}, not {args.seat}")
    seat = None if args.seat is None else args.seat - 1
    command = ConsoleCommand(args.text, seat, _key(asked, seat))
    try:
        Inbox(state_dir).post(command)
    except OSError as error:
        raise UserError(f"cannot leave the answer in {state_dir}: {error}") from error
    print(f"answer {args.text!r} left for the table; `cogtable status` shows whether it counted")
    return 0


def _key(asked: list[dict[str, Any]], seat: int | None) -> str | None:
    """The key of the one question this answer is for (None when several may fit)."""
    fitting = [e for e in asked if seat is None or e.get("player") in (seat, None)]
    keys = {str(entry.get("key")) for entry in fitting}
    return keys.pop() if len(keys) == 1 else None
