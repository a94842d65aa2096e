"""C.O.G. at the table, before the camera reads its tiles: everything else routes by request.

The C.O.G. board, mats, letter tiles and pawns are not read by the camera yet
(their reader is its own issue), so this adapter declares no camera region:
every die roll goes to the table's dice (the Pico's electronic dice or a GPIO
roll button, else the console), every letter and cabinet-card draw and every
player's choice to the console. The seat LEDs show the turn order's current
player; victory points are never shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogtable.adapters.base import TableAdapter


class CogAdapter(TableAdapter):
    """C.O.G. for 2 to 4 players; no camera reading yet."""

    game = "cog"
    player_counts: Mapping[str, Sequence[int]] = {"": (2, 3, 4)}
    camera_note = (
        "the camera reads no C.O.G. tiles, cogs or dice yet: choices come from the console"
    )
