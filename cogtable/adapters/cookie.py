"""The Cookie 2.0 at the table, before the camera reads cards.

No card zones are read yet (cards on the table are their own issue), so this
adapter declares no camera region: deals, role cards turned up and every
card laid go through the console. Both variants; the variant is the engine's
``variant`` option (``hunt``: Every Man for Himself, ``big-hunt``: The Big Hunt).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cogtable.adapters.base import TableAdapter
from games.cookie import DEFAULTS, PLAYER_COUNTS
from games.cookie.actions import Play
from games.core import Action, Event, Request, State


class CookieAdapter(TableAdapter):
    """The Cookie 2.0: Every Man for Himself (4-6 players), The Big Hunt (2-4)."""

    game = "cookie"
    player_counts: Mapping[str, Sequence[int]] = PLAYER_COUNTS
    camera_note = "the camera reads no cards yet: deals, reveals and cards come from the console"

    def variant(self, options: Mapping[str, Any]) -> str:
        """``hunt`` or ``big-hunt``."""
        return str(options.get("variant", DEFAULTS["variant"]))

    def describe(
        self, state: State, action: Action, events: Sequence[Event], chance: Request | None
    ) -> str:
        """A card laid is face down: the table says who laid one, never which."""
        if isinstance(action, Play):
            return f"{state.player_name(action.player)} laid a card face down"
        return super().describe(state, action, events, chance)
