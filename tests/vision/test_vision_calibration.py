"""Calibration: learned from frames, saved and loaded exactly, refused when wrong or corrupt."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.vision.vision_scenes import HELD_OUT, RENDERER, random_position
from vision.markers import project
from vision.peg_disk.calibration import Calibration, CalibrationError, dark_centres
from vision.peg_disk.geometry import BoardGeometry, start_position
from vision.peg_disk.learning import NOISY_RIM_POINTS, learn, learned_reference
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.renderer import (
    Camera,
    Hand,
    LampShadow,
    Lighting,
    Renderer,
    Scene,
    random_scene,
)


def _start_frames(count: int = 2) -> list[np.ndarray]:
    rng = np.random.default_rng(HELD_OUT + 300)
    scene = random_scene(rng, start_position())
    return [RENDERER.render(scene, seed)[0] for seed in range(count)]


def test_learned_calibration_reads_other_positions_under_the_same_camera() -> None:
    calibration = learn(_start_frames())
    rng = np.random.default_rng(HELD_OUT + 301)
    scene = random_scene(rng, start_position())
    reader = BoardReader(calibration=calibration)
    for seed in range(3):
        position = random_position(rng)
        reading = reader.read(RENDERER.render(replace(scene, position=position), seed)[0])
        assert reading.position() == position
        assert reading.certain


def test_round_trip_through_the_file(tmp_path: Path) -> None:
    calibration = learn(_start_frames(1))
    path = tmp_path / "calibration.json"
    calibration.save(path)
    assert Calibration.load(path) == calibration
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "not valid JSON"),
        ('{"format": "cogtable-vision-calibration", "vers', "not valid JSON"),
        ("[1, 2]", "not a cogtable calibration"),
        ('{"format": "cogtable-vision-calibration", "version": 9}', "version"),
        ('{"format": "cogtable-vision-calibration", "version": 1}', "bad or missing"),
    ],
)
def test_corrupt_files_are_refused_with_a_clear_message(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "calibration.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CalibrationError, match=words):
        Calibration.load(path)


def test_non_finite_or_short_colours_are_refused(tmp_path: Path) -> None:
    data = Calibration.reference().to_dict()
    data["colours"]["red"] = [float("nan"), 0, 0]
    (tmp_path / "a.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CalibrationError, match="finite"):
        Calibration.load(tmp_path / "a.json")
    data = Calibration.reference().to_dict()
    data["empty"] = data["empty"][:10]
    (tmp_path / "b.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CalibrationError, match="expected 55"):
        Calibration.load(tmp_path / "b.json")


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="cannot read"):
        Calibration.load(tmp_path / "nothing.json")


def test_layout_without_a_colour_or_a_covered_frame_is_refused() -> None:
    frames = _start_frames(1)
    layout = start_position()
    layout[(9, 9)] = None
    with pytest.raises(CalibrationError, match="no blue cog"):
        learn(frames, layout)
    covered = RENDERER.render(replace(Scene(start_position()), hand=Hand((0.0, 0.0), 30.0)), 1)[0]
    with pytest.raises(CalibrationError, match="calibration frame 1"):
        learn([covered])


def test_a_wrong_layout_is_caught_when_colours_collide() -> None:
    wrong = start_position()
    wrong[(9, 0)], wrong[(9, 9)] = "gold", "red"
    wrong[(0, 0)] = "blue"
    frames = _start_frames(1)
    layout = dict(wrong)
    layout[(0, 0)] = None
    layout[(5, 2)] = "blue"
    with pytest.raises(CalibrationError, match="look alike"):
        learn(frames, layout)


def test_an_unusable_frame_among_three_is_left_out() -> None:
    good = _start_frames(2)
    covered = RENDERER.render(replace(Scene(start_position()), hand=Hand((0.0, 0.0), 30.0)), 1)[0]
    robust = learn([good[0], covered, good[1]])
    plain = learn(good)
    assert np.allclose(robust.colours["red"], plain.colours["red"], atol=1e-3)
    with pytest.raises(CalibrationError, match=r"only 1 of 3 frames usable: .* \(frames 2, 3\)$"):
        learn([good[0], covered, covered])


def test_a_refused_calibration_says_why_in_one_line_each_problem_once() -> None:
    """Markers lost in every frame (a board too small and too bright for the camera): one line
    naming the problem once, for all the frames, as ``cogtable calibrate`` shows it."""
    blank = np.full((480, 640, 3), 200, np.uint8)
    with pytest.raises(CalibrationError) as refused:
        learn([blank, blank, blank])
    message = str(refused.value)
    assert "\n" not in message and message.count("markers not found") == 1
    assert message.startswith("calibration: only 0 of 3 frames usable: no board: markers not")
    assert message.endswith("(all 3 frames)")


def test_a_lamp_shadow_over_the_board_does_not_refuse_calibration() -> None:
    """A lamp's shadow across the table is its light, not something to clear: the frames are
    used and the board calibrated reads a position under the same shadow."""
    shadow = LampShadow(angle_deg=30.0, offset=-20.0, depth=0.45, softness=6.0, width=70.0)
    scene = replace(
        random_scene(np.random.default_rng(HELD_OUT + 302), start_position()), shadow=shadow
    )
    frames = [RENDERER.render(scene, seed)[0] for seed in range(3)]
    seen = BoardReader().read(frames[0])
    assert seen.shaded and seen.covered and seen.rim_outliers >= NOISY_RIM_POINTS
    calibration = learn(frames)
    position = random_position(np.random.default_rng(HELD_OUT + 303))
    reader = BoardReader(calibration=calibration)
    shown = RENDERER.render(replace(scene, position=position), 5)[0]
    assert reader.read(shown).position() == position


def test_a_few_noisy_rim_points_do_not_spoil_a_frame() -> None:
    frame = _start_frames(1)[0].copy()
    reading = BoardReader().read(frame)
    rim = BoardGeometry().rim_points(72)[[5, 40]]
    for x, y in project(reading.homography, rim).astype(int):
        frame[y - 3 : y + 4, x - 3 : x + 4] = (20, 200, 20)
    assert BoardReader().read(frame).covered
    learned = learn([frame])
    assert set(learned.colours) == {"red", "blue", "gold"}


def test_metal_pins_are_learned_as_bright_centres() -> None:
    from vision.peg_disk.scene_conditions import METAL_PINS_LOOK, calibration_scene

    renderer = Renderer(look=METAL_PINS_LOOK)
    calibration = learn([renderer.render(calibration_scene((960, 540)), 1)[0]])
    assert calibration.centre["empty"][0] > 0 > Calibration.reference().centre["empty"][0]
    assert calibration.centre["red"][2] > -0.2 > Calibration.reference().centre["red"][2]


def test_a_file_without_centres_reads_as_dark_pins_and_hubs(tmp_path: Path) -> None:
    data = learn(_start_frames(1)).to_dict()
    del data["centre"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert Calibration.load(path).centre == dark_centres()


def test_the_reader_follows_a_slow_drift_but_never_far_from_calibration() -> None:
    from vision.peg_disk.reader import ADAPT_LIMIT

    frame = _start_frames(1)[0]
    reader = BoardReader()
    reading = reader.read(frame)
    calibrated = reader.colours["gold"]
    drifted = replace(reading, features=reading.features + 0.3)
    for _ in range(5):
        reader.adapt(drifted)
    moved = reader.colours["gold"] - calibrated
    assert (moved > 0.01).all() and (moved < 0.3).all()
    for _ in range(200):
        reader.adapt(drifted)
    assert np.allclose(reader.colours["gold"] - calibrated, ADAPT_LIMIT)
    uncertain = replace(drifted, confidence=(0.1,) * len(drifted.confidence))
    before = reader.colours["gold"]
    reader.adapt(uncertain)
    assert np.array_equal(reader.colours["gold"], before)
    assert reader.read(frame).certain


def test_the_stored_reference_calibration_is_what_learning_gives() -> None:
    """reference_calibration.json is kept up to date: ``python -m vision.peg_disk.learning``."""
    stored, learned = Calibration.reference().to_dict(), learned_reference().to_dict()
    assert stored.keys() == learned.keys() and stored["geometry"] == learned["geometry"]
    for key in ("empty", "rim"):
        assert np.allclose(stored[key], learned[key], atol=0.01), key
    for key in ("colours", "centre"):
        assert np.allclose(list(stored[key].values()), list(learned[key].values()), atol=0.01)
    assert abs(stored["shade"] - learned["shade"]) < 0.01


def test_an_over_exposed_board_is_refused_as_too_bright_not_as_covered() -> None:
    """Light that clips the board white but in a lamp's shadow: the owner is told to dim the
    light, not to clear a board that is clear."""
    shadow = LampShadow(angle_deg=40.0, offset=-10.0, depth=0.45, softness=6.0, width=80.0)
    scene = Scene(
        start_position(),
        (1280, 720),
        Camera(fill=0.5, roll_deg=15.0),
        Lighting(brightness=2.2),
        shadow=shadow,
    )
    with pytest.raises(CalibrationError, match=r"over-exposed .* dim the light"):
        learn([RENDERER.render(scene, 1)[0]])
