"""Synthetic frames of the letter teach layout: the mock table's owner teaching their tiles.

The mock's parts world lays the teach layout's letters in the owner's font and
its camera films them, as ``cogtable calibrate letters`` and ``cogtable sim``
do on the mock table (source ``synthetic``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cogtable.letter_teach import TEACH_LAYOUT, TEACH_PART
from cogtable.mock.parts_world import PartsWorld
from vision.layout import PartLayout
from vision.parts.tiles import REFERENCE_LOOK, TileLook


def teach_scene_frames(
    layouts: Sequence[PartLayout],
    size: tuple[int, int],
    count: int,
    seed: int = 0,
    *,
    tiles: TileLook = REFERENCE_LOOK,
    layout: Sequence[tuple[str, str]] = TEACH_LAYOUT,
) -> list[np.ndarray]:
    """Synthetic frames of the teach layout (the mock table's source ``synthetic``).

    The tiles are drawn in the font the mock table's owner has (a font the
    classifier was not trained on) and in the look ``tiles``, under one random
    camera and light; ``layout`` is what the owner lays, (cell, label) pairs.
    """
    world = PartsWorld(layouts, camera="render", camera_size=size, seed=seed, tiles=tiles)
    for cell, label in layout:
        world.put(TEACH_PART, cell, label)
    camera = world.camera_for(size)
    frames = []
    for _ in range(count):
        world.frames += 1
        frames.append(camera.grab())
    return frames
