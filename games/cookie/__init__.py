"""The Cookie 2.0: Every Man for Himself (4-6 players) and The Big Hunt (2-4 players).

>>> state = new_game({"variant": "big-hunt", "players": 3}, seed=1)
>>> state.to_act()
(-1,)
>>> state.view(None)["coins"]
[1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import BadOptions, merge_options

from .actions import ACTIONS
from .bighunt import BigHuntState
from .common import CookieState
from .hunt import HuntState
from .position import CookiePosition
from .reference import CHARACTERS, REFERENCES

NAME = "cookie"

DEFAULTS: dict[str, Any] = {
    "variant": "hunt",
    "players": 4,
    "first_player": 0,
    "roles_known_at_deal": True,
    "extra_rounds": 0,
}

PLAYER_COUNTS = {"hunt": (4, 5, 6), "big-hunt": (2, 3, 4)}
"""How many may play each variant."""

__all__ = [
    "ACTIONS",
    "CHARACTERS",
    "DEFAULTS",
    "NAME",
    "PLAYER_COUNTS",
    "REFERENCES",
    "BigHuntState",
    "CookiePosition",
    "CookieState",
    "HuntState",
    "new_game",
]


def check_options(options: Mapping[str, Any]) -> None:
    """Refuse option values the rulebook does not allow, naming the key."""
    variant, players = options["variant"], options["players"]
    if variant not in PLAYER_COUNTS:
        raise BadOptions(f"option 'variant' = {variant!r}: expected one of {list(PLAYER_COUNTS)}")
    if players not in PLAYER_COUNTS[variant]:
        counts = PLAYER_COUNTS[variant]
        raise BadOptions(
            f"option 'players' = {players}: {variant} is for {counts[0]} to {counts[-1]} players"
        )
    if not 0 <= options["first_player"] < players:
        raise BadOptions(
            f"option 'first_player' = {options['first_player']}: expected a seat 0 to {players - 1}"
        )
    extra = options["extra_rounds"]
    if extra < 0 or (extra and variant == "hunt"):
        raise BadOptions(
            f"option 'extra_rounds' = {extra}: Every Man for Himself always plays one round "
            "per player; The Big Hunt may add zero or more rounds"
        )


def new_game(options: Mapping[str, Any] | None = None, seed: int = 0) -> CookieState:
    """A new game; the first chance node deals the first round.

    Options (checked by :func:`games.core.merge_options`):

    - ``variant``: ``"hunt"`` (Every Man for Himself) or ``"big-hunt"``;
    - ``players``: 4-6 for ``hunt``, 2-4 for ``big-hunt``;
    - ``first_player``: the seat holding the First Player token in round 1;
    - ``roles_known_at_deal``: ``False`` on a table that cannot see face-down
      Role cards: they are supplied by chance actions when they are turned up;
    - ``extra_rounds``: The Big Hunt only, rounds played after everyone was first
      player twice.
    """
    merged = merge_options(options, DEFAULTS)
    check_options(merged)
    if merged["variant"] == "hunt":
        return HuntState(merged, seed)
    return BigHuntState(merged, seed)
