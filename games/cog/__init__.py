"""C.O.G.: players collect letters with their cogs and spell goal words on their grids.

``new_game(options, seed)`` starts a game; options are ``players`` (2-4),
``first_player`` (the seat holding turn-order card #1) and ``edition`` (the
path of a table owner's edition data file; empty for the built-in one).
See :mod:`games.cog.state` for how the rounds map onto the engine contract and
:mod:`games.cog.position` for setting up a position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.cog.actions import ACTIONS
from games.cog.edition import load_edition
from games.cog.position import CogPosition, MatPosition
from games.cog.state import CogState
from games.core import BadOptions, merge_options

NAME = "cog"
DEFAULTS: dict[str, Any] = {"players": 4, "first_player": 0, "edition": ""}

__all__ = [
    "ACTIONS",
    "DEFAULTS",
    "NAME",
    "CogPosition",
    "CogState",
    "MatPosition",
    "new_game",
]


def new_game(options: Mapping[str, Any] | None = None, seed: int = 0) -> CogState:
    """A new game after setup's chance events are waiting (the goal die comes first)."""
    merged = merge_options(options, DEFAULTS)
    players = merged["players"]
    if players not in (2, 3, 4):
        raise BadOptions(f"C.O.G. is for 2 to 4 players, not {players}")
    if merged["first_player"] not in range(players):
        raise BadOptions(f"first_player must be a seat 0 to {players - 1}")
    return CogState(merged, seed, load_edition(merged["edition"]))
