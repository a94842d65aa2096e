"""``cogtable calibrate``: learn board and cog colours from the camera; save them and an overlay."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cogtable.board_setup import board_geometry, calibration_path
from cogtable.errors import UserError
from cogtable.files import Output, check_output, write_files
from cogtable.service.install import installed_profile
from hardware.profile import ProfileError, load_profile
from vision.calibration import CalibrationError, learn
from vision.geometry import BoardGeometry, start_position
from vision.overlay import draw_reading, png_bytes
from vision.reader import BoardReader
from vision.sources import SourceError, open_source

NAME = "calibrate"
HELP = "Learn the board and cog colours from the camera; save them and an overlay PNG."
LAYOUT_TEXT = (
    "Lay out the Kogworks start: the gold top wheel on the apex peg, the red base on the "
    "bottom-left peg, the blue base on the bottom-right peg, nothing else on the board; "
    "keep hands clear."
)
MAX_TIMEOUT_S = 600.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--profile, --source, --out, --overlay, --frames, --size, --timeout."""
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="table profile (default: the installed service's /etc/cogtable/profile.toml "
        "if there is one, else the mock table)",
    )
    parser.add_argument(
        "--source",
        default="synthetic",
        help="camera index, picamera, synthetic, video, image or folder",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="calibration file to write (default: the profile's camera.calibration, "
        "else calibration.json)",
    )
    parser.add_argument(
        "--overlay", type=Path, default=Path("calibration.png"), help="overlay PNG to write"
    )
    parser.add_argument("--frames", type=int, default=3, help="frames to average (default 3)")
    parser.add_argument(
        "--size", default="1280x720", help="camera resolution WIDTHxHEIGHT (default 1280x720)"
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds to wait for usable frames"
    )


def run(args: argparse.Namespace) -> int:
    """Grab frames of the start layout, learn, then write the calibration and the overlay.

    Every input and both outputs are checked before the camera is opened, and
    the two files are written together at the end, or neither.
    """
    if not 1 <= args.frames <= 100:
        raise UserError(f"--frames {args.frames} is out of range: use 1 to 100")
    if not 0 < args.timeout <= MAX_TIMEOUT_S:
        raise UserError(f"--timeout {args.timeout:g} is out of range: use up to {MAX_TIMEOUT_S} s")
    size = _size(args.size)
    geometry, args.out = _profile_geometry_and_out(args.profile, args.out)
    for output in (args.out, args.overlay):
        check_output(output)
    try:
        source = open_source(args.source, size)
    except SourceError as error:
        raise UserError(str(error)) from error
    print(LAYOUT_TEXT)
    try:
        frames = _grab(source, args.frames, args.timeout, geometry)
        calibration = _learn(frames, geometry)
        check = _grab(source, 1, args.timeout, geometry)[0]
    finally:
        source.close()
    reading = BoardReader(calibration.geometry, calibration).read(check)
    overlay = png_bytes(draw_reading(check, reading, calibration.geometry))
    write_files(
        [Output(args.out, calibration.dumps().encode("utf-8")), Output(args.overlay, overlay)]
    )
    _report(args, len(frames), reading)
    return 0


def _profile_geometry_and_out(
    profile_path: Path | None, out: Path | None
) -> tuple[BoardGeometry, Path]:
    """The board geometry of the profile, and where to write the calibration.

    Without ``--profile`` the installed service's profile is calibrated, if
    there is one, so the calibration goes where the service reads it.
    """
    installed = installed_profile()
    if profile_path is None and installed.is_file():
        profile_path = installed
    try:
        profile = load_profile(profile_path)
    except ProfileError as error:
        raise UserError(str(error)) from error
    path = out or calibration_path(profile) or Path("calibration.json")
    print(f"calibrating for {profile.source}: the calibration goes to {path}")
    return board_geometry(profile), path


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (64 <= width <= 8192 and 64 <= height <= 8192):
        raise UserError(f"--size {text!r} is out of range (64..8192 pixels a side)")
    return width, height


def _grab(source, count: int, timeout: float, geometry: BoardGeometry) -> list:
    """``count`` frames in which the whole board is seen, or a UserError saying what was seen."""
    reader = BoardReader(geometry)
    frames, last = [], "no frame from the camera"
    deadline = time.monotonic() + timeout
    while len(frames) < count and time.monotonic() < deadline:
        frame = source.read()
        reading = reader.read(frame)
        if reading.ok:
            frames.append(frame)
        elif frame is None:
            time.sleep(0.05)
        else:
            last = f"{reading.status}: {reading.message}"
    if len(frames) < count:
        raise UserError(
            f"got {len(frames)} of {count} usable frames in {timeout:g} s (last: {last})"
        )
    return frames


def _learn(frames, geometry: BoardGeometry):
    try:
        return learn(frames, start_position(), geometry)
    except CalibrationError as error:
        raise UserError(str(error)) from error


def _report(args: argparse.Namespace, frames: int, reading) -> None:
    if reading.ok:
        lowest = min(reading.confidence)
        pegs = sum(label is not None for label in reading.labels)
        seen = f"check frame: {pegs} cogs read, lowest confidence {lowest:.2f}"
    else:
        seen = f"check frame: {reading.status}: {reading.message}"
    print(f"calibrated from {frames} frame(s); wrote {args.out} and {args.overlay}; {seen}")
