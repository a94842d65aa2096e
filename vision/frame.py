"""What every camera surface shares about a frame: its reading status and the checks it passes.

A reader first asks :func:`check_frame` whether a frame can be read at all (an 8-bit colour
image of a sane size); its reading then carries a :class:`FrameStatus`.
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np


class FrameStatus(StrEnum):
    """How a frame was read: a string enum, so it compares equal to its word."""

    OK = "ok"
    NO_BOARD = "no board"
    BAD_FRAME = "bad frame"
    NO_CAMERA = "no camera"


OK = FrameStatus.OK
NO_BOARD = FrameStatus.NO_BOARD
BAD_FRAME = FrameStatus.BAD_FRAME
NO_CAMERA = FrameStatus.NO_CAMERA

MIN_SIDE, MAX_SIDE = 64, 8192
"""The smallest and largest frame side, in pixels, that a reader accepts."""


def check_frame(frame: object) -> tuple[np.ndarray | None, str]:
    """A BGR uint8 frame ready to read, or None and the reason it cannot be read."""
    if frame is None:
        return None, "no frame from the camera"
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        return None, "not an 8-bit image"
    if frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] == 1):
        return None, "grey-scale frame: cog colours cannot be read"
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        return None, f"not a colour image (shape {frame.shape})"
    height, width = frame.shape[:2]
    if min(height, width) < MIN_SIDE or max(height, width) > MAX_SIDE:
        return None, f"frame size {width}x{height} is outside {MIN_SIDE}..{MAX_SIDE} pixels"
    return (frame[..., :3] if frame.shape[2] == 4 else frame), ""
