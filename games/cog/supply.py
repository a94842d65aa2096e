"""The fixed numbers of a C.O.G. table: colours, tokens, Task 6's limits, turn-order bonuses."""

from __future__ import annotations

COLOURS = ("Red", "Blue", "Green", "Yellow")
STAR_TOKENS = 20
MAX_LETTERS = 7
MAX_STARS = 3
FEW_LETTERS = 3
TURN_BONUSES = (None, "star", "vp3", "letter")
"""Turn-order bonuses by position: #1 none, #2 a star, #3 3 VP, #4 a letter."""


def top_slots_for(players: int) -> tuple[int, ...]:
    """Which of the four top slots are used: 4 players all, 3 not the leftmost, 2 the middle two."""
    return {4: (0, 1, 2, 3), 3: (1, 2, 3), 2: (1, 2)}[players]


def dice_for(players: int, colours: tuple[str, ...]) -> tuple[str, ...]:
    """The dice in play: 3 players drop the black die, 2 players black and aqua."""
    dropped = {4: (), 3: ("black",), 2: ("black", "aqua")}[players]
    return tuple(colour for colour in colours if colour not in dropped)
