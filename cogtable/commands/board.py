"""``cogtable board print GAME --out FILE [--paper a4|letter|a3|full]``: what to print so the
camera can read a game, on pages a home printer takes.

- ``kogworks``: the board sheet (440 mm, bigger than A3): markers, disk, pegs
  with their names in the game's notation, the row numbers, the gold wheel and
  both bases marked, title and version. On ``a4``, ``letter`` or ``a3`` it is
  tiled (:mod:`cogtable.sheet_tiling`): a page map, then overlapping pages
  with registration and crop marks; ``full`` is one page the sheet's size.
- a game read in printed parts (``cog``): marker stickers for the owner's own
  board and mats, then each part: a map page when the part fits the paper, its
  to-scale face tiled like the Kogworks sheet when it does not (``full``: one
  page per part, its own size; the stickers then go on A4).

Every page is to scale with a 100 mm check bar; ``--out FILE.pdf`` writes one
multi-page PDF, ``--out FILE.png`` one PNG per page (``FILE-1.png`` ...).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import cogtable
from cogtable.board_setup import board_geometry
from cogtable.errors import UserError
from cogtable.printing import write_pages
from cogtable.sheet_tiling import FULL, PAPER_CHOICES, PAPERS, tile_pages
from cogtable.tables import adapter_for
from games.kogworks.board import BASES, ROW_COL, TOP, peg_name
from hardware.profile import ProfileError, load_profile
from vision.layout import PartLayout
from vision.part_sheet import draw_part
from vision.peg_disk.sheet import FixedWheel, SheetNotes, annotated_sheet
from vision.stickers import MM_PER_INCH, map_page, sticker_pages

NAME = "board"
HELP = "Print a game's board sheet or marker stickers to scale, tiled on home-printer pages."
BOARDS = ("kogworks", "cog")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``print GAME --out FILE [--paper P] [--dpi N] [--profile P]``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    printing = actions.add_parser("print", help="write the printable pages as PDF or PNG")
    printing.add_argument("game", choices=BOARDS, help="the game whose board to print")
    printing.add_argument(
        "--out", required=True, type=Path, help="file to write: .pdf (all pages) or .png"
    )
    printing.add_argument(
        "--paper",
        choices=PAPER_CHOICES,
        default="a4",
        help="paper to tile on (default a4); full: one page the sheet's own size",
    )
    printing.add_argument("--dpi", type=float, default=150.0, help="dots per inch (default 150)")
    printing.add_argument(
        "--profile", type=Path, default=None, help="table profile (default: the mock table)"
    )


def run(args: argparse.Namespace) -> int:
    """Render the pages and write them; say how many, on what paper, at what scale."""
    if not 25 <= args.dpi <= 1200:
        raise UserError(f"--dpi {args.dpi:g} is out of range: use 25 to 1200")
    parts = [region.layout for region in adapter_for(args.game).camera_regions() if region.layout]
    if parts:
        return _print_parts(args, parts)
    try:
        geometry = board_geometry(load_profile(args.profile))
    except ProfileError as error:
        raise UserError(str(error)) from error
    title = f"Kogworks board, cogtable {cogtable.__version__}"
    sheet = annotated_sheet(geometry, args.dpi, kogworks_notes(title))
    pages = tile_pages(sheet, geometry.sheet_size, args.paper, args.dpi, title)
    written = write_pages(pages, args.out, args.dpi)
    width, height = geometry.sheet_size
    print(
        f"wrote {_shown(written)}: the {width:g}x{height:g} mm sheet on "
        f"{_pages(pages, args.paper)} at {args.dpi:g} dpi; markers {geometry.marker_size:g} mm; "
        "print at 100% and check the 100 mm bar"
    )
    return 0


def kogworks_notes(title: str) -> SheetNotes:
    """What the Kogworks sheet says: peg names (``row.position``), the fixed wheels, a legend."""
    names = {ROW_COL[peg]: peg_name(peg) for peg in range(len(ROW_COL))}
    red, blue = BASES
    wheels = (
        FixedWheel(ROW_COL[TOP], "gold top wheel", "gold"),
        FixedWheel(ROW_COL[red], "Red's base", "red"),
        FixedWheel(ROW_COL[blue], "Blue's base", "blue"),
    )
    legend = (
        "peg r.p: row r from the top (1: the gold wheel's), position p from the left",
        "print at 100% (no fit to page) and check the 100 mm bar",
    )
    return SheetNotes(title, names, wheels, legend)


def _print_parts(args: argparse.Namespace, parts: list[PartLayout]) -> int:
    """Sticker pages for every part's markers, then each part: a map, or its face tiled."""
    paper = PAPERS["a4" if args.paper == FULL else args.paper]
    pages = sticker_pages(parts, paper, args.dpi)
    stickers = len(pages)
    for part in parts:
        pages += _part_pages(part, args.paper, args.dpi)
    written = write_pages(pages, args.out, args.dpi)
    markers = sum(len(part.markers) for part in parts)
    print(
        f"wrote {_shown(written)}: {_pages(pages, args.paper, 'a4 stickers, then each part')} at "
        f"{args.dpi:g} dpi: {markers} "
        f"marker stickers on {stickers} page{'s' if stickers > 1 else ''}, then each of the "
        f"{len(parts)} parts (a map, or to scale on several pages); print at 100% and check "
        "the 100 mm bar"
    )
    return 0


def _part_pages(part: PartLayout, paper: str, dpi: float) -> list[np.ndarray]:
    """A map page when the part fits the paper; else its to-scale face, tiled (or full)."""
    size = PAPERS.get(paper)
    if size is not None and _fits(part, size):
        return [map_page(part, size, dpi)]
    face = draw_part(part, dpi / MM_PER_INCH)
    title = f"{part.title or part.name}, cogtable {cogtable.__version__}"
    return tile_pages(face, (part.width, part.height), paper, dpi, title)


def _fits(part: PartLayout, paper: tuple[float, float]) -> bool:
    """True if the part is drawn to scale on one map page of this paper (either way round)."""
    room = (paper[0] - 24.0, paper[1] - 38.0)
    return any(part.width <= w and part.height <= h for w, h in (room, room[::-1]))


def _shown(written: list[Path]) -> str:
    return str(written[0]) if len(written) == 1 else f"{written[0]} ... {written[-1]}"


def _pages(pages: list[np.ndarray], paper: str, full: str = "the sheet") -> str:
    """``7 pages of a4``; for ``full``, ``1 page, the sheet its own size``."""
    count = f"{len(pages)} page{'s' if len(pages) != 1 else ''}"
    return f"{count}, {full} its own size" if paper == FULL else f"{count} of {paper}"
