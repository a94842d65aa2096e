"""The card mat: a printed mat with its own ArUco markers and a zone per seat plus a centre zone.

Coordinates are millimetres from the mat's top-left corner, x to the right, y
down, as printed (like :mod:`vision.layout`). A :class:`CardZone` is a
rectangle (centre and size) where cards lie; the reader says, per zone, which
tagged cards lie face up and how many card backs lie face down. Zones are data
in the table profile (``[cards]``); :func:`standard_mat` is the mat the
mock table and ``cogtable cards print mat`` use.

>>> mat = standard_mat(4)
>>> [zone.name for zone in mat.zones]
['seat1', 'seat2', 'seat3', 'seat4', 'centre']
>>> mat.marker_ids
(40, 41, 42, 43)
>>> mat.zone_at(340, 245).name
'centre'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.layout import Marker, PartLayout, Place, check_inside, check_unique
from vision.part_markers import MIN_MARKERS

CENTRE = "centre"
"""The name of the mat's centre (stack) zone in :func:`standard_mat`."""
MAT_MARKER_IDS = (40, 41, 42, 43)
"""The standard mat's DICT_4X4_50 ids: clear of Kogworks (0-3) and the C.O.G. parts (10-35)."""
CARD_SIZE_MM = (63.0, 88.0)
"""A standard card (poker size), width x height."""


@dataclass(frozen=True)
class CardZone:
    """A rectangle of the mat where cards lie: its centre and size in mm, and whose it is."""

    name: str
    x: float
    y: float
    w: float
    h: float
    seat: int | None = None
    """The seat (1, 2, ...) whose zone this is; None for a shared zone (the centre stack)."""

    def corners(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Top-left and bottom-right corners in mm."""
        return (self.x - self.w / 2, self.y - self.h / 2), (
            self.x + self.w / 2,
            self.y + self.h / 2,
        )

    def contains(self, x: float, y: float) -> bool:
        """Whether the mat point (x, y) mm lies in the zone (edges included)."""
        return abs(x - self.x) <= self.w / 2 and abs(y - self.y) <= self.h / 2


@dataclass(frozen=True)
class CardMatLayout:
    """One card mat: size, markers and zones (in mm), checked when built."""

    name: str
    width_mm: float
    height_mm: float
    markers: tuple[Marker, ...]
    zones: tuple[CardZone, ...]
    title: str = ""

    def __post_init__(self) -> None:
        """Refuse a mat that cannot be printed or read, naming the zone or marker at fault."""
        if not (self.width_mm > 0 and self.height_mm > 0):
            raise ValueError(
                f"{self.name}: size {self.width_mm}x{self.height_mm} mm is not positive"
            )
        if len(self.markers) < MIN_MARKERS:
            raise ValueError(f"{self.name}: has {len(self.markers)} markers, needs {MIN_MARKERS}")
        if not self.zones:
            raise ValueError(f"{self.name}: has no zones")
        check_unique(self.name, "marker id", [marker.id for marker in self.markers])
        check_unique(self.name, "zone", [zone.name for zone in self.zones])
        for zone in self.zones:
            if not (zone.w > 0 and zone.h > 0):
                raise ValueError(f"{self.name}: zone {zone.name} has no size")
            size = (self.width_mm, self.height_mm)
            check_inside(self.name, f"zone {zone.name}", zone.corners(), size, "mat")
        self.part()  # every marker inside the mat
        self._check_apart()

    def _check_apart(self) -> None:
        """No two zones overlap, and no zone reaches over a marker."""
        boxes = [(f"zone {zone.name}", *_flat(zone.corners())) for zone in self.zones]
        boxes += [
            (f"marker {m.id}", *_flat((m.corners()[0], m.corners()[2]))) for m in self.markers
        ]
        for index, (name, *box) in enumerate(boxes):
            for other, *other_box in boxes[index + 1 :]:
                if name.startswith("zone") and _overlap(box, other_box):
                    raise ValueError(f"{self.name}: {name} overlaps {other}")

    @property
    def marker_ids(self) -> tuple[int, ...]:
        """The ids of the mat's markers, in layout order."""
        return tuple(marker.id for marker in self.markers)

    def zone(self, name: str) -> CardZone:
        """The zone called ``name``; KeyError names it when there is none."""
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise KeyError(f"{self.name} has no zone {name!r}")

    def zone_at(self, x: float, y: float) -> CardZone | None:
        """The zone holding the mat point (x, y) mm, or None (between zones, on the margin)."""
        return next((zone for zone in self.zones if zone.contains(x, y)), None)

    def part(self) -> PartLayout:
        """The mat as a printed part (zones as free areas): for marker stickers and map pages."""
        places = tuple(
            Place(zone.name, "free", zone.x, zone.y, zone.w, zone.h) for zone in self.zones
        )
        return PartLayout(
            self.name, self.width_mm, self.height_mm, self.markers, places, self.title
        )


def _flat(corners) -> tuple[float, float, float, float]:
    (x0, y0), (x1, y1) = corners
    return x0, y0, x1, y1


def _overlap(a: Sequence[float], b: Sequence[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


MAT_SIZE_MM = (680.0, 490.0)
MARKER_SIDE_MM = 36.0
SEAT_ZONE_MM = (180.0, 130.0)
"""A seat's zone: room for two cards side by side, or one turned, with space around."""
CENTRE_ZONE_MM = (400.0, 150.0)


def standard_mat(seats: int = 6, name: str = "cardmat") -> CardMatLayout:
    """The standard 680 x 490 mm mat: up to three seat zones along each long edge, a centre zone.

    Seats 1..3 sit along the top edge, left to right, and 4..6 along the
    bottom, right to left (clockwise round the table); markers lie in the
    corners.
    """
    if not 1 <= seats <= 6:
        raise ValueError(f"the standard card mat has zones for 1 to 6 seats, not {seats}")
    width, height = MAT_SIZE_MM
    inset = 28.0
    corners = ((inset, inset), (width - inset, inset), (width - inset, height - inset))
    corners += ((inset, height - inset),)
    markers = tuple(
        Marker(marker_id, x, y, MARKER_SIDE_MM)
        for marker_id, (x, y) in zip(MAT_MARKER_IDS, corners, strict=True)
    )
    zone_w, zone_h = SEAT_ZONE_MM
    columns = (150.0, 340.0, 530.0)
    spots = [(x, 20 + zone_h / 2) for x in columns]
    spots += [(x, height - 20 - zone_h / 2) for x in reversed(columns)]
    zones = tuple(
        CardZone(f"seat{seat}", x, y, zone_w, zone_h, seat)
        for seat, (x, y) in enumerate(spots[:seats], start=1)
    )
    centre = CardZone(CENTRE, width / 2, height / 2, *CENTRE_ZONE_MM)
    return CardMatLayout(name, width, height, markers, (*zones, centre), "Card mat")
