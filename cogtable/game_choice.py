"""Which game the table plays: from the profile, from ``--game``, or from the table itself.

It is also the table's game-setup policy, the same for every game: how many
play (:func:`players_of`), which counts a variant allows (:func:`seats_needed`),
the options fitted to the seats (:func:`options_for`) and what a profile lacks
(:func:`missing`), read off the adapter's ``player_counts`` and its optional
:class:`~cogtable.tables.base.Variants` and :class:`~cogtable.tables.base.TableSetup`.

A :class:`GameChoice` is a game's engine name and its engine options. A
profile names one (``[table] game`` and ``[table.options]``); ``--game`` and
``--players`` override it; a long press of new game steps through
:func:`refereeable`, the games this profile's hardware can referee. Each game
(and variant) the profile cannot referee is named with the missing part by
:func:`unavailable`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cogtable.errors import UserError
from cogtable.sensors import Sensors
from cogtable.tables import adapter_for, table_games
from cogtable.tables.base import TableAdapter, TableSetup, Variants
from games.core import BadOptions, load_game, new_game
from hardware.profile import Profile


@dataclass(frozen=True)
class GameChoice:
    """Which game the table plays, with which engine options."""

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        """The game and its variant, as people name it: ``cookie big-hunt``."""
        variant = variant_of(adapter_for(self.game), self.options)
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
    chosen = GameChoice(name, options_for(adapter, given, len(profile.seats)))
    try:
        new_game(name, chosen.options)
    except BadOptions as error:
        raise UserError(f"{name}: {error}") from error
    problems = missing(adapter, profile, chosen.options)
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
            if name == profile.table.game and variant_of(adapter, profile.table.options) == variant:
                given = dict(profile.table.options)
            found.append(GameChoice(name, options_for(adapter, given, len(profile.seats))))
    return found


def refereeable(profile: Profile) -> list[GameChoice]:
    """The games this profile's hardware can referee (a long press of new game steps through)."""
    return [choice for choice in candidates(profile) if not _problems(profile, choice)]


def unavailable(profile: Profile) -> list[str]:
    """One line per game this profile cannot referee, naming the missing part."""
    return [problem for choice in candidates(profile) for problem in _problems(profile, choice)[:1]]


def _problems(profile: Profile, choice: GameChoice) -> list[str]:
    return missing(adapter_for(choice.game), profile, choice.options)


# -- the game-setup policy ------------------------------------------------------------


def variant_of(adapter: TableAdapter, options: Mapping[str, Any]) -> str:
    """The variant ``options`` name (``""`` for a game with one)."""
    return adapter.variant(options) if isinstance(adapter, Variants) else ""


def seats_needed(adapter: TableAdapter, options: Mapping[str, Any]) -> Sequence[int]:
    """The player counts the (variant of the) game allows."""
    return adapter.player_counts.get(variant_of(adapter, options), ())


def options_for(adapter: TableAdapter, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """Engine options for a table with ``seats`` seats: ``players`` filled in if absent."""
    chosen = dict(options)
    counts = seats_needed(adapter, chosen)
    if "players" not in chosen and counts and "players" in _defaults(adapter.game):
        fitting = [count for count in counts if count <= seats]
        chosen["players"] = max(fitting) if fitting else min(counts)
    return adapter.table_options(chosen) if isinstance(adapter, TableSetup) else chosen


def players_of(adapter: TableAdapter, options: Mapping[str, Any]) -> int:
    """How many play with these options (the engine's default when not given)."""
    players = options.get("players", _defaults(adapter.game).get("players", 2))
    return players if isinstance(players, int) and not isinstance(players, bool) else 0


def missing(adapter: TableAdapter, profile: Profile, options: Mapping[str, Any]) -> list[str]:
    """The parts the game needs that ``profile`` lacks (empty: it can be refereed)."""
    players, seats = players_of(adapter, options), len(profile.seats)
    label = " ".join(part for part in (adapter.game, variant_of(adapter, options)) if part)
    problems = []
    counts = seats_needed(adapter, options)
    if counts and players not in counts:
        problems.append(f"{label}: is for {_count_words(counts)} players, not {players}")
    elif players > seats:
        problems.append(f"{label}: needs {players} seats, this table has {seats}")
    for segment in adapter.segments_needed():
        if segment not in profile.leds.segment_names():
            problems.append(f"{label}: no LED segment {segment!r} in this profile")
    if isinstance(adapter, TableSetup):
        problems += adapter.table_problems(profile, options)
    return problems


def _defaults(game: str) -> Mapping[str, Any]:
    return getattr(load_game(game), "DEFAULTS", {})


def _count_words(counts: Sequence[int]) -> str:
    ordered = sorted(counts)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"{ordered[0]} to {ordered[-1]}"
    return " or ".join(str(count) for count in ordered)
