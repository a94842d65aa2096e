"""``cogtable calibrate cog --teach``: the owner's letter tiles taught, saved, and used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogtable.board_setup import letter_classifier
from cogtable.cli import main
from cogtable.errors import UserError
from cogtable.letter_teach import TEACH_ORDER, TEACH_PART, teach
from cogtable.mock.parts_world import PartsWorld
from cogtable.mock.teach_frames import teach_scene_frames
from cogtable.tables import adapter_for
from hardware.profile import load_profile
from vision.parts.letter_model import LetterModel, TaughtLetterModel

LAYOUTS = [r.layout for r in adapter_for("cog").camera_regions() if r.layout is not None]


def test_the_teach_order_is_every_letter_once_on_the_first_four_rows() -> None:
    assert [letter for _, letter in TEACH_ORDER] == [chr(c) for c in range(65, 91)]
    assert TEACH_ORDER[0] == ("r1c1", "A") and TEACH_ORDER[-1] == ("r4c2", "Z")


def test_teaching_the_owners_tiles_reads_them_at_least_as_well(tmp_path: Path) -> None:
    out, overlay = tmp_path / "letters.json", tmp_path / "letters.png"
    argv = ["calibrate", "cog", "--teach", "--frames", "1", "--size", "1280x720"]
    assert main([*argv, "--out", str(out), "--overlay", str(overlay)]) == 0
    taught = TaughtLetterModel.from_dict(json.loads(out.read_text(encoding="utf-8")))
    crops, letters = taught.owner_samples()
    assert sorted(set(letters)) == [letter for _, letter in TEACH_ORDER]
    assert len(crops) >= 26
    assert overlay.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_frame_without_the_first_mat_says_so(tmp_path: Path) -> None:
    frames = teach_scene_frames(LAYOUTS, (1280, 720), 2)
    empty = [frames[0] * 0 + 90, frames[1]]  # no board at all in the first frame
    with pytest.raises(UserError, match="first player's mat is not seen"):
        teach(empty, LAYOUTS, LetterModel.default())


def test_letters_missing_from_the_layout_are_named_by_cell() -> None:
    world = PartsWorld(LAYOUTS, camera="render", camera_size=(1280, 720), seed=0)
    for cell, letter in TEACH_ORDER:
        if letter not in "KQ":
            world.put(TEACH_PART, cell, letter)
    camera = world.camera_for((1280, 720))
    frames = [camera.grab(), camera.grab()]
    with pytest.raises(UserError, match=r"no face-up tile seen on r2c3 \(K\), r3c1 \(Q\)"):
        teach(frames, LAYOUTS, LetterModel.default())


def test_the_profile_points_the_reader_at_taught_letters(tmp_path: Path) -> None:
    profile_text = (Path(load_profile().source)).read_text(encoding="utf-8")
    broken = tmp_path / "letters.json"
    broken.write_text("{}", encoding="utf-8")
    text = profile_text.replace(
        "resolution = [1280, 720]", 'resolution = [1280, 720]\nletters = "letters.json"'
    )
    path = tmp_path / "profile.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError, match="not taught letter tiles"):
        letter_classifier(load_profile(path))
