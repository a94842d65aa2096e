"""What is printed for cards: the card mat, a tag sticker per card, the card back, sticker pages.

- :func:`draw_mat`: the mat to scale, a deep green ground (far in hue from
  white card stock, card backs and skin, so the reader can tell bare mat from
  anything on it), every zone outlined and named, the markers on white.
- :func:`draw_sticker`: one card's sticker (:data:`STICKER_MM`): its tag
  (:data:`TAG_MM`) on a white quiet zone, the card's name beside it, the tag
  id and deck under the name. Stuck on the card face (or printed on a sleeve
  insert), it makes the card one the camera identifies.
- :func:`draw_back`: the card back the camera counts (every back shows the
  tag :data:`vision.cards.tags.BACK_ID`).
- :func:`draw_back_sticker`: the same tag on a white square, to stick in the
  middle of a card's own back (or to slip into a sleeve behind it), so the
  game's printed backs are counted too.
- :func:`sticker_pages` and :func:`back_sticker_pages`: every sticker of a
  deck, and one back sticker per card, to scale on A4 or Letter pages, in a
  grid with cut lines, a title and a 100 mm check bar.

The mock table draws the same pictures, so what the synthetic camera sees is
what a printer prints.

>>> draw_sticker(7, "Propaganda", 4.0, "gorobotchev").shape
(144, 232, 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.mat import CARD_SIZE_MM, CardMatLayout, CardZone
from vision.cards.tags import BACK_ID, FAMILY_NAME, MODULES, tag_image
from vision.markers import marker_image
from vision.stickers import MARGIN_MM, MM_PER_INCH, _head

BGR = tuple[int, int, int]
MAT_BGR: BGR = (62, 112, 38)
"""The mat's deep green ground."""
ZONE_LINE_BGR: BGR = (150, 200, 140)
ZONE_TEXT_BGR: BGR = (150, 200, 140)
WHITE: BGR = (255, 255, 255)
INK: BGR = (0, 0, 0)
GREY: BGR = (110, 110, 110)
BACK_BGR: BGR = (48, 34, 128)
"""The card back's deep red."""
BACK_LINE_BGR: BGR = (80, 70, 170)

STICKER_MM = (58.0, 36.0)
"""A card's sticker (width x height): it fits on a 63 x 88 mm card with room to spare."""
TAG_MM = 28.0
"""The printed tag's side (its black border included): 3.5 mm modules, four pixels of a
720p camera over the standard mat."""
TAG_INSET_MM = 4.0
"""From the sticker's left and top-and-bottom-centred: the tag's quiet zone is >= one module."""
BACK_TAG_MM = TAG_MM
BACK_QUIET_MM = 5.0
"""White round the back tag, on the printed back and on a back sticker."""
BACK_STICKER_MM = BACK_TAG_MM + 2 * BACK_QUIET_MM
"""A back sticker's side: the back tag and its white margin (38 mm)."""
NAME_MM = 3.0
"""Cap height of a card's name on its sticker."""
MAT_MARKER_QUIET = 1.0
"""White margin around a mat marker, in its modules (6 of them to its side)."""


STICKER_ON_CARD_MM = (CARD_SIZE_MM[0] / 2, 52.0)
"""Where a sticker's centre goes on a card's face (mm from the card's top-left): centred across,
below the art; a sleeve insert carries it at the same place."""
SLEEVE_MM = (66.0, 91.0)
"""A clear sleeve round a card: the most a sleeved card covers of the mat."""


def sticker_tag_centre() -> tuple[float, float]:
    """Where a sticker's tag centre lies on the sticker, in mm from its top-left."""
    return TAG_INSET_MM + TAG_MM / 2, STICKER_MM[1] / 2


def card_tag_offset(face_up: bool = True) -> tuple[float, float]:
    """Where a card's tag centre lies from the card's centre (mm, the card upright).

    Face up: the sticker's tag, :data:`STICKER_ON_CARD_MM`; face down: the
    back's tag, in the middle.

    >>> card_tag_offset(), card_tag_offset(face_up=False)
    ((-11.0, 8.0), (0.0, 0.0))
    """
    if not face_up:
        return 0.0, 0.0
    tag_x, tag_y = sticker_tag_centre()
    x = STICKER_ON_CARD_MM[0] - STICKER_MM[0] / 2 + tag_x - CARD_SIZE_MM[0] / 2
    y = STICKER_ON_CARD_MM[1] - STICKER_MM[1] / 2 + tag_y - CARD_SIZE_MM[1] / 2
    return x, y


def draw_mat(mat: CardMatLayout, px_per_mm: float) -> np.ndarray:
    """The printed mat at ``px_per_mm`` (BGR uint8): green ground, zones, markers, title."""
    width, height = round(mat.width_mm * px_per_mm), round(mat.height_mm * px_per_mm)
    sheet = np.empty((height, width, 3), np.uint8)
    sheet[:] = MAT_BGR
    for zone in mat.zones:
        _draw_zone(sheet, zone, px_per_mm)
    for marker in mat.markers:
        quiet = MAT_MARKER_QUIET * marker.side / 6
        (x0, y0), _, (x1, y1), _ = marker.corners()
        _fill(sheet, (x0 - quiet, y0 - quiet, x1 + quiet, y1 + quiet), px_per_mm, WHITE)
        left, top = round(x0 * px_per_mm), round(y0 * px_per_mm)
        side = round(x1 * px_per_mm) - left
        sheet[top : top + side, left : left + side] = marker_image(marker.id, side)[..., None]
    title = mat.title or mat.name
    _text(
        sheet,
        title,
        (mat.width_mm / 2 - 40, mat.height_mm - 6),
        5.0,
        scale=px_per_mm,
        colour=ZONE_TEXT_BGR,
    )
    return sheet


def _draw_zone(sheet: np.ndarray, zone: CardZone, px_per_mm: float) -> None:
    (x0, y0), (x1, y1) = zone.corners()
    corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]) * px_per_mm - 0.5
    thickness = max(1, round(1.0 * px_per_mm))
    cv2.polylines(
        sheet,
        [np.round(corners * 16).astype(np.int32)],
        True,
        ZONE_LINE_BGR,
        thickness,
        cv2.LINE_AA,
        4,
    )
    _text(sheet, zone.name, (x0 + 3, y0 + 7), 4.0, scale=px_per_mm, colour=ZONE_TEXT_BGR)


def draw_sticker(tag_id: int, name: str, px_per_mm: float, deck: str = "") -> np.ndarray:
    """One card's sticker at ``px_per_mm``: its tag, its name beside it, id and deck under."""
    width, height = (round(side * px_per_mm) for side in STICKER_MM)
    sticker = np.full((height, width, 3), 255, np.uint8)
    side = _module_multiple(TAG_MM * px_per_mm)
    left = round(TAG_INSET_MM * px_per_mm)
    top = (height - side) // 2
    sticker[top : top + side, left : left + side] = tag_image(tag_id, side)[..., None]
    text_x = TAG_INSET_MM + TAG_MM + 3.0
    room = STICKER_MM[0] - text_x - 2.0
    longest = max((_text_width(word, 1.0) for word in name.split()), default=1.0)
    cap = min(NAME_MM, room / max(longest, 1e-6))
    lines = wrap(name, room, cap)
    y = STICKER_MM[1] / 2 - (len(lines) - 1) * cap * 0.8 - 2.0
    for line in lines:
        _text(sticker, line, (text_x, y), cap, scale=px_per_mm, colour=INK)
        y += cap * 1.6
    detail = f"#{tag_id}" + (f" {deck}" if deck else "")
    _text(sticker, detail, (text_x, y + 1.0), 2.0, scale=px_per_mm, colour=GREY)
    return sticker


def draw_back(px_per_mm: float) -> np.ndarray:
    """The card back at ``px_per_mm`` (63 x 88 mm): a deep red lattice, the back tag on white."""
    width, height = (round(side * px_per_mm) for side in CARD_SIZE_MM)
    back = np.empty((height, width, 3), np.uint8)
    back[:] = BACK_BGR
    step = 8.0 * px_per_mm
    line = max(1, round(0.6 * px_per_mm))
    for start in np.arange(-height, width + height, step):
        cv2.line(back, (round(start), 0), (round(start + height), height), BACK_LINE_BGR, line)
        cv2.line(back, (round(start), height), (round(start + height), 0), BACK_LINE_BGR, line)
    middle = (CARD_SIZE_MM[0] / 2, CARD_SIZE_MM[1] / 2)
    quiet = BACK_TAG_MM / 2 + BACK_QUIET_MM
    _fill(
        back,
        (middle[0] - quiet, middle[1] - quiet, middle[0] + quiet, middle[1] + quiet),
        px_per_mm,
        WHITE,
    )
    side = _module_multiple(BACK_TAG_MM * px_per_mm)
    left, top = round(middle[0] * px_per_mm - side / 2), round(middle[1] * px_per_mm - side / 2)
    back[top : top + side, left : left + side] = tag_image(BACK_ID, side)[..., None]
    return back


def draw_back_sticker(px_per_mm: float) -> np.ndarray:
    """A back sticker at ``px_per_mm``: the back tag (:data:`BACK_ID`) on a white square.

    >>> draw_back_sticker(4.0).shape
    (152, 152, 3)
    """
    side = round(BACK_STICKER_MM * px_per_mm)
    sticker = np.full((side, side, 3), 255, np.uint8)
    tag = _module_multiple(BACK_TAG_MM * px_per_mm)
    start = (side - tag) // 2
    sticker[start : start + tag, start : start + tag] = tag_image(BACK_ID, tag)[..., None]
    return sticker


@dataclass(frozen=True)
class StickerSpec:
    """One sticker to print: the tag id, the card's name and its deck (a faction, a colour)."""

    tag_id: int
    name: str
    deck: str = ""


def sticker_pages(
    stickers: Sequence[StickerSpec], paper: tuple[float, float], dpi: float, title: str
) -> list[np.ndarray]:
    """Pages (BGR) holding every sticker to scale in a grid with cut lines and a check bar."""
    if not stickers:
        raise ValueError("there are no card stickers to print")
    scale = dpi / MM_PER_INCH
    drawn = [draw_sticker(spec.tag_id, spec.name, scale, spec.deck) for spec in stickers]
    return _grid_pages(drawn, STICKER_MM, paper, scale, f"{title}: card stickers ({FAMILY_NAME})")


def back_sticker_pages(
    count: int, paper: tuple[float, float], dpi: float, title: str
) -> list[np.ndarray]:
    """Pages (BGR) of ``count`` back stickers (one per card) in a grid with cut lines."""
    if count < 1:
        raise ValueError("there are no card backs to print")
    scale = dpi / MM_PER_INCH
    drawn = [draw_back_sticker(scale)] * count
    heading = f"{title}: back stickers (tag {BACK_ID}), one in the middle of every card's back"
    return _grid_pages(drawn, (BACK_STICKER_MM, BACK_STICKER_MM), paper, scale, heading)


def _grid_pages(
    stickers: Sequence[np.ndarray],
    size_mm: tuple[float, float],
    paper: tuple[float, float],
    scale: float,
    heading: str,
) -> list[np.ndarray]:
    """The stickers (each ``size_mm``) in a grid on pages with cut lines, a title and a bar."""
    cell_w, cell_h = size_mm[0] + 4.0, size_mm[1] + 4.0
    usable_w, usable_h = paper[0] - 2 * MARGIN_MM, paper[1] - 2 * MARGIN_MM - 14.0
    columns, rows = int(usable_w // cell_w), int(usable_h // cell_h)
    per_page = columns * rows
    total = math.ceil(len(stickers) / per_page)
    pages = []
    for number in range(total):
        page = np.full((round(paper[1] * scale), round(paper[0] * scale), 3), 255, np.uint8)
        for index, sticker in enumerate(stickers[number * per_page : (number + 1) * per_page]):
            row, column = divmod(index, columns)
            x, y = MARGIN_MM + column * cell_w, MARGIN_MM + 14.0 + row * cell_h
            _place_sticker(page, sticker, (x, y), scale)
        _head(page, f"{heading}, page {number + 1} of {total}", scale)
        pages.append(page)
    return pages


def _place_sticker(page: np.ndarray, sticker: np.ndarray, at: tuple[float, float], scale: float):
    """One sticker on the page at ``at`` (mm), with a thin grey cut line round it."""
    left, top = round(at[0] * scale), round(at[1] * scale)
    height, width = sticker.shape[:2]
    page[top : top + height, left : left + width] = sticker
    cv2.rectangle(page, (left - 1, top - 1), (left + width, top + height), GREY, 1)


def wrap(text: str, width_mm: float, cap_mm: float) -> list[str]:
    """``text`` broken into lines no wider than ``width_mm`` at cap height ``cap_mm``.

    >>> wrap("Artificial Stalintelligence", 24.0, 3.0)
    ['Artificial', 'Stalintelligence']
    """
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and _text_width(joined, cap_mm) <= width_mm:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines or [""]


def _text_width(text: str, cap_mm: float) -> float:
    face = cv2.FONT_HERSHEY_SIMPLEX
    (_, cap), _ = cv2.getTextSize("H", face, 1.0, 1)
    (width, _), _ = cv2.getTextSize(text, face, 1.0, 1)
    return width * cap_mm / cap


def _text(image, text: str, at: tuple[float, float], cap_mm: float, *, scale: float, colour):
    """Write ``text`` with its baseline-left corner at ``at`` (mm), ``cap_mm`` high."""
    face = cv2.FONT_HERSHEY_SIMPLEX
    (_, cap), _ = cv2.getTextSize("H", face, 1.0, 1)
    font_scale = cap_mm * scale / cap
    thickness = max(1, round(font_scale * 1.4))
    origin = (round(at[0] * scale), round(at[1] * scale))
    cv2.putText(image, text, origin, face, font_scale, colour, thickness, cv2.LINE_AA)


def _fill(image: np.ndarray, box, px_per_mm: float, colour: BGR) -> None:
    x0, y0, x1, y1 = (max(0, round(v * px_per_mm)) for v in box)
    image[y0:y1, x0:x1] = colour


def _module_multiple(pixels: float) -> int:
    """The nearest whole number of pixels that is a multiple of the tag's modules (crisp bits)."""
    return max(MODULES, round(pixels / MODULES) * MODULES)
