"""``cogtable games``: the games in the journal (or, with --available, the rules engines)."""

from __future__ import annotations

import argparse
import functools
import json
import time

from cogtable.commands._journal_access import add_state_dir, open_journal
from cogtable.errors import UserError
from cogtable.game_choice import choose, players_of, refereeable, unavailable
from cogtable.journal import GameSummary
from cogtable.tables import adapter_for
from games.core import BadOptions, State, new_game
from hardware.profile import ProfileError, load_profile

NAME = "games"
HELP = "List the games in the journal: id, game, start, status, moves, result."
HEADER = f"{'ID':>5}  {'GAME':<10} {'STARTED':<16}  {'STATUS':<9} {'MOVES':>10}  RESULT"
"""The listing's first line, over the columns :func:`describe` fills."""


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
    else:
        print(HEADER)
    for summary in summaries:
        print(describe(summary))
    damaged = [summary for summary in summaries if summary.damage is not None]
    if damaged:
        raise UserError("; ".join(str(summary.damage) for summary in damaged))
    return 0


def describe(summary: GameSummary) -> str:
    """One line for one journaled game, under :data:`HEADER`'s columns."""
    started = _when(summary.started)
    result = ""
    if summary.damage is not None:
        result = "  damaged: export and replay refuse it (see below)"
    elif summary.outcome:
        result = f"  {outcome_words(summary)}"
    return (
        f"{summary.id:5d}  {summary.game:<10} {started}  {summary.status:<9}"
        f" {summary.actions:4d} moves{result}"
    )


def outcome_words(summary: GameSummary) -> str:
    """Who won and how, with the players' names: 'Red won (turned the top wheel)'."""
    outcome = summary.outcome or {}
    winners = [w for w in outcome.get("winners") or [] if isinstance(w, int)]
    names = [player_name(summary.game, json.dumps(summary.options), w) for w in winners]
    who = f"{' and '.join(names)} won" if names else "nobody won"
    reason = outcome.get("reason")
    return f"{who} ({reason})" if reason else who


def player_name(game: str, options: str, player: int) -> str:
    """The name the game gives ``player`` (Red, P2, player 3); 'player N' if it cannot say.

    ``options`` are the journaled options as JSON text (a key for the cache).
    """
    state = _set_up(game, options)
    name = state.player_name(player) if state is not None else f"player {player + 1}"
    return name[:1].upper() + name[1:]


@functools.lru_cache(maxsize=16)
def _set_up(game: str, options: str) -> State | None:
    """The game set up anew from its journaled options, to ask it names; None if it cannot be."""
    try:
        return new_game(game, json.loads(options))
    except (BadOptions, ImportError, ValueError, KeyError):
        return None


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
        f"{choice.label():<18} {players_of(adapter_for(choice.game), choice.options)} players"
        for choice in refereeable(profile)
    ]
    missing = unavailable(profile)
    return lines + (["not on this table:", *(f"  {line}" for line in missing)] if missing else [])
