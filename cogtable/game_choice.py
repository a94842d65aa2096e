"""Which game the table plays: from the profile, from ``--game``, or from the table itself.

A :class:`GameChoice` is a game's engine name and its engine options. A
profile names one (``[table] game`` and ``[table.options]``); ``--game`` and
``--players`` override it; a long press of new game steps through
:func:`refereeable`, the games this profile's hardware can referee. Each game
(and variant) the profile cannot referee is named with the missing part by
:func:`unavailable`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cogtable.errors import UserError
from cogtable.sensors import Sensors
from cogtable.tables import adapter_for, table_games
from games.core import BadOptions, new_game
from hardware.profile import Profile


@dataclass(frozen=True)
class GameChoice:
    """Which game the table plays, with which engine options."""

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        """The game and its variant, as people name it: ``cookie big-hunt``."""
        variant = adapter_for(self.game).variant(self.options)
        return f"{self.game} {variant}".strip()


def choose(
    profile: Profile, game: str | None = None, options: Mapping[str, Any] | None = None
) -> GameChoice:
    """The game to play: ``game`` (else the profile's) with its options, checked against the table.

    A game that has no table adapter, or that this profile cannot referee
    (too few seats, a missing LED segment), is a :class:`UserError` in one line.
    """
    name = game or profile.table.game
    if name not in table_games():
        raise UserError(
            f"no such game {name!r} at the table; the table knows {', '.join(table_games())}"
        )
    given = dict(profile.table.options) if name == profile.table.game else {}
    given.update(options or {})
    adapter = adapter_for(name).fitted(Sensors.of(profile))  # a card mat: roles seen late
    chosen = GameChoice(name, adapter.options_for(given, len(profile.seats)))
    try:
        new_game(name, chosen.options)
    except BadOptions as error:
        raise UserError(f"{name}: {error}") from error
    problems = adapter.missing(profile, chosen.options)
    if problems:
        raise UserError(f"cannot referee {problems[0]}")
    return chosen


def candidates(profile: Profile) -> list[GameChoice]:
    """Every game and variant the table knows, with options fitted to the profile's seats."""
    found = []
    for name in table_games():
        adapter = adapter_for(name).fitted(Sensors.of(profile))
        for variant in adapter.player_counts or {"": ()}:
            given = {"variant": variant} if variant else {}
            if name == profile.table.game and adapter.variant(profile.table.options) == variant:
                given = dict(profile.table.options)
            found.append(GameChoice(name, adapter.options_for(given, len(profile.seats))))
    return found


def refereeable(profile: Profile) -> list[GameChoice]:
    """The games this profile's hardware can referee (a long press of new game steps through)."""
    return [choice for choice in candidates(profile) if not _problems(profile, choice)]


def unavailable(profile: Profile) -> list[str]:
    """One line per game this profile cannot referee, naming the missing part."""
    return [problem for choice in candidates(profile) for problem in _problems(profile, choice)[:1]]


def _problems(profile: Profile, choice: GameChoice) -> list[str]:
    return adapter_for(choice.game).missing(profile, choice.options)
