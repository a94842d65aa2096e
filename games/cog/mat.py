"""One player's mat: reserve, stars, VPs, grid, cards, cubes, pawn and cogs."""

from __future__ import annotations

from typing import Any

from games.cog.edition import ITEM_CUBES
from games.cog.grid import Cell, Grid, is_wild


class Mat:
    """Everything one player owns. Reserve tiles are kept sorted (see :mod:`games.cog.grid`)."""

    def __init__(self, rows: int, cols: int) -> None:
        self.reserve: list[str] = []
        self.stars = 0
        self.vp = 0
        self.grid = Grid(rows, cols)
        self.cards: list[int] = []
        self.used: list[int] = []
        self.items: list[int] = []
        self.wild = ""
        self.cubes: dict[str, str] = {}
        self.goals_done: list[int] = []
        self.bonus_claimed: list[Cell] = []
        self.pawn = 0
        self.die: int | None = None
        self.edges: list[str] = []

    def copy(self) -> Mat:
        """An independent copy."""
        twin = Mat.__new__(Mat)
        twin.__dict__.update(self.__dict__)
        for name in ("reserve", "cards", "used", "items", "goals_done", "bonus_claimed", "edges"):
            setattr(twin, name, list(getattr(self, name)))
        twin.cubes = dict(self.cubes)
        twin.grid = self.grid.copy()
        return twin

    def add_tiles(self, tiles: list[str]) -> None:
        """Put tiles in the reserve (kept sorted)."""
        self.reserve.extend(tiles)
        self.reserve.sort()

    def take_tiles(self, tiles: list[str]) -> None:
        """Take tiles out of the reserve (the caller has checked they are there)."""
        for tile in tiles:
            self.reserve.remove(tile)

    def cubes_left(self) -> int:
        """Item cubes still in the player's supply; a completed goal card gives its cubes back."""
        return ITEM_CUBES - len(self.cubes)

    def has_tiles(self, tiles: list[str] | tuple[str, ...]) -> bool:
        """Whether the reserve holds all of ``tiles`` (with repeats)."""
        left = list(self.reserve)
        for tile in tiles:
            if tile not in left:
                return False
            left.remove(tile)
        return True

    def assign(self, letters: list[str]) -> list[str] | None:
        """Reserve tiles that spell ``letters``, or ``None`` if there are not enough.

        A plain tile of the letter is used first, a wild tile only where none
        is left: a plain tile can serve one letter and a wild one any, so this
        keeps the most for later (which wild tile goes is the lowest in order).
        """
        left = list(self.reserve)
        chosen: list[str | None] = []
        for letter in letters:
            plain = letter if letter in left and not is_wild(letter, self.wild) else None
            chosen.append(plain)
            if plain:
                left.remove(plain)
        for index, tile in enumerate(chosen):
            if tile is None:
                wild = next((t for t in left if is_wild(t, self.wild)), None)
                if wild is None:
                    return None
                left.remove(wild)
                chosen[index] = wild
        return [tile for tile in chosen if tile is not None]

    def split_reserve(self) -> tuple[list[str], list[str]]:
        """The reserve as its plain tiles and its wild tiles, each in order."""
        plain = [tile for tile in self.reserve if not is_wild(tile, self.wild)]
        wild = [tile for tile in self.reserve if is_wild(tile, self.wild)]
        return plain, wild

    def default_wild_spots(self, letters: list[str]) -> tuple[int, ...]:
        """Where :meth:`assign` puts wild tiles: the letters left without a plain tile."""
        return unfilled_spots(letters, self.split_reserve()[0])

    def assign_chosen(self, letters: list[str], wild_spots: tuple[int, ...]) -> list[str] | None:
        """Reserve tiles for ``letters``: wild exactly at ``wild_spots``, plain elsewhere.

        ``None`` if the reserve cannot do it. The wild tiles used are the
        lowest in order, as in :meth:`assign`.
        """
        plain, wild = self.split_reserve()
        if len(wild_spots) > len(wild):
            return None
        chosen = []
        for index, letter in enumerate(letters):
            if index in wild_spots:
                chosen.append(wild.pop(0))
            elif letter in plain:
                plain.remove(letter)
                chosen.append(letter)
            else:
                return None
        return chosen

    def shortfall(self, letters: str) -> int:
        """How many of ``letters`` the reserve cannot supply (wild tiles counted)."""
        left = list(self.reserve)
        missing = 0
        for letter in letters:
            if letter in left and not is_wild(letter, self.wild):
                left.remove(letter)
            else:
                missing += 1
        wild = sum(1 for tile in left if is_wild(tile, self.wild))
        return max(0, missing - wild)

    def to_json(self, show_vp: bool) -> dict[str, Any]:
        """The mat as JSON-ready data; the VP is ``None`` unless ``show_vp``."""
        return {
            "reserve": "".join(self.reserve),
            "stars": self.stars,
            "vp": self.vp if show_vp else None,
            "grid": self.grid.to_json(),
            "cards": list(self.cards),
            "used": list(self.used),
            "items": list(self.items),
            "wild": self.wild,
            "cubes": dict(sorted(self.cubes.items())),
            "cubes_left": self.cubes_left(),
            "goals_done": list(self.goals_done),
            "bonus_claimed": [list(cell) for cell in self.bonus_claimed],
            "pawn": self.pawn,
            "die": self.die,
            "edges": list(self.edges),
        }


def unfilled_spots(letters: list[str], plain: list[str]) -> tuple[int, ...]:
    """The places of ``letters`` left without a plain tile when they are used in order."""
    left = list(plain)
    spots = []
    for index, letter in enumerate(letters):
        if letter in left:
            left.remove(letter)
        else:
            spots.append(index)
    return tuple(spots)
