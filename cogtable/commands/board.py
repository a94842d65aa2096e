"""``cogtable board print GAME --out FILE``: what to print so the camera can read a game.

- ``kogworks``: the to-scale board sheet (a PNG): markers and peg positions.
- a game read in printed parts (``cog``): marker stickers for the owner's own
  board and mats, to scale on A4 or Letter pages with a 100 mm check bar, then
  one map page per part showing where its stickers go; a multi-page PDF
  (``--out FILE.pdf``) or one PNG per page (``--out FILE.png``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cogtable.adapters import adapter_for
from cogtable.board_setup import board_geometry
from cogtable.errors import UserError
from cogtable.printing import write_pages
from hardware.profile import ProfileError, load_profile
from vision.layout import PartLayout
from vision.overlay import png_bytes, print_sheet
from vision.stickers import PAPERS, map_page, sticker_pages

NAME = "board"
HELP = "Print a game's board sheet (ArUco markers and peg positions) to scale as a PNG."
BOARDS = ("kogworks", "cog")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``print GAME --out FILE.png [--dpi N]``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    printing = actions.add_parser("print", help="write the board sheet as a PNG at a stated DPI")
    printing.add_argument("game", choices=BOARDS, help="the game whose board to print")
    printing.add_argument(
        "--out", required=True, type=Path, help="file to write: .png (or .pdf for stickers)"
    )
    printing.add_argument(
        "--paper", choices=sorted(PAPERS), default="a4", help="sticker pages' paper (a4)"
    )
    printing.add_argument("--dpi", type=float, default=150.0, help="dots per inch (default 150)")
    printing.add_argument(
        "--profile", type=Path, default=None, help="table profile (default: the mock table)"
    )


def run(args: argparse.Namespace) -> int:
    """Render the sheet and write it; say its size in pixels and millimetres."""
    if not 25 <= args.dpi <= 1200:
        raise UserError(f"--dpi {args.dpi:g} is out of range: use 25 to 1200")
    parts = [region.layout for region in adapter_for(args.game).camera_regions() if region.layout]
    if parts:
        return _print_parts(args, parts)
    try:
        geometry = board_geometry(load_profile(args.profile))
    except ProfileError as error:
        raise UserError(str(error)) from error
    sheet = print_sheet(geometry, args.dpi)
    try:
        args.out.write_bytes(png_bytes(sheet, args.dpi))
    except OSError as error:
        raise UserError(f"cannot write {args.out}: {error.strerror}") from error
    width, height = geometry.sheet_size
    print(
        f"wrote {args.out}: {sheet.shape[1]}x{sheet.shape[0]} pixels at {args.dpi:g} dpi, "
        f"{width:g}x{height:g} mm; markers {geometry.marker_size:g} mm; print at 100% scale"
    )
    return 0


def _print_parts(args: argparse.Namespace, parts: list[PartLayout]) -> int:
    """Sticker pages for every part's markers, then a map of each part."""
    paper = PAPERS[args.paper]
    pages = sticker_pages(parts, paper, args.dpi)
    stickers = len(pages)
    pages += [map_page(part, paper, args.dpi) for part in parts]
    written = write_pages(pages, args.out, args.dpi)
    shown = written[0] if len(written) == 1 else f"{written[0]} ... {written[-1]}"
    markers = sum(len(part.markers) for part in parts)
    print(
        f"wrote {shown}: {len(pages)} {args.paper} pages at {args.dpi:g} dpi: {markers} marker "
        f"stickers on {stickers} page{'s' if stickers > 1 else ''}, then a map of each of the "
        f"{len(parts)} parts; print at 100% and check the 100 mm bar"
    )
    return 0
