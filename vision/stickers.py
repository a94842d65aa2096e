"""Printable pages for the parts a camera reads: marker stickers, and a map of where they go.

A table owner keeps their own printed board and mats and sticks the ArUco
markers on them: :func:`sticker_pages` lays every part's markers out on
pages of a home printer's paper, to scale, each with its id, the part and
the corner it belongs to, and how far its centre lies from the part's top-left
corner; every page carries a 100 mm check bar. :func:`map_page` draws a part
(:func:`vision.part_sheet.draw_part`) shrunk onto one page, with its markers
and places, to show where the stickers go.

>>> from vision.layout import Marker, PartLayout, Place
>>> part = PartLayout("mat1", 100, 60, (Marker(20, 10, 10, 12),), (), "Red's mat")
>>> pages = sticker_pages([part], PAPERS["a4"], 50)
>>> len(pages), pages[0].shape
(1, (585, 413, 3))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.layout import Marker, PartLayout
from vision.markers import marker_image
from vision.part_sheet import draw_part
from vision.print_text import put_text

MM_PER_INCH = 25.4
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes (width, height) in mm, portrait."""
MARGIN_MM = 12.0
"""Printers do not print to the edge: nothing is placed closer to it than this."""
CAPTION_MM = 16.0
"""Room under each sticker for its caption."""
CHECK_BAR_MM = 100.0
INK = (0, 0, 0)
GREY = (110, 110, 110)


@dataclass(frozen=True)
class Sticker:
    """One marker to print: which part it goes on, where, and its side."""

    part: PartLayout
    marker: Marker

    def caption(self) -> tuple[str, ...]:
        """What is printed under it: id, part, corner, and the centre's distance from the corner."""
        return (
            f"id {self.marker.id}: {self.part.title or self.part.name}",
            f"{_corner(self.part, self.marker)} corner",
            f"centre {self.marker.x:g} mm right, {self.marker.y:g} mm down",
        )


def stickers_of(parts: Sequence[PartLayout]) -> list[Sticker]:
    """Every marker of every part, part by part."""
    return [Sticker(part, marker) for part in parts for marker in part.markers]


def sticker_pages(
    parts: Sequence[PartLayout], paper: tuple[float, float], dpi: float
) -> list[np.ndarray]:
    """Pages (BGR) holding every part's markers to scale, in a grid, with captions and cut lines."""
    stickers = stickers_of(parts)
    if not stickers:
        raise ValueError("there are no markers to print")
    scale = dpi / MM_PER_INCH
    side = max(sticker.marker.side for sticker in stickers)
    cell_w, cell_h = max(side + 14.0, 66.0), side + 10.0 + CAPTION_MM
    usable_w, usable_h = paper[0] - 2 * MARGIN_MM, paper[1] - 2 * MARGIN_MM - 14.0
    columns, rows = max(1, int(usable_w // cell_w)), max(1, int(usable_h // cell_h))
    per_page = columns * rows
    pages = []
    for first in range(0, len(stickers), per_page):
        page = _blank(paper, scale)
        for index, sticker in enumerate(stickers[first : first + per_page]):
            row, column = divmod(index, columns)
            x = MARGIN_MM + column * cell_w
            y = MARGIN_MM + 14.0 + row * cell_h
            _draw_sticker(page, sticker, (x, y), (cell_w, cell_h), scale)
        number = first // per_page + 1
        total = (len(stickers) + per_page - 1) // per_page
        _head(page, f"marker stickers, page {number} of {total}", scale)
        pages.append(page)
    return pages


def map_page(part: PartLayout, paper: tuple[float, float], dpi: float) -> np.ndarray:
    """One page with the part drawn to fit (not to scale unless it fits): where stickers go."""
    scale = dpi / MM_PER_INCH
    landscape = part.width > part.height
    size = (paper[1], paper[0]) if landscape else paper
    page = _blank(size, scale)
    room_w, room_h = size[0] - 2 * MARGIN_MM, size[1] - 2 * MARGIN_MM - 14.0
    shrink = min(1.0, room_w / part.width, room_h / part.height)
    drawing = draw_part(part, scale * shrink)
    top, left = round((MARGIN_MM + 14.0) * scale), round(MARGIN_MM * scale)
    height, width = drawing.shape[:2]
    page[top : top + height, left : left + width] = drawing
    how = "to scale" if shrink == 1.0 else f"at {shrink:.0%}: a map, not to scale"
    _head(page, f"{part.title or part.name}: {part.width:g} x {part.height:g} mm, {how}", scale)
    return page


def _blank(paper: tuple[float, float], scale: float) -> np.ndarray:
    width, height = round(paper[0] * scale), round(paper[1] * scale)
    return np.full((height, width, 3), 255, np.uint8)


def _draw_sticker(
    page: np.ndarray,
    sticker: Sticker,
    at: tuple[float, float],
    cell: tuple[float, float],
    scale: float,
) -> None:
    """The marker to scale on its white quiet zone, a dashed cut line, the caption."""
    x, y = at
    side = sticker.marker.side
    left, top = round((x + 4.0) * scale), round((y + 4.0) * scale)
    pixels = round(side * scale)
    page[top : top + pixels, left : left + pixels] = cv2.cvtColor(
        marker_image(sticker.marker.id, pixels), cv2.COLOR_GRAY2BGR
    )
    _dashed_rect(
        page,
        (round(x * scale), round(y * scale)),
        (round((x + cell[0] - 2) * scale), round((y + cell[1] - 2) * scale)),
        scale,
    )
    for line, text in enumerate(sticker.caption()):
        origin = (left, top + pixels + round((4.0 + 4.0 * line) * scale))
        put_text(
            page, text, origin, height_mm=2.4, px_per_mm=scale, colour=INK if line == 0 else GREY
        )


def _dashed_rect(
    page: np.ndarray, start: tuple[int, int], end: tuple[int, int], scale: float
) -> None:
    dash = max(2, round(2.0 * scale))
    (x0, y0), (x1, y1) = start, end
    for x in range(x0, x1, 2 * dash):
        cv2.line(page, (x, y0), (min(x + dash, x1), y0), GREY, 1)
        cv2.line(page, (x, y1), (min(x + dash, x1), y1), GREY, 1)
    for y in range(y0, y1, 2 * dash):
        cv2.line(page, (x0, y), (x0, min(y + dash, y1)), GREY, 1)
        cv2.line(page, (x1, y), (x1, min(y + dash, y1)), GREY, 1)


def _head(page: np.ndarray, title: str, scale: float) -> None:
    """The page's title and the 100 mm check bar under it."""
    left = round(MARGIN_MM * scale)
    put_text(
        page,
        title,
        (left, round((MARGIN_MM - 3.0) * scale)),
        height_mm=3.2,
        px_per_mm=scale,
        colour=INK,
    )
    y = round((MARGIN_MM + 3.0) * scale)
    line = max(1, round(0.4 * scale))
    cv2.line(page, (left, y), (left + round(CHECK_BAR_MM * scale), y), INK, line)
    for end in (left, left + round(CHECK_BAR_MM * scale)):
        cv2.line(page, (end, y - round(1.5 * scale)), (end, y + round(1.5 * scale)), INK, line)
    put_text(
        page,
        "100 mm: measure it; print at 100% (no fit to page)",
        (left + round((CHECK_BAR_MM + 4.0) * scale), y + round(1.0 * scale)),
        height_mm=2.4,
        px_per_mm=scale,
        colour=GREY,
    )


def _corner(part: PartLayout, marker: Marker) -> str:
    """Which corner of the part a marker sits nearest: ``top left`` ..."""
    vertical = "top" if marker.y < part.height / 2 else "bottom"
    horizontal = "left" if marker.x < part.width / 2 else "right"
    return f"{vertical} {horizontal}"
