"""Surfaces for the held-out renderers: table tops, paper, wood grain, paint (linear BGR).

Every texture is a float32 image (H, W, 3) of albedo (reflectance 0..1)
drawn from a generator, so a seed fixes it.
"""

from __future__ import annotations

import cv2
import numpy as np


def fbm(shape: tuple[int, int], rng: np.random.Generator, scale: float, octaves: int = 4):
    """Smooth value noise (H, W) in about [-1, 1]: ``scale`` is the largest blob in pixels."""
    height, width = shape
    total = np.zeros(shape, np.float32)
    amplitude, weight = 1.0, 0.0
    for octave in range(octaves):
        cell = max(2.0, scale / 2**octave)
        small = rng.standard_normal(
            (int(height / cell) + 3, int(width / cell) + 3), dtype=np.float32
        )
        big = cv2.resize(
            small,
            (int((width / cell + 3) * cell), int((height / cell + 3) * cell)),
            interpolation=cv2.INTER_CUBIC,
        )
        total += amplitude * big[:height, :width]
        weight += amplitude
        amplitude *= 0.5
    return total / weight


def wood(
    shape: tuple[int, int],
    rng: np.random.Generator,
    pixels_per_mm: float,
    base: tuple[float, float, float],
    angle_deg: float = 0.0,
) -> np.ndarray:
    """Wood grain: long streaks along ``angle_deg``, growth rings bent by noise, pores.

    Drawn at half resolution (grain is smooth at a pixel's scale), fine noise at full.
    """
    full_height, full_width = shape
    height, width = max(8, full_height // 2), max(8, full_width // 2)
    pixels_per_mm = pixels_per_mm / 2
    shape = (height, width)
    xs = np.arange(width, dtype=np.float32)[None, :]
    ys = np.arange(height, dtype=np.float32)[:, None]
    a = np.deg2rad(angle_deg)
    along = xs * np.cos(a) + ys * np.sin(a)
    across = -xs * np.sin(a) + ys * np.cos(a)
    warp = fbm(shape, rng, 60 * pixels_per_mm, 3) * 6.0 * pixels_per_mm
    stretch = cv2.resize(
        fbm((max(8, height // 8), max(8, width // 64)), rng, 6, 3),
        (width, height),
        interpolation=cv2.INTER_CUBIC,
    )
    rings_mm = rng.uniform(5.0, 10.0)
    phase = (across + warp + 0.02 * along) / (rings_mm * pixels_per_mm)
    rings = np.clip(np.sin(2 * np.pi * phase), 0.0, 1.0) ** 6
    streaks = stretch * 0.8
    shade = 1.0 - 0.30 * rings + 0.10 * streaks
    shade = cv2.resize(shade, (full_width, full_height), interpolation=cv2.INTER_LINEAR)
    shade += 0.04 * fbm((full_height, full_width), rng, 2.4 * pixels_per_mm, 1)
    colour = np.array(base, dtype=np.float32)
    return cv2.merge([np.clip(shade * c, 0.0, 1.0) for c in colour])


def paper(
    shape: tuple[int, int], rng: np.random.Generator, base: tuple[float, float, float]
) -> np.ndarray:
    """Paper or paint: the base colour with faint mottling and fibre noise."""
    mottle = fbm(shape, rng, 80, 3) * 0.025 + fbm(shape, rng, 3, 1) * 0.015
    return cv2.merge([np.clip((1.0 + mottle) * c, 0.0, 1.0) for c in base])


def cloth(
    shape: tuple[int, int],
    rng: np.random.Generator,
    base: tuple[float, float, float],
    pixels_per_mm: float,
) -> np.ndarray:
    """A table cloth or felt: a weave of two thread directions with mottling."""
    xs = np.arange(shape[1], dtype=np.float32)[None, :]
    ys = np.arange(shape[0], dtype=np.float32)[:, None]
    pitch = max(2.0, rng.uniform(0.8, 2.0) * pixels_per_mm)
    weave = 0.5 * (np.sin(2 * np.pi * xs / pitch) * np.sin(2 * np.pi * ys / pitch))
    mottle = fbm(shape, rng, 40 * pixels_per_mm, 3)
    shade = 1.0 + 0.05 * weave + 0.08 * mottle
    return cv2.merge([np.clip(shade * c, 0.0, 1.0) for c in base])


TABLE_WOODS = (
    (0.20, 0.36, 0.55),  # oak
    (0.10, 0.18, 0.32),  # walnut
    (0.32, 0.50, 0.66),  # birch
    (0.08, 0.14, 0.30),  # teak
)
TABLE_CLOTHS = (
    (0.18, 0.30, 0.12),  # green felt
    (0.25, 0.22, 0.20),  # grey cloth
    (0.12, 0.10, 0.35),  # burgundy cloth
    (0.45, 0.42, 0.40),  # light linen
)


def table_top(shape: tuple[int, int], rng: np.random.Generator, pixels_per_mm: float) -> np.ndarray:
    """What lies under the board: a wooden table top or a cloth, chosen by ``rng``."""
    if rng.random() < 0.6:
        base = TABLE_WOODS[rng.integers(len(TABLE_WOODS))]
        return wood(shape, rng, pixels_per_mm, base, rng.uniform(-20, 20))
    base = TABLE_CLOTHS[rng.integers(len(TABLE_CLOTHS))]
    return cloth(shape, rng, base, pixels_per_mm)
