"""``cogtable camera check``: a live readout that helps a person aim, focus and light the camera.

Every half second it prints what the camera sees of the Kogworks board
(markers and their size, tilt, how much of the frame the sheet fills, edge
sharpness, board brightness and clipping, frame rate) and one line of advice
(:mod:`cogtable.camera_check`). ``--snapshot FILE.png`` keeps the latest
picture with the reader's overlay in FILE.png. It runs until Ctrl-C, the end
of a file source, or ``--count`` readouts.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from cogtable.board_setup import board_geometry, calibration_path
from cogtable.camera_check import CameraCheck, check_frame
from cogtable.errors import UserError
from cogtable.files import check_output, write_file
from hardware.profile import ProfileError, load_profile
from vision.peg_disk.calibration import Calibration, CalibrationError
from vision.peg_disk.overlay import draw_reading, png_bytes
from vision.peg_disk.reader import BoardReader
from vision.sources import SourceError, open_source

NAME = "camera"
HELP = "Help aim the camera: a live readout of what it sees of the board, with advice."
INTERVAL_S = 0.5
"""Seconds between readouts."""
MAX_COUNT = 100_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``check [--source S] [--profile P] [--size WxH] [--snapshot FILE.png] [--count N]``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="live readout of markers, tilt, focus and exposure")
    check.add_argument(
        "--source",
        default=None,
        help="camera index, picamera, synthetic, video, image or folder "
        "(default: the profile's camera)",
    )
    check.add_argument(
        "--profile", type=Path, default=None, help="table profile (default: the mock table)"
    )
    check.add_argument(
        "--size", default=None, help="camera resolution WIDTHxHEIGHT (default: the profile's)"
    )
    check.add_argument(
        "--snapshot", type=Path, default=None, help="keep the latest overlay picture in this PNG"
    )
    check.add_argument(
        "--count", type=int, default=0, help="stop after this many readouts (default: Ctrl-C)"
    )


def run(args: argparse.Namespace) -> int:
    """Check every input, open the camera, then print a readout every half second."""
    if not 0 <= args.count <= MAX_COUNT:
        raise UserError(f"--count {args.count} is out of range: use 0 to {MAX_COUNT}")
    if args.snapshot is not None:
        check_output(args.snapshot)
        if args.snapshot.suffix.lower() != ".png":
            raise UserError(f"--snapshot {args.snapshot}: the snapshot is a .png file")
    try:
        profile = load_profile(args.profile)
    except ProfileError as error:
        raise UserError(str(error)) from error
    reader = BoardReader(board_geometry(profile), _calibration(profile))
    size = _size(args.size) if args.size else tuple(profile.camera.resolution)
    spec = str(args.source if args.source is not None else profile.camera.source)
    try:
        source = open_source("picamera" if spec == "picamera2" else spec, size)
    except SourceError as error:
        raise UserError(str(error)) from error
    try:
        shown = _watch(source, reader, args)
    except KeyboardInterrupt:
        shown = -1
    finally:
        source.close()
    if shown == 0:
        raise UserError(f"no frame came from {spec}")
    return 0


def _calibration(profile) -> Calibration | None:
    """The profile's calibration if it has one that can be read (else the reference colours)."""
    path = calibration_path(profile)
    if path is None or not path.is_file():
        return None
    try:
        return Calibration.load(path)
    except CalibrationError as error:
        raise UserError(str(error)) from error


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (64 <= width <= 8192 and 64 <= height <= 8192):
        raise UserError(f"--size {text!r} is out of range (64..8192 pixels a side)")
    return width, height


def _watch(source, reader: BoardReader, args: argparse.Namespace) -> int:
    """Read frames as fast as they come; every half second print a readout. How many printed."""
    shown, frames, started = 0, 0, time.monotonic()
    next_at = started
    last: np.ndarray | None = None
    while args.count == 0 or shown < args.count:
        frame = source.read()
        if frame is None:
            if getattr(source, "finite", False):
                break
            time.sleep(0.02)
            continue
        frames, last = frames + 1, frame
        now = time.monotonic()
        if now < next_at:
            continue
        fps = frames / (now - started) if now > started else None
        _show(check_frame(frame, reader, fps), frame, reader, args.snapshot)
        shown, next_at = shown + 1, now + INTERVAL_S
    if shown == 0 and last is not None:
        _show(check_frame(last, reader), last, reader, args.snapshot)
        shown = 1
    return shown


def _show(check: CameraCheck, frame: np.ndarray, reader: BoardReader, snapshot) -> None:
    """Print the readout and the advice; keep the overlay picture when asked."""
    print(f"{check.line()}\n  -> {check.advice}", flush=True)
    if snapshot is not None:
        reading = reader.read(frame)
        write_file(snapshot, png_bytes(draw_reading(frame, reading, reader.geometry)))
