"""A player's crossword grid: where a word may go, and what taking one off leaves.

The crossword rules the grid keeps are listed at :class:`Grid`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from games.core import IllegalAction

Cell = tuple[int, int]


@dataclass(frozen=True)
class Placed:
    """A word on a grid: its first cell and its direction."""

    word: str
    row: int
    col: int
    down: bool

    def cells(self) -> list[Cell]:
        """The cells the word covers, first letter first."""
        dr, dc = (1, 0) if self.down else (0, 1)
        return [(self.row + dr * i, self.col + dc * i) for i in range(len(self.word))]

    def describe(self) -> str:
        """``COG at row 4, column 3, down``: 1-based, as players count."""
        way = "down" if self.down else "across"
        return f"{self.word} at row {self.row + 1}, column {self.col + 1}, {way}"


@dataclass(frozen=True)
class TileLine:
    """Tiles in one row or column as seen: the first cell, the way, each tile.

    Each tile is its letter (``None``: face down, a wild tile) and whether it was just laid.
    """

    start: Cell
    down: bool
    tiles: tuple[tuple[str | None, bool], ...]


def line_through(seen: Mapping[Cell, str | None], added: list[Cell]) -> TileLine | None:
    """The run of tiles through the ``added`` cells, in their row or column (None: not one line).

    ``seen`` holds every cell with a tile (its letter, ``None`` face down). A single new
    tile runs down when a tile lies above or below it.

    >>> seen = {(3, 2): "C", (3, 3): "O", (3, 4): None}
    >>> line_through(seen, [(3, 3), (3, 4)])
    TileLine(start=(3, 2), down=False, tiles=(('C', False), ('O', True), (None, True)))
    >>> line_through({(1, 1): "A", (2, 2): "B"}, [(1, 1), (2, 2)]) is None
    True
    """
    rows, cols = {row for row, _ in added}, {col for _, col in added}
    if len(rows) > 1 and len(cols) > 1:
        return None
    down = len(rows) > 1 or (len(added) == 1 and _runs_down(seen, added[0]))
    step = (1, 0) if down else (0, 1)
    first = min(added)
    while (first[0] - step[0], first[1] - step[1]) in seen:
        first = (first[0] - step[0], first[1] - step[1])
    tiles, cell = [], first
    while cell in seen:
        tiles.append((seen[cell], cell in added))
        cell = (cell[0] + step[0], cell[1] + step[1])
    if not all(c in _cells_between(first, cell) for c in added):
        return None
    return TileLine(first, down, tuple(tiles))


def _cells_between(first: Cell, end: Cell) -> set[Cell]:
    rows = range(first[0], max(end[0], first[0] + 1))
    cols = range(first[1], max(end[1], first[1] + 1))
    return {(row, col) for row in rows for col in cols}


def _runs_down(seen: Mapping[Cell, str | None], cell: Cell) -> bool:
    row, col = cell
    return (row - 1, col) in seen or (row + 1, col) in seen


def is_wild(tile: str, always: str) -> bool:
    """A tile made wild by a star (lower case) or by an always-wild card."""
    return tile.islower() or tile in always


def fits(tile: str, letter: str, always: str) -> bool:
    """Whether ``tile`` may read as ``letter``."""
    return tile == letter or is_wild(tile, always)


def _where(cell: Cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


class Grid:
    """The tiles on one player's grid and the words they spell.

    The crossword rules, as this engine reads the rulebook:

    - a word lies in one row left to right or one column top to bottom, inside the grid;
    - the cells just before its first and after its last letter are empty;
    - every newly placed tile has empty cells on both sides across the word's
      direction (otherwise it would spell a second word at the same time);
    - the first word covers one of the four centre squares;
    - every later word crosses a word already there on at least one shared cell
      whose letter fits (a wild tile fits any letter, and may read as a different
      letter in each of its two words); a shared cell may not belong to a word in
      the same direction (that would extend or overlap it);
    - a word is spelled at most once on a grid.

    Tiles are one-character strings: a capital letter, or the lower-case letter of a
    tile a star token made wild (face down). A player's always-wild letters (from
    the H/P/K, T/W/Y and B/C/G cards) are passed in as ``always``.

    >>> grid = Grid(8, 8)
    >>> grid.problem("CLAMP", 3, 2, False, "") is None
    True
    >>> grid.place(Placed("CLAMP", 3, 2, False), list("CLAMP"))
    >>> grid.problem("COG", 3, 2, True, "") is None
    True
    >>> grid.place(Placed("COG", 3, 2, True), list("OG"))
    >>> grid.problem("ROD", 4, 1, False, "")
    'D at row 5, column 4 would touch the tiles beside it and spell a second word'
    >>> grid.problem("ROD", 2, 4, True, "")
    'O does not fit the A at row 4, column 5'
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.tiles: dict[Cell, str] = {}
        self.words: list[Placed] = []

    def copy(self) -> Grid:
        """An independent copy."""
        twin = Grid(self.rows, self.cols)
        twin.tiles = dict(self.tiles)
        twin.words = list(self.words)
        return twin

    def to_json(self) -> dict[str, object]:
        """The grid as JSON-ready data: rows of text (``.`` empty) and the words."""
        cells = [["."] * self.cols for _ in range(self.rows)]
        for (row, col), tile in self.tiles.items():
            cells[row][col] = tile
        lines = ["".join(line) for line in cells]
        words = [[p.word, p.row, p.col, p.down] for p in self.words]
        return {"rows": lines, "words": words}

    def centre(self) -> set[Cell]:
        """The four centre squares."""
        r, c = self.rows // 2, self.cols // 2
        return {(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)}

    def corners(self) -> set[Cell]:
        """The four corner squares."""
        last_r, last_c = self.rows - 1, self.cols - 1
        return {(0, 0), (0, last_c), (last_r, 0), (last_r, last_c)}

    def inside(self, cell: Cell) -> bool:
        """Whether ``cell`` is on the grid."""
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def spelled(self) -> set[str]:
        """The words on the grid."""
        return {placed.word for placed in self.words}

    # -- placing a word ------------------------------------------------------

    def problem(self, word: str, row: int, col: int, down: bool, always: str) -> str | None:
        """Why ``word`` may not go here (``None`` if it may), in a player's words."""
        placed = Placed(word, row, col, down)
        cells = placed.cells()
        if not (self.inside(cells[0]) and self.inside(cells[-1])):
            return f"{placed.describe()} would not fit inside the grid"
        if word in self.spelled():
            return f"{word} is already on your grid (a word may be spelled only once)"
        return self._ends_problem(placed, cells) or self._cells_problem(placed, cells, always)

    def _ends_problem(self, placed: Placed, cells: list[Cell]) -> str | None:
        dr, dc = (1, 0) if placed.down else (0, 1)
        before = (cells[0][0] - dr, cells[0][1] - dc)
        after = (cells[-1][0] + dr, cells[-1][1] + dc)
        if before in self.tiles or after in self.tiles:
            return f"{placed.word} would run into the tiles at its ends (words cannot be extended)"
        return None

    def _cells_problem(self, placed: Placed, cells: list[Cell], always: str) -> str | None:
        shared = 0
        for cell, letter in zip(cells, placed.word, strict=True):
            reason = self._cell_problem(placed, cell, letter, always)
            if reason:
                return reason
            shared += cell in self.tiles
        if shared == len(cells):
            return f"{placed.word} would place no new tile"
        if not self.words:
            if not set(cells) & self.centre():
                return "your first word must cover one of the four centre squares"
        elif not shared:
            return f"{placed.word} must cross a word already on your grid"
        return None

    def _cell_problem(self, placed: Placed, cell: Cell, letter: str, always: str) -> str | None:
        tile = self.tiles.get(cell)
        if tile is not None:
            if not fits(tile, letter, always):
                return f"{letter} does not fit the {tile.upper()} at {_where(cell)}"
            if self._word_through(cell, placed.down):
                return f"{placed.word} would extend or overlap a word at {_where(cell)}"
            return None
        dr, dc = (0, 1) if placed.down else (1, 0)
        sides = ((cell[0] - dr, cell[1] - dc), (cell[0] + dr, cell[1] + dc))
        if any(side in self.tiles for side in sides):
            return (
                f"{letter} at {_where(cell)} would touch the tiles beside it"
                " and spell a second word"
            )
        return None

    def _word_through(self, cell: Cell, down: bool) -> bool:
        return any(p.down == down and cell in p.cells() for p in self.words)

    def check(self, word: str, row: int, col: int, down: bool, always: str) -> list[Cell]:
        """The empty cells the word would fill; :class:`IllegalAction` if it may not go here."""
        reason = self.problem(word, row, col, down, always)
        if reason:
            raise IllegalAction(reason)
        return [cell for cell in Placed(word, row, col, down).cells() if cell not in self.tiles]

    def place(self, placed: Placed, new_tiles: list[str]) -> None:
        """Put ``new_tiles`` on the word's empty cells, in order (checked by the caller)."""
        empty = [cell for cell in placed.cells() if cell not in self.tiles]
        self.tiles.update(zip(empty, new_tiles, strict=True))
        self.words.append(placed)

    def candidates(self, words: Iterable[str], always: str) -> Iterator[Placed]:
        """Every placement of ``words`` the crossword rules allow (tiles not considered)."""
        starts = self._starts_from_centre if not self.words else self._starts_across_tiles
        seen: set[Placed] = set()
        for word in words:
            for placed in starts(word, always):
                if placed in seen:
                    continue
                seen.add(placed)
                if self.problem(placed.word, placed.row, placed.col, placed.down, always) is None:
                    yield placed

    def _starts_from_centre(self, word: str, always: str) -> Iterator[Placed]:
        for row, col in sorted(self.centre()):
            for i in range(len(word)):
                yield Placed(word, row, col - i, False)
                yield Placed(word, row - i, col, True)

    def _starts_across_tiles(self, word: str, always: str) -> Iterator[Placed]:
        for (row, col), tile in self.tiles.items():
            for i, letter in enumerate(word):
                if fits(tile, letter, always):
                    yield Placed(word, row, col - i, False)
                    yield Placed(word, row - i, col, True)

    # -- deconstruction --------------------------------------------------------

    def removal(self, word: str) -> list[Cell]:
        """The cells taking ``word`` off would empty; :class:`IllegalAction` if it may not go.

        Cells shared with other words stay; the remaining words must still hang
        together as one crossword, and no word on a corner square may be removed.
        """
        placed = next((p for p in self.words if p.word == word), None)
        if placed is None:
            raise IllegalAction(f"{word} is not on your grid")
        cells = placed.cells()
        if set(cells) & self.corners():
            raise IllegalAction(f"{word} covers a corner square and cannot be removed")
        rest = [p for p in self.words if p != placed]
        if not _connected(rest):
            raise IllegalAction(f"removing {word} would split your crossword into parts")
        kept = {cell for p in rest for cell in p.cells()}
        return [cell for cell in cells if cell not in kept]

    def word_emptying(self, cells: set[Cell]) -> Placed | None:
        """The word whose removal empties exactly ``cells`` (None: no word does)."""
        for placed in self.words:
            if set(self.removal(placed.word)) == cells:
                return placed
        return None

    def remove(self, word: str) -> list[str]:
        """Take ``word`` off (checked by :meth:`removal`); return the freed tiles."""
        freed = self.removal(word)
        self.words = [p for p in self.words if p.word != word]
        return [self.tiles.pop(cell) for cell in freed]


def _connected(words: list[Placed]) -> bool:
    """Whether the words form one crossword (each linked to the rest by shared cells)."""
    if not words:
        return True
    cells = [set(p.cells()) for p in words]
    reached, frontier = {0}, [0]
    while frontier:
        current = frontier.pop()
        for other in range(len(words)):
            if other not in reached and cells[current] & cells[other]:
                reached.add(other)
                frontier.append(other)
    return len(reached) == len(words)
