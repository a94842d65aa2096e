"""How sharp a frame is, measured across the edges of the board's markers.

A marker's black border against the white sheet is a step in brightness; a
sharp camera shows it a couple of pixels wide, a bump of the table smears it
along the motion and a camera out of focus widens it all round. The width of
an edge is its contrast over its steepest slope (a step blurred by a Gaussian
of sigma s is about 2.5 s wide; smeared over L pixels, about L). The frame is
as sharp as its widest edge: motion blurs only the edges across the motion.

>>> import cv2
>>> frame = np.full((200, 200), 230, np.uint8)
>>> frame[50:150, 50:150] = 15
>>> corners = {0: np.array([[50.0, 50.0], [150.0, 50.0], [150.0, 150.0], [50.0, 150.0]])}
>>> bool(edge_width(frame, corners) < 2.0)
True
>>> smeared = cv2.blur(frame, (9, 1))
>>> bool(edge_width(smeared, corners) > 6.0)
True
"""

from __future__ import annotations

import cv2
import numpy as np

BLUR_LIMIT = 4.5
"""Widest marker edge (pixels) of a frame sharp enough to read: wider is a bump or bad focus."""
ALONG = np.array([0.2, 0.35, 0.5, 0.65, 0.8])
"""Where along each edge it is measured (fractions of the side)."""
ACROSS = np.arange(-8.0, 8.25, 0.5)
"""Offsets (pixels) across the edge of the samples of its profile."""
MIN_CONTRAST = 25.0
"""An edge with less contrast than this (grey levels) is not measured (a shadow, a hand)."""


def edge_width(image: np.ndarray, markers: dict[int, np.ndarray]) -> float:
    """Width (pixels) of the widest marker edge, the median over points along each edge.

    ``markers`` maps ids to image corners (4, 2); 0.0 when nothing could be
    measured. Works on a BGR or grey frame (BGR is sampled, then averaged).
    """
    if not markers:
        return 0.0
    samples = np.concatenate([_edge_points(c) for c in markers.values()]).astype(np.float32)
    height, width = image.shape[:2]
    inside = (
        (samples[:, 0] >= 0)
        & (samples[:, 0] <= width - 1)
        & (samples[:, 1] >= 0)
        & (samples[:, 1] <= height - 1)
    )
    values = cv2.remap(
        image,
        np.ascontiguousarray(samples[:, 0]),
        np.ascontiguousarray(samples[:, 1]),
        cv2.INTER_LINEAR,
    ).astype(np.float32)
    values = values.reshape(len(samples), -1).mean(axis=1)
    shape = (-1, len(ALONG), len(ACROSS))
    return _widest(values.reshape(shape), inside.reshape(shape).all(axis=2))


def _edge_points(corners: np.ndarray) -> np.ndarray:
    """Sample points across the 4 edges of one marker, (4 * along * across, 2)."""
    ends = np.roll(corners, -1, axis=0)
    direction = ends - corners
    normal = np.column_stack([direction[:, 1], -direction[:, 0]])
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-9)
    outward = np.sign(((corners + ends) / 2 - corners.mean(axis=0)) * normal).sum(axis=1)
    normal *= np.where(outward < 0, -1.0, 1.0)[:, None]
    along = corners[:, None, :] + ALONG[None, :, None] * direction[:, None, :]
    points = along[:, :, None, :] + ACROSS[None, None, :, None] * normal[:, None, None, :]
    return points.reshape(-1, 2)


def _widest(profiles: np.ndarray, valid: np.ndarray) -> float:
    """The widest edge's width from profiles (edges, along, across) and which are in frame."""
    step = ACROSS[1] - ACROSS[0]
    ordered = np.sort(profiles, axis=2)
    low, high = ordered[..., 1], ordered[..., -2]
    slope = np.abs(np.diff(profiles, axis=2)).max(axis=2) / step
    widths = (high - low) / np.maximum(slope, 1e-6)
    usable = valid & (high - low >= MIN_CONTRAST)
    per_edge = [float(np.median(w[u])) for w, u in zip(widths, usable, strict=True) if u.sum() >= 2]
    return max(per_edge, default=0.0)
