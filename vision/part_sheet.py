"""The printed face of a part (a C.O.G. board, a player mat): what the printer and the camera see.

:func:`draw_part` draws a :class:`~vision.layout.PartLayout` to scale: a pale
paper ground, each ArUco marker on a white quiet zone, every place outlined by
its kind (tile cells as a grid of thin lines, cog spaces as circles, die slots
as squares, track spaces as rounded boxes, free areas lightly dashed), each
place's name small in its corner and the part's title with a scale bar. The
print command prints it at 100%; the synthetic table uses it as the parts'
texture, and the parts reader draws it too, so that it knows which pixels of
the part are bare print (the reference for the light) and what an empty place
looks like.

>>> from vision.layout import Marker, PartLayout, Place
>>> part = PartLayout("mat", 100, 60, (Marker(0, 10, 10, 12),),
...                   (Place("r1c1", "tile", 40, 30, 20, 20),), "Player 1")
>>> draw_part(part, 2.0).shape
(120, 200, 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.layout import Marker, PartLayout, Place
from vision.markers import marker_image

BGR = tuple[int, int, int]

PAPER_BGR: BGR = (225, 196, 172)
"""The pale steel-blue ground of every part: far in hue from cream tile faces and gold stars."""
LINE_BGR: BGR = (150, 128, 110)
"""Outlines of places."""
TEXT_BGR: BGR = (120, 100, 84)
"""Place names, the title and the scale bar."""
WHITE: BGR = (255, 255, 255)

LINE_MM = {"tile": 0.35, "cog": 0.5, "die": 0.5, "pawn": 0.5, "free": 0.3}
"""Outline width (mm) per place kind."""
NAME_MM = 1.8
"""Height of a place's name (capital letters), in mm."""
TITLE_MM = 6.0
"""Height of the part's title, in mm."""
SCALE_BAR_MM = 50.0
QUIET_MODULES = 1.0
"""White margin around a marker, in marker modules (a 4x4 marker with its border is 6 modules)."""
DASH_MM = 3.0
MIN_PX_PER_MM, MAX_PX_PER_MM = 0.5, 40.0


def sheet_matrix(px_per_mm: float) -> np.ndarray:
    """3x3 map from part millimetres to pixel centres of the sheet drawn at ``px_per_mm``."""
    return np.array([[px_per_mm, 0.0, -0.5], [0.0, px_per_mm, -0.5], [0.0, 0.0, 1.0]])


def sheet_size(layout: PartLayout, px_per_mm: float) -> tuple[int, int]:
    """(width, height) in pixels of the part drawn at ``px_per_mm``."""
    return round(layout.width * px_per_mm), round(layout.height * px_per_mm)


def draw_part(layout: PartLayout, px_per_mm: float) -> np.ndarray:
    """The printed face of ``layout`` at ``px_per_mm`` (BGR uint8, height x width x 3)."""
    if not MIN_PX_PER_MM <= px_per_mm <= MAX_PX_PER_MM:
        raise ValueError(
            f"{px_per_mm:g} pixels per mm is outside {MIN_PX_PER_MM:g}..{MAX_PX_PER_MM:g}"
        )
    width, height = sheet_size(layout, px_per_mm)
    sheet = np.empty((height, width, 3), np.uint8)
    sheet[:] = PAPER_BGR
    pen = _Pen(sheet, px_per_mm)
    for place in layout.places:
        _draw_place(pen, place)
    for marker in layout.markers:
        _draw_marker(sheet, marker, px_per_mm, layout)
    _draw_title(pen, layout)
    return sheet


class _Pen:
    """Draws in millimetres on a sheet (anti-aliased, sub-pixel positions)."""

    SHIFT = 4

    def __init__(self, sheet: np.ndarray, px_per_mm: float) -> None:
        self.sheet = sheet
        self.scale = px_per_mm

    def point(self, x: float, y: float) -> tuple[int, int]:
        """Fixed-point pixel coordinates of a point in mm (for OpenCV's ``shift``)."""
        factor = 1 << self.SHIFT
        return (
            round((x * self.scale - 0.5) * factor),
            round((y * self.scale - 0.5) * factor),
        )

    def width(self, mm: float) -> int:
        return max(1, round(mm * self.scale))

    def polyline(self, points: Sequence[tuple[float, float]], colour: BGR, mm: float) -> None:
        poly = np.array([self.point(x, y) for x, y in points], np.int32)
        cv2.polylines(self.sheet, [poly], True, colour, self.width(mm), cv2.LINE_AA, self.SHIFT)

    def line(self, start, end, colour: BGR, mm: float) -> None:
        cv2.line(
            self.sheet,
            self.point(*start),
            self.point(*end),
            colour,
            self.width(mm),
            cv2.LINE_AA,
            self.SHIFT,
        )

    def circle(self, centre, radius: float, colour: BGR, mm: float) -> None:
        cv2.circle(
            self.sheet,
            self.point(*centre),
            round(radius * self.scale * (1 << self.SHIFT)),
            colour,
            self.width(mm),
            cv2.LINE_AA,
            self.SHIFT,
        )

    def text(self, text: str, x: float, y: float, height_mm: float, colour: BGR) -> float:
        """Write ``text`` with its baseline-left corner at (x, y) mm; return its width in mm."""
        face = cv2.FONT_HERSHEY_SIMPLEX
        (_, cap), _ = cv2.getTextSize("H", face, 1.0, 1)
        font_scale = height_mm * self.scale / cap
        thickness = max(1, round(font_scale * 1.6))
        (text_w, _), _ = cv2.getTextSize(text, face, font_scale, thickness)
        origin = (round(x * self.scale), round(y * self.scale))
        cv2.putText(self.sheet, text, origin, face, font_scale, colour, thickness, cv2.LINE_AA)
        return text_w / self.scale


def _draw_place(pen: _Pen, place: Place) -> None:
    """One place's outline by kind, and its name small in the bottom-left corner inside."""
    (x0, y0), (x1, y1) = place.corners()
    width = LINE_MM[place.kind]
    if place.kind == "cog":
        pen.circle((place.x, place.y), min(place.width, place.height) / 2, LINE_BGR, width)
        pen.circle((place.x, place.y), 0.8, LINE_BGR, 0.8)
    elif place.kind == "pawn":
        pen.polyline(
            _rounded_box(x0, y0, x1, y1, 0.18 * min(place.width, place.height)), LINE_BGR, width
        )
    elif place.kind == "free":
        _dashed_box(pen, (x0, y0, x1, y1), width)
    else:
        pen.polyline(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), LINE_BGR, width)
    if place.kind == "die":
        inset = 0.12 * min(place.width, place.height)
        pen.polyline(
            _rounded_box(x0 + inset, y0 + inset, x1 - inset, y1 - inset, inset), LINE_BGR, 0.25
        )
    _draw_name(pen, place)


def _draw_name(pen: _Pen, place: Place) -> None:
    """The place's name, small, in its bottom-left corner (clear of a round outline)."""
    size = min(NAME_MM, 0.12 * min(place.width, place.height))
    inset = 0.9 + (0.15 * place.width if place.kind == "cog" else 0.0)
    x = place.x - place.width / 2 + inset
    y = place.y + place.height / 2 - 0.9 - (0.15 * place.height if place.kind == "cog" else 0)
    name = place.name if place.kind != "die" or not place.colour else place.colour
    pen.text(name, x, y, size, TEXT_BGR)


def _rounded_box(x0: float, y0: float, x1: float, y1: float, radius: float):
    """The outline of a rounded rectangle as points (mm), clockwise from the top-left arc."""
    points = []
    corners = ((x1 - radius, y0 + radius, -90), (x1 - radius, y1 - radius, 0))
    corners += ((x0 + radius, y1 - radius, 90), (x0 + radius, y0 + radius, 180))
    for cx, cy, start in corners:
        for step in range(7):
            angle = math.radians(start + 15 * step)
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _dashed_box(pen: _Pen, box: tuple[float, float, float, float], width: float) -> None:
    x0, y0, x1, y1 = box
    for start, end in (
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ):
        length = math.dist(start, end)
        dashes = max(1, round(length / (2 * DASH_MM)))
        for dash in range(dashes):
            a, b = dash / dashes, (dash + 0.5) / dashes
            pen.line(_lerp(start, end, a), _lerp(start, end, b), LINE_BGR, width)


def _lerp(start, end, t: float) -> tuple[float, float]:
    return start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1])


def quiet_zone(marker: Marker, layout: PartLayout) -> tuple[float, float, float, float]:
    """The white square (x0, y0, x1, y1 in mm) around a marker, kept inside the part."""
    margin = QUIET_MODULES * marker.side / 6
    (x0, y0), _, (x1, y1), _ = marker.corners()
    return (
        max(0.0, x0 - margin),
        max(0.0, y0 - margin),
        min(layout.width, x1 + margin),
        min(layout.height, y1 + margin),
    )


def _draw_marker(sheet: np.ndarray, marker: Marker, px_per_mm: float, layout: PartLayout) -> None:
    """The marker on its white quiet zone, snapped to whole pixels."""
    qx0, qy0, qx1, qy1 = (round(v * px_per_mm) for v in quiet_zone(marker, layout))
    sheet[qy0:qy1, qx0:qx1] = WHITE
    (x0, y0), _, (x1, _), _ = marker.corners()
    left, top = round(x0 * px_per_mm), round(y0 * px_per_mm)
    side = round(x1 * px_per_mm) - left
    sheet[top : top + side, left : left + side] = marker_image(marker.id, side)[..., None]


def _draw_title(pen: _Pen, layout: PartLayout) -> None:
    """The title and a scale bar in the widest free band above or below every place."""
    band = _free_band(layout)
    if band is None:
        return
    left, top, right, bottom = band
    height = min(TITLE_MM, 0.6 * (bottom - top))
    baseline = (top + bottom + height) / 2
    title = layout.title or layout.name
    used = pen.text(title, left, baseline, height, TEXT_BGR)
    bar_left = right - SCALE_BAR_MM
    if bar_left > left + used + 8:
        mid = (top + bottom) / 2
        pen.line((bar_left, mid), (right, mid), TEXT_BGR, 0.5)
        for x in (bar_left, right):
            pen.line((x, mid - 1.5), (x, mid + 1.5), TEXT_BGR, 0.5)
        label = f"{SCALE_BAR_MM:g} mm: print at 100%"
        pen.text(label, bar_left, mid - 2.5, min(2.0, height * 0.5), TEXT_BGR)


def _free_band(layout: PartLayout) -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom) mm of the taller of the strips above and below the places.

    The strip runs between the markers' quiet zones; None when neither is 5 mm tall.
    """
    if not layout.places:
        return None
    tops = [place.corners()[0][1] for place in layout.places]
    bottoms = [place.corners()[1][1] for place in layout.places]
    margin = 2.0
    strips = [(0.0 + margin, min(tops) - margin), (max(bottoms) + margin, layout.height - margin)]
    top, bottom = max(strips, key=lambda strip: strip[1] - strip[0])
    if bottom - top < 5.0:
        return None
    left, right = margin, layout.width - margin
    for marker in layout.markers:
        x0, y0, x1, y1 = quiet_zone(marker, layout)
        if y1 > top and y0 < bottom:
            if x1 < layout.width / 2:
                left = max(left, x1 + margin)
            else:
                right = min(right, x0 - margin)
    return (left, top, right, bottom) if right - left > 20 else None
