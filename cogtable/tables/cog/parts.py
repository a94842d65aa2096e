"""The C.O.G. board and mats as the camera reads them: parts, places and what each should show.

:func:`part_layouts` turns the edition's ``[layout]`` (games/cog/layout.py,
game words in millimetres) into vision's printed parts
(:class:`vision.layout.PartLayout`): the board and one mat per player, with a
named place for everything the camera reads. :func:`expected_view` says what
every place should show for a game state, in the reader's labels, so a
settled reading can be compared with the game place by place.

Place names (1-based, as players count):

- board: ``top{slot}-{n}`` (a top slot's letters, then its stars),
  ``cog-top{slot}``, ``cog-cabinet{slot}``, ``cog-dice{slot}``,
  ``cog-turn{position}``, ``die{slot}``, ``bonus{position}``,
  ``centre{square}``, ``track{space}`` (space 1 is the start), ``card{slot}``
  (where a cabinet card lies: not read);
- mat: ``r{row}c{col}``, ``reserve{n}``, ``star{n}``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from games.cog.edition import Edition
from games.cog.layout import EDGE_SLOTS, Layout, Point
from games.cog.state import CogState
from games.cog.supply import COLOURS, TURN_BONUSES
from vision.layout import EMPTY, STAR, WILD, Marker, PartLayout, Place, pawn_label

BOARD = "board"
EDGES = ("top", "cabinet", "dice", "turn")
"""The board's edges in the order of the ``cog-spaces`` LED segment (4 LEDs each)."""
PIECE_COLOURS = tuple(colour.lower() for colour in COLOURS)
"""The colour the camera reads for each player's cogs and pawn (red, blue, green, yellow)."""

CELL = re.compile(r"r(\d+)c(\d+)")
Observation = Mapping[str, Mapping[str, str]]
"""A settled reading of the table: part name -> place name -> label."""


MAT = re.compile(r"mat(\d+)")


def mat_name(player: int) -> str:
    """The part name of ``player``'s (0-based) mat: ``mat1``..``mat4``."""
    return f"mat{player + 1}"


TRACK = re.compile(r"track(\d+)")


def track_place(space: int) -> str:
    """The board place of track space ``space`` (0-based; 0 is the start): ``track1``."""
    return f"track{space + 1}"


def track_space(place: str) -> int | None:
    """The 0-based track space a board place names (``track3``: 2); None for any other place."""
    match = TRACK.fullmatch(place)
    return None if match is None else int(match[1]) - 1


def mat_player(part: str) -> int | None:
    """The 0-based player whose mat ``part`` is (``mat1``: 0); None for any other part."""
    match = MAT.fullmatch(part)
    return None if match is None else int(match[1]) - 1


class Cell(NamedTuple):
    """A mat grid cell, 0-based as the game counts it (a ``(row, col)`` key of its grid).

    Its place name counts from 1: ``Cell(2, 3).name == "r3c4"``; :meth:`of` reads one back.
    """

    row: int
    col: int

    @property
    def name(self) -> str:
        """The cell's place name on the printed mat: ``r1c1`` for ``Cell(0, 0)``."""
        return f"r{self.row + 1}c{self.col + 1}"

    @classmethod
    def of(cls, name: str) -> Cell | None:
        """The cell a mat place name names (``r3c4``); None for any other place."""
        match = CELL.fullmatch(name)
        return None if match is None else cls(int(match[1]) - 1, int(match[2]) - 1)


COG_SPACE = re.compile(r"cog-(top|cabinet|dice|turn)(\d+)")


class CogSpace(NamedTuple):
    """A cog space on the board: its ``edge`` (one of :data:`EDGES`), ``slot`` 0-based.

    Its place name counts from 1: ``CogSpace("dice", 2).name == "cog-dice3"``; :meth:`of`
    reads one back.
    """

    edge: str
    slot: int

    @property
    def name(self) -> str:
        """The space's place name on the printed board."""
        return f"cog-{self.edge}{self.slot + 1}"

    @property
    def led(self) -> int:
        """The ``cog-spaces`` LED under the space (4 an edge, in :data:`EDGES` order)."""
        return EDGES.index(self.edge) * 4 + self.slot

    @classmethod
    def of(cls, place: str) -> CogSpace | None:
        """The cog space a board place names (``cog-dice3``); None for any other place."""
        match = COG_SPACE.fullmatch(place)
        return None if match is None else cls(match[1], int(match[2]) - 1)


# -- the printed parts ---------------------------------------------------------


def part_layouts(edition: Edition, players: int) -> tuple[PartLayout, ...]:
    """The board and the first ``players`` mats as vision parts (the edition must have a layout)."""
    layout = edition.layout
    if layout is None:
        raise ValueError("the C.O.G. edition has no [layout]: the camera cannot find its parts")
    return (board_part(layout, edition), *(mat_part(layout, p) for p in range(players)))


def _markers(ids: tuple[int, ...], centres: tuple[Point, ...], side: float) -> tuple[Marker, ...]:
    return tuple(Marker(i, p.x, p.y, side) for i, p in zip(ids, centres, strict=True))


def _square(name: str, kind: str, point: Point, side: float, colour: str = "") -> Place:
    return Place(name, kind, point.x, point.y, side, side, colour)  # type: ignore[arg-type]


def board_part(layout: Layout, edition: Edition) -> PartLayout:
    """The board: cog spaces, letter squares, die slots, the track, cabinet slots."""
    board = layout.board
    places = [
        _square(f"top{slot + 1}-{n + 1}", "tile", point, board.tile)
        for slot, points in enumerate(board.top_tiles)
        for n, point in enumerate(points)
    ]
    for edge, points in zip(
        EDGES, (board.top_cogs, board.cabinet_cogs, board.dice_cogs, board.turn_cogs), strict=True
    ):
        places += [
            _square(CogSpace(edge, n).name, "cog", p, board.cog) for n, p in enumerate(points)
        ]
    places += [
        _square(f"die{n + 1}", "die", point, board.die, edition.dice[n])
        for n, point in enumerate(board.dice)
    ]
    places += [
        _square(
            f"bonus{n + 1}",
            "tile" if TURN_BONUSES[n] in ("star", "letter") else "free",
            point,
            board.tile,
        )
        for n, point in enumerate(board.turn_bonuses)
    ]
    places += [_square(f"centre{n + 1}", "tile", p, board.tile) for n, p in enumerate(board.centre)]
    places += [
        _square(track_place(n), "pawn", p, board.track) for n, p in enumerate(board.track_spaces)
    ]
    width, height = board.card_size
    places += [
        Place(f"card{n + 1}", "free", p.x, p.y, width, height)
        for n, p in enumerate(board.cabinet_cards)
    ]
    markers = _markers(layout.board_marker_ids(), board.markers, layout.marker_side)
    return PartLayout(BOARD, board.width, board.height, markers, tuple(places), "C.O.G. board")


def mat_part(layout: Layout, player: int) -> PartLayout:
    """Player ``player``'s mat: the grid cells, the reserve and the star places."""
    mat = layout.mat
    places = [
        _square(Cell(row, col).name, "tile", mat.cell_centre(row, col), mat.cell)
        for row in range(mat.rows)
        for col in range(mat.cols)
    ]
    places += [
        _square(f"reserve{n + 1}", "tile", p, mat.reserve_side) for n, p in enumerate(mat.reserve)
    ]
    places += [_square(f"star{n + 1}", "tile", p, mat.star_side) for n, p in enumerate(mat.stars)]
    markers = _markers(layout.mat_marker_ids(player), mat.markers, layout.marker_side)
    title = f"C.O.G. mat: {COLOURS[player]}"
    return PartLayout(mat_name(player), mat.width, mat.height, markers, tuple(places), title)


# -- what every place should show --------------------------------------------------


def tile_label(tile: str | None) -> str:
    """A tile as the camera sees it: its letter, ``wild`` face down (lower case), or empty."""
    if not tile:
        return EMPTY
    return WILD if tile.islower() else tile


@dataclass(frozen=True)
class MatContents:
    """What a mat holds where order does not matter: the reserve's tiles and the stars."""

    reserve: Counter[str]
    stars: int


def expected_view(state: CogState) -> dict[str, dict[str, str]]:
    """Every read place's label as the game says it should be now."""
    view = {BOARD: _board_view(state)}
    for player, mat in enumerate(state.mats):
        cells = {
            Cell(row, col).name: EMPTY
            for row in range(mat.grid.rows)
            for col in range(mat.grid.cols)
        }
        cells.update({Cell(*cell).name: tile_label(tile) for cell, tile in mat.grid.tiles.items()})
        view[mat_name(player)] = cells
    return view


def expected_contents(state: CogState, player: int) -> MatContents:
    """The reserve and stars ``player`` should have beside the grid."""
    mat = state.mats[player]
    return MatContents(Counter(tile_label(tile) for tile in mat.reserve), mat.stars)


def seen_contents(part: Mapping[str, str]) -> MatContents:
    """The reserve and stars a mat reading shows (star tokens anywhere off the grid count)."""
    labels = [label for name, label in part.items() if Cell.of(name) is None]
    tiles = [label for name, label in part.items() if name.startswith("reserve") and label]
    stars = sum(1 for label in labels if label == STAR)
    return MatContents(Counter(label for label in tiles if label != STAR), stars)


def _board_view(state: CogState) -> dict[str, str]:
    view: dict[str, str] = {}
    for slot, letters in state.top.items():
        tiles = [tile_label(tile) for tile in letters] + [STAR] * state.top_stars[slot]
        for n in range(sum(state.ed.top_slots[slot])):
            view[f"top{slot + 1}-{n + 1}"] = tiles[n] if n < len(tiles) else EMPTY
    for edge, owners in _cog_owners(state).items():
        for slot, owner in enumerate(owners):
            view[CogSpace(edge, slot).name] = PIECE_COLOURS[owner] if owner is not None else EMPTY
    view.update(_dice_view(state))
    for position in range(state.num_players):
        if TURN_BONUSES[position] in ("star", "letter"):
            view[f"bonus{position + 1}"] = _bonus_label(state.turn_bonus[position])
    for square, letter in enumerate(state.centre):
        view[f"centre{square + 1}"] = tile_label(letter)
    for space, label in _track_view(state).items():
        view[track_place(space)] = label
    return view


def _cog_owners(state: CogState) -> dict[str, list[int | None]]:
    """Whose cog stands on each edge's spaces (None: empty), slot by slot."""

    def four(owners: list[int | None]) -> list[int | None]:
        return owners + [None] * (EDGE_SLOTS - len(owners))  # spaces not used by so few players

    return {
        "top": [state.top_cogs.get(slot) for slot in range(EDGE_SLOTS)],
        "cabinet": four(list(state.card_cogs)),
        "dice": [_die_cog(state, colour) for colour in state.ed.dice],
        "turn": four(list(state.turn_cogs)),
    }


def _die_cog(state: CogState, colour: str) -> int | None:
    """Whose cog stands on the die slot of ``colour`` (the slot of a die out of play: none)."""
    if colour not in state.dice:
        return None
    return state.die_cogs[state.dice.index(colour)]


def _dice_view(state: CogState) -> dict[str, str]:
    """A die lies in its slot from its roll in Phase I until a player takes it in Phase II."""
    view = {}
    for slot, colour in enumerate(state.ed.dice):
        label = EMPTY
        if colour in state.dice and state.phase in ("prepare", "collect"):
            die = state.dice.index(colour)
            rolled = state.die_rolled(die)
            if rolled and state.die_cogs[die] is None:
                label = str(state.die_values[die])
        view[f"die{slot + 1}"] = label
    return view


def die_slot_of(state: CogState, die: int) -> str:
    """The board place of die ``die`` (the state's die number) in the printed die slots."""
    return f"die{state.ed.dice.index(state.dice[die]) + 1}"


def _bonus_label(bonus: str | None) -> str:
    if bonus is None or bonus == "vp3":
        return EMPTY
    return STAR if bonus == "star" else bonus


def _track_view(state: CogState) -> dict[int, str]:
    """Every pawn-track space and the colours of the pawns on it (neutral pawns: unused colours)."""
    pawns: dict[int, list[str]] = {space: [] for space in range(len(state.ed.track))}
    for player, mat in enumerate(state.mats):
        pawns[mat.pawn].append(PIECE_COLOURS[player])
    neutral = PIECE_COLOURS[state.num_players :]
    for colour, space in zip(neutral, state.neutral, strict=False):
        pawns[space].append(colour)
    return {space: pawn_label(colours) for space, colours in pawns.items()}


def laid_out(state: CogState, layout: Layout) -> dict[str, dict[str, str]]:
    """Every place's label on a table laid out as the game says: reserves in order, stars too.

    The tests compare readings with it; the simulated people lay the same out
    with their own code (:mod:`cogtable.mock.people.cog_pieces`, a test holds them equal).
    Stars beyond the star places lie in the reserve (the reader counts a star
    token anywhere off the grid); a reserve bigger than its places shows as
    many tiles as fit.
    """
    view = expected_view(state)
    for player, mat in enumerate(state.mats):
        places = view[mat_name(player)]
        stars = len(layout.mat.stars)
        spilled = [STAR] * max(0, mat.stars - stars)  # more stars than star places: in the reserve
        tiles = [tile_label(tile) for tile in mat.reserve] + spilled
        for n in range(len(layout.mat.reserve)):
            places[f"reserve{n + 1}"] = tiles[n] if n < len(tiles) else EMPTY
        for n in range(stars):
            places[f"star{n + 1}"] = STAR if n < mat.stars else EMPTY
    return view
