"""``cogtable board print kogworks --out FILE.png``: the printable, to-scale board sheet."""

from __future__ import annotations

import argparse
from pathlib import Path

from cogtable.board_setup import board_geometry
from cogtable.errors import UserError
from hardware.profile import ProfileError, load_profile
from vision.overlay import png_bytes, print_sheet

NAME = "board"
HELP = "Print a game's board sheet (ArUco markers and peg positions) to scale as a PNG."
BOARDS = ("kogworks",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``print GAME --out FILE.png [--dpi N]``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    printing = actions.add_parser("print", help="write the board sheet as a PNG at a stated DPI")
    printing.add_argument("game", choices=BOARDS, help="the game whose board to print")
    printing.add_argument("--out", required=True, type=Path, help="PNG file to write")
    printing.add_argument("--dpi", type=float, default=150.0, help="dots per inch (default 150)")
    printing.add_argument(
        "--profile", type=Path, default=None, help="table profile (default: the mock table)"
    )


def run(args: argparse.Namespace) -> int:
    """Render the sheet and write it; say its size in pixels and millimetres."""
    if not 25 <= args.dpi <= 1200:
        raise UserError(f"--dpi {args.dpi:g} is out of range: use 25 to 1200")
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
