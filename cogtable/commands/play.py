"""``cogtable play GAME``: play a game in the terminal, humans and built-in players."""

from __future__ import annotations

import argparse

from cogtable.commands._seats import CONVENTION
from cogtable.tables import front_ends

NAME = "play"
HELP = "Play a game in the terminal (any seat a human or a built-in player)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One sub-command per game that has a terminal front end; the seat convention below."""
    parser.epilog = CONVENTION
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True, title="games")
    for name, module in front_ends().items():
        sub = games.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(play=module.run)


def run(args: argparse.Namespace) -> int:
    """Hand over to the chosen game's front end."""
    return int(args.play(args) or 0)
