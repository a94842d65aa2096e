"""Terminal front ends, one module per game (``cogtable.terminal.<game>``).

A module defines ``HELP`` (one line), ``add_arguments(parser)`` for its
``cogtable play <game>`` options, ``run(args) -> int`` to play, and
``render(state) -> str`` to draw a state (used by ``cogtable replay``).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

QUIT = "quit"
"""The one word that stops a game, at every prompt of every game.

Nothing shorter: at a table a single letter is always an answer (``q`` draws
the Q from the bag), so quitting can never be typed by mistake.
"""


def is_quit(answer: str) -> bool:
    """The answer is the quit word (any case, spaces around it allowed)."""
    return answer.strip().casefold() == QUIT


def front_ends() -> dict[str, ModuleType]:
    """Every game's terminal module, by game name."""
    return {
        info.name: importlib.import_module(f"{__name__}.{info.name}")
        for info in pkgutil.iter_modules(__path__)
        if not info.name.startswith("_")
    }
