"""A C.O.G.-like board and player mats for the parts reader's tests (not the game's own layout).

The mat: 290 x 210 mm, an 8 x 8 grid of 22 mm cells from (30, 17), a reserve of
2 columns x 6 rows of 24 mm places to its right and 6 star places below the
reserve. The board: 360 x 360 mm, a pawn track of 16 spaces (28 mm) around the
rim, 16 cog spaces (26 mm) along the four edges inside it, 6 top slots, 4
centre squares and a turn-order bonus place (tiles, 24 mm), 4 die places
(18 mm: black, aqua, red, yellow) and a free area for cards. Markers are 20 mm,
near the corners: the board has ids 10-13, player p's mat 20+4p..23+4p.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.layout import (
    EMPTY,
    LETTERS,
    STAR,
    WILD,
    Marker,
    PartLayout,
    Place,
    pawn_colours,
    pawn_label,
)

MARKER_SIDE = 20.0
MAT_SIZE = (290.0, 210.0)
CELL = 22.0
GRID_ORIGIN = (30.0, 17.0)
GRID_SIDE = 8
RESERVE = 24.0
STAR_PLACE = 14.0
BOARD_SIDE = 360.0
DIE_COLOURS = ("black", "aqua", "red", "yellow")
PAWN_COLOURS = ("red", "blue", "green", "yellow")


def corner_markers(first_id: int, width: float, height: float, inset: float = 14.0):
    """Four markers near the corners: top-left, top-right, bottom-right, bottom-left."""
    centres = ((inset, inset), (width - inset, inset), (width - inset, height - inset))
    centres += ((inset, height - inset),)
    return tuple(
        Marker(first_id + index, x, y, MARKER_SIDE) for index, (x, y) in enumerate(centres)
    )


def mat_layout(player: int) -> PartLayout:
    """Player ``player``'s mat (0-based): grid cells r1c1..r8c8, reserve1..12, star1..6."""
    width, height = MAT_SIZE
    places = [
        Place(f"r{row + 1}c{col + 1}", "tile", *_cell_centre(row, col), CELL, CELL)
        for row in range(GRID_SIDE)
        for col in range(GRID_SIDE)
    ]
    reserve_x = GRID_ORIGIN[0] + GRID_SIDE * CELL + 8.0
    for index in range(12):
        col, row = index % 2, index // 2
        x = reserve_x + (col + 0.5) * RESERVE
        y = GRID_ORIGIN[1] + (row + 0.5) * RESERVE
        places.append(Place(f"reserve{index + 1}", "tile", x, y, RESERVE, RESERVE))
    for index in range(6):
        col, row = index % 3, index // 3
        x = reserve_x + 8.0 + col * 16.0
        y = 172.0 + row * 16.0
        places.append(Place(f"star{index + 1}", "tile", x, y, STAR_PLACE, STAR_PLACE))
    markers = corner_markers(20 + 4 * player, width, height)
    return PartLayout(
        f"mat{player + 1}", width, height, markers, tuple(places), f"Player {player + 1}"
    )


def _cell_centre(row: int, col: int) -> tuple[float, float]:
    return GRID_ORIGIN[0] + (col + 0.5) * CELL, GRID_ORIGIN[1] + (row + 0.5) * CELL


def board_layout() -> PartLayout:
    """The board: track0..15, cog1..16, top1..6, centre1..4, bonus, die_<colour>, cards (free)."""
    places = [*_track(), *_cog_spaces(), *_tile_places(), *_die_places()]
    places.append(Place("cards", "free", 116.0, 180.0, 36.0, 52.0))
    markers = corner_markers(10, BOARD_SIDE, BOARD_SIDE)
    return PartLayout("board", BOARD_SIDE, BOARD_SIDE, markers, tuple(places), "C.O.G.")


def _track() -> list[Place]:
    """16 spaces on the ring of a 5 x 5 grid (68 mm apart), clockwise from the top left."""
    steps = [(i, 0) for i in range(4)] + [(4, i) for i in range(4)]
    steps += [(4 - i, 4) for i in range(4)] + [(0, 4 - i) for i in range(4)]
    return [
        Place(f"track{index}", "pawn", 44.0 + 68.0 * gx, 44.0 + 68.0 * gy, 28.0, 28.0)
        for index, (gx, gy) in enumerate(steps)
    ]


def _cog_spaces() -> list[Place]:
    """Four cog spaces along each edge, inside the track."""
    along = (129.0, 163.0, 197.0, 231.0)
    centres = [(x, 80.0) for x in along] + [(280.0, y) for y in along]
    centres += [(x, 280.0) for x in reversed(along)] + [(80.0, y) for y in reversed(along)]
    return [
        Place(f"cog{index + 1}", "cog", x, y, 26.0, 26.0) for index, (x, y) in enumerate(centres)
    ]


def _tile_places() -> list[Place]:
    """Six top slots in a row, the four centre squares and the turn-order bonus place."""
    places = [
        Place(f"top{index + 1}", "tile", 180.0 + (index - 2.5) * 26.0, 118.0, 24.0, 24.0)
        for index in range(6)
    ]
    for index in range(4):
        x = 180.0 + (index % 2 - 0.5) * 28.0
        y = 174.0 + (index // 2 - 0.5) * 28.0
        places.append(Place(f"centre{index + 1}", "tile", x, y, 24.0, 24.0))
    places.append(Place("bonus", "tile", 180.0, 240.0, 24.0, 24.0))
    return places


def _die_places() -> list[Place]:
    xs = (126.0, 150.0, 210.0, 234.0)
    return [
        Place(f"die_{colour}", "die", x, 240.0, 18.0, 18.0, colour)
        for x, colour in zip(xs, DIE_COLOURS, strict=True)
    ]


def table_layouts(players: int = 4) -> tuple[PartLayout, ...]:
    """The board and ``players`` mats."""
    return (board_layout(), *(mat_layout(player) for player in range(players)))


def random_contents(
    rng: np.random.Generator, layouts: Sequence[PartLayout], fill: float = 0.5
) -> dict[str, dict[str, str]]:
    """Random labels: tiles (letters, some face down), star tokens, cogs, dice, the four pawns.

    Star places hold star tokens; other tile places letters (a tenth face down,
    a twentieth star tokens). Every die shows a face; each pawn colour stands on
    one track space (so some spaces hold two or more).
    """
    contents: dict[str, dict[str, str]] = {}
    for layout in layouts:
        labels = contents.setdefault(layout.name, {})
        track = [place.name for place in layout.places if place.kind == "pawn"]
        for place in layout.read_places():
            labels[place.name] = _random_label(rng, place, fill)
        for colour in PAWN_COLOURS if track else ():
            space = str(rng.choice(track))
            labels[space] = pawn_label([*pawn_colours(labels[space]), colour])
    return contents


def _random_label(rng: np.random.Generator, place: Place, fill: float) -> str:
    if place.kind == "die":
        return str(rng.integers(1, 7)) if rng.random() < 0.9 else EMPTY
    if place.kind == "pawn" or rng.random() >= fill:
        return EMPTY
    if place.kind == "cog":
        return str(rng.choice(PAWN_COLOURS))
    if place.name.startswith("star"):
        return STAR
    draw = rng.random()
    return WILD if draw < 0.1 else STAR if draw < 0.15 else str(rng.choice(LETTERS))
