"""The parallax of cog tops: a fit of three numbers to hubs found near their pegs."""

from __future__ import annotations

import numpy as np

from vision.peg_disk.geometry import BoardGeometry, start_position
from vision.peg_disk.parallax import (
    Parallax,
    fit_parallax,
    hub_offsets,
    search_offsets,
    spread_choice,
)
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.renderer import Camera, Renderer, Scene, camera_homography

GEOMETRY = BoardGeometry()


def test_the_fit_recovers_a_parallax_and_ignores_a_hub_that_disagrees() -> None:
    truth = Parallax(0.012, (1.1, -0.7))
    pegs = GEOMETRY.peg_positions()[[0, 45, 54, 20, 30, 12]]
    found = truth.displacement(pegs)
    found[3] += (3.0, 2.0)
    fitted = fit_parallax(pegs, found, GEOMETRY.peg_pitch)
    assert fitted is not None
    assert abs(fitted.scale - truth.scale) < 1e-6
    assert np.allclose(fitted.shift, truth.shift, atol=1e-6)


def test_two_hubs_are_not_enough() -> None:
    pegs = GEOMETRY.peg_positions()[[0, 45]]
    assert fit_parallax(pegs, np.zeros((2, 2)), GEOMETRY.peg_pitch) is None


def test_spread_choice_takes_the_corners_of_the_triangle_first() -> None:
    pegs = GEOMETRY.peg_positions()
    chosen = set(spread_choice(pegs, 3).tolist())
    assert chosen == {0, 45, 54}


def test_a_hub_between_grid_points_is_found_between_them() -> None:
    offsets = search_offsets(GEOMETRY.peg_pitch)
    target = np.array([0.6, -0.4])
    scores = -(np.linalg.norm(offsets - target, axis=1) ** 2)
    found, _strength = hub_offsets(scores[None], offsets)
    assert np.linalg.norm(found[0] - target) < 0.2


def test_the_reader_measures_the_parallax_of_tall_cogs_as_the_camera_sees_it() -> None:
    camera = Camera(tilt_deg=15, azimuth_deg=40, distance=500)
    scene = Scene(start_position(), (1280, 720), camera, cog_height=6.0)
    frame, board = Renderer().render(scene, 1)
    top = camera_homography(GEOMETRY, camera, (1280, 720), 6.0)
    truth = np.linalg.inv(board) @ top
    reading = BoardReader().read(frame)
    pegs = GEOMETRY.peg_positions()
    true_shift = np.c_[pegs, np.ones(55)] @ truth.T
    true_shift = true_shift[:, :2] / true_shift[:, 2:] - pegs
    error = np.abs(reading.parallax.displacement(pegs) - true_shift).max()
    assert np.abs(true_shift).max() > 1.0
    assert error < 0.5


def test_a_steady_camera_keeps_its_parallax_and_a_moved_one_finds_it_again() -> None:
    from dataclasses import replace

    from tests.vision.vision_scenes import random_position

    camera = Camera(tilt_deg=12, azimuth_deg=200, distance=600)
    scene = Scene(start_position(), (1280, 720), camera, cog_height=5.0)
    reader, renderer = BoardReader(), Renderer()
    first = reader.read(renderer.render(scene, 1)[0])
    moved_cogs = replace(scene, position=random_position(np.random.default_rng(3)))
    second = reader.read(renderer.render(moved_cogs, 2)[0])
    assert second.parallax == first.parallax and second.position() == moved_cogs.position
    turned = replace(scene, camera=replace(camera, azimuth_deg=20))
    third = reader.read(renderer.render(turned, 3)[0])
    assert third.parallax != first.parallax and third.certain


def test_a_parallax_found_under_a_hand_is_not_kept_once_the_hand_has_left() -> None:
    from dataclasses import replace

    from vision.peg_disk.renderer import random_hand
    from vision.peg_disk.scene_conditions import CONDITIONS

    rng = np.random.default_rng(1_100_002)
    scene = CONDITIONS["tall cogs"].scene(rng, (1280, 720))
    hand = replace(scene, hand=random_hand(rng, GEOMETRY))
    reader, renderer = BoardReader(), Renderer()
    still = renderer.render(scene, 1)[0]
    under_hand = [reader.read(renderer.render(hand, seed)[0]) for seed in (2, 3)]
    after = reader.read(still)
    fresh = BoardReader().read(still)
    assert all(reading.covered for reading in under_hand)
    pegs = GEOMETRY.peg_positions()
    apart = after.parallax.displacement(pegs) - fresh.parallax.displacement(pegs)
    assert np.abs(apart).max() < 0.2
    assert after.certain and after.position() == scene.position
