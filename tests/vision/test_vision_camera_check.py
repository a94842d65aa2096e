"""The camera check: figures of one frame and the advice a person aiming the camera gets."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from cogtable.camera_check import ALL_GOOD, check_frame
from cogtable.cli import main
from vision.peg_disk.geometry import start_position
from vision.peg_disk.renderer import Camera, Hand, Lighting, Renderer, Scene, Sensor

RENDERER = Renderer()
SIZE = (1280, 720)


def _check(**scene):
    frame, _ = RENDERER.render(Scene(start_position(), SIZE, **scene), 1)
    return check_frame(frame)


def test_a_well_aimed_camera_is_all_good_with_its_figures() -> None:
    check = _check(camera=Camera(tilt_deg=6, fill=0.9))
    assert check.good and check.advice == ALL_GOOD
    assert check.seen_ids == (0, 1, 2, 3) and check.missing == ()
    assert 3 < check.tilt_deg < 9
    assert 0.85 < check.fill < 0.95
    assert min(s.side_px for s in check.markers) > 40
    assert "tilt 6 deg" in check.line() and "fills 90%" in check.line()


@pytest.mark.parametrize(
    ("scene", "advice"),
    [
        ({"camera": Camera(fill=0.4)}, "cm lower"),
        ({"camera": Camera(fill=1.05)}, "cm higher"),
        ({"camera": Camera(tilt_deg=28, fill=0.85)}, "tilted 2"),
        ({"camera": Camera(fill=0.9), "sensor": Sensor(motion=8.0)}, "blurred"),
        ({"camera": Camera(fill=0.9), "lighting": Lighting(brightness=1.5)}, "too bright"),
        ({"camera": Camera(fill=0.9), "lighting": Lighting(brightness=0.25)}, "too dark"),
        ({"camera": Camera(fill=0.9), "hand": Hand((205.0, 205.0), 45.0, 0.9)}, "marker 2 is"),
    ],
)
def test_each_problem_gets_its_advice(scene: dict, advice: str) -> None:
    check = _check(**scene)
    assert advice in check.advice and not check.good


def test_no_frame_and_no_board_are_advised_too() -> None:
    nothing, blank = check_frame(None), check_frame(np.full((480, 640, 3), 90, np.uint8))
    assert "no picture" in nothing.advice and "no markers in sight" in blank.advice
    assert not nothing.good and not blank.good


def test_the_command_prints_readouts_and_keeps_a_snapshot(tmp_path: Path, capsys) -> None:
    image, snapshot = tmp_path / "board.png", tmp_path / "snap.png"
    frame, _ = RENDERER.render(Scene(start_position(), (960, 540), Camera(fill=0.9)), 2)
    cv2.imwrite(str(image), frame)
    args = ["camera", "check", "--source", str(image), "--snapshot", str(snapshot)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "markers 0:" in printed and "-> all good" in printed
    assert cv2.imread(str(snapshot)).shape == (540, 960, 3)


def test_a_camera_that_cannot_be_opened_is_one_line(capsys) -> None:
    assert main(["camera", "check", "--source", "97"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "camera 97 cannot be opened" in err
