"""The table profile's board and camera settings, as the vision pipeline wants them.

``hardware`` and ``vision`` never import each other; this is where the
profile's ``[board]`` section becomes a :class:`vision.peg_disk.geometry.BoardGeometry`
and ``camera.calibration`` becomes a loaded :class:`vision.peg_disk.calibration.Calibration`.
"""

from __future__ import annotations

import json
from pathlib import Path

from cogtable.errors import UserError
from hardware.profile import Profile
from vision.parts.letter_model import LetterModel, TaughtLetterModel
from vision.peg_disk.calibration import Calibration, CalibrationError
from vision.peg_disk.geometry import BoardGeometry


def board_geometry(profile: Profile) -> BoardGeometry:
    """The board in millimetres, from the profile; UserError if it cannot be a board."""
    board = profile.board
    markers = {marker.id: (marker.x_mm, marker.y_mm) for marker in board.markers}
    try:
        return BoardGeometry(
            peg_pitch=board.peg_pitch_mm,
            disk_radius=board.disk_radius_mm,
            marker_size=board.marker_size_mm,
            markers=markers,
        )
    except ValueError as error:
        raise UserError(f"{profile.source}: {error}") from error


def calibration_path(profile: Profile) -> Path | None:
    """Where ``camera.calibration`` points, relative paths from the profile's folder."""
    if profile.camera.calibration is None:
        return None
    path = Path(profile.camera.calibration).expanduser()
    if not path.is_absolute() and Path(profile.source).is_file():
        path = Path(profile.source).parent / path
    return path


def letters_path(profile: Profile) -> Path | None:
    """Where ``camera.letters`` points (the owner's taught letter tiles), as calibration does."""
    if profile.camera.letters is None:
        return None
    path = Path(profile.camera.letters).expanduser()
    if not path.is_absolute() and Path(profile.source).is_file():
        path = Path(profile.source).parent / path
    return path


def letter_classifier(profile: Profile) -> LetterModel | TaughtLetterModel:
    """The letter model taught the owner's tiles (``camera.letters``), else the shipped one.

    A named file that is missing or broken is a UserError: the reader would
    misread the owner's tiles.
    """
    path = letters_path(profile)
    if path is None:
        return LetterModel.default()
    try:
        return TaughtLetterModel.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError, TypeError) as error:
        raise UserError(
            f"{path}: not taught letter tiles ({error}); run: cogtable calibrate cog --teach"
        ) from error


def camera_calibration(profile: Profile) -> Calibration:
    """The profile's calibration file, or the synthetic reference when it names none.

    A named file that is missing or broken is a UserError: a real camera read
    with the wrong colours would misread the board.
    """
    path = calibration_path(profile)
    geometry = board_geometry(profile)
    if path is None:
        return Calibration.reference(geometry)
    try:
        calibration = Calibration.load(path)
    except CalibrationError as error:
        raise UserError(f"{error} (run: cogtable calibrate --profile {profile.source})") from error
    if calibration.geometry != geometry:
        raise UserError(
            f"{path} was calibrated for another board geometry than {profile.source}: "
            "calibrate again"
        )
    return calibration
