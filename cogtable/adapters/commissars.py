"""Cogs and Commissars at the table, before the camera reads cards.

No card zones are read yet (cards on the table are their own issue), so this
adapter declares no camera region: every draw and flip from a deck and every
play goes through the console, a pass in a response window is a seat's pass
(or confirm) button. Who could answer with a Blitz is a secret of their hand:
the seat LEDs and the status show only the player the game waits for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogtable.adapters.base import TableAdapter
from games.core import CHANCE, State


class CommissarsAdapter(TableAdapter):
    """Cogs and Commissars for 2 to 6 players; no camera reading yet."""

    game = "commissars"
    player_counts: Mapping[str, Sequence[int]] = {"": (2, 3, 4, 5, 6)}
    camera_note = "the camera reads no cards yet: plays and draws come from the console"

    def waited_for(self, state: State) -> tuple[int, ...]:
        """Only the players the game waits for; never who could interject with a Blitz."""
        return tuple(player for player in state.view()["to_act"] if player != CHANCE)
