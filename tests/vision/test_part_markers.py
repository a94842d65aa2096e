"""The parts' marker search on small markers: a table far from a 720p camera.

Frames from our renderer (:mod:`vision.parts.renderer`) on seeds 61_000+, never used to
tune the search: the C.O.G. board and four mats framed with the table filling 55-65% of
a 1280x720 frame, so the markers are 10-14 pixels wide (cells of about two pixels).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from cogtable.tables.cog.parts import part_layouts
from games.cog.edition import load_edition
from vision.marker_squares import read_squares
from vision.markers import marker_image, project
from vision.part_markers import MarkerFinder, fit_homography
from vision.parts.renderer import TableRenderer, true_homographies
from vision.parts.table_scenes import random_table_scene

SEEDS = 61_000
SIZE = (1280, 720)


def far_table(seed: int):
    """A frame of the board and four mats far from the camera, and each part's true map."""
    rng = np.random.default_rng(seed)
    layouts = part_layouts(load_edition(), 4)
    scene = random_table_scene(rng, layouts, {})
    scene = replace(scene, camera=replace(scene.camera, fill=float(rng.uniform(0.55, 0.65))))
    return TableRenderer().render(scene, SIZE, seed), layouts, true_homographies(scene, SIZE)


@pytest.mark.parametrize("seed", [SEEDS, SEEDS + 1, SEEDS + 2])
def test_every_part_of_a_far_table_is_found_and_fits_at_720p(seed: int) -> None:
    frame, layouts, truth = far_table(seed)
    finder = MarkerFinder(marker.id for layout in layouts for marker in layout.markers)
    found = finder.find(frame)
    sides = []
    for layout in layouts:
        seen = [marker for marker in layout.markers if marker.id in found]
        assert len(seen) >= 3, f"{layout.name}: {len(seen)} markers found"
        for marker in seen:
            expected = project(truth[layout.name], np.array(marker.corners()))
            side = float(np.ptp(expected, axis=0).max())
            sides.append(side)
            assert np.abs(found[marker.id] - expected).max() < 0.2 * side, (layout.name, marker)
        homography = fit_homography(layout, found)
        assert homography is not None, layout.name
        places = np.array([(place.x, place.y) for place in layout.places])
        error = np.linalg.norm(
            project(homography, places) - project(truth[layout.name], places), axis=1
        )
        smallest = min(min(place.width, place.height) for place in layout.places)
        pixels_per_mm = np.median(sides[-len(seen) :]) / layout.markers[0].side
        assert error.max() < 0.25 * smallest * pixels_per_mm, layout.name  # a quarter of a place
    assert np.median(sides) < 15.0  # the markers are as small as meant


def small_marker_frame(marker_id: int, side: int, turn_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """A marker ``side`` pixels wide on white paper, turned and blurred, and its corners."""
    scale = 8
    big = np.full((64 * scale, 64 * scale), 235, np.uint8)
    x0 = 20 * scale
    big[x0 : x0 + side * scale, x0 : x0 + side * scale] = marker_image(marker_id, side * scale)
    corners = np.array(
        [(x0, x0), (x0 + side * scale, x0), (x0 + side * scale,) * 2, (x0, x0 + side * scale)],
        np.float64,
    )
    turn = cv2.getRotationMatrix2D((32.0 * scale, 32.0 * scale), turn_deg, 1.0 / scale)
    turn[:, 2] -= 32.0 * (scale - 1)  # the big sheet's middle to the small frame's
    frame = cv2.warpAffine(big, turn, (64, 64), flags=cv2.INTER_AREA, borderValue=235)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.7)
    corners = corners @ turn[:, :2].T + turn[:, 2]
    return frame, corners - 0.5


@pytest.mark.parametrize("turn_deg", [0.0, 17.0, 95.0, 200.0])
def test_a_small_blurred_square_is_read_as_its_marker_in_its_corner_order(turn_deg) -> None:
    frame, corners = small_marker_frame(7, 12, turn_deg)
    rolled = np.roll(corners, 1, axis=0) + 0.4  # an outline a little off, any corner first
    found = read_squares(frame, [rolled], wanted=[3, 7, 9])
    assert list(found) == [7]
    assert np.abs(found[7] - corners).max() < 1.0


def test_a_square_is_never_read_as_a_marker_not_wanted_or_not_there() -> None:
    frame, corners = small_marker_frame(7, 12, 10.0)
    assert read_squares(frame, [corners], wanted=[3, 9, 12]) == {}
    rng = np.random.default_rng(SEEDS + 50)
    for _ in range(20):  # dark squares with a light pattern that is no marker
        cells = np.zeros((6, 6), np.uint8)
        cells[1:-1, 1:-1] = rng.integers(0, 2, (4, 4)) * 235
        cells[0, rng.integers(6)] = 235  # a light cell in the border: no marker has one
        noise = cv2.resize(cells, (12, 12), interpolation=cv2.INTER_NEAREST)
        paper = np.full((64, 64), 235, np.uint8)
        paper[20:32, 20:32] = noise
        square = np.array([(20, 20), (32, 20), (32, 32), (20, 32)], np.float64) - 0.5
        assert read_squares(paper, [square], wanted=range(20, 28)) == {}  # two mats' markers
