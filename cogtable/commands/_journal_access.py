"""Shared by the commands that read the game journal (games, replay, export)."""

from __future__ import annotations

import argparse
from pathlib import Path

from cogtable.errors import UserError
from cogtable.journal import Journal
from cogtable.runtime import JOURNAL_NAME
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


def open_journal(state_dir: Path | None) -> Journal:
    """The existing journal in ``state_dir``; never creates one."""
    path = (state_dir or default_state_dir()) / JOURNAL_NAME
    if not path.is_file():
        raise UserError(f"no game journal at {path} (use --state-dir)")
    return Journal(path)


def journal_record(state_dir: Path | None, game_id: int) -> Record:
    """Game ``game_id`` from the journal as a record."""
    with open_journal(state_dir) as journal:
        return journal.record(game_id)
