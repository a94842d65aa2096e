"""What the pixels at a set of sample points say: bilinear samples, clipping and glints.

Shared by the peg disk reader's parts (:mod:`vision.peg_disk.rim`, :mod:`vision.peg_disk.centre`,
:mod:`vision.peg_disk.colour`): a clipped channel is a bound, not a colour, and a point saturated
in every channel is a glint.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.markers import project

SATURATED = 250
"""A channel at or above this is clipped: its true value is unknown (at least this)."""
GLINT_LEVEL = 245
"""A point at or above this in every channel is a glint (or white): not colour."""


def glints(values: np.ndarray, white_board: np.ndarray | None = None) -> np.ndarray:
    """Points saturated in every channel: specular glints, not colour.

    A glint is small: where most of a peg's points are white (``values`` is
    (pegs, points, 3)), or the board there is clipped white (``white_board``,
    per peg), the white is over-exposed board, not a glint.
    """
    glints = (values >= GLINT_LEVEL).all(axis=-1)
    if values.ndim == 3:
        glints &= (glints.mean(axis=1) <= 0.5)[:, None]
    if white_board is not None:
        glints &= ~white_board[:, None]
    return glints


def weighted_mean(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Mean over axis 1 of (n, m, 3) values with (n, m) weights (all points when none count)."""
    weights = np.where(weights.sum(axis=1, keepdims=True) < 1, 1.0, weights)
    return (values * weights[..., None]).sum(axis=1) / weights.sum(axis=1)[:, None]


def median_of_three(values: np.ndarray) -> np.ndarray:
    """Element-wise median of values[0], values[1] and values[2]."""
    a, b, c = values
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def remap(image: np.ndarray, pixels: np.ndarray) -> np.ndarray | None:
    """Bilinear pixel values at (N, 2) pixel points, (N, 3) float32; None if any is outside."""
    pixels = pixels.astype(np.float32)
    height, width = image.shape[:2]
    if not (
        pixels.min() >= 0 and pixels[:, 0].max() <= width - 1 and pixels[:, 1].max() <= height - 1
    ):
        return None
    values = cv2.remap(
        image,
        np.ascontiguousarray(pixels[:, 0]),
        np.ascontiguousarray(pixels[:, 1]),
        cv2.INTER_LINEAR,
    )
    return values.reshape(-1, 3).astype(np.float32)


def pixels_per_mm(homography: np.ndarray) -> float:
    """The image scale at the board centre (square root of the homography's Jacobian)."""
    points = project(homography, np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
    (ax, ay), (bx, by) = points[1] - points[0], points[2] - points[0]
    return float(np.sqrt(abs(ax * by - ay * bx)))
