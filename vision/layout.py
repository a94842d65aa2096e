"""A printed part the camera reads (a C.O.G. board, a player mat), in millimetres.

Every part carries its own ArUco markers (DICT_4X4_50, ids unique across the
table), so each part has its own homography and may be moved on the table.
Coordinates are millimetres from the part's top-left corner, x to the right,
y down, as printed. A :class:`Place` is a rectangle the reader reads; what it
may hold depends on its kind, and the reader names it by one label:

- ``tile``: ``""`` (empty), a letter ``"A"``..``"Z"``, ``"wild"`` (a tile
  face down) or ``"star"`` (a star token);
- ``cog``: ``""`` or the colour name of the cog on it (``"red"``, ...);
- ``die``: ``""`` or the face ``"1"``..``"6"``; ``colour`` names the die's body;
- ``pawn``: ``""`` or the colours of the pawns on it, sorted, joined by ``+``
  (``"blue+red"``);
- ``free``: printed area where other things lie (cards, bonus tokens); it is
  neither read nor taken for bare board.

>>> part = PartLayout("mat", 100, 60, (Marker(0, 10, 10, 12),),
...                   (Place("r1c1", "tile", 40, 20, 20, 20),))
>>> [place.name for place in part.read_places()]
['r1c1']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

PlaceKind = Literal["tile", "cog", "die", "pawn", "free"]
PLACE_KINDS: tuple[PlaceKind, ...] = ("tile", "cog", "die", "pawn", "free")
EMPTY = ""
"""The label of a place with nothing on it."""
WILD = "wild"
STAR = "star"
LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
TILE_LABELS = (EMPTY, *LETTERS, WILD, STAR)
DIE_LABELS = (EMPTY, "1", "2", "3", "4", "5", "6")


@dataclass(frozen=True)
class Place:
    """A rectangle of a part that holds one thing: its centre and size in mm."""

    name: str
    kind: PlaceKind
    x: float
    y: float
    width: float
    height: float
    colour: str = ""
    """A die place: the colour name of the die that goes there (its pips contrast with it)."""

    def corners(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Top-left and bottom-right corners in mm."""
        half_w, half_h = self.width / 2, self.height / 2
        return (self.x - half_w, self.y - half_h), (self.x + half_w, self.y + half_h)


@dataclass(frozen=True)
class Marker:
    """An ArUco marker printed upright on the part: id, centre and side in mm."""

    id: int
    x: float
    y: float
    side: float

    def corners(self) -> tuple[tuple[float, float], ...]:
        """The marker's corners in mm, in ArUco's order (top-left, clockwise)."""
        half = self.side / 2
        return (
            (self.x - half, self.y - half),
            (self.x + half, self.y - half),
            (self.x + half, self.y + half),
            (self.x - half, self.y + half),
        )


@dataclass(frozen=True)
class PartLayout:
    """One printed part: its size, markers and places (in mm), checked when built."""

    name: str
    width: float
    height: float
    markers: tuple[Marker, ...]
    places: tuple[Place, ...]
    title: str = ""

    def __post_init__(self) -> None:
        """Refuse a layout that cannot be printed or read, naming the place or marker."""
        if not (self.width > 0 and self.height > 0):
            raise ValueError(f"{self.name}: size {self.width}x{self.height} mm is not positive")
        if not self.markers:
            raise ValueError(f"{self.name}: has no markers")
        check_unique(self.name, "marker id", [marker.id for marker in self.markers])
        check_unique(self.name, "place", [place.name for place in self.places])
        for marker in self.markers:
            self._check_inside(f"marker {marker.id}", marker.corners())
        for place in self.places:
            if place.kind not in PLACE_KINDS:
                raise ValueError(f"{self.name}: place {place.name} has unknown kind {place.kind!r}")
            if not (place.width > 0 and place.height > 0):
                raise ValueError(f"{self.name}: place {place.name} has no size")
            self._check_inside(f"place {place.name}", place.corners())

    def _check_inside(self, what: str, points: Sequence[tuple[float, float]]) -> None:
        check_inside(self.name, what, points, (self.width, self.height), "part")

    def read_places(self) -> tuple[Place, ...]:
        """The places the reader reads (every kind but ``free``), in layout order."""
        return tuple(place for place in self.places if place.kind != "free")

    def place(self, name: str) -> Place:
        """The place called ``name``; KeyError names it when there is none."""
        for place in self.places:
            if place.name == name:
                return place
        raise KeyError(f"{self.name} has no place {name!r}")

    def marker_ids(self) -> tuple[int, ...]:
        """The ids of the part's markers, in layout order."""
        return tuple(marker.id for marker in self.markers)


def check_unique(sheet: str, what: str, values: Sequence[object]) -> None:
    """Refuse a printed sheet (a part, a card mat) naming one of its ``what`` twice."""
    seen: set[object] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{sheet}: {what} {value!r} appears twice")
        seen.add(value)


def check_inside(
    sheet: str,
    what: str,
    points: Sequence[tuple[float, float]],
    size_mm: tuple[float, float],
    noun: str,
) -> None:
    """Refuse a printed sheet (``noun``: part, mat) whose ``what`` reaches past its edges."""
    width, height = size_mm
    for x, y in points:
        if not (0 <= x <= width and 0 <= y <= height):
            raise ValueError(
                f"{sheet}: {what} reaches ({x:g}, {y:g}) mm, outside the "
                f"{width:g}x{height:g} mm {noun}"
            )


def pawn_label(colours: Sequence[str]) -> str:
    """The label of a pawn space holding pawns of ``colours`` (``""`` when none).

    >>> pawn_label(["red", "blue"])
    'blue+red'
    """
    return "+".join(sorted(colours))


def pawn_colours(label: str) -> tuple[str, ...]:
    """The colours a pawn label names.

    >>> pawn_colours("blue+red")
    ('blue', 'red')
    """
    return tuple(label.split("+")) if label else ()
