"""Terminal front ends, one module per game (``cogtable.terminal.<game>``).

A module defines ``HELP`` (one line), ``add_arguments(parser)`` for its
``cogtable play <game>`` options, ``run(args) -> int`` to play, and
``render(state) -> str`` to draw a state (used by ``cogtable replay``).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def front_ends() -> dict[str, ModuleType]:
    """Every game's terminal module, by game name."""
    return {
        info.name: importlib.import_module(f"{__name__}.{info.name}")
        for info in pkgutil.iter_modules(__path__)
        if not info.name.startswith("_")
    }
