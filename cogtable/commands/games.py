"""``cogtable games``: the games in the journal (or, with --available, the rules engines)."""

from __future__ import annotations

import argparse
import time

from cogtable.commands._journal_access import add_state_dir, open_journal
from cogtable.journal import GameSummary
from games.core import available_games

NAME = "games"
HELP = "List the games in the journal: id, game, start, status, moves, result."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the journal is; or list the rules engines instead."""
    add_state_dir(parser)
    parser.add_argument(
        "--available", action="store_true", help="list the games this table can referee"
    )


def run(args: argparse.Namespace) -> int:
    """Print one line a game."""
    if args.available:
        print("\n".join(available_games()))
        return 0
    with open_journal(args.state_dir) as journal:
        summaries = journal.games()
    if not summaries:
        print("no games in the journal yet")
    for summary in summaries:
        print(describe(summary))
    return 0


def describe(summary: GameSummary) -> str:
    """One line for one journaled game."""
    started = time.strftime("%Y-%m-%d %H:%M", time.localtime(summary.started))
    result = ""
    if summary.outcome:
        winners = summary.outcome.get("winners") or []
        result = f"  {summary.outcome.get('reason', '')}, winners {winners}"
    return (
        f"{summary.id:5d}  {summary.game:<10} {started}  {summary.status:<9}"
        f" {summary.actions:4d} moves{result}"
    )
