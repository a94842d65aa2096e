"""``cogtable calibrate cog --teach``: the owner's letter tiles taught, saved, and used."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cogtable.board_setup import letter_classifier
from cogtable.cli import main
from cogtable.errors import UserError
from cogtable.letter_teach import (
    TEACH_LAYOUT,
    TEACH_ORDER,
    TEACH_PART,
    TEACH_STAR,
    TEACH_WILD,
    teach,
    unused_line,
)
from cogtable.mock.parts_world import PartsWorld
from cogtable.mock.teach_frames import teach_scene_frames
from cogtable.tables import adapter_for
from hardware.profile import load_profile
from vision.layout import STAR, WILD
from vision.parts.letter_model import LetterModel, TaughtLetterModel
from vision.parts.look import REFERENCE
from vision.parts.reader import PartsReader
from vision.parts.tiles import DEVELOPMENT_LOOKS, REFERENCE_LOOK

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


def test_frames_without_the_first_mat_are_left_out_and_none_at_all_says_so() -> None:
    frames = teach_scene_frames(LAYOUTS, (1280, 720), 2)
    blank = frames[0] * 0 + 90  # no board at all
    taught = teach([blank, frames[1]], LAYOUTS, LetterModel.default())
    line = unused_line(taught)
    assert "frame 1: the first player's mat is not seen" in line
    assert "one usable frame" in line and taught.after >= 20
    with pytest.raises(UserError, match="first player's mat is not seen"):
        teach([blank, blank], LAYOUTS, LetterModel.default())


def test_letters_missing_from_the_layout_are_named_in_one_line_and_the_rest_taught() -> None:
    world = PartsWorld(LAYOUTS, camera="render", camera_size=(1280, 720), seed=0)
    for cell, label in TEACH_LAYOUT:
        if label not in "KQ":
            world.put(TEACH_PART, cell, label)
    camera = world.camera_for((1280, 720))
    frames = [camera.grab(), camera.grab()]
    taught = teach(frames, LAYOUTS, LetterModel.default())
    line = unused_line(taught)
    assert "\n" not in line
    assert "r2c3 (K): no tile seen" in line and "r3c1 (Q): no tile seen" in line
    assert taught.checked == 24
    _crops, letters = taught.classifier.owner_samples()
    assert "K" not in letters and "Q" not in letters and len(set(letters)) == 24


def test_too_few_letters_laid_is_refused_in_one_line() -> None:
    world = PartsWorld(LAYOUTS, camera="render", camera_size=(1280, 720), seed=0)
    for cell, letter in TEACH_ORDER[:5]:
        world.put(TEACH_PART, cell, letter)
    camera = world.camera_for((1280, 720))
    with pytest.raises(UserError, match=r"only 5 of 26 letters seen"):
        teach([camera.grab(), camera.grab()], LAYOUTS, LetterModel.default())


@pytest.mark.parametrize(
    "look", [DEVELOPMENT_LOOKS[0], DEVELOPMENT_LOOKS[3]], ids=["wood", "black"]
)
def test_the_owners_tile_colours_are_learned_and_read(look) -> None:
    """Wood faces with a stained back, dark wood with a black back: untaught, their face-down
    tiles read as something over the mat; taught, as face-down tiles, and the stars as stars."""
    frames = teach_scene_frames(LAYOUTS, (1280, 720), 3, seed=7, tiles=look)
    taught = teach(frames, LAYOUTS, LetterModel.default())
    assert taught.classifier.tiles == taught.tiles
    assert taught.check[TEACH_WILD] == WILD and taught.check[TEACH_STAR] == STAR
    assert taught.after >= 22 and taught.after >= taught.before
    world = PartsWorld(LAYOUTS, camera="render", camera_size=(1280, 720), seed=3, tiles=look)
    laid = {"r1c1": WILD, "r1c2": "A", "r1c3": STAR, "r2c1": WILD, "r2c2": "M", "star1": STAR}
    for place, label in laid.items():
        world.put("mat2", place, label)
    frame = world.camera_for((1280, 720)).grab()
    untaught = PartsReader(LAYOUTS).read(frame).parts["mat2"]
    reader = PartsReader(LAYOUTS, replace(REFERENCE, tiles=taught.tiles), taught.classifier)
    part = reader.read(frame).parts["mat2"]
    seen = part.position() or {}
    assert not part.covered, part.message
    assert {place: seen[place] for place in laid if laid[place] in (WILD, STAR)} == {
        place: label for place, label in laid.items() if label in (WILD, STAR)
    }
    assert (untaught.position() or {}).get("r1c1") != WILD or untaught.covered


def test_the_taught_tiles_are_saved_and_loaded_with_the_letters() -> None:
    look = DEVELOPMENT_LOOKS[1]
    frames = teach_scene_frames(LAYOUTS, (1280, 720), 2, seed=5, tiles=look)
    taught = teach(frames, LAYOUTS, LetterModel.default())
    data = json.loads(json.dumps(taught.classifier.to_dict()))
    loaded = TaughtLetterModel.from_dict(data)
    assert isinstance(loaded, TaughtLetterModel) and loaded.tiles == taught.tiles
    assert loaded.tiles.back != REFERENCE_LOOK.back
    data["tiles"]["back"] = [1, 2]
    with pytest.raises(ValueError, match="back"):
        TaughtLetterModel.from_dict(data)


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


def test_without_a_face_down_tile_or_a_token_the_standard_ones_are_kept_and_named() -> None:
    frames = teach_scene_frames(
        LAYOUTS, (1280, 720), 2, seed=4, tiles=DEVELOPMENT_LOOKS[0], layout=TEACH_ORDER
    )
    taught = teach(frames, LAYOUTS, LetterModel.default())
    line = unused_line(taught)
    assert f"{TEACH_WILD} (face-down tile): none seen" in line
    assert f"{TEACH_STAR} (star token): none seen" in line
    assert taught.tiles.back == REFERENCE_LOOK.back and taught.tiles.star == REFERENCE_LOOK.star
    assert taught.tiles.face != REFERENCE_LOOK.face  # the wood face was learned
