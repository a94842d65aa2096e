"""Sheets a home printer can print: tiled pages, a page map, the check bar, the overlap.

The Kogworks sheet is 440 x 440 mm. An A4 page (10 mm margins, a 14 mm
header) shows 190 x 261 mm of it, portrait; with 15 mm of overlap the next
column starts 175 mm on and the next row 246 mm on, so 3 columns x 2 rows
cover it (landscape is no better): 6 tiles and the page map. Letter is the
same grid; A3 (277 x 386 mm shown) takes 2 x 2.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from cogtable.board_setup import camera_calibration
from cogtable.cli import main
from cogtable.commands.board import kogworks_notes
from cogtable.sheet_tiling import (
    MARK_RADIUS_MM,
    MM_PER_INCH,
    PAPERS,
    plan_tiles,
    registration_points,
    tile_pages,
)
from hardware.profile import load_profile
from tests.system_tools import system_tool
from vision.markers import MarkerDetector, project
from vision.peg_disk.geometry import PEGS, BoardGeometry, board_to_sheet_pixels
from vision.peg_disk.overlay import print_sheet
from vision.peg_disk.reader import OK, BoardReader
from vision.peg_disk.sheet import PEG_SAMPLE_MM, RIM_BAND_MM, annotated_sheet

DPI = 60.0
SCALE = DPI / MM_PER_INCH
PAGES = {"a4": 1 + 3 * 2, "letter": 1 + 3 * 2, "a3": 1 + 2 * 2, "full": 1}


def longest_dark_run(page: np.ndarray) -> int:
    """The longest run of dark pixels along any row (the check bar is the longest line drawn)."""
    dark = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY) < 100
    longest = 0
    for row in dark:
        edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
        if len(edges):
            longest = max(longest, int((edges[1::2] - edges[::2]).max()))
    return longest


@pytest.mark.parametrize("paper", sorted(PAGES))
def test_kogworks_pages_per_paper_each_with_the_100_mm_bar(tmp_path: Path, paper: str) -> None:
    out = tmp_path / "sheet.png"
    assert (
        main(["board", "print", "kogworks", "--paper", paper, "--dpi", str(DPI), "--out", str(out)])
        == 0
    )
    files = (
        [out]
        if PAGES[paper] == 1
        else [tmp_path / f"sheet-{n}.png" for n in range(1, PAGES[paper] + 1)]
    )
    assert sorted(tmp_path.iterdir()) == sorted(files)
    for file in files:
        page = cv2.imread(str(file))
        if paper != "full":
            size = sorted(PAPERS[paper])
            assert sorted(page.shape[:2]) == [round(side * SCALE) for side in size]
        bar_mm = longest_dark_run(page) / SCALE
        assert abs(bar_mm - 100.0) <= 0.6, (file.name, bar_mm)


def test_the_pdf_has_one_a3_page_per_tile_and_the_map(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    assert (
        main(["board", "print", "kogworks", "--paper", "a3", "--dpi", "40", "--out", str(out)]) == 0
    )
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", out.read_bytes())
    assert len(boxes) == PAGES["a3"]
    for width, height in boxes:
        assert sorted((float(width), float(height))) == pytest.approx([841.89, 1190.55], abs=1)


def test_the_pdf_rendered_by_pdftoppm_is_to_scale(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    assert (
        main(["board", "print", "kogworks", "--paper", "letter", "--dpi", "100", "--out", str(out)])
        == 0
    )
    render = [
        system_tool("pdftoppm"),
        "-r",
        f"{DPI:g}",
        "-f",
        "3",
        "-l",
        "3",
        "-png",
        str(out),
        str(tmp_path / "p"),
    ]
    subprocess.run(render, check=True)
    (png,) = tmp_path.glob("p*.png")
    page = cv2.imread(str(png))
    assert sorted(page.shape[:2]) == [round(side * SCALE) for side in sorted(PAPERS["letter"])]
    assert abs(longest_dark_run(page) / SCALE - 100.0) <= 0.6


def test_neighbouring_tiles_share_exactly_the_overlap() -> None:
    rng = np.random.default_rng(3)
    sheet = rng.integers(0, 256, (round(440 * SCALE), round(440 * SCALE), 3), dtype=np.uint8)
    pages = tile_pages(sheet, (440.0, 440.0), "a4", DPI, "noise")
    plan = plan_tiles((sheet.shape[1], sheet.shape[0]), PAPERS["a4"], DPI, 15.0)
    assert plan.overlap_px == round(15.0 * SCALE)
    assert (plan.columns, plan.rows) == (3, 2)
    left, top = plan.content_origin_px()
    width, height = plan.content_px
    overlap = plan.overlap_px

    def content(row: int, column: int) -> np.ndarray:
        page = pages[1 + row * plan.columns + column]
        return page[top : top + height, left : left + width]

    first, right, below = content(0, 0), content(0, 1), content(1, 0)
    assert np.array_equal(first[:, -overlap:], right[:, :overlap])
    assert np.array_equal(first[-overlap:, :], below[:overlap, :])
    assert not np.array_equal(first[:, -overlap - 1 :], right[:, : overlap + 1])
    x0, y0 = plan.origin_px(0, 1)
    assert x0 == width - overlap
    unmarked = sheet[y0 + height // 2, x0 + overlap + 5 : x0 + width]
    assert np.array_equal(right[height // 2, overlap + 5 :], unmarked)


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_registration_marks_sit_where_the_board_sheet_is_plain(paper: str) -> None:
    geometry = BoardGeometry()
    sheet = annotated_sheet(geometry, DPI, kogworks_notes("Kogworks board, test"))
    plan = plan_tiles((sheet.shape[1], sheet.shape[0]), PAPERS[paper], DPI, 15.0)
    points = registration_points(sheet, plan)
    stretches = sum(c > 0 for _, c in plan.tiles) + sum(r > 0 for r, _ in plan.tiles)
    assert len(points) == 2 * stretches
    reach = round((MARK_RADIUS_MM + 1.5) * SCALE)  # the cross's arms
    for x, y in points:
        patch = sheet[y - reach : y + reach + 1, x - reach : x + reach + 1]
        assert patch.shape[:2] == (2 * reach + 1, 2 * reach + 1)
        assert patch.min() == patch.max() == 255, (x, y)  # no marker, peg, line or text under it
    for _, column in plan.tiles:
        if column:
            x_centre = plan.origin_px(0, column)[0] + plan.overlap_px // 2
            assert sum(x == x_centre for x, _ in points) >= 2


def test_a_sheet_that_fits_the_paper_is_one_page() -> None:
    sheet = np.full((round(150 * SCALE), round(100 * SCALE), 3), 200, np.uint8)
    (page,) = tile_pages(sheet, (100.0, 150.0), "a4", DPI, "small")
    assert page.shape[:2] == (round(297 * SCALE), round(210 * SCALE))


def test_a_sheet_not_at_the_stated_scale_is_refused() -> None:
    sheet = np.full((100, 100, 3), 255, np.uint8)
    with pytest.raises(ValueError, match="not 440x440 mm at 60 dpi"):
        tile_pages(sheet, (440.0, 440.0), "a4", DPI, "wrong")
    with pytest.raises(ValueError, match="no paper 'a5': use one of a4, letter, a3, full"):
        tile_pages(sheet, (100 / SCALE, 100 / SCALE), "a5", DPI, "wrong")


def test_the_notation_keeps_clear_of_what_the_camera_samples() -> None:
    geometry, dpi = BoardGeometry(), 100.0
    scale = dpi / MM_PER_INCH
    plain = cv2.cvtColor(print_sheet(geometry, dpi), cv2.COLOR_GRAY2BGR)
    annotated = annotated_sheet(geometry, dpi, kogworks_notes("Kogworks board, test"))
    ys, xs = np.nonzero((plain != annotated).any(axis=2))
    assert len(xs) > 5000  # names, row numbers, wheels, legend, title
    to_board = np.linalg.inv(board_to_sheet_pixels(geometry, scale))
    added = project(to_board, np.column_stack([xs, ys]).astype(np.float64))
    pegs = geometry.peg_positions()
    nearest = np.min(np.linalg.norm(added[:, None, :] - pegs[None, :, :], axis=2), axis=1)
    assert nearest.min() > PEG_SAMPLE_MM - 1.0  # the reader's rings reach 7.5 mm
    rim = np.linalg.norm(geometry.rim_points(1)[0])
    radius = np.linalg.norm(added, axis=1)
    assert not np.any(np.abs(radius - rim) < RIM_BAND_MM - 0.5)
    found = MarkerDetector(geometry).detect(cv2.cvtColor(annotated, cv2.COLOR_BGR2GRAY))
    assert sorted(found) == list(geometry.marker_ids())


def test_the_reader_sees_the_annotated_sheet_as_an_empty_board() -> None:
    geometry = BoardGeometry()
    sheet = annotated_sheet(geometry, 60.0, kogworks_notes("Kogworks board, test"))
    frame = cv2.resize(sheet, (720, 720), interpolation=cv2.INTER_AREA)
    frame = cv2.copyMakeBorder(frame, 0, 0, 280, 280, cv2.BORDER_CONSTANT, value=(90, 90, 90))
    reading = BoardReader(geometry, camera_calibration(load_profile())).read(frame)
    assert reading.status == OK
    assert reading.labels == (None,) * len(PEGS)  # names, rings and numbers read as bare board
    assert min(reading.confidence) > 0.9


def test_cog_parts_bigger_than_the_paper_are_tiled(tmp_path: Path) -> None:
    out = tmp_path / "cog.pdf"
    assert main(["board", "print", "cog", "--paper", "a3", "--dpi", "40", "--out", str(out)]) == 0
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", out.read_bytes())
    # 1 page of stickers; the 400 mm board on 2 x 2 A3 pages and its map; each 265 x 185 mm mat
    # fits an A3 page whole (a map page to scale)
    assert len(boxes) == 1 + (1 + 4) + 4


def test_the_modules_examples_run() -> None:
    import doctest

    from cogtable import sheet_tiling
    from vision.peg_disk import sheet as board_sheet

    for module in (sheet_tiling, board_sheet):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
