"""``cogtable games``: the games in the journal (or, with --available, the rules engines)."""

from __future__ import annotations

import argparse
import time

from cogtable.adapters import adapter_for
from cogtable.commands._journal_access import add_state_dir, open_journal
from cogtable.errors import UserError
from cogtable.game_choice import choose, refereeable, unavailable
from cogtable.journal import GameSummary
from hardware.profile import ProfileError, load_profile

NAME = "games"
HELP = "List the games in the journal: id, game, start, status, moves, result."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the journal is; or list the rules engines instead."""
    add_state_dir(parser)
    parser.add_argument(
        "--available", action="store_true", help="list the games this table can referee"
    )
    parser.add_argument("--profile", help="table profile for --available (default: the mock table)")


def run(args: argparse.Namespace) -> int:
    """Print one line a game; a damaged game is marked and named on stderr (exit status 2)."""
    if args.available:
        print("\n".join(available_lines(args.profile)))
        return 0
    with open_journal(args.state_dir) as journal:
        summaries = journal.games(check=True)
    if not summaries:
        print("no games in the journal yet")
    for summary in summaries:
        print(describe(summary))
    damaged = [summary for summary in summaries if summary.damage is not None]
    if damaged:
        raise UserError("; ".join(str(summary.damage) for summary in damaged))
    return 0


def describe(summary: GameSummary) -> str:
    """One line for one journaled game."""
    started = _when(summary.started)
    result = ""
    if summary.damage is not None:
        result = "  damaged: export and replay refuse it (see below)"
    elif summary.outcome:
        winners = summary.outcome.get("winners") or []
        result = f"  {summary.outcome.get('reason', '')}, winners {winners}"
    return (
        f"{summary.id:5d}  {summary.game:<10} {started}  {summary.status:<9}"
        f" {summary.actions:4d} moves{result}"
    )


def _when(started: object) -> str:
    """The start time as the listing shows it ('?' for a time no clock gives)."""
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(started))  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError, OSError):
        return "?" * 16


def available_lines(path: str | None) -> list[str]:
    """The games this profile can referee (with their players), then each other one and why not."""
    try:
        profile = load_profile(path)
    except ProfileError as error:
        raise UserError(str(error)) from error
    try:
        choose(profile)
    except UserError as error:
        raise UserError(f"{profile.source}: [table]: {error}") from error
    lines = [
        f"{choice.label():<18} {adapter_for(choice.game).players_of(choice.options)} players"
        for choice in refereeable(profile)
    ]
    missing = unavailable(profile)
    return lines + (["not on this table:", *(f"  {line}" for line in missing)] if missing else [])
