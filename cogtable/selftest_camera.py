"""The self-test's camera step: a frame from the profile's camera through the camera check.

The check (:func:`cogtable.camera_check.check_frame`) judges the aim on the
one board it knows, the peg disk; a table whose game reads other parts gets a
frame and no aim check. The mock profile's ``synthetic`` camera is the mock
world's (the self-test runs unattended on the mock table).
"""

from __future__ import annotations

import numpy as np

from cogtable.board_setup import board_geometry, camera_calibration
from cogtable.errors import UserError
from cogtable.selftest_terms import Outcome, SelfTestStep
from cogtable.sensors import Sensors
from cogtable.tables import adapter_for
from cogtable.tables.base import PEG_DISK
from hardware.profile import Profile

SETTLING_FRAMES = 10
"""Frames read from a real camera before the one checked: its exposure settles meanwhile."""
CHECKED_READER = PEG_DISK
"""The camera region reader the camera check judges the aim on (:mod:`cogtable.camera_check`)."""
CHECKED_PART = "the Kogworks peg disk"
"""What that reader reads, in the step's words."""


def camera_step(profile: Profile) -> SelfTestStep:
    """A frame from the profile's camera through the camera check (``cogtable camera check``):
    every board marker seen, sharp, lit, square enough, and the board read.

    The check judges the aim on the Kogworks peg disk: where the profile's game
    reads other parts (its adapter's camera regions), the step says so and
    checks only that the camera gives a frame.
    """
    name = "camera"
    try:
        frame = _settled_frame(profile)
    except Exception as error:  # OpenCV and picamera2 raise many kinds; all mean "no frame"
        return SelfTestStep(
            name, Outcome.FAILED, f"cannot open {profile.camera.source!r}: {error}", _camera_fix()
        )
    if frame is None:
        return SelfTestStep(name, Outcome.FAILED, "the camera gave no frame", _camera_fix())
    return _checked(profile, frame)


def _settled_frame(profile: Profile) -> np.ndarray | None:
    """The last of a few frames (a real camera's exposure settles first); the mock's first."""
    from cogtable.mock.world import MockWorld
    from vision.sources import PiCameraSource, open_source

    source, size = profile.camera.source, profile.camera.resolution
    if source == "synthetic":
        return MockWorld(geometry=board_geometry(profile)).camera_for(size).grab()
    camera = PiCameraSource(size) if source == "picamera2" else open_source(str(source), size)
    try:
        frames = [camera.read() for _ in range(SETTLING_FRAMES)]
    finally:
        camera.close()
    return next((frame for frame in reversed(frames) if frame is not None), None)


def _checked(profile: Profile, frame: np.ndarray) -> SelfTestStep:
    """What :func:`cogtable.camera_check.check_frame` says of the frame, with its advice."""
    from cogtable.camera_check import check_frame
    from vision.peg_disk.reader import BoardReader

    try:
        calibration = camera_calibration(profile)
    except UserError as error:
        return SelfTestStep(
            "camera", Outcome.FAILED, "the colour calibration is unusable", str(error)
        )
    framed = f"a {frame.shape[1]}x{frame.shape[0]} frame from {profile.camera.source!r}"
    unchecked = _parts_not_checked(profile)
    if unchecked:
        return SelfTestStep("camera", Outcome.SKIPPED, f"{framed}; {unchecked}")
    check = check_frame(frame, BoardReader(board_geometry(profile), calibration))
    found = f"{framed}, checked on {CHECKED_PART}: {check.line()}"
    if check.good:
        return SelfTestStep("camera", Outcome.PASSED, f"{found}; {check.advice}")
    return SelfTestStep(
        "camera", Outcome.FAILED, found, f"{check.advice} (cogtable camera check shows it live)"
    )


def _parts_not_checked(profile: Profile) -> str:
    """Why the aim is not checked ("": it is): the profile's game reads no peg disk."""
    game = profile.table.game
    try:
        regions = adapter_for(game).fitted(Sensors.of(profile)).camera_regions()
    except ValueError as error:  # a game the table does not know
        return f"its aim is not checked: {error}"
    if any(region.reader == CHECKED_READER for region in regions):
        return ""
    read = ", ".join(region.name for region in regions) or "nothing"
    return (
        f"its aim is not checked: the camera check knows only {CHECKED_PART}, "
        f"and this table's game ({game}) reads {read}"
    )


def _camera_fix() -> str:
    return "check [camera] source in the profile and that the camera is plugged in"
