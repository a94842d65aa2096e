"""A player's arm and hand over the table, and the shadow it casts, for the held-out renderers.

A hand is drawn in plane millimetres at a height above the table (the
forearm rising towards the shoulder) and projected by the camera. Its
coverage is collected in a :class:`HandLayer`, from which the renderers
compute what it hides.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from benchmarks.held_out.optics import Box, Camera, Lamp, blend, circle, polygon_alpha

SKINS = (
    (0.36, 0.46, 0.64),
    (0.22, 0.32, 0.48),
    (0.14, 0.22, 0.38),
    (0.06, 0.09, 0.16),
)
SLEEVES = (
    (0.05, 0.05, 0.05),
    (0.40, 0.15, 0.05),
    (0.60, 0.60, 0.60),
    (0.10, 0.10, 0.45),
    (0.12, 0.30, 0.12),
    (0.02, 0.02, 0.02),
)


@dataclass(frozen=True, eq=False)
class Hand:
    """A hand, fingertips over ``tip`` (plane mm) at ``height_mm``, its arm from ``shoulder``."""

    tip: np.ndarray
    shoulder: np.ndarray
    height_mm: float
    skin: tuple[float, float, float]
    sleeve: tuple[float, float, float]
    left: bool
    spread: float
    pinch: bool = False

    def parts(self) -> list[tuple[np.ndarray, np.ndarray, str]]:
        """The hand's parts as (plane polygon (N, 2), heights (N,), what), back to front."""
        axis = self.tip - self.shoulder
        along = axis / np.linalg.norm(axis)
        across = np.array([-along[1], along[0]]) * (-1.0 if self.left else 1.0)
        h = self.height_mm

        def local(a: float, b: float) -> np.ndarray:
            return self.tip + a * along + b * across

        parts: list[tuple[np.ndarray, np.ndarray, str]] = []
        wrist, elbow = -170.0, -470.0
        arm = np.array(
            [local(wrist + 10, -31), local(wrist + 10, 31), local(elbow, 42), local(elbow, -42)]
        )
        rise = np.array([h, h, h + 160, h + 160])
        parts.append((arm, rise, "arm"))
        cuff = wrist - 90
        sleeve = np.array([local(cuff, -36), local(cuff, 36), local(elbow, 46), local(elbow, -46)])
        parts.append((sleeve, np.array([h + 50, h + 50, h + 160, h + 160]), "sleeve"))
        palm = _ellipse(local(-118, 0), along, 55, 44)
        parts.append((palm, np.full(len(palm), h + 8), "skin"))
        if self.pinch:
            thumb = _capsule(local(-125, 30), local(-18, 24), 11)
        else:
            thumb = _capsule(local(-140, 34), local(-88, 52), 11)
        parts.append((thumb, np.full(len(thumb), h + 4), "skin"))
        lengths = (68.0, 76.0, 73.0, 60.0)
        spread = 0.55 if self.pinch else self.spread
        for index, length in enumerate(lengths):
            offset = (index - 1.5) * 17.0
            tip = local(-(76.0 - length) - 2, offset * (0.6 + 0.6 * spread))
            base = local(-82.0, offset * 0.95)
            finger = _capsule(base, tip, 8.3)
            parts.append((finger, np.full(len(finger), h), "skin"))
        return parts


def _ellipse(centre: np.ndarray, along: np.ndarray, half_length: float, half_width: float):
    angles = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    across = np.array([-along[1], along[0]])
    return (
        centre
        + np.outer(half_length * np.cos(angles), along)
        + np.outer(half_width * np.sin(angles), across)
    )


def _capsule(a: np.ndarray, b: np.ndarray, radius: float) -> np.ndarray:
    points = np.vstack([circle(tuple(a), radius, 20), circle(tuple(b), radius, 20)])
    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2).astype(np.float64)


GRIP_MM = 13.0
"""A pinching hand holds a cog this far ahead of its fingertips (by the cog's rim)."""


def grip_point(hand: Hand) -> np.ndarray:
    """Where a pinching hand holds a cog: just beyond its fingertips."""
    along = hand.tip - hand.shoulder
    return hand.tip + along / np.linalg.norm(along) * GRIP_MM


def gripping(hand: Hand, point: np.ndarray, height_mm: float) -> Hand:
    """The hand moved so that it holds a cog at ``point`` (plane mm) at ``height_mm``."""
    along = np.asarray(point, dtype=np.float64) - hand.shoulder
    tip = point - along / np.linalg.norm(along) * GRIP_MM
    return replace(hand, tip=tip, height_mm=float(height_mm))


def hand_toward(
    target: np.ndarray,
    height_mm: float,
    rng: np.random.Generator,
    pinch: bool = False,
) -> Hand:
    """A hand reaching for ``target`` (plane mm) from a random side of the table."""
    angle = rng.uniform(0, 2 * np.pi)
    shoulder = np.asarray(target, dtype=np.float64) + 700 * np.array([np.cos(angle), np.sin(angle)])
    return Hand(
        tip=np.asarray(target, dtype=np.float64),
        shoulder=shoulder,
        height_mm=float(height_mm),
        skin=SKINS[int(rng.integers(len(SKINS)))],
        sleeve=SLEEVES[int(rng.integers(len(SLEEVES)))],
        left=bool(rng.integers(2)),
        spread=float(rng.uniform(0.2, 1.0)),
        pinch=pinch,
    )


class HandLayer:
    """What lies over the board in one frame: coverage (H, W) in [0, 1]."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.coverage = np.zeros((size[1], size[0]), np.float32)

    def add(self, box: Box, alpha: np.ndarray) -> None:
        """Add an occluder's coverage inside ``box``."""
        region = self.coverage[box.slices]
        np.maximum(region, alpha, out=region)


def cast_shadow(
    image: np.ndarray,
    camera: Camera,
    lamp: Lamp,
    shapes: list[tuple[np.ndarray, np.ndarray]],
) -> None:
    """Darken ``image`` where things in the air (plane polygon, heights) shade the table."""
    height, width = image.shape[:2]
    sharp = np.zeros((height, width), np.float32)
    mean_height = float(np.mean([h.mean() for _, h in shapes]))
    for polygon, heights in shapes:
        shifted = np.array(
            [p + lamp.shadow_shift(z, tuple(p)) for p, z in zip(polygon, heights, strict=True)]
        )
        pixels = camera.project(shifted)
        cv2.fillPoly(sharp, [np.rint(pixels * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    scale = camera.pixels_per_mm((0.0, 0.0))
    small = cv2.resize(sharp, (width // 4, height // 4), interpolation=cv2.INTER_AREA)
    penumbra = max(0.5, (lamp.softness * mean_height + 1.0) * scale / 4)
    direct = cv2.resize(cv2.GaussianBlur(small, (0, 0), penumbra), (width, height))
    wide = max(1.0, 0.45 * mean_height * scale / 4)
    ambient = cv2.resize(cv2.GaussianBlur(small, (0, 0), wide), (width, height))
    darken = 0.9 * (1.0 - lamp.ambient) * direct + 0.35 * lamp.ambient * ambient
    image *= (1.0 - np.clip(darken, 0.0, 0.95))[:, :, None]


def draw_hand(
    image: np.ndarray,
    camera: Camera,
    lamp: Lamp,
    hand: Hand,
    layer: HandLayer,
    *,
    shadow_only: bool = False,
    extra_shadow=None,
) -> None:
    """Cast the hand's shadow (``shadow_only``) or draw the hand and add it to ``layer``.

    ``extra_shadow`` is a held solid (outline, z0, z1) whose shadow falls with the hand's.
    """
    parts = hand.parts()
    if shadow_only:
        shapes = [(polygon, heights) for polygon, heights, _ in parts]
        if extra_shadow is not None:
            z = 0.5 * (extra_shadow.z0 + extra_shadow.z1)
            shapes.append((extra_shadow.outline, np.full(len(extra_shadow.outline), z)))
        cast_shadow(image, camera, lamp, shapes)
        return
    light = float(lamp.irradiance(hand.tip[None])[0]) * np.array(lamp.colour, np.float32)
    projected = [(camera.project(polygon, heights), what) for polygon, heights, what in parts]
    box = Box.around(np.vstack([p for p, _ in projected]), image.shape, 3.0)
    if box.empty:
        return
    skin = polygon_alpha(box.shape, [p - box.origin for p, w in projected if w == "skin"])
    finger = max(2.0, 17.0 * camera.pixels_per_mm(tuple(hand.tip), hand.height_mm))
    whole = _roundness(skin, finger * 0.9)
    for pixels, what in projected:
        alpha = polygon_alpha(box.shape, [pixels - box.origin])
        width = max(2.0, float(np.ptp(pixels, axis=0).min()))
        own = _roundness(alpha, min(width, finger * 4) / 5)
        shade = own if what != "skin" else whole * (0.65 + 0.35 * own)
        albedo = np.array(hand.sleeve if what == "sleeve" else hand.skin, np.float32)
        colour = albedo[None, None, :] * light[None, None, :] * shade[:, :, None]
        blend(image[box.slices], alpha, colour)
        layer.add(box, alpha)


def _roundness(alpha: np.ndarray, sigma: float) -> np.ndarray:
    """Shading of a rounded body seen from above: 1 along its middle, darker at its edges."""
    soft = cv2.GaussianBlur(alpha, (0, 0), max(1.0, sigma))
    return 0.42 + 0.58 * np.sqrt(np.clip((soft - 0.25) / 0.6, 0.0, 1.0))
