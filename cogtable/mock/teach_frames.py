"""Synthetic frames of the letter teach layout: the mock table's owner teaching their tiles.

The mock's parts world lays the teach layout's letters in the owner's font and
its camera films them, as ``cogtable calibrate letters`` and ``cogtable sim``
do on the mock table (source ``synthetic``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cogtable.letter_teach import TEACH_ORDER, TEACH_PART
from cogtable.mock.parts_world import PartsWorld
from vision.layout import PartLayout


def teach_scene_frames(
    layouts: Sequence[PartLayout], size: tuple[int, int], count: int, seed: int = 0
) -> list[np.ndarray]:
    """Synthetic frames of the teach layout (the mock table's source ``synthetic``).

    The tiles are drawn in the font the mock table's owner has (a font the
    classifier was not trained on), under one random camera and light.
    """
    world = PartsWorld(layouts, camera="render", camera_size=size, seed=seed)
    for cell, letter in TEACH_ORDER:
        world.put(TEACH_PART, cell, letter)
    camera = world.camera_for(size)
    frames = []
    for _ in range(count):
        world.frames += 1
        frames.append(camera.grab())
    return frames
