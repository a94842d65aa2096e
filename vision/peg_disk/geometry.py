"""The Kogworks disk in millimetres: peg lattice, marker squares and the printed sheet.

Board coordinates: origin at the centre of the disk, x to the right, y towards
the viewer (down in a top view), in millimetres. Row 0 (the apex, the gold top
wheel) is at the top; row 9 holds the two bases. The peg triangle is centred on
its centroid, so the disk is centred on the triangle.

>>> geometry = BoardGeometry()
>>> len(PEGS), PEGS[0], PEGS[-1]
(55, (0, 0), (9, 9))
>>> bool(abs(geometry.peg_positions()[0, 0]) < 1e-9)
True
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

ROWS = 10
PEGS: tuple[tuple[int, int], ...] = tuple((r, c) for r in range(ROWS) for c in range(r + 1))
"""Every peg (row, column), apex first, in reading order."""

PEG_INDEX = {peg: index for index, peg in enumerate(PEGS)}
"""Peg (row, column) -> its index in :data:`PEGS`."""

LABELS = ("red", "blue", "gold")
"""The cog colours a peg can hold; an empty peg reads as ``None``."""

Position = dict[tuple[int, int], str | None]
"""A board position as plain data: every peg -> "red" | "blue" | "gold" | None."""


def empty_position() -> Position:
    """A position with every peg empty."""
    return dict.fromkeys(PEGS)


def start_position() -> Position:
    """The Kogworks start: only the fixed wheels (gold top, red and blue bases)."""
    position = empty_position()
    position[(0, 0)] = "gold"
    position[(9, 0)] = "red"
    position[(9, 9)] = "blue"
    return position


def _default_markers() -> dict[int, tuple[float, float]]:
    return {0: (-180.0, -180.0), 1: (180.0, -180.0), 2: (180.0, 180.0), 3: (-180.0, 180.0)}


@dataclass(frozen=True)
class BoardGeometry:
    """Where everything is on the reference board, in millimetres.

    ``markers`` maps an ArUco id (DICT_4X4_50) to the centre of its black
    square; markers are printed upright (not rotated) on the sheet.
    """

    peg_pitch: float = 25.0
    disk_radius: float = 162.0
    marker_size: float = 45.0
    markers: dict[int, tuple[float, float]] = field(default_factory=_default_markers)
    sheet_size: tuple[float, float] = (440.0, 440.0)

    def __post_init__(self) -> None:
        """Refuse geometry that cannot be a board, naming the value."""
        if not self.peg_pitch > 0 or not self.marker_size > 0 or not self.disk_radius > 0:
            raise ValueError("board geometry: pitch, marker size and disk radius must be > 0")
        if len(self.markers) < 4:
            raise ValueError(f"board geometry: needs 4 markers, got {len(self.markers)}")
        if self.disk_radius < self.triangle_radius() + self.cog_radius() + 0.1 * self.peg_pitch:
            raise ValueError("board geometry: the disk is too small for the peg triangle")

    @property
    def row_height(self) -> float:
        """Distance between two rows of the triangular lattice."""
        return self.peg_pitch * math.sqrt(3) / 2

    def triangle_radius(self) -> float:
        """Distance from the centre to the apex peg."""
        return 6 * self.row_height

    def cog_radius(self) -> float:
        """Outer (tip) radius of a cog: neighbouring cogs mesh."""
        return 0.56 * self.peg_pitch

    def peg_position(self, peg: tuple[int, int]) -> tuple[float, float]:
        """Centre of peg (row, column) in board millimetres."""
        row, column = peg
        return ((column - row / 2) * self.peg_pitch, (row - 6) * self.row_height)

    def peg_positions(self) -> np.ndarray:
        """All peg centres as a (55, 2) float array in :data:`PEGS` order."""
        return np.array([self.peg_position(peg) for peg in PEGS], dtype=np.float64)

    def marker_ids(self) -> tuple[int, ...]:
        """The marker ids, sorted."""
        return tuple(sorted(self.markers))

    def marker_corners(self, marker_id: int) -> np.ndarray:
        """The 4 corners of a marker in ArUco order (TL, TR, BR, BL), shape (4, 2)."""
        x, y = self.markers[marker_id]
        h = self.marker_size / 2
        return np.array([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)])

    def rim_points(self, count: int = 48) -> np.ndarray:
        """Points on the bare board between the cogs and the disk edge, shape (count, 2).

        No cog can cover them, so they show the board colour under the light
        of this frame: the local reference the reader compares pegs against.
        """
        radius = (self.triangle_radius() + self.cog_radius() + self.disk_radius) / 2
        angles = np.linspace(0, 2 * np.pi, count, endpoint=False)
        return radius * np.column_stack([np.cos(angles), np.sin(angles)])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (marker ids become strings)."""
        data = asdict(self)
        data["markers"] = {str(k): list(v) for k, v in self.markers.items()}
        data["sheet_size"] = list(self.sheet_size)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BoardGeometry:
        """Inverse of :meth:`to_dict`; raises ValueError naming a bad key."""
        try:
            markers = {int(k): (float(v[0]), float(v[1])) for k, v in data["markers"].items()}
            return cls(
                peg_pitch=float(data["peg_pitch"]),
                disk_radius=float(data["disk_radius"]),
                marker_size=float(data["marker_size"]),
                markers=markers,
                sheet_size=(float(data["sheet_size"][0]), float(data["sheet_size"][1])),
            )
        except (KeyError, TypeError, IndexError, AttributeError, ValueError) as error:
            raise ValueError(f"board geometry: bad or missing value ({error!r})") from error


def board_to_sheet_pixels(geometry: BoardGeometry, pixels_per_mm: float) -> np.ndarray:
    """3x3 matrix from board millimetres to pixels of the whole sheet at this scale."""
    width, height = geometry.sheet_size
    return np.array(
        [
            [pixels_per_mm, 0, pixels_per_mm * width / 2],
            [0, pixels_per_mm, pixels_per_mm * height / 2],
            [0, 0, 1],
        ]
    )
