"""Text on printed sheets, sized in millimetres of capital height.

OpenCV's Hershey face is sized by a scale factor whose capital height changed
between OpenCV 4 (22 px at scale 1) and 5 (27 px), so the height is measured
once here and every printed label stays the height its sheet was laid out for.
"""

from __future__ import annotations

import cv2
import numpy as np

FACE = cv2.FONT_HERSHEY_SIMPLEX
CAP_HEIGHT_PX = cv2.getTextSize("H", FACE, 1.0, 1)[0][1]
"""The face's capital height at scale 1, in pixels, as this OpenCV draws it."""


def font_for(height_mm: float, px_per_mm: float) -> tuple[float, int]:
    """OpenCV's (font scale, stroke thickness) for capitals ``height_mm`` tall."""
    font_scale = height_mm * px_per_mm / CAP_HEIGHT_PX
    return font_scale, max(1, round(font_scale * 1.6))


def text_size(text: str, height_mm: float, px_per_mm: float) -> tuple[int, int]:
    """Width and height in pixels of ``text`` drawn by :func:`put_text`."""
    font_scale, thickness = font_for(height_mm, px_per_mm)
    (width, height), _ = cv2.getTextSize(text, FACE, font_scale, thickness)
    return width, height


def put_text(
    page: np.ndarray,
    text: str,
    origin: tuple[int, int],
    *,
    height_mm: float,
    px_per_mm: float,
    colour: tuple[int, int, int],
    centred: bool = False,
) -> None:
    """Draw ``text`` with its baseline start at ``origin``, or centred on it."""
    font_scale, thickness = font_for(height_mm, px_per_mm)
    if centred:
        width, height = text_size(text, height_mm, px_per_mm)
        origin = (origin[0] - width // 2, origin[1] + height // 2)
    cv2.putText(page, text, origin, FACE, font_scale, colour, thickness, cv2.LINE_AA)
