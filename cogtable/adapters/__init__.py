"""Table adapters: one module per game, the only code that knows a game and the sensors.

:func:`adapter_for` gives the :class:`~cogtable.adapters.base.TableAdapter` of a
game by its engine name; :func:`table_games` lists the games that have one.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from cogtable.adapters.base import TableAdapter
from games.core import available_games


def table_games() -> list[str]:
    """Every game with a table adapter, in name order."""
    return list(_table_games())


@functools.cache
def _table_games() -> tuple[str, ...]:
    """The adapter modules beside this file named after a game, listed once.

    Other modules here (``base``, a game's helpers such as ``cog_parts``) are not games.
    """
    names = {info.name for info in pkgutil.iter_modules(__path__)}
    return tuple(sorted(names & set(available_games())))


def adapter_for(game: str) -> TableAdapter:
    """The table adapter of ``game``; a ValueError naming the known games if there is none."""
    if game not in table_games():
        known = ", ".join(table_games())
        raise ValueError(f"no table adapter for the game {game!r}; the table knows {known}")
    module = importlib.import_module(f"{__name__}.{game}")
    adapters = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, TableAdapter)
        and value.__dict__.get("game") == game
    ]
    return adapters[0]()
