"""A C.O.G. position as data, to read from a game or set one up (as python-chess's FEN).

>>> from dataclasses import replace
>>> from games.cog import CogState, new_game
>>> state = new_game({"players": 2}, seed=1)
>>> position = state.position()
>>> position.phase, position.round, len(position.mats)
('setup', 1, 2)
>>> position = position.with_mat(0, reserve="CLAMPOG", stars=2)
>>> later = CogState.from_position(replace(position, supply_stars=10))
>>> "".join(later.mats[0].reserve), later.mats[0].stars, later.supply_stars
('ACGLMOP', 2, 10)
>>> later.to_act()
(-1,)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from games.cog.effects import Effect
from games.cog.flow import Flow
from games.cog.grid import Cell, Grid, Placed
from games.cog.mat import Mat


@dataclass(frozen=True)
class MatPosition:
    """One player's mat. ``reserve`` and grid tiles: capitals, lower case for a tile made wild.

    ``rows`` is the grid as text (``.`` empty, as :meth:`Grid.to_json` shows it)
    and ``words`` the words it spells; an empty ``rows`` is an empty grid.
    """

    reserve: str = ""
    stars: int = 0
    vp: int = 0
    rows: tuple[str, ...] = ()
    words: tuple[Placed, ...] = ()
    cards: tuple[int, ...] = ()
    used: tuple[int, ...] = ()
    items: tuple[int, ...] = ()
    wild: str = ""
    cubes: Mapping[str, str] = field(default_factory=dict)
    """Words with an item cube beside them, and where the cube came from (grid or item)."""
    goals_done: tuple[int, ...] = ()
    bonus_claimed: tuple[Cell, ...] = ()
    pawn: int = 0
    die: int | None = None
    edges: tuple[str, ...] = ()

    @classmethod
    def of(cls, mat: Mat) -> MatPosition:
        """The position of ``mat``."""
        return cls(
            "".join(mat.reserve), mat.stars, mat.vp, _rows(mat.grid),
            tuple(mat.grid.words), tuple(mat.cards), tuple(mat.used), tuple(mat.items),
            mat.wild, dict(mat.cubes), tuple(mat.goals_done), tuple(mat.bonus_claimed),
            mat.pawn, mat.die, tuple(mat.edges),
        )  # fmt: skip

    def set_on(self, mat: Mat) -> None:
        """Put ``mat`` (and its grid) in this position, in place."""
        mat.reserve = sorted(self.reserve)
        mat.stars, mat.vp, mat.wild, mat.pawn, mat.die = (
            self.stars, self.vp, self.wild, self.pawn, self.die,
        )  # fmt: skip
        mat.grid.tiles = {
            (row, col): tile
            for row, line in enumerate(self.rows)
            for col, tile in enumerate(line)
            if tile != "."
        }
        mat.grid.words = list(self.words)
        mat.cards, mat.used, mat.items = list(self.cards), list(self.used), list(self.items)
        mat.cubes, mat.goals_done = dict(self.cubes), list(self.goals_done)
        mat.bonus_claimed, mat.edges = list(self.bonus_claimed), list(self.edges)


def _rows(grid: Grid) -> tuple[str, ...]:
    rows: list[str] = grid.to_json()["rows"]  # type: ignore[assignment]
    return tuple(rows)


@dataclass(frozen=True)
class CogPosition:
    """Everything on a C.O.G. table between two actions, and the effects still waiting.

    The lists follow the seats (``mats``, ``card_slots``, ...) or the die order
    (``die_values``, ``die_cogs``); ``top`` maps each top slot in play to its letters.
    """

    round: int
    phase: str
    order: tuple[int, ...]
    mats: tuple[MatPosition, ...]
    bag: Mapping[str, int]
    supply_stars: int
    removed_goal: int
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    centre: tuple[str | None, ...]
    top: Mapping[int, str]
    top_stars: Mapping[int, int]
    top_cogs: Mapping[int, int | None]
    card_slots: tuple[int | None, ...]
    card_cogs: tuple[int | None, ...]
    die_values: tuple[int, ...]
    die_cogs: tuple[int | None, ...]
    turn_cogs: tuple[int | None, ...]
    protected: tuple[bool, ...]
    turn_bonus: tuple[str | None, ...]
    neutral: tuple[int, ...] = ()
    collect_turn: int = 0
    done: tuple[int, ...] = ()
    queue: tuple[Effect, ...] = ()
    spares_added: bool = False
    ran_out: bool = False

    def with_mat(self, player: int, **changes: Any) -> CogPosition:
        """This position with ``player``'s mat changed (fields of :class:`MatPosition`)."""
        mats = list(self.mats)
        mats[player] = replace(mats[player], **changes)
        return replace(self, mats=tuple(mats))


class Positions(Flow):
    """Reading a game's position and setting one up."""

    def position(self) -> CogPosition:
        """The position now, as data."""
        return CogPosition(
            self.round, self.phase, tuple(self.order),
            tuple(MatPosition.of(mat) for mat in self.mats), dict(self.bag),
            self.supply_stars, self.removed_goal, tuple(self.deck), tuple(self.discard),
            tuple(self.centre), {s: "".join(t) for s, t in self.top.items()},
            dict(self.top_stars), dict(self.top_cogs), tuple(self.card_slots),
            tuple(self.card_cogs), tuple(self.die_values), tuple(self.die_cogs),
            tuple(self.turn_cogs), tuple(self.protected), tuple(self.turn_bonus),
            tuple(self.neutral), self.collect_turn, tuple(self.done), tuple(self.queue),
            self.spares_added, self.ran_out,
        )  # fmt: skip

    def set_position(self, position: CogPosition) -> None:
        """Set the game to ``position``, then resolve what needs nobody (as after an action).

        The game's history is cleared: its record no longer replays to it.
        """
        if len(position.mats) != self.num_players:
            raise ValueError(f"a {self.num_players}-player game needs {self.num_players} mats")
        self.round, self.phase, self.order = position.round, position.phase, list(position.order)
        for mat, mat_position in zip(self.mats, position.mats, strict=True):
            mat_position.set_on(mat)
        self.bag, self.supply_stars = dict(position.bag), position.supply_stars
        self.removed_goal = position.removed_goal
        self.deck, self.discard = list(position.deck), list(position.discard)
        self.centre = list(position.centre)
        self.top = {slot: list(position.top.get(slot, "")) for slot in self.top_slots}
        self.top_stars = {slot: position.top_stars.get(slot, 0) for slot in self.top_slots}
        self.top_cogs = {slot: position.top_cogs.get(slot) for slot in self.top_slots}
        self.card_slots, self.card_cogs = list(position.card_slots), list(position.card_cogs)
        self.die_values, self.die_cogs = list(position.die_values), list(position.die_cogs)
        self.turn_cogs, self.protected = list(position.turn_cogs), list(position.protected)
        self.turn_bonus, self.neutral = list(position.turn_bonus), list(position.neutral)
        self.collect_turn, self.done = position.collect_turn, list(position.done)
        self.queue = list(position.queue)
        self.spares_added, self.ran_out = position.spares_added, position.ran_out
        self.final, self.history = [], []
        if self.phase == "over":
            self._finish_game()
        self._settle()
