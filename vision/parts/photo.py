"""What the camera makes of a composed table: the view of it, a hand over it, light, sensor.

The steps of :mod:`vision.parts.renderer` from the composed table on, shared with the card
mat's renderer: :func:`table_in_view` (the table texture warped into the picture),
:func:`draw_hand` (the Kogworks hand of :mod:`vision.peg_disk.renderer`, its centre in table
mm), :func:`light` (brightness, gradient, vignetting and cast on 8-bit pixels) and
:func:`sense` (blur, noise from a seeded window of a fixed field, JPEG).
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.markers import project
from vision.part_sheet import sheet_matrix
from vision.peg_disk.renderer import (
    SKIN_BGR,
    TABLE_BGR,
    Hand,
    Lighting,
    Sensor,
    _pixels_per_mm,
    _pt,
    _ramp,
    _soft_shadow,
    _thick_line,
    coarse_gain,
)

NOISE_SCALE = 16.0
"""The cached noise field holds N(0, 1) times this, as int8."""


def table_in_view(
    texture: np.ndarray, table_to_image: np.ndarray, scale: float, size: tuple[int, int]
) -> np.ndarray:
    """The composed table texture (``scale`` px per table mm) as the camera at ``size`` sees it
    through ``table_to_image`` (table mm to image px); bare table beyond the texture."""
    return cv2.warpPerspective(
        texture,
        table_to_image @ np.linalg.inv(sheet_matrix(scale)),
        size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=TABLE_BGR,
    )


def draw_hand(image: np.ndarray, hand: Hand, homography: np.ndarray, rng) -> np.ndarray:
    """A skin-coloured palm, four fingers and an arm to the edge of the picture, with a shadow.

    The Kogworks hand (:mod:`vision.peg_disk.renderer`), its centre in table mm.
    """
    height, width = image.shape[:2]
    mask = np.zeros((height, width), np.float32)
    ppm = _pixels_per_mm(homography, hand.centre)
    centre = project(homography, np.array([hand.centre]))[0]
    size = hand.size * ppm
    angle = math.radians(hand.arm_deg)
    direction = np.array([math.cos(angle), math.sin(angle)])
    _thick_line(mask, centre, centre + direction * 4 * max(width, height), 70 * size)
    axes = (round(45 * size), round(55 * size))
    cv2.ellipse(mask, _pt(centre), axes, hand.arm_deg + 90, 0, 360, 1.0, -1, cv2.LINE_AA)
    for spread in (-0.45, -0.15, 0.15, 0.45):
        finger = -np.array([math.cos(angle + spread), math.sin(angle + spread)])
        _thick_line(mask, centre, centre + finger * 95 * size, 16 * size)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.2)
    shadow = _soft_shadow(mask, 12 * size)
    skin = np.array(SKIN_BGR, np.float32) * rng.uniform(0.85, 1.1, 3).astype(np.float32)
    shade = 0.8 + 0.25 * cv2.resize(_ramp((height // 8, width // 8), angle), (width, height))
    lit = image.astype(np.float32) * (1 - shadow)[..., None]
    alpha = mask[..., None]
    lit = lit * (1 - alpha) + alpha * shade[..., None] * skin
    return np.clip(lit + 0.5, 0, 255).astype(np.uint8)


def light(image: np.ndarray, lighting: Lighting) -> np.ndarray:
    """Brightness, gradient, vignetting and cast of the peg disk renderer, on 8-bit pixels.

    The smooth gain is computed at 1/8 size and applied as a fixed-point
    (1/100) 8-bit factor: the same light, a fraction of the float work.
    """
    height, width = image.shape[:2]
    gain = coarse_gain(lighting, height, width)
    gain8 = np.clip(gain * 100 + 0.5, 0, 255).astype(np.uint8)
    gain8 = cv2.resize(gain8, (width, height), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(image, gain8, scale=1 / 100)


@lru_cache(maxsize=4)
def _noise_field(height: int, width: int) -> np.ndarray:
    """A fixed field of N(0, NOISE_SCALE^2) int8 noise, 32 pixels larger than the frame."""
    rng = np.random.default_rng(97)
    field = rng.standard_normal((height + 32, width + 32, 3), np.float32) * NOISE_SCALE
    field = np.clip(np.round(field), -127, 127).astype(np.int8)
    field.flags.writeable = False
    return field


def sense(image: np.ndarray, sensor: Sensor, rng: np.random.Generator) -> np.ndarray:
    """Blur, noise (a seeded window of a fixed noise field) and JPEG compression."""
    if sensor.blur > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), sensor.blur)
    if sensor.noise > 0:
        height, width = image.shape[:2]
        dy, dx = (int(v) for v in rng.integers(0, 32, 2))
        flip = rng.integers(2) == 1
        noise = _noise_field(height, width)[dy : dy + height, dx : dx + width]
        weight = (-1 if flip else 1) * sensor.noise / NOISE_SCALE
        image = cv2.addWeighted(image, 1.0, noise, weight, 0.0, dtype=cv2.CV_8U)
    if sensor.jpeg is not None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, sensor.jpeg])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image
    return image
