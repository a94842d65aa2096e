"""The games at the table: one kit per game (``cogtable/tables/<game>/``), listed here.

A kit is a package exporting ``Adapter`` (its :class:`~cogtable.tables.base.TableAdapter`)
and ``terminal`` (its ``cogtable play`` front end). A fifth game is one folder and one
line in :data:`KITS`. Kits load when first asked for, so the table core imports none.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Final

from cogtable.tables.base import TableAdapter

KITS: Final[Mapping[str, str]] = {
    "kogworks": "cogtable.tables.kogworks",
    "cog": "cogtable.tables.cog",
    "commissars": "cogtable.tables.commissars",
    "cookie": "cogtable.tables.cookie",
}
"""Every game the table referees: its engine name -> the module of its kit."""


def table_games() -> list[str]:
    """Every game with a kit, in name order."""
    return sorted(KITS)


def kit(game: str) -> ModuleType:
    """The kit of ``game``; a ValueError naming the known games if there is none."""
    if game not in KITS:
        known = ", ".join(table_games())
        raise ValueError(f"no table adapter for the game {game!r}; the table knows {known}")
    return importlib.import_module(KITS[game])


def adapter_for(game: str) -> TableAdapter:
    """A fresh table adapter of ``game``."""
    adapter: TableAdapter = kit(game).Adapter()
    return adapter


def front_ends() -> dict[str, ModuleType]:
    """Every game's terminal front end (``cogtable play GAME``), by game name."""
    return {game: kit(game).terminal for game in table_games()}
