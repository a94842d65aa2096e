"""``cogtable calibrate``: learn board and cog colours from the camera; save them and an overlay."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from cogtable.board_setup import board_geometry, calibration_path, letters_path
from cogtable.errors import UserError
from cogtable.files import Output, check_output, write_files
from cogtable.letter_teach import TEACH_TEXT, teach, unused_line
from cogtable.mock.teach_frames import teach_scene_frames
from cogtable.service.install import installed_profile
from cogtable.tables import adapter_for
from hardware.profile import ProfileError, load_profile
from vision.parts.letter_model import LetterModel
from vision.peg_disk.calibration import CalibrationError
from vision.peg_disk.geometry import BoardGeometry, start_position
from vision.peg_disk.learning import learn
from vision.peg_disk.overlay import draw_parts_reading, draw_reading, png_bytes
from vision.peg_disk.reader import BoardReader
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
    """[GAME] --teach, --profile, --source, --out, --overlay, --frames, --size, --timeout."""
    parser.add_argument(
        "game",
        nargs="?",
        choices=("kogworks", "cog"),
        default="kogworks",
        help="kogworks: learn the board and cog colours; cog --teach: learn your letter tiles",
    )
    parser.add_argument(
        "--teach",
        action="store_true",
        help="cog: teach the letter reader your own tiles, laid out in the order it asks",
    )
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
    if args.game == "cog" or args.teach:
        return _teach(args)
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
        check = _grab(source, 1, args.timeout, geometry, frames[-1])[0]
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


def _grab(source, count: int, timeout: float, geometry: BoardGeometry, fallback=None) -> list:
    """``count`` frames in which the whole board is seen, or a UserError saying what was seen.

    A source that ends (an image, a folder, a video) gives what it has: fewer
    frames than asked for (at least one), or ``fallback`` when it has no more.
    """
    reader = BoardReader(geometry)
    frames, last = [], "no frame from the camera"
    deadline = time.monotonic() + timeout
    while len(frames) < count and time.monotonic() < deadline:
        frame = source.read()
        reading = reader.read(frame)
        if reading.ok:
            frames.append(frame)
        elif frame is None and getattr(source, "finite", False):
            break
        elif frame is None:
            time.sleep(0.05)
        else:
            last = f"{reading.status}: {reading.message}"
    if not frames and fallback is not None:
        return [fallback]
    if frames and getattr(source, "finite", False):
        return frames
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
    fewer = f" (the source had no more than {frames})" if frames < args.frames else ""
    print(f"calibrated from {frames} frame(s){fewer}; wrote {args.out} and {args.overlay}; {seen}")


def _teach(args: argparse.Namespace) -> int:
    """``calibrate cog --teach``: learn the owner's letter tiles; write them and an overlay."""
    if args.game != "cog" or not args.teach:
        raise UserError("--teach teaches C.O.G. letter tiles: cogtable calibrate cog --teach")
    profile = _teach_profile(args.profile)
    out = args.out or letters_path(profile) or Path("letters.json")
    overlay = args.overlay if args.overlay != Path("calibration.png") else Path("letters.png")
    for output in (out, overlay):
        check_output(output)
    layouts = [r.layout for r in adapter_for("cog").camera_regions() if r.layout is not None]
    print(TEACH_TEXT)
    frames = _teach_frames(args, layouts, max(2, args.frames + 1))
    taught = teach(frames, layouts, LetterModel.default())
    picture = png_bytes(draw_parts_reading(frames[-1], taught.reading, layouts))
    data = json.dumps(taught.classifier.to_dict()).encode("utf-8")
    write_files([Output(out, data), Output(overlay, picture)])
    print(
        f"taught {len(frames) - 1} frame(s) of your letters and tile colours; on a frame kept "
        f"apart the reader read {taught.before}/{taught.checked} right before and "
        f"{taught.after}/{taught.checked} after; "
        f"wrote {out} (point camera.letters at it) and {overlay}"
    )
    if unused_line(taught):
        print(unused_line(taught))
    return 0


def _teach_profile(path: Path | None) -> Any:
    installed = installed_profile()
    try:
        return load_profile(installed if path is None and installed.is_file() else path)
    except ProfileError as error:
        raise UserError(str(error)) from error


def _teach_frames(args: argparse.Namespace, layouts: list, count: int) -> list:
    """Frames of the teach layout: rendered for ``synthetic``, else from the camera."""
    size = _size(args.size if args.size != "1280x720" else "1920x1080")
    if args.source == "synthetic":
        return teach_scene_frames(layouts, size, count)
    try:
        source = open_source(args.source, size)
    except SourceError as error:
        raise UserError(str(error)) from error
    frames, deadline = [], time.monotonic() + args.timeout
    try:
        while len(frames) < count and time.monotonic() < deadline:
            frame = source.read()
            if frame is None:
                time.sleep(0.05)
            else:
                frames.append(frame)
    finally:
        source.close()
    if len(frames) < count:
        raise UserError(f"got {len(frames)} of {count} frames in {args.timeout:g} s")
    return frames
