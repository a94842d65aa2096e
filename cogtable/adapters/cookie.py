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
from games.cookie.actions import Hunt, Play
from games.core import Action


class CookieAdapter(TableAdapter):
    """The Cookie 2.0: Every Man for Himself (4-6 players), The Big Hunt (2-4)."""

    game = "cookie"
    player_counts: Mapping[str, Sequence[int]] = PLAYER_COUNTS
    camera_note = "the camera reads no cards yet: deals, reveals and cards come from the console"

    def variant(self, options: Mapping[str, Any]) -> str:
        """``hunt`` or ``big-hunt``."""
        return str(options.get("variant", DEFAULTS["variant"]))

    def is_secret(self, action: Action) -> bool:
        """A card laid (Every Man for Himself) or a hunt card (The Big Hunt) lies face down."""
        return isinstance(action, Play | Hunt)
