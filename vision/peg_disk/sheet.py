"""The Kogworks board sheet for people: `overlay.print_sheet` plus what a player reads.

On top of the markers, disk and peg circles the camera needs, the sheet gets
each peg's name in the game's notation (passed in: vision knows no game),
the row numbers down the left edge of the peg triangle, the fixed wheels
(the gold top wheel, both bases) ringed in their colours and named, a legend,
and the title with the program's version.

Everything added keeps clear of what the camera samples: the rings inside
each peg where a cog's colour is read (within :data:`PEG_SAMPLE_MM` of a peg
centre) and the bare rim between the cogs and the disk edge, which the reader
takes as the board's colour. A peg's name sits inside its circle below those
rings, where a cog standing on the peg hides it.

>>> from vision.peg_disk.geometry import PEGS
>>> notes = SheetNotes("Kogworks board", {peg: f"{peg[0] + 1}.{peg[1] + 1}" for peg in PEGS})
>>> annotated_sheet(BoardGeometry(), 40, notes).shape
(693, 693, 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.markers import project
from vision.peg_disk.geometry import PEGS, ROWS, BoardGeometry, board_to_sheet_pixels
from vision.peg_disk.overlay import print_sheet
from vision.print_text import put_text, text_size

MM_PER_INCH = 25.4
PEG_SAMPLE_MM = 8.5
"""The reader samples a cog's colour within 0.3 pitch (7.5 mm) of a peg centre; a margin added."""
RIM_BAND_MM = 4.0
"""Half the width of the rim band the reader samples (0.12 pitch each side, and a margin)."""
NAME_GREY = (150, 150, 150)
INK = (0, 0, 0)
WHEEL_BGR = {"gold": (0, 170, 220), "red": (40, 40, 220), "blue": (200, 90, 20)}


@dataclass(frozen=True)
class FixedWheel:
    """A wheel that never moves: its peg (row, column), its name and its colour."""

    peg: tuple[int, int]
    name: str
    colour: str
    """A key of :data:`WHEEL_BGR`."""


@dataclass(frozen=True)
class SheetNotes:
    """What the game says is printed on its sheet."""

    title: str
    peg_names: Mapping[tuple[int, int], str]
    """Peg (row, column), 0-based -> its name in the game's notation."""
    wheels: tuple[FixedWheel, ...] = ()
    legend: tuple[str, ...] = ()
    row_names: tuple[str, ...] = field(
        default_factory=lambda: tuple(str(r + 1) for r in range(ROWS))
    )


def annotated_sheet(geometry: BoardGeometry, dpi: float, notes: SheetNotes) -> np.ndarray:
    """The to-scale board sheet (BGR) with the notation, the fixed wheels, legend and title."""
    scale = dpi / MM_PER_INCH
    sheet = cv2.cvtColor(print_sheet(geometry, dpi), cv2.COLOR_GRAY2BGR)
    to_sheet = board_to_sheet_pixels(geometry, scale)
    for wheel in notes.wheels:
        _ring_wheel(sheet, geometry, to_sheet, scale, wheel)
    _peg_names(sheet, geometry, to_sheet, scale, notes.peg_names)
    _row_names(sheet, geometry, to_sheet, scale, notes.row_names)
    _footer(sheet, geometry, scale, notes)
    return sheet


def _at(to_sheet: np.ndarray, board_mm: tuple[float, float]) -> tuple[int, int]:
    x, y = project(to_sheet, np.array([board_mm], dtype=np.float64))[0]
    return round(float(x)), round(float(y))


def _peg_names(
    sheet: np.ndarray,
    geometry: BoardGeometry,
    to_sheet: np.ndarray,
    scale: float,
    names: Mapping[tuple[int, int], str],
) -> None:
    """Each peg's name centred under its sampling rings, inside its circle."""
    below = PEG_SAMPLE_MM + 1.0 + 1.1  # the name's centre: clear of the rings, 2.2 mm tall
    for peg in PEGS:
        if peg in names:
            x, y = geometry.peg_position(peg)
            _centred(sheet, names[peg], _at(to_sheet, (x, y + below)), (2.2, scale), NAME_GREY)


def _row_names(
    sheet: np.ndarray,
    geometry: BoardGeometry,
    to_sheet: np.ndarray,
    scale: float,
    names: tuple[str, ...],
) -> None:
    """Row numbers left of each row's first peg, outside its circle."""
    for row, name in enumerate(names[:ROWS]):
        x, y = geometry.peg_position((row, 0))
        right_edge = x - geometry.cog_radius() - 1.5
        width = text_size(name, 3.0, scale)[0] / scale
        _centred(sheet, name, _at(to_sheet, (right_edge - width / 2, y)), (3.0, scale), INK)


def _ring_wheel(
    sheet: np.ndarray,
    geometry: BoardGeometry,
    to_sheet: np.ndarray,
    scale: float,
    wheel: FixedWheel,
) -> None:
    """A thick ring in the wheel's colour just outside its cog, and its name beside it."""
    x, y = geometry.peg_position(wheel.peg)
    radius = geometry.cog_radius() + 1.0
    colour = WHEEL_BGR[wheel.colour]
    cv2.circle(
        sheet, _at(to_sheet, (x, y)), round(radius * scale), colour, max(1, round(1.2 * scale))
    )
    side = -1.0 if x < 0 else 1.0
    label_y = y if wheel.peg == (0, 0) else y + radius + 4.5
    label_x = x + side * (radius + 17.0) if wheel.peg == (0, 0) else x
    _centred(sheet, wheel.name, _at(to_sheet, (label_x, label_y)), (3.0, scale), colour)


def _footer(sheet: np.ndarray, geometry: BoardGeometry, scale: float, notes: SheetNotes) -> None:
    """The title, then the legend, centred under the disk between the bottom markers."""
    width, height = geometry.sheet_size
    top = height / 2 + geometry.disk_radius + 9.0
    _centred(sheet, notes.title, (round(width / 2 * scale), round(top * scale)), (4.0, scale), INK)
    for number, line in enumerate(notes.legend, start=1):
        at = (round(width / 2 * scale), round((top + 1.0 + 5.0 * number) * scale))
        _centred(sheet, line, at, (2.6, scale), INK)


def _centred(
    sheet: np.ndarray,
    text: str,
    centre: tuple[int, int],
    size: tuple[float, float],
    colour: tuple[int, int, int],
) -> None:
    """``text`` centred on ``centre`` (pixels); ``size`` is (letter height in mm, pixels per mm)."""
    height_mm, scale = size
    put_text(sheet, text, centre, height_mm=height_mm, px_per_mm=scale, colour=colour, centred=True)
