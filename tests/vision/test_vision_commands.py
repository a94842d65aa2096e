"""``cogtable board print`` and ``cogtable calibrate`` through the real command line."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from cogtable.cli import main
from vision.markers import MarkerDetector
from vision.peg_disk.calibration import Calibration
from vision.peg_disk.geometry import BoardGeometry


@pytest.mark.parametrize("dpi", [72, 150])
def test_printed_sheet_is_to_scale(tmp_path: Path, dpi: int, capsys) -> None:
    out = tmp_path / "sheet.png"
    argv = ["board", "print", "kogworks", "--paper", "full", "--out", str(out), "--dpi", str(dpi)]
    assert main(argv) == 0
    assert str(out) in capsys.readouterr().out
    data = out.read_bytes()
    assert b"pHYs" in data[:100]
    sheet = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    geometry = BoardGeometry()
    assert sheet.shape == (round(440 * dpi / 25.4), round(440 * dpi / 25.4))
    found = MarkerDetector(geometry).detect(sheet)
    assert sorted(found) == [0, 1, 2, 3]
    expected = geometry.marker_size * dpi / 25.4
    for corners in found.values():
        sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
        assert np.abs(sides - expected).max() <= 1.5


def test_bad_dpi_and_unwritable_output_are_one_line_errors(tmp_path: Path, capsys) -> None:
    assert main(["board", "print", "kogworks", "--out", str(tmp_path / "a.png"), "--dpi", "5"]) == 2
    assert main(["board", "print", "kogworks", "--out", str(tmp_path / "no" / "a.png")]) == 2
    err = capsys.readouterr().err
    assert "--dpi 5" in err and "does not exist" in err and "Traceback" not in err


def test_calibrate_end_to_end_with_the_synthetic_camera(tmp_path: Path, capsys) -> None:
    out, overlay = tmp_path / "cal.json", tmp_path / "cal.png"
    args = ["calibrate", "--source", "synthetic", "--size", "640x480", "--frames", "2"]
    assert main([*args, "--out", str(out), "--overlay", str(overlay)]) == 0
    printed = capsys.readouterr().out
    assert "gold top wheel" in printed and "3 cogs read" in printed
    Calibration.load(out)
    assert cv2.imread(str(overlay)).shape == (480, 640, 3)


def test_calibrate_from_one_image_with_the_default_frames(tmp_path: Path, capsys) -> None:
    from vision.peg_disk.geometry import start_position
    from vision.peg_disk.renderer import Camera, Renderer, Scene

    image = tmp_path / "start.png"
    frame, _ = Renderer().render(Scene(start_position(), (960, 540), Camera(tilt_deg=8)), 1)
    cv2.imwrite(str(image), frame)
    out, overlay = tmp_path / "cal.json", tmp_path / "cal.png"
    args = ["calibrate", "--source", str(image), "--out", str(out), "--overlay", str(overlay)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "calibrated from 1 frame(s) (the source had no more than 1)" in printed
    assert "3 cogs read" in printed
    assert Calibration.load(out).centre["empty"][0] < 0
    assert cv2.imread(str(overlay)).shape == (540, 960, 3)


def test_calibrate_reports_a_source_without_a_board(tmp_path: Path, capsys) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 90, np.uint8))
    args = [
        "calibrate",
        "--source",
        str(blank),
        "--out",
        str(tmp_path / "c.json"),
        "--timeout",
        "1",
    ]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "markers not found" in err and "Traceback" not in err
    assert not (tmp_path / "c.json").exists()
    assert main(["calibrate", "--source", str(tmp_path / "none.avi")]) == 2
    assert main(["calibrate", "--size", "huge"]) == 2
