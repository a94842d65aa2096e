"""Where things lie on the C.O.G. board and the player mats, in millimetres.

The ``[layout]`` table of the edition file says where; :func:`parse_layout` reads and checks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

MARKER_IDS = 50
"""The marker family (ArUco DICT_4X4_50) has ids 0-49."""
MAX_PLAYERS = 4
EDGE_SLOTS = 4
"""Each edge of the board has four cog spaces (fewer are used with fewer players)."""


class LayoutError(ValueError):
    """A ``[layout]`` entry that cannot describe the board or a mat."""


@dataclass(frozen=True)
class Point:
    """A centre in millimetres from the part's top-left corner."""

    x: float
    y: float


@dataclass(frozen=True)
class BoardLayout:
    """The board: its size, marker centres and every place the camera reads."""

    width: float
    height: float
    markers: tuple[Point, ...]
    cog: float
    tile: float
    die: float
    track: float
    top_cogs: tuple[Point, ...]
    top_tiles: tuple[tuple[Point, ...], ...]
    """Per top slot: its letters' squares, then its star tokens'."""
    cabinet_cogs: tuple[Point, ...]
    cabinet_cards: tuple[Point, ...]
    card_size: tuple[float, float]
    dice_cogs: tuple[Point, ...]
    dice: tuple[Point, ...]
    turn_cogs: tuple[Point, ...]
    turn_bonuses: tuple[Point, ...]
    centre: tuple[Point, ...]
    track_spaces: tuple[Point, ...]


@dataclass(frozen=True)
class MatLayout:
    """A player mat: its size, marker centres, grid, reserve and star places."""

    width: float
    height: float
    markers: tuple[Point, ...]
    cell: float
    grid: Point
    """The top-left corner of the grid (not a centre)."""
    rows: int
    cols: int
    reserve: tuple[Point, ...]
    reserve_side: float
    stars: tuple[Point, ...]
    star_side: float

    def cell_centre(self, row: int, col: int) -> Point:
        """The centre of grid cell (row, col), 0-based."""
        return Point(self.grid.x + (col + 0.5) * self.cell, self.grid.y + (row + 0.5) * self.cell)


@dataclass(frozen=True)
class Layout:
    """The board and the mats, and which marker ids each part carries."""

    marker_side: float
    board_markers: int
    mat_markers: int
    board: BoardLayout
    mat: MatLayout

    def board_marker_ids(self) -> tuple[int, ...]:
        """The board's marker ids, in the order of its marker centres."""
        return tuple(range(self.board_markers, self.board_markers + len(self.board.markers)))

    def mat_marker_ids(self, player: int) -> tuple[int, ...]:
        """Player ``player``'s (0-based) mat marker ids, in the order of its marker centres."""
        first = self.mat_markers + len(self.mat.markers) * player
        return tuple(range(first, first + len(self.mat.markers)))


def parse_layout(
    data: Any,
    *,
    top_slots: tuple[tuple[int, int], ...],
    centre: int,
    track: int,
    rows: int,
    cols: int,
) -> Layout:
    """The checked ``[layout]`` table; counts come from the rest of the edition.

    The ``[layout]`` table of the edition file (``cog.toml``) says where the
    board's cog spaces, top slots, centre squares, die slots, turn-order slots,
    cabinet-card slots and pawn track are, and where each mat's grid, reserve and
    star places are, in millimetres from the part's top-left corner (x to the
    right, y down), with the positions of the ArUco marker stickers that let the
    camera find each part. The values shipped are placeholders a table owner
    measures on their own copy; this checks them (counts against
    the rest of the edition, every place inside its part, no two places on top of
    each other) and names the entry that is wrong.

    Rows of places are written as ``{ first = [x, y], step = [dx, dy] }``, with
    ``wrap`` (places per row) and ``row_step`` for a block, and ``count`` where
    the count is not fixed by the game.
    """
    _need(isinstance(data, dict), "the [layout] table must be a table")
    side = _positive(data.get("marker_side"), "layout.marker_side")
    board = _board(_table(data, "board"), top_slots, centre, track)
    mat = _mat(_table(data, "mat"), rows, cols)
    layout = Layout(
        marker_side=side,
        board_markers=_marker_base(data.get("board_markers"), "layout.board_markers"),
        mat_markers=_marker_base(data.get("mat_markers"), "layout.mat_markers"),
        board=board,
        mat=mat,
    )
    _check_marker_ids(layout)
    _check_part("layout.board", board.width, board.height, _board_rects(board, side))
    _check_part("layout.mat", mat.width, mat.height, _mat_rects(mat, side))
    return layout


# -- reading the tables ---------------------------------------------------------


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise LayoutError(message)


def _table(data: dict[str, Any], name: str) -> dict[str, Any]:
    table = data.get(name)
    _need(isinstance(table, dict), f"the [layout.{name}] table is missing")
    return table  # type: ignore[return-value]


def _number(value: Any, name: str) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    _need(ok, f"{name} must be a number of millimetres, not {value!r}")
    return float(value)


def _positive(value: Any, name: str) -> float:
    number = _number(value, name)
    _need(number > 0, f"{name} must be more than 0 mm, not {value!r}")
    return number


def _pair(value: Any, name: str) -> tuple[float, float]:
    _need(isinstance(value, list) and len(value) == 2, f"{name} must be [x, y] in mm")
    return _number(value[0], f"{name}[0]"), _number(value[1], f"{name}[1]")


def _points(value: Any, name: str) -> tuple[Point, ...]:
    _need(isinstance(value, list) and value, f"{name} must list [x, y] centres")
    return tuple(Point(*_pair(item, f"{name}[{n}]")) for n, item in enumerate(value))


def _row(value: Any, name: str, count: int | None = None) -> tuple[Point, ...]:
    """A row (or block) of centres: ``first``, ``step``, optional ``wrap`` and ``row_step``."""
    _need(isinstance(value, dict), f"{name} must be {{ first = [x, y], step = [dx, dy] }}")
    first, step = (
        _pair(value.get("first"), f"{name}.first"),
        _pair(value.get("step"), f"{name}.step"),
    )
    if count is None:
        count = int(_positive(value.get("count"), f"{name}.count"))
    wrap = value.get("wrap", count)
    _need(isinstance(wrap, int) and wrap > 0, f"{name}.wrap must be a whole number above 0")
    row_step = _pair(value.get("row_step", [0, 0]), f"{name}.row_step")
    return tuple(
        Point(
            first[0] + step[0] * (n % wrap) + row_step[0] * (n // wrap),
            first[1] + step[1] * (n % wrap) + row_step[1] * (n // wrap),
        )
        for n in range(count)
    )


def _marker_base(value: Any, name: str) -> int:
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MARKER_IDS
    _need(ok, f"{name} must be a marker id 0-{MARKER_IDS - 1}, not {value!r}")
    return value  # type: ignore[no-any-return]


def _board(
    table: dict[str, Any], top_slots: tuple[tuple[int, int], ...], centre: int, track: int
) -> BoardLayout:
    width, height = _pair(table.get("size"), "layout.board.size")
    tiles = table.get("top_tiles")
    spacing = _pair(
        tiles.get("each") if isinstance(tiles, dict) else None, "layout.board.top_tiles.each"
    )
    slots = _row(tiles, "layout.board.top_tiles", EDGE_SLOTS)
    cards = table.get("cabinet_cards")
    spaces = _points(table.get("track_spaces"), "layout.board.track_spaces")
    _need(
        len(spaces) == track,
        f"layout.board.track_spaces lists {len(spaces)}; the track has {track}",
    )
    return BoardLayout(
        width=width,
        height=height,
        markers=_points(table.get("markers"), "layout.board.markers"),
        cog=_positive(table.get("cog"), "layout.board.cog"),
        tile=_positive(table.get("tile"), "layout.board.tile"),
        die=_positive(table.get("die"), "layout.board.die"),
        track=_positive(table.get("track"), "layout.board.track"),
        top_cogs=_row(table.get("top_cogs"), "layout.board.top_cogs", EDGE_SLOTS),
        top_tiles=tuple(
            tuple(
                Point(slot.x + spacing[0] * n, slot.y + spacing[1] * n) for n in range(sum(gives))
            )
            for slot, gives in zip(slots, top_slots, strict=True)
        ),
        cabinet_cogs=_row(table.get("cabinet_cogs"), "layout.board.cabinet_cogs", EDGE_SLOTS),
        cabinet_cards=_row(cards, "layout.board.cabinet_cards", EDGE_SLOTS),
        card_size=_pair(
            cards.get("size") if isinstance(cards, dict) else None,
            "layout.board.cabinet_cards.size",
        ),
        dice_cogs=_row(table.get("dice_cogs"), "layout.board.dice_cogs", EDGE_SLOTS),
        dice=_row(table.get("dice"), "layout.board.dice", EDGE_SLOTS),
        turn_cogs=_row(table.get("turn_cogs"), "layout.board.turn_cogs", EDGE_SLOTS),
        turn_bonuses=_row(table.get("turn_bonuses"), "layout.board.turn_bonuses", EDGE_SLOTS),
        centre=_row(table.get("centre"), "layout.board.centre", centre),
        track_spaces=spaces,
    )


def _mat(table: dict[str, Any], rows: int, cols: int) -> MatLayout:
    width, height = _pair(table.get("size"), "layout.mat.size")
    reserve, stars = table.get("reserve"), table.get("stars")
    return MatLayout(
        width=width,
        height=height,
        markers=_points(table.get("markers"), "layout.mat.markers"),
        cell=_positive(table.get("cell"), "layout.mat.cell"),
        grid=Point(*_pair(table.get("grid"), "layout.mat.grid")),
        rows=rows,
        cols=cols,
        reserve=_row(reserve, "layout.mat.reserve"),
        reserve_side=_positive(_get(reserve, "side"), "layout.mat.reserve.side"),
        stars=_row(stars, "layout.mat.stars"),
        star_side=_positive(_get(stars, "side"), "layout.mat.stars.side"),
    )


def _get(table: Any, key: str) -> Any:
    return table.get(key) if isinstance(table, dict) else None


# -- checking the geometry ------------------------------------------------------

Rect = tuple[str, float, float, float, float]
"""A named rectangle: name, centre x, centre y, width, height (mm)."""


def _square(name: str, point: Point, side: float) -> Rect:
    return (name, point.x, point.y, side, side)


def _board_rects(board: BoardLayout, marker: float) -> list[Rect]:
    rects = [_square(f"marker {n + 1}", p, marker) for n, p in enumerate(board.markers)]
    for edge, cogs in (
        ("top", board.top_cogs),
        ("cabinet", board.cabinet_cogs),
        ("dice", board.dice_cogs),
        ("turn", board.turn_cogs),
    ):
        rects += [_square(f"{edge}_cogs[{n}]", p, board.cog) for n, p in enumerate(cogs)]
    for slot, tiles in enumerate(board.top_tiles):
        rects += [
            _square(f"top slot {slot + 1} square {n + 1}", p, board.tile)
            for n, p in enumerate(tiles)
        ]
    width, height = board.card_size
    rects += [
        (f"cabinet_cards[{n}]", p.x, p.y, width, height) for n, p in enumerate(board.cabinet_cards)
    ]
    rects += [_square(f"dice[{n}]", p, board.die) for n, p in enumerate(board.dice)]
    rects += [
        _square(f"turn_bonuses[{n}]", p, board.tile) for n, p in enumerate(board.turn_bonuses)
    ]
    rects += [_square(f"centre[{n}]", p, board.tile) for n, p in enumerate(board.centre)]
    rects += [
        _square(f"track_spaces[{n}]", p, board.track) for n, p in enumerate(board.track_spaces)
    ]
    return rects


def _mat_rects(mat: MatLayout, marker: float) -> list[Rect]:
    rects = [_square(f"marker {n + 1}", p, marker) for n, p in enumerate(mat.markers)]
    side = (mat.cols * mat.cell, mat.rows * mat.cell)
    rects.append(("grid", mat.grid.x + side[0] / 2, mat.grid.y + side[1] / 2, *side))
    rects += [_square(f"reserve[{n}]", p, mat.reserve_side) for n, p in enumerate(mat.reserve)]
    rects += [_square(f"stars[{n}]", p, mat.star_side) for n, p in enumerate(mat.stars)]
    return rects


def _check_part(name: str, width: float, height: float, rects: list[Rect]) -> None:
    """Every rectangle inside the part, and no two on top of each other."""
    _need(width > 0 and height > 0, f"{name}.size must be more than 0 mm")
    for what, x, y, w, h in rects:
        inside = w / 2 <= x <= width - w / 2 and h / 2 <= y <= height - h / 2
        _need(
            inside,
            f"{name}: {what} at ({x:g}, {y:g}) mm reaches outside the "
            f"{width:g} x {height:g} mm part",
        )
    for first, second in combinations(rects, 2):
        _need(
            not _overlap(first, second),
            f"{name}: {first[0]} and {second[0]} lie on top of each other",
        )


def _overlap(first: Rect, second: Rect) -> bool:
    _, x1, y1, w1, h1 = first
    _, x2, y2, w2, h2 = second
    return abs(x1 - x2) * 2 < w1 + w2 and abs(y1 - y2) * 2 < h1 + h2


def _check_marker_ids(layout: Layout) -> None:
    board = set(layout.board_marker_ids())
    mats = [set(layout.mat_marker_ids(player)) for player in range(MAX_PLAYERS)]
    every = sorted(board.union(*mats))
    _need(every[-1] < MARKER_IDS, f"layout: marker ids reach {every[-1]}; the family has 0-49")
    _need(
        len(every) == len(board) + sum(map(len, mats)),
        "layout: the board's and the mats' marker ids overlap",
    )
