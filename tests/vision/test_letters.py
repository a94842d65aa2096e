"""Tile sprites and the letter classifier: held-out fonts, non-letters, turns, teaching, storage.

One default classifier is made for the module (trained on synthetic crops the
first time, then loaded from the user's cache), then reused by every test.
"""

from __future__ import annotations

import base64
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.layout import LETTERS, STAR, TILE_LABELS, WILD
from vision.parts import letter_features
from vision.parts import letters as letters_module
from vision.parts.letter_features import INK_VIEW, TILE_VIEW
from vision.parts.letters import (
    CROP_SIDE,
    MAX_TURN_DEG,
    MIN_CONFIDENCE,
    LetterClassifier,
    SeenViews,
    seen_views,
    synthetic_crops,
)
from vision.parts.tiles import HELD_OUT_FONTS, REFERENCE_LOOK, TRAINING_FONTS, Font, draw_tile


@pytest.fixture(scope="module")
def classifier() -> LetterClassifier:
    return LetterClassifier.default()


def _labels(per_letter: int) -> list[str]:
    return [letter for _ in range(per_letter) for letter in LETTERS]


def _read(classifier: LetterClassifier, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    letters, confidences = classifier.classify(crops)
    return np.array(letters), confidences


# --- tiles -------------------------------------------------------------------------------------


@pytest.mark.parametrize("face", [label for label in TILE_LABELS if label])
def test_every_face_draws_an_opaque_shape_on_a_transparent_square(face: str) -> None:
    sprite = draw_tile(face, 40, TRAINING_FONTS[0])
    assert sprite.shape == (40, 40, 4)
    assert sprite.dtype == np.uint8
    assert sprite[0, 0, 3] == 0, "the corner lies outside the rounded tile and the round token"
    assert sprite[20, 20, 3] == 255


def test_alpha_is_the_shape_a_rounded_square_tile_or_a_round_token() -> None:
    tile_cover = (draw_tile("A", 64, TRAINING_FONTS[0])[..., 3] / 255).mean()
    star_cover = (draw_tile(STAR, 64, TRAINING_FONTS[0])[..., 3] / 255).mean()
    assert 0.95 < tile_cover < 1.0
    assert abs(star_cover - np.pi / 4) < 0.03


def test_a_letter_is_ink_on_the_face_and_a_wild_shows_the_back_without_ink() -> None:
    look = REFERENCE_LOOK
    letter = draw_tile("M", 64, TRAINING_FONTS[0]).astype(int)
    back = draw_tile(WILD, 64, TRAINING_FONTS[0]).astype(int)
    inside = letter[..., 3] == 255
    near_ink = np.abs(letter[..., :3] - look.ink).sum(axis=2) < 60
    near_face = np.abs(letter[..., :3] - look.face).sum(axis=2) < 30
    assert 0.08 < near_ink[inside].mean() < 0.4
    assert near_face[inside].mean() > 0.5
    back_ink = np.abs(back[..., :3] - look.ink).sum(axis=2) < 60
    assert not back_ink.any()
    assert np.median(back[back[..., 3] == 255][:, :3], axis=0).tolist() == list(look.back)


def test_sprites_are_cached_read_only_and_fonts_change_the_letter() -> None:
    first = draw_tile("R", 32, TRAINING_FONTS[0])
    assert draw_tile("R", 32, TRAINING_FONTS[0]) is first
    assert not first.flags.writeable
    assert not np.array_equal(first, draw_tile("R", 32, HELD_OUT_FONTS[1]))


@pytest.mark.parametrize("face", ["a", "", "blank", "AB"])
def test_an_unknown_face_is_a_value_error_naming_it(face: str) -> None:
    with pytest.raises(ValueError, match="unknown tile face"):
        draw_tile(face, 32, TRAINING_FONTS[0])


def test_held_out_fonts_are_none_of_the_training_fonts() -> None:
    assert len(HELD_OUT_FONTS) >= 2
    assert not set(HELD_OUT_FONTS) & set(TRAINING_FONTS)
    assert all(not font.italic for font in TRAINING_FONTS)


# --- reading -----------------------------------------------------------------------------------


def test_a_letter_one_threshold_loses_is_found_relative_to_the_light_around_it() -> None:
    labels = _labels(20)
    rng_seed = 7000
    seen = synthetic_crops(labels, HELD_OUT_FONTS[:1], np.random.default_rng(rng_seed))
    clean = synthetic_crops(
        labels, HELD_OUT_FONTS[:1], np.random.default_rng(rng_seed), effects=None
    )
    clean_x, clean_y = letter_features.ink_centres(letter_features.normalised_grey(clean))
    grey = letter_features.normalised_grey(seen)
    _, _, mass = letter_features._ink_centres(grey, 0.15)
    lost = np.flatnonzero(mass < letter_features.LOST_INK)
    assert len(lost) >= 2, "this seed has crops whose letter the global threshold loses"
    found_x, found_y = letter_features.ink_centres(grey[lost])
    error = np.hypot(found_x - clean_x[lost], found_y - clean_y[lost])
    assert np.median(error) < 2.0, error


def test_held_out_fonts_unseen_seeds_read_right_and_confident_errors_are_rare(
    classifier: LetterClassifier,
) -> None:
    truth = np.array(_labels(12))
    crops = synthetic_crops(list(truth), HELD_OUT_FONTS, np.random.default_rng(901))
    letters, confidences = _read(classifier, crops)
    right = letters == truth
    committed = confidences >= MIN_CONFIDENCE
    assert right.mean() >= 0.97
    assert (~right & committed).sum() <= 2, "a wrong letter was read with full confidence"
    assert (right & committed).mean() >= 0.9


def test_crops_holding_no_letter_are_below_the_confidence_floor(
    classifier: LetterClassifier,
) -> None:
    rng = np.random.default_rng(902)
    blank = np.empty((4, CROP_SIDE, CROP_SIDE, 3), np.uint8)
    blank[:] = REFERENCE_LOOK.face
    skin = np.empty_like(blank)
    skin[:] = (125, 155, 205)
    skin = cv2.GaussianBlur(skin.reshape(-1, CROP_SIDE, 3), (0, 0), 3).reshape(skin.shape)
    noise = rng.integers(0, 256, (8, CROP_SIDE, CROP_SIDE, 3), dtype=np.uint8)
    cells = synthetic_crops(["", "", WILD, STAR] * 3, TRAINING_FONTS, rng)
    _, confidences = classifier.classify(np.concatenate((blank, skin, noise, cells)))
    assert confidences.max() < MIN_CONFIDENCE


def _turned(crops: np.ndarray, degrees: float, shift: tuple[float, float]) -> np.ndarray:
    centre = ((CROP_SIDE - 1) / 2, (CROP_SIDE - 1) / 2)
    matrix = cv2.getRotationMatrix2D(centre, degrees, 1.0)
    matrix[:, 2] += shift
    size = (CROP_SIDE, CROP_SIDE)
    return np.stack(
        [cv2.warpAffine(crop, matrix, size, borderMode=cv2.BORDER_REFLECT) for crop in crops]
    )


@pytest.mark.parametrize(("degrees", "shift"), [(20.0, (0.0, 0.0)), (-20.0, (3.0, -3.0))])
def test_tiles_turned_20_degrees_and_shifted_read_right(
    classifier: LetterClassifier, degrees: float, shift: tuple[float, float]
) -> None:
    upright = synthetic_crops(
        _labels(2), TRAINING_FONTS, np.random.default_rng(903), max_rotation_deg=0, max_shift=0
    )
    letters, _ = _read(classifier, _turned(upright, degrees, shift))
    assert (letters == np.array(_labels(2))).mean() >= 0.96


def test_tiles_lying_farther_off_the_grid_than_tiles_lie_are_doubtful_not_read(
    classifier: LetterClassifier,
) -> None:
    limits = classifier.turn_limits_deg()
    letters = [letter for letter in LETTERS if limits[letter] < 35.0]
    assert len(letters) >= 20, "most letters may be read surely only up to about 30 degrees"
    upright = synthetic_crops(
        letters * 3, TRAINING_FONTS, np.random.default_rng(911), max_rotation_deg=0, max_shift=0
    )
    _, at_20 = _read(classifier, _turned(upright, 20.0, (0.0, 0.0)))
    _, at_40 = _read(classifier, _turned(upright, 40.0, (0.0, 0.0)))
    assert (at_20 >= MIN_CONFIDENCE).mean() >= 0.85, "tiles lie up to 20 degrees off the grid"
    assert (at_40 >= MIN_CONFIDENCE).mean() <= 0.15, "40 degrees is a tile stood up wrong"


def test_turn_limits_are_learned_per_letter_and_wider_for_square_ish_letters(
    classifier: LetterClassifier,
) -> None:
    limits = classifier.turn_limits_deg()
    assert set(limits) == set(LETTERS)
    assert min(limits.values()) >= MAX_TURN_DEG
    assert limits["X"] > limits["A"] + 5, "an X is often stood up a few degrees off"


def test_two_views_reading_different_letters_surely_are_a_doubt_not_a_choice(
    classifier: LetterClassifier,
) -> None:
    es = seen_views(synthetic_crops(["E"] * 20, TRAINING_FONTS, np.random.default_rng(920)))
    fs = seen_views(synthetic_crops(["F"] * 20, TRAINING_FONTS, np.random.default_rng(921)))
    for views, letter in ((es, "E"), (fs, "F")):
        read, confidences = classifier.read_views(views)
        assert (np.array(read) == letter).all()
        assert (confidences >= MIN_CONFIDENCE).mean() >= 0.8
    contradicting = SeenViews(
        np.stack((es.features[:, INK_VIEW], fs.features[:, TILE_VIEW]), axis=1),
        np.stack((es.turns[:, INK_VIEW], fs.turns[:, TILE_VIEW]), axis=1),
    )
    read, confidences = classifier.read_views(contradicting)
    assert set(read) <= {"E", "F"}
    assert confidences.max() < MIN_CONFIDENCE, "an E in one view and an F in the other"


def test_confusable_pairs_are_learned_from_the_training_crops_and_few(
    classifier: LetterClassifier,
) -> None:
    pairs = classifier.confusable_pairs()
    assert {("O", "G"), ("G", "O")} <= set(pairs), "a heavy G blurs into an O"
    assert ("A", "X") not in pairs
    assert len(pairs) <= 12, "most pairs need only the usual gap"


def test_pair_checks_clear_most_of_the_letter_read_and_rarely_its_rival(
    classifier: LetterClassifier,
) -> None:
    checked = classifier.checked_pairs()
    assert set(checked) == set(classifier.confusable_pairs()), "every confusable pair is checked"
    cleared_read = {}
    for index, (read, rival) in enumerate(checked):
        rng = np.random.default_rng(940 + index)
        reads = seen_views(synthetic_crops([read] * 40, TRAINING_FONTS, rng))
        rival_crops = synthetic_crops([rival] * 100, TRAINING_FONTS, rng)
        rivals = seen_views(rival_crops)
        cleared_read[read, rival] = classifier.pair_check_clears(reads, read, rival).mean()
        rival_cleared = classifier.pair_check_clears(rivals, read, rival).mean()
        assert rival_cleared <= 0.02, f"{read} over {rival}: {rival_cleared:.1%} of views cleared"
        misread, confidences = _read(classifier, rival_crops)
        assert not ((misread == read) & (confidences >= MIN_CONFIDENCE)).any()
    assert cleared_read["Q", "O"] >= 0.8, "a Q's tail shows in most crops"
    assert cleared_read["O", "Q"] >= 0.8, "an O's ring without a tail shows in most crops"


def test_a_pair_without_a_check_clears_nothing(classifier: LetterClassifier) -> None:
    views = seen_views(synthetic_crops(["A"] * 4, TRAINING_FONTS, np.random.default_rng(950)))
    assert ("A", "X") not in classifier.checked_pairs()
    assert not classifier.pair_check_clears(views, "A", "X").any()


def test_most_os_are_read_surely_though_o_has_three_confusable_rivals(
    classifier: LetterClassifier,
) -> None:
    crops = synthetic_crops(["O"] * 150, TRAINING_FONTS, np.random.default_rng(951))
    read, confidences = _read(classifier, crops)
    sure = confidences >= MIN_CONFIDENCE
    assert (read[sure] == "O").all()
    assert sure.mean() >= 0.88, "with the wider gap over G, D and Q everywhere: 79%"


THIN_FONT = HELD_OUT_FONTS[0]
"""OpenCV's italic face in a light weight: the thinnest ink of any font, never trained on."""


def test_the_tile_face_centre_is_found_on_turned_and_shifted_tiles_of_a_thin_font() -> None:
    upright = synthetic_crops(
        _labels(2), [THIN_FONT], np.random.default_rng(907), max_rotation_deg=0, max_shift=0
    )
    shift = (4.0, -3.0)
    crops = _turned(upright, 20.0, shift)
    grey = letter_features.normalised_grey(crops)
    ink_x, ink_y = letter_features.ink_centres(grey)
    angle = letter_features.tile_rotation(grey, ink_x, ink_y)
    face_x, face_y = letter_features.tile_centres(grey, angle, ink_x, ink_y)
    error = np.hypot(face_x - shift[0], face_y - shift[1])
    assert np.median(error) <= 1.0, error
    assert np.percentile(error, 90) <= 2.0, error
    assert np.median(np.abs(np.degrees(angle) + 20.0)) <= 3.0, "turned 20 degrees anticlockwise"


def test_letter_views_see_each_crop_centred_on_its_ink_and_on_its_tile() -> None:
    crops = synthetic_crops(_labels(1), [THIN_FONT], np.random.default_rng(908))
    views = letter_features.letter_views(crops)
    assert views.shape == (len(crops), letter_features.VIEWS, letter_features.FEATURE_SIZE)
    assert views.dtype == np.float32
    assert not np.allclose(views[:, letter_features.INK_VIEW], views[:, letter_features.TILE_VIEW])
    assert letter_features.letter_views(crops[:0]).shape == (0, 2, letter_features.FEATURE_SIZE)


@pytest.mark.parametrize(("degrees", "shift"), [(20.0, (4.0, -3.0)), (-20.0, (-3.0, 4.0))])
def test_a_thin_held_out_font_turned_20_degrees_and_off_centre_is_read_and_never_sure_wrong(
    classifier: LetterClassifier, degrees: float, shift: tuple[float, float]
) -> None:
    upright = synthetic_crops(
        _labels(2), [THIN_FONT], np.random.default_rng(909), max_rotation_deg=0, max_shift=0
    )
    letters, confidences = _read(classifier, _turned(upright, degrees, shift))
    right = letters == np.array(_labels(2))
    assert right.mean() >= 0.96
    assert not (~right & (confidences >= MIN_CONFIDENCE)).any()


@pytest.mark.parametrize("blur", [3.0, 4.0])
def test_a_crop_blurred_past_reading_is_doubtful_not_wrong(
    classifier: LetterClassifier, blur: float
) -> None:
    truth = np.array(_labels(4))
    crops = synthetic_crops(list(truth), HELD_OUT_FONTS, np.random.default_rng(906))
    blurred = np.stack([cv2.GaussianBlur(crop, (0, 0), blur) for crop in crops])
    letters, confidences = _read(classifier, blurred)
    sure = confidences >= MIN_CONFIDENCE
    assert not (sure & (letters != truth)).any(), "a letter too blurred to read was read wrong"
    assert sure.mean() <= 0.15


def test_classify_refuses_crops_of_the_wrong_shape_and_reads_none(
    classifier: LetterClassifier,
) -> None:
    with pytest.raises(ValueError, match=r"crops must be uint8 of shape \(N, 48, 48, 3\)"):
        classifier.classify(np.zeros((2, 32, 32, 3), np.uint8))
    with pytest.raises(ValueError, match="float32"):
        classifier.classify(np.zeros((1, 48, 48, 3), np.float32))
    letters, confidences = classifier.classify(np.zeros((0, 48, 48, 3), np.uint8))
    assert letters == ()
    assert confidences.shape == (0,)
    assert confidences.dtype == np.float32


# --- teaching and storage ----------------------------------------------------------------------

OWNER_FONT = Font(cv2.FONT_HERSHEY_SCRIPT_COMPLEX, thickness=3.0, scale=1.3)
"""The owner's tiles: the italic face, larger and in a heavier weight than any font."""


@pytest.fixture(scope="module")
def taught(classifier: LetterClassifier) -> LetterClassifier:
    samples = synthetic_crops(_labels(3), [OWNER_FONT], np.random.default_rng(904))
    return classifier.teach(samples, _labels(3))


def test_teaching_the_owners_tiles_reads_them_better(
    classifier: LetterClassifier, taught: LetterClassifier
) -> None:
    truth = np.array(_labels(6))
    crops = synthetic_crops(list(truth), [OWNER_FONT], np.random.default_rng(905))
    before, before_confidence = _read(classifier, crops)
    after, after_confidence = _read(taught, crops)
    committed_before = ((before == truth) & (before_confidence >= MIN_CONFIDENCE)).mean()
    committed_after = ((after == truth) & (after_confidence >= MIN_CONFIDENCE)).mean()
    assert (after == truth).mean() >= (before == truth).mean()
    assert committed_after > committed_before + 0.05
    assert len(classifier.owner_samples()[1]) == 0, "teach returns a new classifier"


def test_pairs_of_taught_letters_are_judged_on_the_owners_tiles(
    classifier: LetterClassifier, taught: LetterClassifier
) -> None:
    assert ("G", "O") in classifier.confusable_pairs()
    assert ("G", "O") not in taught.confusable_pairs(), "the owner's G and O are plainly apart"
    assert ("O", "Q") in taught.confusable_pairs(), "but an O of theirs comes close to a Q"


def test_owner_samples_round_trip_through_a_json_ready_dict(taught: LetterClassifier) -> None:
    data = taught.to_dict()
    restored = LetterClassifier.from_dict(data)
    crops, letters = taught.owner_samples()
    again_crops, again_letters = restored.owner_samples()
    assert again_letters == letters == tuple(_labels(3))
    assert np.array_equal(again_crops, crops)
    probe = synthetic_crops(_labels(1), [OWNER_FONT], np.random.default_rng(906))
    assert restored.classify(probe)[0] == taught.classify(probe)[0]
    np.testing.assert_allclose(restored.classify(probe)[1], taught.classify(probe)[1], atol=1e-5)


def test_teaching_twice_keeps_the_first_samples(taught: LetterClassifier) -> None:
    more = synthetic_crops(["Q"], [OWNER_FONT], np.random.default_rng(907))
    twice = taught.teach(more, ["Q"])
    assert twice.owner_samples()[1] == (*_labels(3), "Q")


def _png(side: int) -> str:
    ok, encoded = cv2.imencode(".png", np.zeros((side, side, 3), np.uint8))
    assert ok
    return base64.b64encode(encoded).decode("ascii")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected a mapping with a list under 'samples'"),
        ({}, "expected a mapping with a list under 'samples'"),
        ({"samples": 3}, "expected a mapping with a list under 'samples'"),
        ({"samples": ["A"]}, "sample 0 is not a mapping"),
        ({"samples": [{"letter": "a", "png": _png(48)}]}, "letter 'a' is not one of A..Z"),
        ({"samples": [{"letter": "A"}]}, "'png' must be a base64 string"),
        ({"samples": [{"letter": "A", "png": "not base64!"}]}, "'png' is not base64"),
        ({"samples": [{"letter": "A", "png": "aGVsbG8="}]}, "decodes to nothing"),
        ({"samples": [{"letter": "A", "png": _png(32)}]}, "decodes to 32x32x3"),
    ],
)
def test_a_broken_samples_dict_is_a_value_error_saying_what_is_wrong(
    data: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        LetterClassifier.from_dict(data)  # type: ignore[arg-type]


def test_teach_refuses_letters_that_do_not_match_the_crops(classifier: LetterClassifier) -> None:
    crops = synthetic_crops(["A", "B"], TRAINING_FONTS, np.random.default_rng(908))
    with pytest.raises(ValueError, match="one letter per crop: 2 crops"):
        classifier.teach(crops, ["A"])
    with pytest.raises(ValueError, match="'wild' are not letters"):
        classifier.teach(crops, ["A", "wild"])


# --- the cached default ------------------------------------------------------------------------


def test_the_cached_default_reads_as_the_trained_one(
    classifier: LetterClassifier, tmp_path: Path
) -> None:
    path = tmp_path / "letters.npz"
    letters_module._save(classifier, path)
    restored = letters_module._loaded(path)
    assert restored is not None
    probe = synthetic_crops(_labels(1), HELD_OUT_FONTS, np.random.default_rng(909))
    assert restored.classify(probe)[0] == classifier.classify(probe)[0]
    np.testing.assert_allclose(
        restored.classify(probe)[1], classifier.classify(probe)[1], atol=1e-3
    )


def test_a_broken_cache_file_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "letters.npz"
    path.write_bytes(b"not an npz")
    assert letters_module._loaded(path) is None
    assert letters_module._loaded(tmp_path / "missing.npz") is None


def test_the_cache_is_keyed_by_the_training_recipe(monkeypatch: pytest.MonkeyPatch) -> None:
    first = letters_module.cache_path()
    assert letters_module.recipe_hash() in first.name
    monkeypatch.setattr(letters_module, "_RECIPE_MODULES", ("parts/letters",))
    assert letters_module.cache_path() != first
