"""The reader across the renderer's conditions (issue 16): tall cogs on a tilted camera, a
covered marker, glare, white balance, metal pins, JPEG; never a bumped frame or a hand.

Seeds 800_000+ (neither the benchmark's tuning nor its held-out seeds).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from vision.peg_disk.learning import learn
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.renderer import Renderer
from vision.peg_disk.scene_conditions import (
    CONDITIONS,
    HELD_OUT,
    TUNING,
    calibration_scene,
    look_of,
)
from vision.peg_disk.sprites import Look

SEEDS = 800_000
SIZE = (1280, 720)


@lru_cache(maxsize=8)
def _set(look: Look) -> tuple[Renderer, BoardReader]:
    """A renderer of the look and a reader calibrated on two frames of it."""
    renderer = Renderer(look=look)
    frames = [renderer.render(calibration_scene(SIZE), seed)[0] for seed in range(2)]
    return renderer, BoardReader(calibration=learn(frames))


def _readings(name: str, frame_set, count: int):
    condition = CONDITIONS[name]
    renderer, reader = _set(look_of(condition, frame_set))
    for index in range(count):
        seed = SEEDS + 1000 * list(CONDITIONS).index(name) + index
        scene = condition.scene(np.random.default_rng(seed), SIZE)
        yield scene, reader.read(renderer.render(scene, seed)[0])


@pytest.mark.parametrize(
    "name", ["tall cogs", "marker covered", "white balance", "metal pins", "jpeg", "strong glare"]
)
def test_readable_frames_are_committable_and_right(name: str) -> None:
    for scene, reading in _readings(name, TUNING, 2):
        assert reading.certain, f"{name}: {reading.status} {reading.message}"
        assert reading.position() == scene.position


def test_the_held_out_look_is_read_after_its_own_calibration() -> None:
    for scene, reading in _readings("tall cogs", HELD_OUT, 2):
        assert reading.certain and reading.position() == scene.position


def test_a_covered_marker_is_named() -> None:
    for scene, reading in _readings("marker covered", TUNING, 2):
        assert len(reading.missing_markers) == 1
        assert f"marker {reading.missing_markers[0]} is covered" in reading.message
        assert reading.position() == scene.position


@pytest.mark.parametrize("name", ["bumped", "hand over pegs"])
def test_frames_that_must_not_be_used_are_never_committable(name: str) -> None:
    for _scene, reading in _readings(name, TUNING, 3):
        assert not reading.certain


def test_glare_never_commits_a_wrong_peg() -> None:
    for scene, reading in _readings("glare", TUNING, 4):
        assert not reading.certain or reading.position() == scene.position


def test_a_bumped_frame_whose_markers_are_found_is_refused_as_blurred() -> None:
    from dataclasses import replace

    from vision.peg_disk.reader import BAD_FRAME
    from vision.peg_disk.renderer import Sensor

    renderer, reader = _set(look_of(CONDITIONS["plain"], TUNING))
    scene = CONDITIONS["plain"].scene(np.random.default_rng(SEEDS + 77), SIZE)
    sharp = reader.read(renderer.render(scene, 1)[0])
    bumped = replace(scene, sensor=Sensor(noise=2.0, motion=9.0, motion_deg=30.0))
    blurred = reader.read(renderer.render(bumped, 1)[0])
    assert sharp.certain and sharp.edge_width < 4.5
    assert blurred.status == BAD_FRAME and "blurred" in blurred.message
    assert len(blurred.markers) >= 3


def test_glints_on_the_rim_are_local_not_something_over_the_board() -> None:
    from dataclasses import replace

    from vision.peg_disk.geometry import BoardGeometry
    from vision.peg_disk.renderer import Glare

    renderer, reader = _set(look_of(CONDITIONS["plain"], TUNING))
    scene = CONDITIONS["plain"].scene(np.random.default_rng(SEEDS + 91), SIZE)
    rim = BoardGeometry().rim_points(72)[[3, 30, 55]]
    glare = Glare(strength=0.0, spots=tuple(map(tuple, rim.tolist())), spot_radius=2.0)
    reading = reader.read(renderer.render(replace(scene, glare=glare), 5)[0])
    assert not reading.covered and reading.certain
    assert reading.position() == scene.position
