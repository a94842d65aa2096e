"""``cogtable snapshot --state-dir DIR FILE.png``: what the running table's camera sees now.

The service keeps its camera's latest picture, with the overlay of the last
reading, in ``<state-dir>/camera.png`` (:mod:`cogtable.camera_picture`); this
copies it to FILE.png, or says in one line that the service is not running or
has not seen a frame yet.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cogtable.camera_picture import PICTURE_NAME
from cogtable.errors import UserError
from cogtable.files import check_output, write_file
from cogtable.service.runner import default_state_dir, read_status

NAME = "snapshot"
HELP = "Save what the running table's camera sees now, with the reader's overlay, as a PNG."
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``[--state-dir DIR] FILE.png``."""
    parser.add_argument("--state-dir", type=Path, default=None, help="the service's state folder")
    parser.add_argument("out", type=Path, help="the PNG to write")


def run(args: argparse.Namespace) -> int:
    """Copy the camera picture the service last wrote; say how old it is."""
    check_output(args.out)
    if args.out.suffix.lower() != ".png":
        raise UserError(f"{args.out}: the snapshot is a .png file")
    state_dir = args.state_dir or default_state_dir()
    read_status(state_dir)  # a one-line UserError when there is no service here
    picture = state_dir / PICTURE_NAME
    try:
        data = picture.read_bytes()
        age = time.time() - picture.stat().st_mtime
    except FileNotFoundError:
        raise UserError(
            f"no camera picture in {state_dir}: the service has not seen a frame yet "
            "(or its game reads nothing from the camera)"
        ) from None
    except OSError as error:
        raise UserError(f"cannot read {picture}: {error.strerror or error}") from error
    if not data.startswith(PNG_SIGNATURE):
        raise UserError(f"{picture} is not a PNG picture")
    write_file(args.out, data)
    print(f"wrote {args.out}: the camera's picture of {age:.0f} s ago")
    return 0
