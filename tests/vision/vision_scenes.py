"""Seeded positions and frames shared by the vision tests (seeds 50_000+: never tuned on)."""

from __future__ import annotations

import numpy as np

from vision.peg_disk.geometry import LABELS, PEGS, Position, start_position
from vision.peg_disk.renderer import Renderer

HELD_OUT = 50_000
"""First seed of the test range; tuning used seeds below 10_000."""

RENDERER = Renderer()


def random_position(rng: np.random.Generator, fill: float = 0.5) -> Position:
    """The three fixed wheels plus random cogs on about ``fill`` of the other pegs."""
    position = start_position()
    for peg in PEGS:
        if position[peg] is None and rng.random() < fill:
            position[peg] = str(rng.choice(LABELS))
    return position
