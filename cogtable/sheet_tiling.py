"""A sheet bigger than the paper, as pages a home printer prints and a person tapes together.

:func:`tile_pages` cuts a to-scale sheet image into tiles of one paper size
(portrait or landscape, whichever takes fewer pages), each tile overlapping
its neighbours by :data:`OVERLAP_MM`. Page 1 is a page map: the whole sheet
shrunk, each tile's outline and number, the overlaps shaded, and how to
assemble them. Every page carries the title and a 100 mm check bar.

How the pages go together: registration marks (a circle and a cross) sit on
the centre line of every overlap, drawn on the sheet itself, so they print
identically on both pages that share that overlap; they are put where the
sheet is plain, so they cover no marker or peg. Crop marks in the margin show
where each page's left and top edges are trimmed (the first column and the
first row keep theirs): trim, lay the page over its neighbour so the marks
meet, tape.

``paper="full"`` is one page the sheet's own size (a print shop's large
format); the sheet must then carry its own check bar, as the board sheets do.

>>> import numpy as np
>>> sheet = np.full((1300, 1300, 3), 255, np.uint8)  # 440 mm at 75 dpi
>>> len(tile_pages(sheet, (440.0, 440.0), "a4", 75.0, "a test sheet"))
7
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.print_text import put_text

MM_PER_INCH = 25.4
PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}
"""Paper sizes (width, height) in mm, portrait."""
FULL = "full"
PAPER_CHOICES = (*PAPERS, FULL)
MARGIN_MM = 10.0
"""Printers do not print to the edge: nothing is placed closer to it than this."""
HEADER_MM = 14.0
"""The band at the top of each page for its title and the check bar."""
OVERLAP_MM = 15.0
"""How much of the sheet two neighbouring pages both show."""
CHECK_BAR_MM = 100.0
MARK_RADIUS_MM = 3.0
INK = (0, 0, 0)
GREY = (110, 110, 110)
SHADE = (225, 225, 225)


@dataclass(frozen=True)
class TilePlan:
    """How a sheet is cut: the paper as laid, the grid, and the sizes in pixels at the dpi."""

    paper_mm: tuple[float, float]
    """The paper (width, height) as printed: portrait or landscape."""
    columns: int
    rows: int
    dpi: float
    content_px: tuple[int, int]
    """The part of the sheet one page shows (width, height)."""
    overlap_px: int

    @property
    def scale(self) -> float:
        """Pixels per millimetre."""
        return self.dpi / MM_PER_INCH

    @property
    def step_px(self) -> tuple[int, int]:
        """How far along the sheet the next column's and the next row's tiles start."""
        return self.content_px[0] - self.overlap_px, self.content_px[1] - self.overlap_px

    @property
    def tiles(self) -> list[tuple[int, int]]:
        """Every tile (row, column) in reading order: the order of the pages after the map."""
        return [(row, column) for row in range(self.rows) for column in range(self.columns)]

    def origin_px(self, row: int, column: int) -> tuple[int, int]:
        """Where tile (row, column) starts on the sheet, in sheet pixels (x, y)."""
        return column * self.step_px[0], row * self.step_px[1]

    def content_origin_px(self) -> tuple[int, int]:
        """Where the tile sits on its page (x, y): inside the margin, under the header."""
        return round(MARGIN_MM * self.scale), round((MARGIN_MM + HEADER_MM) * self.scale)


def plan_tiles(
    sheet_px: tuple[int, int], paper: tuple[float, float], dpi: float, overlap_mm: float
) -> TilePlan:
    """The grid for a sheet of ``sheet_px`` (width, height): portrait unless landscape is fewer."""
    plans = [_plan(sheet_px, size, dpi, overlap_mm) for size in (paper, paper[::-1])]
    return min(plans, key=lambda plan: plan.columns * plan.rows)


def _plan(
    sheet_px: tuple[int, int], paper: tuple[float, float], dpi: float, overlap_mm: float
) -> TilePlan:
    scale = dpi / MM_PER_INCH
    content = (
        math.floor((paper[0] - 2 * MARGIN_MM) * scale),
        math.floor((paper[1] - 2 * MARGIN_MM - HEADER_MM) * scale),
    )
    overlap = round(overlap_mm * scale)
    if min(content) <= 2 * overlap:
        raise ValueError(f"an overlap of {overlap_mm:g} mm leaves no room on {paper} mm paper")
    counts = [_count(sheet_px[axis], content[axis], overlap) for axis in (0, 1)]
    return TilePlan((paper[0], paper[1]), counts[0], counts[1], dpi, content, overlap)


def _count(length: int, content: int, overlap: int) -> int:
    """Tiles of ``content`` pixels, overlapping by ``overlap``, needed to cover ``length``."""
    if length <= content:
        return 1
    return math.ceil((length - overlap) / (content - overlap))


def tile_pages(
    sheet: np.ndarray,
    sheet_mm: tuple[float, float],
    paper: str | tuple[float, float],
    dpi: float,
    title: str,
    *,
    overlap_mm: float = OVERLAP_MM,
) -> list[np.ndarray]:
    """The printable pages (BGR) of a to-scale ``sheet`` drawn at ``dpi``: a map, then tiles.

    ``paper`` is a key of :data:`PAPERS`, ``"full"`` or a (width, height) in
    mm. A sheet that fits one page comes back as that one page (no map).
    ValueError if the image is not ``sheet_mm`` at ``dpi``.
    """
    sheet = _bgr(sheet)
    _check_scale(sheet, sheet_mm, dpi)
    if paper == FULL:
        return [sheet]
    if isinstance(paper, str) and paper not in PAPERS:
        raise ValueError(f"no paper {paper!r}: use one of {', '.join(PAPER_CHOICES)}")
    size = PAPERS[paper] if isinstance(paper, str) else paper
    plan = plan_tiles((sheet.shape[1], sheet.shape[0]), size, dpi, overlap_mm)
    if plan.columns * plan.rows == 1:
        return [_tile_page(sheet, plan, (0, 0), title, "1 of 1")]
    marked = _with_registration_marks(sheet, plan)
    total = len(plan.tiles) + 1
    pages = [page_map(sheet, plan, title, total)]
    for number, tile in enumerate(plan.tiles, start=2):
        where = f"{number} of {total}: row {tile[0] + 1}, column {tile[1] + 1}"
        pages.append(_tile_page(marked, plan, tile, title, where))
    return pages


def _bgr(sheet: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR) if sheet.ndim == 2 else sheet


def _check_scale(sheet: np.ndarray, sheet_mm: tuple[float, float], dpi: float) -> None:
    scale = dpi / MM_PER_INCH
    wanted = (round(sheet_mm[0] * scale), round(sheet_mm[1] * scale))
    found = (sheet.shape[1], sheet.shape[0])
    if any(abs(a - b) > 1 for a, b in zip(found, wanted, strict=True)):
        raise ValueError(
            f"the sheet is {found[0]}x{found[1]} pixels, not {sheet_mm[0]:g}x{sheet_mm[1]:g} mm "
            f"at {dpi:g} dpi ({wanted[0]}x{wanted[1]})"
        )


# -- the tiles ----------------------------------------------------------------------------


def _blank(plan: TilePlan) -> np.ndarray:
    width, height = (round(side * plan.scale) for side in plan.paper_mm)
    return np.full((height, width, 3), 255, np.uint8)


def _tile_page(
    sheet: np.ndarray, plan: TilePlan, tile: tuple[int, int], title: str, where: str
) -> np.ndarray:
    """One page: the header, the tile of the sheet to scale, crop marks on its trimmed edges."""
    page = _blank(plan)
    x0, y0 = plan.origin_px(*tile)
    width, height = plan.content_px
    piece = sheet[y0 : y0 + height, x0 : x0 + width]
    left, top = plan.content_origin_px()
    page[top : top + piece.shape[0], left : left + piece.shape[1]] = piece
    trims = [name for name, edge in (("left", tile[1]), ("top", tile[0])) if edge > 0]
    edges = f"{' and '.join(trims)} edge{'s' if len(trims) > 1 else ''}"
    how = f"; trim the {edges} at the crop marks" if trims else ""
    header(page, f"{title}: page {where}{how}", plan.scale)
    _crop_marks(page, plan, tile)
    return page


def _crop_marks(page: np.ndarray, plan: TilePlan, tile: tuple[int, int]) -> None:
    """Short lines outside the tile where its left / top edge is trimmed (mid-overlap)."""
    left, top = plan.content_origin_px()
    width, height = plan.content_px
    cut = plan.overlap_px // 2
    length, gap = round(3.0 * plan.scale), round(1.0 * plan.scale)
    line = max(1, round(0.25 * plan.scale))
    if tile[1] > 0:
        x = left + cut
        cv2.line(page, (x, top - gap - length), (x, top - gap), INK, line)
        cv2.line(page, (x, top + height + gap), (x, top + height + gap + length), INK, line)
    if tile[0] > 0:
        y = top + cut
        cv2.line(page, (left - gap - length, y), (left - gap, y), INK, line)
        cv2.line(page, (left + width + gap, y), (left + width + gap + length, y), INK, line)


def _with_registration_marks(sheet: np.ndarray, plan: TilePlan) -> np.ndarray:
    """A copy of the sheet with marks on the centre line of every overlap, where it is plain."""
    marked = sheet.copy()
    for x, y in registration_points(sheet, plan):
        _registration_mark(marked, (x, y), plan.scale)
    return marked


def registration_points(sheet: np.ndarray, plan: TilePlan) -> list[tuple[int, int]]:
    """Sheet pixels of the registration marks: two on each stretch of overlap between tiles."""
    half = plan.overlap_px // 2
    points = []
    for row, column in plan.tiles:
        x0, y0 = plan.origin_px(row, column)
        width = min(plan.content_px[0], sheet.shape[1] - x0)  # the last tiles may run past
        height = min(plan.content_px[1], sheet.shape[0] - y0)  # the sheet's edge
        if column > 0:
            points += _plain_spots(sheet, plan, (x0 + half, y0), (0, height))
        if row > 0:
            points += _plain_spots(sheet, plan, (x0, y0 + half), (width, 0))
    return points


def _plain_spots(
    sheet: np.ndarray, plan: TilePlan, start: tuple[int, int], run: tuple[int, int]
) -> list[tuple[int, int]]:
    """Two points along a centre line (near a quarter and three quarters) where the sheet is
    plain; where it is never plain, the quarter points themselves."""
    length = max(run)
    radius = round((MARK_RADIUS_MM + 2.0) * plan.scale)
    step = max(1, round(2.0 * plan.scale))
    found = []
    for aim in (0.25, 0.75):
        offsets = sorted(range(radius, length - radius, step), key=lambda t: abs(t - aim * length))
        spots = [_along(start, run, t) for t in offsets]
        plain = [p for p in spots if _is_plain(sheet, p, radius)]
        found.append(plain[0] if plain else _along(start, run, round(aim * length)))
    return found


def _along(start: tuple[int, int], run: tuple[int, int], offset: int) -> tuple[int, int]:
    return (start[0] + offset, start[1]) if run[0] else (start[0], start[1] + offset)


def _is_plain(sheet: np.ndarray, point: tuple[int, int], radius: int) -> bool:
    """True if the sheet is one flat colour in the square around ``point`` (and on the sheet)."""
    x, y = point
    if x - radius < 0 or y - radius < 0:
        return False
    patch = sheet[y - radius : y + radius + 1, x - radius : x + radius + 1]
    if patch.shape[0] != 2 * radius + 1 or patch.shape[1] != 2 * radius + 1:
        return False
    return int(patch.max()) - int(patch.min()) <= 8


def _registration_mark(image: np.ndarray, centre: tuple[int, int], scale: float) -> None:
    radius = round(MARK_RADIUS_MM * scale)
    arm = round((MARK_RADIUS_MM + 1.5) * scale)
    line = max(1, round(0.2 * scale))
    x, y = centre
    cv2.circle(image, centre, radius, INK, line, cv2.LINE_AA)
    cv2.line(image, (x - arm, y), (x + arm, y), INK, line)
    cv2.line(image, (x, y - arm), (x, y + arm), INK, line)


# -- the page map -------------------------------------------------------------------------


def page_map(sheet: np.ndarray, plan: TilePlan, title: str, total: int) -> np.ndarray:
    """Page 1: the sheet shrunk, each tile's outline and page number, how to put them together."""
    page = _blank(plan)
    header(page, f"{title}: page 1 of {total}, the page map", plan.scale)
    steps = _assembly_steps(plan, total)
    left, top = plan.content_origin_px()
    room_w = plan.content_px[0]
    room_h = plan.content_px[1] - round((6.0 * len(steps) + 4.0) * plan.scale)
    shrink = min(room_w / sheet.shape[1], room_h / sheet.shape[0])
    small = cv2.resize(sheet, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    page[top : top + small.shape[0], left : left + small.shape[1]] = _shade_overlaps(
        small, plan, shrink
    )
    _draw_grid(page, plan, (left, top), shrink, (sheet.shape[1], sheet.shape[0]))
    for number, line in enumerate(steps):
        y = top + small.shape[0] + round((7.0 + 6.0 * number) * plan.scale)
        put_text(page, line, (left, y), height_mm=3.0, px_per_mm=plan.scale, colour=INK)
    return page


def _shade_overlaps(small: np.ndarray, plan: TilePlan, shrink: float) -> np.ndarray:
    """The shrunk sheet with every part that two or more pages show darkened a little."""
    covered = np.zeros(small.shape[:2], np.uint8)
    for row, column in plan.tiles:
        x0, y0 = (round(value * shrink) for value in plan.origin_px(row, column))
        x1 = round((plan.origin_px(row, column)[0] + plan.content_px[0]) * shrink)
        y1 = round((plan.origin_px(row, column)[1] + plan.content_px[1]) * shrink)
        covered[y0:y1, x0:x1] += 1
    shaded = small.copy()
    twice = covered >= 2
    shaded[twice] = (small[twice].astype(np.uint16) * SHADE[0] // 255).astype(np.uint8)
    return shaded


def _assembly_steps(plan: TilePlan, total: int) -> list[str]:
    return [
        f"{plan.columns} x {plan.rows} pages (2-{total}), overlapping by "
        f"{plan.overlap_px / plan.scale:.0f} mm; print at 100% (no fit to page),",
        "measure each page's 100 mm bar. Trim each page's left and top edges at the",
        "crop marks (the first column and row keep theirs), lay it over its neighbours",
        "so the circled crosses meet, and tape it from the back.",
    ]


def _draw_grid(
    page: np.ndarray, plan: TilePlan, at: tuple[int, int], shrink: float, sheet_px: tuple[int, int]
) -> None:
    """Each tile's outline on the sheet (grey, so no line is mistaken for the check bar) and
    its page number."""
    line = max(1, round(0.3 * plan.scale))
    for number, (row, column) in enumerate(plan.tiles, start=2):
        x0, y0 = plan.origin_px(row, column)
        x1 = min(x0 + plan.content_px[0], sheet_px[0])
        y1 = min(y0 + plan.content_px[1], sheet_px[1])
        corner = (at[0] + round(x0 * shrink), at[1] + round(y0 * shrink))
        far = (at[0] + round(x1 * shrink) - 1, at[1] + round(y1 * shrink) - 1)
        cv2.rectangle(page, corner, far, (150, 150, 150), line)
        middle = ((corner[0] + far[0]) // 2, (corner[1] + far[1]) // 2)
        put_text(
            page,
            str(number),
            middle,
            height_mm=9.0,
            px_per_mm=plan.scale,
            colour=(60, 60, 200),
            centred=True,
        )


# -- the header ---------------------------------------------------------------------------


def header(page: np.ndarray, text: str, scale: float) -> None:
    """The page's title, and under it the 100 mm check bar with its end ticks."""
    left = round(MARGIN_MM * scale)
    put_text(
        page,
        text,
        (left, round((MARGIN_MM + 3.5) * scale)),
        height_mm=3.0,
        px_per_mm=scale,
        colour=INK,
    )
    y = round((MARGIN_MM + 7.5) * scale)
    line = max(1, round(0.4 * scale))
    right = left + round(CHECK_BAR_MM * scale) - 1  # exactly 100 mm of pixels, ends included
    tick = round(1.5 * scale)
    cv2.rectangle(page, (left, y), (right, y + line - 1), INK, cv2.FILLED)
    for end in (left, right - line + 1):
        cv2.rectangle(page, (end, y - tick), (end + line - 1, y + tick), INK, cv2.FILLED)
    put_text(
        page,
        "100 mm: measure it; print at 100% (no fit to page)",
        (right + round(4.0 * scale), y + round(1.0 * scale)),
        height_mm=2.4,
        px_per_mm=scale,
        colour=GREY,
    )
