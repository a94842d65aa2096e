"""The camera's overlay picture in the state folder, and ``cogtable snapshot`` that copies it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from cogtable.camera_picture import PICTURE_NAME, CameraPicture
from cogtable.cli import main
from cogtable.service.runner import StatusWriter
from cogtable.sights.camera import CameraPart
from cogtable.sights.peg_disk import PegSight
from vision.peg_disk.geometry import start_position
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.renderer import Camera, Renderer, Scene


class Clock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _image(value: int) -> np.ndarray:
    return np.full((60, 80, 3), value, np.uint8)


def test_the_picture_is_written_when_the_reading_changed_and_a_second_passed(
    tmp_path: Path,
) -> None:
    clock = Clock()
    picture = CameraPicture(tmp_path / PICTURE_NAME, clock)
    assert picture.offer("a", lambda: _image(10))
    clock.now = 5.0
    assert not picture.offer("a", lambda: _image(20)), "the same reading is not written again"
    assert picture.offer("b", lambda: _image(30))
    clock.now = 5.5
    assert not picture.offer("c", lambda: _image(40)), "at most once a second"
    clock.now = 6.1
    assert picture.offer("c", lambda: _image(50))
    assert int(cv2.imread(str(tmp_path / PICTURE_NAME))[0, 0, 0]) == 50


def test_a_failed_write_is_not_raised_and_is_tried_again(tmp_path: Path) -> None:
    clock = Clock()
    picture = CameraPicture(tmp_path / "missing" / PICTURE_NAME, clock)
    assert not picture.offer("a", lambda: _image(10))
    (tmp_path / "missing").mkdir()
    assert picture.offer("a", lambda: _image(10))


def test_the_disk_sight_writes_its_overlay(tmp_path: Path) -> None:
    clock = Clock()
    picture = CameraPicture.in_state_dir(tmp_path, clock)
    sight = PegSight(
        lambda item, seen_at=None: None,
        CameraPart(lambda item: None),
        clock,
        BoardReader,
        picture=picture,
    )
    frame, _ = Renderer().render(Scene(start_position(), (640, 480), Camera(fill=0.9)), 1)
    sight.see(frame, 0.0)
    written = cv2.imread(str(tmp_path / PICTURE_NAME))
    assert written.shape == frame.shape
    assert np.abs(written.astype(int) - frame.astype(int)).max() > 100, "the overlay is drawn"


def test_snapshot_copies_the_picture_or_says_why_not(tmp_path: Path, capsys) -> None:
    state, out = tmp_path / "state", tmp_path / "now.png"
    state.mkdir()
    assert main(["snapshot", "--state-dir", str(state), str(out)]) == 2
    assert "is the service running" in capsys.readouterr().err
    StatusWriter(state, lambda: {"state": "playing", "parts": {}})(force=True)
    assert main(["snapshot", "--state-dir", str(state), str(out)]) == 2
    assert "has not seen a frame yet" in capsys.readouterr().err
    assert not out.exists()
    CameraPicture.in_state_dir(state, Clock()).offer("a", lambda: _image(77))
    assert main(["snapshot", "--state-dir", str(state), str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert int(cv2.imread(str(out))[5, 5, 1]) == 77
