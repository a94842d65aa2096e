"""What a Cookie table carries from round to round, as data: the round, the First Player, coins.

The cards of a round (roles, hands, claims) are set up by its deal, which is
chance actions (:meth:`State.apply`); a position sets what the deal does not.

>>> from dataclasses import replace
>>> from games import cookie
>>> state = cookie.new_game({"variant": "big-hunt", "players": 3}, seed=1)
>>> state.position()
CookiePosition(round=0, first=0, coins=(1, 1, 1))
>>> state.set_position(replace(state.position(), coins=(1, 0, 1)))
>>> state.coins
[1, 0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CookiePosition:
    """The round being played (from 0), the First Player's seat and each seat's coins."""

    round: int
    first: int
    coins: tuple[int, ...]
