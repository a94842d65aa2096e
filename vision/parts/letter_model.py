"""The letter model: a small convolutional network read through OpenCV's DNN module.

The parts reader cuts a 48 px crop of every face-up tile
(:func:`vision.parts.letter_crops.cut_crop`); the model reads it as one of 27
classes, "A".."Z" or :data:`NOT_A_LETTER` (an empty place, a face-down tile, a
star token, a finger, the edge of a tile on the next place), with calibrated
probabilities: the network's logits divided by a temperature fitted on fonts
the network was not trained on. No training library is needed here: the
network is ``letter_model.onnx`` beside this module, rebuilt by
``python -m training.letters.train`` (the ``train`` extra), which also writes
``letter_model.json`` (its checksum, temperature and validation figures).

>>> model = LetterModel.default()  # doctest: +SKIP
>>> probabilities = model.probabilities(crops)  # (N, 27)  # doctest: +SKIP
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.layout import LETTERS
from vision.parts.tiles import REFERENCE_LOOK, TileLook

NOT_A_LETTER = len(LETTERS)
"""The class of a crop that shows no letter."""
CLASSES = (*LETTERS, "")
"""Class names: the 26 letters, then "" for no letter."""
INPUT_SIDE = 32
"""The network reads grey crops of this many pixels square (the crop's middle, shrunk)."""
INPUT_REACH = 40
"""The middle this many pixels of the 48 px crop are read: the cell (32 px) and a margin that
holds a tile turned 20 degrees and off-centre."""
MODEL_PATH = Path(__file__).with_name("letter_model.onnx")
RECORD_PATH = Path(__file__).with_name("letter_model.json")
SURE = 0.97
"""A letter read with at least this probability is read surely (the reader's confidence floor
lands here); below it the place is doubtful and the commit decision weighs the probabilities."""


def model_input(crops: np.ndarray) -> np.ndarray:
    """The network's input (N, 1, 32, 32) float32 from crops (N, 48, 48, 3) BGR uint8.

    The crop's middle 40 px, grey, shrunk, then each crop standardised (zero mean, unit
    spread), so the face's colour and the light's level do not matter. Training calls this too.
    """
    crops = np.asarray(crops)
    margin = (crops.shape[1] - INPUT_REACH) // 2 if crops.ndim == 4 else 0
    out = np.empty((len(crops), 1, INPUT_SIDE, INPUT_SIDE), np.float32)
    for index, crop in enumerate(crops):
        middle = crop[margin : margin + INPUT_REACH, margin : margin + INPUT_REACH]
        grey = cv2.cvtColor(middle, cv2.COLOR_BGR2GRAY)
        out[index, 0] = cv2.resize(grey, (INPUT_SIDE, INPUT_SIDE), interpolation=cv2.INTER_AREA)
    mean = out.mean(axis=(1, 2, 3), keepdims=True)
    spread = out.std(axis=(1, 2, 3), keepdims=True)
    return (out - mean) / np.maximum(spread, 8.0)


@dataclass(frozen=True)
class ModelRecord:
    """What the training script recorded about the shipped model."""

    sha256: str
    temperature: float
    figures: dict

    @staticmethod
    def load(path: Path = RECORD_PATH) -> ModelRecord:
        data = json.loads(path.read_text())
        return ModelRecord(str(data["sha256"]), float(data["temperature"]), dict(data["figures"]))


def file_sha256(path: Path) -> str:
    """The hex SHA-256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


class LetterModel:
    """Calibrated class probabilities of tile crops from the shipped ONNX network."""

    min_confidence = SURE
    """The reader's confidence floor for this model's readings."""

    def __init__(self, onnx_path: Path = MODEL_PATH, temperature: float = 1.0) -> None:
        self._net = cv2.dnn.readNetFromONNX(str(onnx_path))
        self.temperature = float(temperature)

    @staticmethod
    @functools.cache
    def default() -> LetterModel:
        """The shipped model with its recorded temperature (loaded once per process)."""
        return LetterModel(MODEL_PATH, ModelRecord.load().temperature)

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """(N, 27) raw network outputs."""
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        self._net.setInput(model_input(crops))
        return np.asarray(self._net.forward(), np.float32).reshape(len(crops), len(CLASSES))

    def log_probabilities(self, crops: np.ndarray) -> np.ndarray:
        """(N, 27) calibrated log-probabilities (logits over the temperature, log-softmax)."""
        return _log_softmax(self.logits(crops).astype(np.float64) / self.temperature)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """(N, 27) calibrated probabilities of "A".."Z" and no letter."""
        return np.exp(self.log_probabilities(crops))

    def classify(self, crops: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
        """The likeliest letter of each crop and its probability ("" with confidence 0 when
        no letter is likelier than every letter)."""
        return _classified(self.probabilities(crops))

    def teach(self, crops: np.ndarray, letters: Sequence[str]) -> TaughtLetterModel:
        """This model adapted to the owner's tiles: ``crops`` (N, 48, 48, 3) of ``letters``."""
        return _taught(self, crops, letters)

    tiles: TileLook = REFERENCE_LOOK
    """The tiles' look the reader's colour vote expects (the shipped model: the reference set)."""

    def owner_samples(self) -> tuple[np.ndarray, tuple[str, ...]]:
        """No owner's crops: the shipped model was taught nothing."""
        return np.zeros((0, 48, 48, 3), np.uint8), ()

    def to_dict(self) -> dict[str, object]:
        """Nothing taught: ``{"samples": []}``."""
        return {"samples": []}


TEACH_COPIES = 12
"""Augmented copies (turns, shifts, scale, light, blur, noise, JPEG) made of each owner crop."""
TEACH_PRIOR = 0.05
"""Weight of the pull of the taught logit map towards leaving the model as it is (per entry,
against the mean cross-entropy of the owner's augmented crops)."""
TEACH_STEPS = 300


class TaughtLetterModel:
    """The letter model adapted to the owner's tiles (``cogtable calibrate cog --teach``).

    The network stays as shipped; its calibrated logits ``z`` go through a 27x27
    map ``z M^T + c`` fitted on the owner's crops (each augmented
    :data:`TEACH_COPIES` times), pulled towards the identity: the owner's J the
    network reads as I is moved to J, and no class the owner did not show is
    learned. The no-letter class's own logit is left as the network gives it.
    Saved as the owner's crops (:meth:`to_dict`, the same JSON as before); the map
    is fitted again on load, in well under a second.
    """

    min_confidence = SURE
    """The reader's confidence floor for this model's readings."""

    def __init__(
        self,
        base: LetterModel,
        crops: np.ndarray,
        letters: tuple[str, ...],
        matrix: np.ndarray,
        offset: np.ndarray,
    ) -> None:
        self.base = base
        self._crops = crops
        self._letters = letters
        self.matrix = matrix
        self.offset = offset
        self.tiles: TileLook = REFERENCE_LOOK
        """The owner's tile look (face, back, star token) learned with the letters."""

    def with_tiles(self, tiles: TileLook) -> TaughtLetterModel:
        """This taught model carrying the owner's tile look ``tiles``."""
        copy = TaughtLetterModel(self.base, self._crops, self._letters, self.matrix, self.offset)
        copy.tiles = tiles
        return copy

    def log_probabilities(self, crops: np.ndarray) -> np.ndarray:
        """(N, 27) calibrated log-probabilities through the owner's map."""
        scaled = self.base.logits(crops).astype(np.float64) / self.base.temperature
        return _log_softmax(scaled @ self.matrix.T + self.offset)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        return np.exp(self.log_probabilities(crops))

    def classify(self, crops: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
        """As :meth:`LetterModel.classify`, through the owner's map."""
        return _classified(self.probabilities(crops))

    def teach(self, crops: np.ndarray, letters: Sequence[str]) -> TaughtLetterModel:
        """This model taught more of the owner's crops (the earlier ones and the tiles kept)."""
        crops = np.concatenate((self._crops, crops))
        return _taught(self.base, crops, (*self._letters, *letters)).with_tiles(self.tiles)

    def owner_samples(self) -> tuple[np.ndarray, tuple[str, ...]]:
        """The owner's crops (N, 48, 48, 3) and their letters."""
        return self._crops.copy(), self._letters

    def to_dict(self) -> dict[str, object]:
        """The owner's samples and tile look, JSON-ready: ``{"samples": [{"letter", "png"},
        ...], "tiles": {"face": [b, g, r], ...}}``."""
        samples = []
        for crop, letter in zip(self._crops, self._letters, strict=True):
            ok, encoded = cv2.imencode(".png", crop)
            if not ok:
                raise ValueError("a taught crop could not be encoded as PNG")
            samples.append({"letter": letter, "png": base64.b64encode(encoded).decode("ascii")})
        return {"samples": samples, "tiles": tiles_to_dict(self.tiles)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> LetterModel | TaughtLetterModel:
        """The shipped model taught the samples of :meth:`to_dict` (ValueError if broken)."""
        from vision.parts.letters import _samples_from_dict

        crops, letters = _samples_from_dict(data)
        tiles = tiles_from_dict(data.get("tiles", {}))
        if not letters:
            return LetterModel.default()
        return LetterModel.default().teach(crops, letters).with_tiles(tiles)


TILE_COLOURS = ("face", "ink", "back", "back_line", "star", "star_mark")
"""The colours of a :class:`~vision.parts.tiles.TileLook` a taught file keeps."""


def tiles_to_dict(tiles: TileLook) -> dict[str, list[int]]:
    """A tile look's colours, JSON-ready (the unset line and star colours left out)."""
    colours = {name: getattr(tiles, name) for name in TILE_COLOURS}
    return {name: [int(v) for v in bgr] for name, bgr in colours.items() if bgr is not None}


def tiles_from_dict(data: object) -> TileLook:
    """The tile look of :func:`tiles_to_dict` (missing colours: the reference set's); ValueError
    for anything else."""
    if not isinstance(data, Mapping):
        raise ValueError("'tiles' must map colour names to [b, g, r]")
    unknown = sorted(set(data) - set(TILE_COLOURS))
    if unknown:
        raise ValueError(f"unknown tile colours {', '.join(map(repr, unknown))}")
    colours = {}
    for name, value in data.items():
        if (
            not isinstance(value, list)
            or len(value) != 3
            or not all(isinstance(v, int) for v in value)
        ):
            raise ValueError(f"tile colour {name!r} must be [b, g, r], not {value!r}")
        colours[name] = tuple(value)
    return replace(REFERENCE_LOOK, **colours)


def _log_softmax(values: np.ndarray) -> np.ndarray:
    shifted = values - values.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def _classified(probabilities: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
    best = np.argmax(probabilities, axis=1)
    letters = tuple(CLASSES[index] for index in best)
    sure = probabilities[np.arange(len(best)), best].astype(np.float32)
    return letters, np.where(best == NOT_A_LETTER, 0.0, sure).astype(np.float32)


def _taught(base: LetterModel, crops: np.ndarray, letters: Sequence[str]) -> TaughtLetterModel:
    """Fit the owner's logit map on ``crops`` of ``letters`` (ValueError for a bad letter)."""
    crops = np.ascontiguousarray(crops)
    if crops.ndim != 4 or crops.shape[1:] != (48, 48, 3) or crops.dtype != np.uint8:
        raise ValueError(f"crops must be uint8 of shape (N, 48, 48, 3), not {crops.shape}")
    if isinstance(letters, str) or len(letters) != len(crops):
        raise ValueError(f"teach needs one letter per crop: {len(crops)} crops")
    unknown = sorted({letter for letter in letters if letter not in LETTERS})
    if unknown:
        raise ValueError(f"teach: {', '.join(map(repr, unknown))} are not letters A..Z")
    labels = np.array([LETTERS.index(letter) for letter in letters])
    copies, copy_labels = _augmented(crops, labels, np.random.default_rng(len(labels)))
    scaled = base.logits(copies).astype(np.float64) / base.temperature
    matrix, offset = _fitted_map(scaled, copy_labels)
    return TaughtLetterModel(base, crops, tuple(letters), matrix, offset)


def _fitted_map(logits: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The map (M, c) minimising the mean cross-entropy of ``labels`` under ``logits M^T + c``
    plus TEACH_PRIOR * (|M - I|^2 + |c|^2), by gradient descent; the no-letter row stays."""
    classes = logits.shape[1]
    matrix, offset = np.eye(classes), np.zeros(classes)
    target = np.eye(classes)[labels]
    rate = 0.5
    for _ in range(TEACH_STEPS):
        probabilities = np.exp(_log_softmax(logits @ matrix.T + offset))
        error = (probabilities - target) / len(labels)
        grad_matrix = error.T @ logits + 2 * TEACH_PRIOR * (matrix - np.eye(classes))
        grad_offset = error.sum(axis=0) + 2 * TEACH_PRIOR * offset
        grad_matrix[NOT_A_LETTER], grad_offset[NOT_A_LETTER] = 0.0, 0.0
        matrix -= rate * grad_matrix / max(1.0, np.abs(logits).max())
        offset -= rate * grad_offset
    return matrix, offset


def _augmented(
    crops: np.ndarray, labels: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Every crop as taken plus copies turned, shifted, scaled and seen through a camera again."""
    from vision.parts.letter_crops import degraded
    from vision.parts.letters import TEACH_EFFECTS

    side = crops.shape[1]
    centre = ((side - 1) / 2, (side - 1) / 2)
    copies = [crops]
    for _ in range(TEACH_COPIES - 1):
        batch = np.empty_like(crops)
        for index, crop in enumerate(crops):
            turn = cv2.getRotationMatrix2D(centre, rng.uniform(-18, 18), rng.uniform(0.93, 1.07))
            turn[:, 2] += rng.uniform(-2.5, 2.5, 2)
            batch[index] = cv2.warpAffine(crop, turn, (side, side), borderMode=cv2.BORDER_REPLICATE)
        copies.append(degraded(batch, rng, TEACH_EFFECTS))
    return np.concatenate(copies), np.tile(labels, TEACH_COPIES)
