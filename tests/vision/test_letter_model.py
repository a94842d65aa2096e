"""The shipped letter model: read through OpenCV's DNN module, calibrated, and not stale."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from tests.system_tools import require_installed
from vision.layout import LETTERS
from vision.parts.letter_model import (
    CLASSES,
    MODEL_PATH,
    NOT_A_LETTER,
    SURE,
    LetterModel,
    ModelRecord,
    file_sha256,
)

DEVELOPMENT_FONT = Path("/usr/share/fonts/fonts-go/Go-Regular.ttf")
"""A development typeface (tuning and tests only: never trained on, never reserved)."""


@cache
def model() -> LetterModel:
    return LetterModel.default()


def development_font() -> Path:
    require_installed("development typeface", DEVELOPMENT_FONT.exists())
    return DEVELOPMENT_FONT


def test_the_shipped_model_is_small_and_is_the_one_the_training_script_recorded() -> None:
    record = ModelRecord.load()
    assert MODEL_PATH.stat().st_size < 1024 * 1024
    assert file_sha256(MODEL_PATH) == record.sha256, "letter_model.onnx is not what train.py wrote"
    assert 0.2 < record.temperature < 10
    validation = record.figures["validation_fonts"]
    assert validation["accuracy"] > 0.85  # the generator's crops include unreadable ones
    assert validation["ece"] < 0.05  # calibrated: confidence matches accuracy


def test_a_development_font_never_trained_on_is_read_mostly_right_and_rarely_surely_wrong() -> None:
    from training.letters.generate import sample
    from training.letters.tiles import Typeface

    typeface = Typeface(development_font())
    rng = np.random.default_rng(5_100)
    labels = np.tile(np.arange(len(LETTERS)), 6)
    crops = np.stack([sample(int(label), [typeface], rng) for label in labels])
    read, sure = model().classify(crops)
    right = np.array(read) == np.array([LETTERS[label] for label in labels])
    assert right.mean() >= 0.9, right.mean()
    assert ((sure >= SURE) & ~right).sum() <= 1
    assert (sure[right] >= SURE).mean() >= 0.6


def test_probabilities_are_27_classes_that_sum_to_one_and_no_letter_is_a_class() -> None:
    from training.letters.generate import sample
    from training.letters.tiles import Typeface

    typeface = Typeface(development_font())
    rng = np.random.default_rng(5_200)
    crops = np.stack([sample(NOT_A_LETTER, [typeface], rng) for _ in range(40)])
    probabilities = model().probabilities(crops)
    assert probabilities.shape == (40, len(CLASSES))
    assert np.allclose(probabilities.sum(axis=1), 1.0, atol=1e-5)
    letters, sure = model().classify(crops)
    assert sum(letter == "" for letter in letters) >= 30
    assert (sure >= SURE).sum() <= 1


def test_no_crops_read_as_nothing() -> None:
    assert model().probabilities(np.zeros((0, 48, 48, 3), np.uint8)).shape == (0, len(CLASSES))


def test_teaching_the_owners_tiles_reads_them_at_least_as_well_and_round_trips() -> None:
    from training.letters.generate import sample
    from training.letters.tiles import Typeface
    from vision.parts.letter_model import TaughtLetterModel

    typeface = Typeface(development_font())
    rng = np.random.default_rng(5_300)
    taught_crops = np.stack([sample(label, [typeface], rng) for label in range(len(LETTERS))])
    taught = model().teach(taught_crops, LETTERS)
    labels = np.tile(np.arange(len(LETTERS)), 4)
    fresh = np.stack([sample(int(label), [typeface], rng) for label in labels])
    truth = np.array([LETTERS[label] for label in labels])
    before, _ = model().classify(fresh)
    after, after_sure = taught.classify(fresh)
    right_before = (np.array(before) == truth).sum()
    right_after = (np.array(after) == truth).sum()
    assert right_after >= right_before - 2
    assert ((after_sure >= SURE) & (np.array(after) != truth)).sum() <= 1
    again = TaughtLetterModel.from_dict(taught.to_dict())
    assert again.owner_samples()[1] == tuple(LETTERS)
    assert np.allclose(again.probabilities(fresh[:5]), taught.probabilities(fresh[:5]), atol=1e-6)
    with pytest.raises(ValueError, match="not letters"):
        model().teach(taught_crops[:1], ["1"])
