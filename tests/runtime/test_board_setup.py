"""The profile's board and calibration reach the vision pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtable.board_setup import board_geometry, calibration_path, camera_calibration
from cogtable.cli import main
from cogtable.errors import UserError
from hardware.profile import default_profile_path, load_profile
from vision.peg_disk.calibration import Calibration
from vision.peg_disk.geometry import BoardGeometry

MOCK = default_profile_path().read_text(encoding="utf-8")


def write_profile(folder: Path, text: str) -> Path:
    path = folder / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_mock_profile_is_the_printed_reference_board() -> None:
    assert board_geometry(load_profile()) == BoardGeometry()


def test_the_profile_sets_pitch_markers_and_disk(tmp_path: Path) -> None:
    text = MOCK.replace("peg_pitch_mm = 25.0", "peg_pitch_mm = 24.0").replace(
        "x_mm = -180.0", "x_mm = -182.5", 1
    )
    geometry = board_geometry(load_profile(write_profile(tmp_path, text)))
    assert geometry.peg_pitch == 24.0
    assert geometry.markers[0] == (-182.5, -180.0)


def test_a_disk_too_small_for_the_pegs_is_a_clear_error(tmp_path: Path) -> None:
    text = MOCK.replace("disk_radius_mm = 162.0", "disk_radius_mm = 50.0")
    with pytest.raises(UserError, match="disk is too small"):
        board_geometry(load_profile(write_profile(tmp_path, text)))


def test_without_a_calibration_file_the_reference_colours_are_used() -> None:
    profile = load_profile()
    assert calibration_path(profile) is None
    assert camera_calibration(profile) == Calibration.reference(BoardGeometry())


def test_a_named_calibration_file_that_is_missing_says_how_to_make_it(tmp_path: Path) -> None:
    text = MOCK.replace(
        "resolution = [1280, 720]", 'resolution = [1280, 720]\ncalibration = "colours.json"'
    )
    profile = load_profile(write_profile(tmp_path, text))
    assert calibration_path(profile) == tmp_path / "colours.json"
    with pytest.raises(UserError, match="cogtable calibrate --profile"):
        camera_calibration(profile)


def test_calibrate_writes_where_the_profile_says_and_the_table_loads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = MOCK.replace(
        "resolution = [1280, 720]", 'resolution = [1280, 720]\ncalibration = "colours.json"'
    )
    profile_path = write_profile(tmp_path, text)
    overlay = tmp_path / "overlay.png"
    argv = ["calibrate", "--profile", str(profile_path), "--overlay", str(overlay)]
    assert main([*argv, "--size", "640x480", "--frames", "1"]) == 0
    assert (tmp_path / "colours.json").is_file() and overlay.is_file()
    loaded = camera_calibration(load_profile(profile_path))
    assert loaded.geometry == BoardGeometry()
    capsys.readouterr()


def test_a_calibration_of_another_board_is_refused(tmp_path: Path) -> None:
    other = Calibration.reference(BoardGeometry(peg_pitch=24.0))
    other.save(tmp_path / "colours.json")
    text = MOCK.replace(
        "resolution = [1280, 720]", 'resolution = [1280, 720]\ncalibration = "colours.json"'
    )
    with pytest.raises(UserError, match="another board geometry"):
        camera_calibration(load_profile(write_profile(tmp_path, text)))
