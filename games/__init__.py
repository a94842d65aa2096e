"""Pure rules engines: one package per game, all on the contract of :mod:`games.core`.

Standard library only; nothing here does I/O, reads a clock or starts a thread.
"""

from games.core import (
    CHANCE,
    Action,
    BadOptions,
    BadRecord,
    Event,
    IllegalAction,
    Outcome,
    Record,
    State,
    available_games,
    load_game,
    new_game,
    replay,
)

__all__ = [
    "CHANCE",
    "Action",
    "BadOptions",
    "BadRecord",
    "Event",
    "IllegalAction",
    "Outcome",
    "Record",
    "State",
    "available_games",
    "load_game",
    "new_game",
    "replay",
]
