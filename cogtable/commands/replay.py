"""``cogtable replay FILE``: play back a recorded game, move by move."""

from __future__ import annotations

import argparse
from pathlib import Path

from cogtable.commands._journal_access import add_state_dir, game_id, journal_record
from cogtable.errors import UserError
from cogtable.files import read_text
from cogtable.tables import front_ends
from games.core import BadRecord, IllegalAction, Outcome, Record, State, load_game

NAME = "replay"
HELP = "Play back a game (a record file, or a journal game id) move by move."
RECORD_LIMIT = 64 * 1024 * 1024
"""Bytes a record file may hold (a game of 20,000 actions is a few MiB)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The record file, and whether to draw every position."""
    parser.add_argument(
        "game", help="a record file ('cogtable play --record', 'cogtable export') or a game id"
    )
    add_state_dir(parser)
    parser.add_argument(
        "--boards", action="store_true", help="draw the position after every action"
    )


def read_record(path: Path) -> Record:
    """The record in ``path``; a missing or unreadable file is a :class:`UserError`."""
    try:
        text = read_text(path, RECORD_LIMIT, "a game record")
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"cannot read {path}: {error}") from error
    return Record.loads(text)


def run(args: argparse.Namespace) -> int:
    """Apply every recorded action, printing each; refuse a record that does not replay."""
    path = Path(args.game)
    if args.game.isdecimal() and not path.exists():
        try:
            wanted = game_id(args.game)
        except argparse.ArgumentTypeError as error:
            raise UserError(str(error)) from None
        record = journal_record(args.state_dir, wanted)
    else:
        record = read_record(path)
    render = getattr(front_ends().get(record.game), "render", None)
    state = load_game(record.game).new_game(record.options, record.seed)
    for number, action in enumerate(record.actions, start=1):
        try:
            events = state.apply(action)
        except IllegalAction as error:
            raise BadRecord(
                f"action {number} ({action.safe_notation()}) does not apply: {error}"
            ) from error
        described = "; ".join(event.describe() for event in events)
        print(f"{number:4d}. {action.notation()}" + (f"  ({described})" if described else ""))
        if args.boards and render is not None:
            print(render(state))
    if render is not None:
        print(render(state))
    outcome = state.outcome()
    print(f"Result: {_describe(state, outcome)}")
    return 0


def _describe(state: State, outcome: Outcome | None) -> str:
    if outcome is None:
        return "unfinished"
    if not outcome.winners:
        return f"no winner ({outcome.reason})"
    names = ", ".join(state.player_name(p) for p in outcome.winners)
    return f"{names} won ({outcome.reason})"
