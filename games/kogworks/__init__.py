"""Kogworks: link your base wheel to the gold top wheel without locking your own gears.

The engine keeps the shared contract of :mod:`games.core`; see
:mod:`games.kogworks.board` for pegs and notation, :mod:`games.kogworks.rules`
for the bitboard rules, and :mod:`games.kogworks.players` for built-in players.
"""

from games.kogworks.board import BASES, NUM_PEGS, TOP, parse_peg, peg_at, peg_name
from games.kogworks.position import KogworksPosition
from games.kogworks.rules import Violation
from games.kogworks.state import (
    ACTIONS,
    DEFAULTS,
    NAME,
    PLAYERS,
    RESERVE,
    Drawn,
    KogworksState,
    LegalActions,
    LostByBlock,
    Move,
    Moved,
    Place,
    Placed,
    Won,
    new_game,
    parse,
)

__all__ = [
    "ACTIONS",
    "BASES",
    "DEFAULTS",
    "NAME",
    "NUM_PEGS",
    "PLAYERS",
    "RESERVE",
    "TOP",
    "Drawn",
    "KogworksPosition",
    "KogworksState",
    "LegalActions",
    "LostByBlock",
    "Move",
    "Moved",
    "Place",
    "Placed",
    "Violation",
    "Won",
    "new_game",
    "parse",
    "parse_peg",
    "peg_at",
    "peg_name",
]
