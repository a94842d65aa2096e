"""``cogtable games``: list the games this table can referee."""

from __future__ import annotations

import argparse

from games.core import available_games

NAME = "games"
HELP = "List the games this table can referee."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No arguments."""


def run(args: argparse.Namespace) -> int:
    """Print one game name a line."""
    for name in available_games():
        print(name)
    return 0
