"""The mock's truth camera for printed parts: a part moves exactly when what lies on it changes."""

from __future__ import annotations

import numpy as np

from cogtable.mock.parts_world import PartsWorld
from cogtable.tables import adapter_for
from games.core import new_game
from vision.layout import EMPTY
from vision.parts.part_reading import PartReading
from vision.peg_disk.settle import SettlingFilter

LETTERS_TRIED = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def a_mat_reading(world: PartsWorld, name: str) -> PartReading:
    """The truth camera's reading of part ``name`` now."""
    reading = world.camera_for((1280, 720)).grab()
    assert reading is not None
    part = reading.parts[name]
    assert isinstance(part, PartReading)
    return part


def test_every_tile_laid_or_lifted_moves_the_part_past_the_motion_threshold() -> None:
    """A tile lifted off a reserve place, or swapped for any other letter, is motion to the
    settling filter (sim cog --players 4 --seed 1: a Y lifted and laid again was no motion,
    so the judge summed both as one still window and waited for ever)."""
    state = new_game("cog", {"players": 2}, 0)
    layouts = [r.layout for r in adapter_for("cog").regions_for(state) if r.layout is not None]
    world = PartsWorld(layouts, camera="truth", seed=0)
    mat = next(layout.name for layout in layouts if layout.name.startswith("mat"))
    threshold = SettlingFilter().motion_threshold
    before = a_mat_reading(world, mat)
    for letter in LETTERS_TRIED:
        world.put(mat, "reserve1", letter)
        laid = a_mat_reading(world, mat)
        assert laid.features is not None and before.features is not None
        assert np.abs(laid.features - before.features).max() > threshold, letter
        world.put(mat, "reserve1", EMPTY)
        assert np.array_equal(a_mat_reading(world, mat).features, before.features)
