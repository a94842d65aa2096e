"""Shared by the commands that read the game journal (games, replay, export).

They only read, so the journal is opened read-only: never created, never
changed, and readable by a user who may only read the state folder.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cogtable.journal import JOURNAL_NAME, LARGEST_ID, Journal
from cogtable.service.runner import default_state_dir
from games.core import Record


def add_state_dir(parser: argparse.ArgumentParser) -> None:
    """The ``--state-dir`` option, defaulting to the service's state folder."""
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help="folder holding journal.sqlite3 (default: the service's state folder)",
    )


def game_id(text: str) -> int:
    """A game id as ``cogtable games`` lists it: a whole number 1 or more (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a game id is a number, not {text!r}") from None
    if not 1 <= value <= LARGEST_ID:
        raise argparse.ArgumentTypeError(f"a game id is 1 to {LARGEST_ID}, not {text}")
    return value


def open_journal(state_dir: Path | None) -> Journal:
    """The existing journal in ``state_dir``, read-only; never creates one."""
    return Journal((state_dir or default_state_dir()) / JOURNAL_NAME, read_only=True)


def journal_record(state_dir: Path | None, game: int) -> Record:
    """Game ``game`` from the journal as a record."""
    with open_journal(state_dir) as journal:
        return journal.record(game)
