"""Freeze a camera's auto exposure and auto white balance once they have settled.

A table's light changes little, but a camera left on automatic keeps
re-metering: a hand or a dark cog in view shifts the exposure and the white
balance, and the board's colours drift during a game. Once the automatic
controls have had :data:`LOCK_AFTER_S` to settle, the camera is switched to
manual at the values it settled on, where it allows that: V4L2 controls
through OpenCV for a USB camera, picamera2 controls for the Pi camera. What a
camera refuses is said (:class:`ExposureLock`), never an error; the reader
compares every peg with the board around it, so what drift remains is small.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2

LOCK_AFTER_S = 2.0
"""Seconds a camera runs on automatic before its exposure and white balance are frozen."""
V4L2_MANUAL_EXPOSURE = (1.0, 0.25)
"""CAP_PROP_AUTO_EXPOSURE values meaning manual: V4L2's own, then OpenCV's older mapping."""


@dataclass(frozen=True)
class ExposureLock:
    """Which automatic controls were frozen, and which the camera refused."""

    locked: tuple[str, ...]
    refused: tuple[str, ...]

    @property
    def message(self) -> str:
        """One line for the log or the camera check."""
        parts = []
        if self.locked:
            parts.append(f"locked {', '.join(self.locked)}")
        if self.refused:
            parts.append(f"the camera keeps automatic {', '.join(self.refused)}")
        return "; ".join(parts) or "nothing to lock"


def lock_v4l2(capture: Any) -> ExposureLock:
    """Freeze a V4L2 capture's exposure and white balance at their current values.

    The current values are read first and set again after switching to
    manual, so the picture does not jump. ``capture`` is a cv2.VideoCapture
    (or anything with its ``get`` and ``set``).
    """
    locked, refused = [], []
    exposure = capture.get(cv2.CAP_PROP_EXPOSURE)
    if any(_set(capture, cv2.CAP_PROP_AUTO_EXPOSURE, v) for v in V4L2_MANUAL_EXPOSURE):
        _set(capture, cv2.CAP_PROP_EXPOSURE, exposure)
        locked.append("exposure")
    else:
        refused.append("exposure")
    temperature = capture.get(cv2.CAP_PROP_WB_TEMPERATURE)
    if _set(capture, cv2.CAP_PROP_AUTO_WB, 0.0):
        if temperature > 0:
            _set(capture, cv2.CAP_PROP_WB_TEMPERATURE, temperature)
        locked.append("white balance")
    else:
        refused.append("white balance")
    return ExposureLock(tuple(locked), tuple(refused))


def _set(capture: Any, prop: int, value: float) -> bool:
    try:
        return bool(capture.set(prop, value))
    except cv2.error:
        return False


def lock_picamera2(camera: Any) -> ExposureLock:
    """Freeze a Picamera2's exposure, gain and colour gains at what it settled on.

    Reads the settled values from the frame metadata and sets them with the
    automatic algorithms off; a camera that gives no such metadata keeps them.
    """
    try:
        metadata = camera.capture_metadata()
    except RuntimeError:
        metadata = {}
    controls: dict[str, Any] = {}
    locked, refused = [], []
    if "ExposureTime" in metadata and "AnalogueGain" in metadata:
        controls |= {
            "AeEnable": False,
            "ExposureTime": int(metadata["ExposureTime"]),
            "AnalogueGain": float(metadata["AnalogueGain"]),
        }
        locked.append("exposure")
    else:
        refused.append("exposure")
    if "ColourGains" in metadata:
        red, blue = metadata["ColourGains"]
        controls |= {"AwbEnable": False, "ColourGains": (float(red), float(blue))}
        locked.append("white balance")
    else:
        refused.append("white balance")
    if controls:
        try:
            camera.set_controls(controls)
        except RuntimeError:
            return ExposureLock((), ("exposure", "white balance"))
    return ExposureLock(tuple(locked), tuple(refused))
