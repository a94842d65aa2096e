"""The Kogworks board: 55 pegs in a triangle, as peg numbers and as bitboards.

Pegs are numbered 0..54 row by row from the apex, left to right; row ``r``
(0 = apex) holds columns ``0..r``. Players and records use these numbers and the
notation ``row.position`` counted from 1 (``7.3`` is row 7 from the apex,
third peg from the left).

>>> peg_name(peg_at(6, 2))
'7.3'
>>> parse_peg(' 7.3 ') == peg_at(6, 2)
True
>>> [peg_name(p) for p in pegs_of(dilate(BIT[TOP]))]
['2.1', '2.2']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

ROWS: Final = 10
NUM_PEGS: Final = ROWS * (ROWS + 1) // 2
WIDTH: Final = 11
"""Bits per row in the padded layout (one padding column).

A set of pegs is a Python int with one bit per peg: bit ``r * 11 + c``. Row width
11 keeps column 10 always empty, so the six lattice neighbours of a bit are shifts
by 1, 11 and 12 in both directions, masked with :data:`VALID`. Whole-board questions
(flood fills, two-colouring, triangle bans) then take a handful of integer operations.
"""

Peg = int
"""A peg number, 0..54."""

ROW_COL: Final[tuple[tuple[int, int], ...]] = tuple(
    (r, c) for r in range(ROWS) for c in range(r + 1)
)
BIT: Final[tuple[int, ...]] = tuple(1 << (r * WIDTH + c) for r, c in ROW_COL)
"""The bitboard bit of each peg."""
VALID: Final = sum(BIT)
"""Every real peg; padding bits are never set in a board."""

TOP: Final[Peg] = 0
"""The gold top wheel's peg (the apex)."""
BASES: Final[tuple[Peg, Peg]] = (NUM_PEGS - ROWS, NUM_PEGS - 1)
"""Red's base (row 10, first peg) and Blue's base (row 10, last peg)."""


def peg_at(row: int, col: int) -> Peg:
    """The peg number of 0-based ``row`` and ``col``; ValueError off the board."""
    if not (0 <= row < ROWS and 0 <= col <= row):
        raise ValueError(f"there is no peg at row {row + 1}, position {col + 1}")
    return row * (row + 1) // 2 + col


def peg_name(peg: Peg) -> str:
    """The notation of a peg: ``row.position``, both counted from 1."""
    row, col = ROW_COL[peg]
    return f"{row + 1}.{col + 1}"


def parse_peg(text: str) -> Peg:
    """Read ``row.position`` (1-based); ValueError says what is wrong."""
    parts = text.strip().split(".")
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise ValueError(f"{text.strip()!r} is not a peg; write row.position, like 7.3")
    row, position = int(parts[0]), int(parts[1])
    if not 1 <= row <= ROWS:
        raise ValueError(f"row {row} does not exist; rows are 1 (apex) to {ROWS}")
    if not 1 <= position <= row:
        raise ValueError(f"row {row} has positions 1 to {row}, not {position}")
    return peg_at(row - 1, position - 1)


def dilate(mask: int) -> int:
    """Every peg next to a peg of ``mask`` (the mask's own pegs included if adjacent)."""
    return (
        (mask << 1) | (mask >> 1) | (mask << 11) | (mask >> 11) | (mask << 12) | (mask >> 12)
    ) & VALID


def _row_tables() -> tuple[tuple[tuple[Peg, ...], ...], ...]:
    """For each row, the pegs named by every possible bit pattern of that row."""
    tables = []
    for row in range(ROWS):
        first = row * (row + 1) // 2
        tables.append(
            tuple(
                tuple(first + c for c in range(row + 1) if pattern >> c & 1)
                for pattern in range(1 << (row + 1))
            )
        )
    return tuple(tables)


_ROW_PEGS: Final = _row_tables()
_ROW_SHIFT_MASK: Final = tuple((row * WIDTH, (1 << (row + 1)) - 1) for row in range(ROWS))


def pegs_of(mask: int) -> list[Peg]:
    """The peg numbers in a bitboard, in ascending order (row tables, no bit loop)."""
    found: list[Peg] = []
    for (shift, row_mask), table in zip(_ROW_SHIFT_MASK, _ROW_PEGS, strict=True):
        pattern = (mask >> shift) & row_mask
        if pattern:
            found.extend(table[pattern])
    return found


def mask_of(pegs: Iterable[Peg]) -> int:
    """The bitboard holding ``pegs``."""
    mask = 0
    for peg in pegs:
        mask |= BIT[peg]
    return mask


def neighbours(peg: Peg) -> list[Peg]:
    """The lattice neighbours of a peg, ascending."""
    return pegs_of(dilate(BIT[peg]))


def _triangles() -> tuple[tuple[Peg, Peg, Peg], ...]:
    """Every three mutually neighbouring pegs: upward and downward triangles."""
    found = []
    for row, col in ROW_COL[:-ROWS]:
        found.append((peg_at(row, col), peg_at(row + 1, col), peg_at(row + 1, col + 1)))
        if col < row:
            found.append((peg_at(row, col), peg_at(row, col + 1), peg_at(row + 1, col + 1)))
    return tuple(found)


TRIANGLES: Final = _triangles()
"""All 81 small triangles of the lattice."""

CORNERS: Final[tuple[tuple[Peg, Peg, Peg], ...]] = tuple(
    (corner, *neighbours(corner)) for corner in (TOP, *BASES)
)
"""Each corner wheel (top, Red's base, Blue's base) with its two neighbours."""
_CORNER_PAIRS: Final = tuple((BIT[a], BIT[b]) for _, a, b in CORNERS)

# The six neighbour directions in ring order (E, NE, NW, W, SW, SE) as bit
# offsets; two ring-consecutive neighbours of a peg are neighbours of each other.
_RING: Final = (1, -11, -12, -1, 11, 12)


def _toward(mask: int, offset: int) -> int:
    """The pegs p for which p + offset is in ``mask`` (masked to the board)."""
    return (mask >> offset if offset > 0 else mask << -offset) & VALID


def triangle_forbidden(own: int) -> int:
    """Pegs where one more cog of this colour would close a triangle of that colour."""
    shifted = [_toward(own, offset) for offset in _RING]
    return (
        (shifted[0] & shifted[1])
        | (shifted[1] & shifted[2])
        | (shifted[2] & shifted[3])
        | (shifted[3] & shifted[4])
        | (shifted[4] & shifted[5])
        | (shifted[5] & shifted[0])
    )


def corner_forbidden(own: int) -> int:
    """Pegs where one more cog of this colour would fill a corner's second neighbour."""
    forbidden = 0
    for first, second in _CORNER_PAIRS:
        if own & first:
            forbidden |= second
        if own & second:
            forbidden |= first
    return forbidden


def has_own_triangle(own: int) -> bool:
    """True if three mutually neighbouring pegs are all in ``own``."""
    return bool((own & (own >> 11) & (own >> 12)) | (own & (own >> 1) & (own >> 12)))


def flood(seed: int, within: int) -> int:
    """The pegs of ``within`` connected to ``seed`` (seed included)."""
    region = seed
    while True:
        grown = region | (dilate(region) & within)
        if grown == region:
            return region
        region = grown
