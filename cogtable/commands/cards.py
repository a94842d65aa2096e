"""``cogtable cards print GAME|mat --out FILE``: what to print so the camera can identify cards.

- ``commissars`` / ``cookie``: one sticker per physical card of the game's
  tag data (``games/<game>/card_tags.toml``), each with its AprilTag 36h11 tag
  and the card's name beside it, to scale on A4 or Letter pages with cut
  lines and a 100 mm check bar; then one back sticker per card (the back tag
  on white, for the middle of the card's back or a sleeve insert behind it),
  so a card lying face down is counted; ``--deck FILE`` prints only an
  owner's deck list (``[cards]`` with ``"card name" = copies``).
- ``mat``: the card mat itself to scale (its markers, zones and names), from
  the profile's ``[cards]`` section or the standard mat, tiled on the paper
  (:func:`cogtable.sheet_tiling.tile_pages`: a page map, then overlapping
  pages with registration marks; ``full``: one page the mat's size), then its
  four marker stickers, for an owner who lays the zones out on their own mat.

A multi-page PDF (``--out FILE.pdf``) or one PNG per page (``--out FILE.png``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cogtable.card_decks import DECK_GAMES, load_deck, owner_deck
from cogtable.card_mat_setup import card_mat
from cogtable.errors import UserError
from cogtable.printing import write_pages
from cogtable.sheet_tiling import FULL, PAPER_CHOICES, PAPERS, tile_pages
from hardware.profile import ProfileError, load_profile
from vision.cards.mat import CardMatLayout
from vision.cards.sheet import StickerSpec, back_sticker_pages, draw_mat, sticker_pages
from vision.cards.tags import FAMILY_NAME
from vision.stickers import MM_PER_INCH
from vision.stickers import sticker_pages as marker_pages

NAME = "cards"
HELP = "Print card tag and back stickers for a game's cards, or the card mat's markers and map."
TARGETS = (*DECK_GAMES, "mat")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``print GAME|mat --out FILE [--deck FILE] [--paper a4|letter] [--dpi N] [--profile P]``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    printing = actions.add_parser("print", help="write printable pages (PDF or PNG) to scale")
    printing.add_argument("what", choices=TARGETS, help="a game's card stickers, or the card mat")
    printing.add_argument("--out", required=True, type=Path, help="file to write: .pdf or .png")
    printing.add_argument(
        "--deck", type=Path, default=None, help='your deck list: [cards] "name" = copies'
    )
    printing.add_argument(
        "--paper",
        choices=PAPER_CHOICES,
        default="a4",
        help="paper (a4); the mat is tiled on it, full: one page the mat's own size",
    )
    printing.add_argument("--dpi", type=float, default=300.0, help="dots per inch (default 300)")
    printing.add_argument(
        "--profile", type=Path, default=None, help="table profile (default: the mock table)"
    )


def run(args: argparse.Namespace) -> int:
    """Check everything, render the pages, write them; say what was written."""
    if not 72 <= args.dpi <= 1200:
        raise UserError(f"--dpi {args.dpi:g} is out of range: use 72 to 1200")
    if args.what == "mat":
        if args.deck is not None:
            raise UserError("--deck is for a game's cards, not for the mat")
        return _print_mat(args, _profile_mat(args.profile))
    return _print_stickers(args)


def _print_stickers(args: argparse.Namespace) -> int:
    tags = owner_deck(args.what, args.deck) if args.deck else load_deck(args.what).tags
    specs = [StickerSpec(tag.tag_id, tag.name, tag.deck) for tag in tags]
    title = args.what if args.deck is None else f"{args.what} ({args.deck.name})"
    paper = _sticker_paper(args.paper)
    pages = sticker_pages(specs, paper, args.dpi, title)
    backs = back_sticker_pages(len(specs), paper, args.dpi, title)
    written = write_pages(pages + backs, args.out, args.dpi)
    print(
        f"wrote {_shown(written)}: {len(specs)} {args.what} card stickers ({FAMILY_NAME}) on "
        f"{_pages(pages, args.paper)}, then {len(specs)} back stickers (one for the middle of "
        f"every card's back) on {_pages(backs, args.paper)}, at {args.dpi:g} dpi; print at 100% "
        "and check the 100 mm bar"
    )
    return 0


def _print_mat(args: argparse.Namespace, mat: CardMatLayout) -> int:
    """The mat to scale, tiled, then its marker stickers (on A4 for ``full``)."""
    face = draw_mat(mat, args.dpi / MM_PER_INCH)
    title = f"{mat.title or mat.name} {mat.width_mm:g} x {mat.height_mm:g} mm"
    pages = tile_pages(face, (mat.width_mm, mat.height_mm), args.paper, args.dpi, title)
    tiles = len(pages)
    pages += marker_pages([mat.part()], _sticker_paper(args.paper), args.dpi)
    written = write_pages(pages, args.out, args.dpi)
    print(
        f"wrote {_shown(written)}: the {mat.width_mm:g} x {mat.height_mm:g} mm card mat "
        f"({len(mat.zones)} zones) on {tiles} {args.paper} page{'s' if tiles > 1 else ''}, then "
        f"its {len(mat.markers)} marker stickers, at {args.dpi:g} dpi; print at 100% and check "
        "the 100 mm bar"
    )
    return 0


def _sticker_paper(paper: str) -> tuple[float, float]:
    """The paper stickers go on: the one asked for, A4 for ``full`` (a print shop's sheet)."""
    return PAPERS["a4" if paper == FULL else paper]


def _profile_mat(path: Path | None) -> CardMatLayout:
    """The card mat the profile declares (``[cards]``), or the standard mat for its seats."""
    try:
        return card_mat(load_profile(path))
    except ProfileError as error:
        raise UserError(str(error)) from error


def _pages(pages: list, paper: str) -> str:
    return f"{len(pages)} {paper} page{'s' if len(pages) > 1 else ''}"


def _shown(written: list[Path]) -> str:
    return str(written[0]) if len(written) == 1 else f"{written[0]} ... {written[-1]}"
