"""``cogtable export ID``: write a journaled game's JSON record."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cogtable.commands._journal_access import add_state_dir, game_id, journal_record
from cogtable.files import check_output, write_file

NAME = "export"
HELP = "Write a journaled game's record (JSON) to a file or standard output."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The game id, the output file and the journal's folder."""
    parser.add_argument("game_id", type=game_id, help="the id 'cogtable games' lists")
    parser.add_argument("--out", type=Path, default=None, help="file to write (default: stdout)")
    add_state_dir(parser)


def run(args: argparse.Namespace) -> int:
    """Write the record (atomically); 'cogtable replay FILE' plays it back."""
    if args.out is not None:
        check_output(args.out)
    text = journal_record(args.state_dir, args.game_id).dumps() + "\n"
    if args.out is None:
        sys.stdout.write(text)
        return 0
    write_file(args.out, text.encode("utf-8"))
    print(f"wrote game {args.game_id} to {args.out}")
    return 0
