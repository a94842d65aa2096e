"""Reads the letter on a face-up C.O.G. tile from a crop of a rectified place, with a confidence.

The part reader decides that a place holds a face-up tile and cuts a 48 px
crop centred on it (the cell spanning the central 32 px); this module says
which letter it is. Each crop is seen two ways (:mod:`vision.parts.letter_features`:
the letter centred on its ink and centred on its tile's face, each turned
upright, as gradient histograms), and two classifiers read each view:

- a quadratic discriminant (one Gaussian per letter in a 96-dimensional
  principal subspace) names the letter; its log-likelihood's lead over every
  other letter's is the evidence, a confusable rival's lead divided by
  :data:`PAIR_MARGIN_FACTOR` (pairs learned from where the training crops of
  one letter came close to another: a heavy G at low resolution reads O)
  unless that pair's own check clears the rival (a linear score fitted on the
  two letters' training crops alone, trusted only above the highest score a
  crop of the rival it was not fitted on reached: a Q's tail, an O's closed
  ring), when the usual lead is enough;
- a linear least-squares classifier over all features, with a 27th class for
  "no letter" (empty cells, face-down tiles, star tokens, blank or coloured
  crops, noise), checks it.

The view whose best letter is the more likely is read (a view cut badly, off
the letter or turned wrong, looks like no letter well). The confidence is high
only when the lead is wide, the crop lies within the spread of its letter's
training crops, the linear classifier agrees on that view, the view was turned
no farther than its letter's training crops were (at least :data:`MAX_TURN_DEG`:
farther, the tile was stood up by the wrong edges) and the other view does not
read another letter with any confidence (its confidence is taken away: the
ink's centre misfound cuts an E's foot and reads F surely, while the
face-centred view reads E surely). The caller commits a reading only when every
tile reaches :data:`MIN_CONFIDENCE`.

No model is stored: :meth:`LetterClassifier.default` trains on synthetic crops
(:func:`synthetic_crops`, fonts :data:`vision.parts.tiles.TRAINING_FONTS`) once per
process, in a few seconds; :meth:`LetterClassifier.teach` adds the owner's own
tiles, and :meth:`~LetterClassifier.to_dict` keeps them for a calibration file.

>>> classifier = LetterClassifier.default()  # doctest: +SKIP
>>> letters, confidences = classifier.classify(crops)  # doctest: +SKIP
"""

from __future__ import annotations

import base64
import copy
import functools
import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.layout import LETTERS, STAR, WILD
from vision.parts.letter_crops import (
    CELL_SIDE,
    CROP_SIDE,
    DEFAULT_EFFECTS,
    CameraEffects,
    degraded,
    synthetic_crops,
)
from vision.parts.letter_features import FEATURE_SIZE, VIEWS, SeenViews, seen_views
from vision.parts.tiles import TRAINING_FONTS

__all__ = [
    "CELL_SIDE",
    "CROP_SIDE",
    "DEFAULT_EFFECTS",
    "MAX_TURN_DEG",
    "MIN_CONFIDENCE",
    "PAIR_MARGIN_FACTOR",
    "CameraEffects",
    "LetterClassifier",
    "SeenViews",
    "seen_views",
    "synthetic_crops",
]

MIN_CONFIDENCE = 0.6
"""Commit a reading only when every tile's letter is at least this confident."""
CROPS_PER_LETTER = 300
"""Synthetic training crops per letter for the default classifier."""
TRAINING_SEED = 20260401
PRINCIPAL_DIMENSIONS = 96
SHARED_COVARIANCE = 0.3
"""Each letter's covariance is blended with the mean covariance by this share."""
RIDGE = 1.0
OWNER_WEIGHT = 8.0
"""One owner sample (each of its augmented copies) counts as this many synthetic crops."""
OWNER_COPIES = 12
"""Augmented copies (turns, shifts, scale, light, blur, noise) made of every owner sample."""
OWNER_MEAN_SHARE = 0.3
"""A taught letter's mean lies this share of the way from the training fonts' to the owner's."""
MARGIN_SCALE = 24.0
"""Log-likelihood gap at which the confidence from the gap reaches 1 - 1/e."""
LINEAR_MARGIN = 0.1
"""The linear classifier must prefer the letter by at least this score over its runner-up."""
DISTANCE_SLACK = 1.5
"""A crop farther than this times the 99.5th percentile of its letter's training crops'
distance is no letter this classifier knows."""
NO_LETTER = len(LETTERS)
"""The linear classifier's class for crops holding no letter."""
PAIR_CLOSENESS = 32.0
"""Letters a and b are a confusable pair when 1% of a's training crops were read as a by less
than this log-likelihood over b (trained here: O over G, D or Q; G over O; Q over O)."""
PAIR_MARGIN_FACTOR = 1.5
"""Reading b over a confusable rival a needs this many times the gap (a heavy G at low
resolution is a blob that reads O by a usual gap, in every view), unless the pair's check
clears a (:meth:`LetterClassifier.pair_check_clears`)."""
MAX_TURN_DEG = 30.0
"""A view turned farther than this (or than its letter's training crops were, if farther) to
stand its tile upright was stood up by the wrong edges (tiles lie at most 20 degrees off the
grid): a bold Y turned 57 degrees wrong reads A surely."""
TURN_SLACK = 1.1
"""A letter's turn limit is this times the 99.5th percentile of its training crops' turns."""


@dataclass(frozen=True)
class _Statistics:
    """Weighted sums the classifiers are built from (so owner samples can be added)."""

    mean: np.ndarray
    """Feature mean of the default training set (the centre of the principal subspace)."""
    basis: np.ndarray
    """(FEATURE_SIZE, PRINCIPAL_DIMENSIONS) principal directions of the default training set."""
    counts: np.ndarray
    """(26,) weighted count of crops per letter."""
    sums: np.ndarray
    """(26, k) weighted sums of the projected features per letter."""
    squares: np.ndarray
    """(26, k, k) weighted sums of outer products of the projected features per letter."""
    gram: np.ndarray
    """(FEATURE_SIZE + 1, FEATURE_SIZE + 1) weighted X^T X (features and a bias)."""
    targets: np.ndarray
    """(FEATURE_SIZE + 1, 27) weighted X^T Y (one-hot letter or no-letter, +-1)."""

    def adding(self, features: np.ndarray, labels: np.ndarray, weight: float) -> _Statistics:
        """These sums with ``features`` of ``labels`` (0..26) added at ``weight`` each."""
        counts, sums, squares = self.counts.copy(), self.sums.copy(), self.squares.copy()
        projected = (features - self.mean) @ self.basis
        for letter in np.unique(labels[labels < NO_LETTER]):
            rows = projected[labels == letter]
            counts[letter] += weight * len(rows)
            sums[letter] += weight * rows.sum(axis=0)
            squares[letter] += weight * rows.T @ rows
        design = _with_bias(features)
        gram = self.gram + weight * design.T @ design
        targets = self.targets + weight * design.T @ _signed_one_hot(labels)
        return _Statistics(self.mean, self.basis, counts, sums, squares, gram, targets)

    def adding_linear(self, features: np.ndarray, labels: np.ndarray, weight: float) -> _Statistics:
        """These sums with ``features`` added to the linear classifier's only, at ``weight``."""
        design = _with_bias(features)
        gram = self.gram + weight * design.T @ design
        targets = self.targets + weight * design.T @ _signed_one_hot(labels)
        return replace(self, gram=gram, targets=targets)

    def projected(self, features: np.ndarray) -> np.ndarray:
        """Features in the principal subspace."""
        return (features - self.mean) @ self.basis


@dataclass(frozen=True)
class _OwnerSums:
    """Sums of the owner's augmented samples in the principal subspace, per letter."""

    counts: np.ndarray
    """(26,) augmented copies per letter."""
    sums: np.ndarray
    """(26, k) sums of their projected features."""

    @staticmethod
    def of(projected: np.ndarray, labels: np.ndarray) -> _OwnerSums:
        counts = np.bincount(labels, minlength=26).astype(np.float64)
        sums = np.zeros((26, projected.shape[1]))
        np.add.at(sums, labels, projected.astype(np.float64))
        return _OwnerSums(counts, sums)


@dataclass(frozen=True)
class _Limits:
    """What the default training crops say about trusting a reading (cached with the sums)."""

    distances: np.ndarray
    """(26,) squared Mahalanobis distance beyond which a crop is no such letter."""
    pair_scales: np.ndarray
    """(26, 26): reading letter b over rival a needs ``pair_scales[b, a]`` times the gap."""
    turns: np.ndarray
    """(26,) radians: a view read as the letter and turned farther was stood up wrong."""
    pair_letters: np.ndarray
    """(P, 2) the confusable pairs (letter read b, rival a) that have a pair check."""
    pair_weights: np.ndarray
    """(P, FEATURE_SIZE + 1) each pair check's linear score (features and a bias): b's side
    positive (:func:`_pair_checks`)."""
    pair_thresholds: np.ndarray
    """(P,) a score this high was never reached by a crop of the rival a: reading b over a
    then needs only the usual gap."""

    @staticmethod
    def unlearned() -> _Limits:
        """No distance limit, every pair at the usual gap, turns up to :data:`MAX_TURN_DEG`."""
        return _Limits(
            np.full(26, np.inf),
            np.ones((26, 26), np.float32),
            np.full(26, np.radians(MAX_TURN_DEG), np.float32),
            np.zeros((0, 2), np.intp),
            np.zeros((0, FEATURE_SIZE + 1), np.float32),
            np.zeros(0, np.float32),
        )

    def pair_scales_of(self, features: np.ndarray, best: np.ndarray) -> np.ndarray:
        """(N, 26) the scale of every rival's gap for rows ``features`` read as ``best``: the
        learned pair scale, but the usual gap where the pair's check clears the rival."""
        scales = self.pair_scales[best]
        if len(self.pair_letters) == 0:
            return scales
        cleared = self.cleared(features)
        for index, (read, rival) in enumerate(self.pair_letters):
            scales[(best == read) & cleared[:, index], rival] = 1.0
        return scales

    def cleared(self, features: np.ndarray) -> np.ndarray:
        """(N, P) bool: where each pair check says a row is plainly not the pair's rival."""
        return _with_bias(features) @ self.pair_weights.T >= self.pair_thresholds

    def with_pair_scales(self, pair_scales: np.ndarray) -> _Limits:
        """These limits with other pair scales (a taught classifier's)."""
        return replace(self, pair_scales=pair_scales)


@dataclass(frozen=True)
class _Model:
    """The two classifiers, solved from :class:`_Statistics`."""

    means: np.ndarray
    """(26, k) letter means in the principal subspace."""
    whitening: np.ndarray
    """(26, k, k): ``(z - mean) @ whitening[c]`` has unit covariance for letter c."""
    log_determinants: np.ndarray
    weights: np.ndarray
    """(FEATURE_SIZE + 1, 27) linear classifier."""
    limits: _Limits
    """When a reading is trusted."""

    @functools.cached_property
    def stacked_whitening(self) -> np.ndarray:
        """(k, 26 * k): every letter's whitening side by side."""
        dimensions = self.means.shape[1]
        return np.ascontiguousarray(self.whitening.transpose(1, 0, 2).reshape(dimensions, -1))

    @functools.cached_property
    def whitened_means(self) -> np.ndarray:
        """(26, k): each letter's mean through its own whitening."""
        return np.einsum("ck,ckj->cj", self.means, self.whitening)


class LetterClassifier:
    """Names the letter on face-up tile crops (N, 48, 48, 3) with an honest confidence."""

    min_confidence = MIN_CONFIDENCE
    """The reader's confidence floor for this classifier's readings."""

    def __init__(
        self,
        statistics: _Statistics,
        owner_crops: np.ndarray | None = None,
        owner_letters: Sequence[str] = (),
        limits: _Limits | None = None,
        owner: _OwnerSums | None = None,
    ) -> None:
        """Build from weighted sums (use :meth:`default`, :meth:`teach` or :meth:`from_dict`)."""
        self._statistics = statistics
        self._owner_crops = (
            np.zeros((0, CROP_SIDE, CROP_SIDE, 3), np.uint8) if owner_crops is None else owner_crops
        )
        self._owner_letters = tuple(owner_letters)
        self._limits = _Limits.unlearned() if limits is None else limits
        self._model = _solve(statistics, owner, self._limits)

    @staticmethod
    @functools.cache
    def default() -> LetterClassifier:
        """The classifier trained on synthetic crops of the training fonts (once per process).

        The trained arrays are cached in the user's cache folder under a hash of the
        training recipe (:func:`recipe_hash`), so only the first process trains.
        """
        path = cache_path()
        cached = _loaded(path)
        if cached is not None:
            return cached
        classifier = _train_default()
        _save(classifier, path)
        return classifier

    def classify(self, crops: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
        """The letters ("A".."Z") on ``crops`` (N, 48, 48, 3) BGR uint8 and confidences in [0, 1].

        A crop holding no letter gets some letter with a low confidence.
        """
        crops = _checked_crops(crops)
        if len(crops) == 0:
            return (), np.zeros(0, np.float32)
        return self.read_views(seen_views(crops))

    def read_views(self, views: SeenViews) -> tuple[tuple[str, ...], np.ndarray]:
        """The letters and confidences of crops from their views (:func:`seen_views`).

        The more likely view is read; a view reading another letter takes its
        own confidence away from it (two views that each see a different letter
        surely are a doubt, not a choice).
        """
        best, confidence = self._read(views)
        return tuple(LETTERS[index] for index in best), confidence

    def confusable_pairs(self) -> tuple[tuple[str, str], ...]:
        """(letter read, rival) pairs whose reading needs :data:`PAIR_MARGIN_FACTOR` times the
        usual gap where their check does not clear the rival: learned from the training crops,
        and for taught letters from the owner's."""
        rows, columns = np.nonzero(self._limits.pair_scales > 1.0)
        return tuple((LETTERS[b], LETTERS[a]) for b, a in zip(rows, columns, strict=True))

    def checked_pairs(self) -> tuple[tuple[str, str], ...]:
        """The confusable (letter read, rival) pairs that have a pair check: a view whose
        check clears the rival needs only the usual gap over it (:meth:`pair_check_clears`)."""
        return tuple((LETTERS[b], LETTERS[a]) for b, a in self._limits.pair_letters)

    def pair_check_clears(self, views: SeenViews, read: str, rival: str) -> np.ndarray:
        """(N, VIEWS) bool: where the check of the pair (``read``, ``rival``) says a view is
        plainly no ``rival`` (False everywhere for a pair without a check)."""
        features = views.features.reshape(-1, FEATURE_SIZE)
        pairs = self.checked_pairs()
        if (read, rival) not in pairs:
            return np.zeros((len(views.features), VIEWS), bool)
        cleared = self._limits.cleared(features)[:, pairs.index((read, rival))]
        return cleared.reshape(-1, VIEWS)

    def turn_limits_deg(self) -> dict[str, float]:
        """Per letter, the farthest turn (degrees) of a view that may be read surely as it."""
        return {
            letter: float(np.degrees(limit))
            for letter, limit in zip(LETTERS, self._limits.turns, strict=True)
        }

    def _read(self, views: SeenViews) -> tuple[np.ndarray, np.ndarray]:
        """Best letter index and confidence of each crop from both its views."""
        count = len(views.features)
        seen = _ViewReadings.of(
            self._model,
            self._statistics,
            views.features.reshape(count * VIEWS, -1),
            views.turns.reshape(-1),
        ).per_crop(count)
        view_confidence = seen.confidences()
        rows = np.arange(count)
        chosen = np.argmax(seen.likelihood, axis=1)
        best = seen.best[rows, chosen]
        rival = np.where(seen.best != best[:, None], view_confidence, 0.0).max(axis=1)
        confidence = view_confidence[rows, chosen] * (1.0 - rival)
        return best, confidence.astype(np.float32)

    def teach(self, crops: np.ndarray, letters: Sequence[str]) -> LetterClassifier:
        """A new classifier that also learned these crops of the owner's tiles.

        Each crop is augmented (small turns and shifts) and weighted so that a
        few samples per letter count against the synthetic training set.
        """
        crops = _checked_crops(crops)
        labels = _letter_labels(letters, len(crops))
        all_crops = np.concatenate((self._owner_crops, crops))
        all_letters = (*self._owner_letters, *(LETTERS[label] for label in labels))
        return _taught(
            self._base_statistics(),
            self._limits,
            all_crops,
            all_letters,
        )

    def _base_statistics(self) -> _Statistics:
        return self._default_statistics if self._owner_letters else self._statistics

    @property
    def _default_statistics(self) -> _Statistics:
        return LetterClassifier.default()._statistics

    def _judging_owner_pairs(self, features: np.ndarray, labels: np.ndarray) -> LetterClassifier:
        """This classifier with the pairs of taught letters judged confusable or not by the
        owner's own (augmented) tiles, ``features`` their training rows, ``labels`` their letters.

        The owner's tiles are printed in one font: an O and a Q the training fonts may blur
        together can be plainly apart in it (then reading one over the other needs the usual
        gap), and letters apart in every training font can come close in it (then it needs
        :data:`PAIR_MARGIN_FACTOR` times the gap).
        """
        scores, _ = _quadratic_scores(self._model, self._statistics, features)
        closest = _closest_gaps(_read_view_scores(scores), labels)
        taught = np.bincount(labels, minlength=26) > 0
        judged = taught[:, None] & taught[None, :]
        scales = np.where(judged, _scales_of(closest), self._limits.pair_scales)
        twin = copy.copy(self)
        twin._limits = self._limits.with_pair_scales(scales.astype(np.float32))
        twin._model = replace(self._model, limits=twin._limits)
        return twin

    def owner_samples(self) -> tuple[np.ndarray, tuple[str, ...]]:
        """The owner's crops (N, 48, 48, 3) this classifier was taught and their letters."""
        return self._owner_crops.copy(), self._owner_letters

    def to_dict(self) -> dict[str, object]:
        """The owner's samples, JSON-ready: ``{"samples": [{"letter", "png"}, ...]}``."""
        samples = []
        for crop, letter in zip(self._owner_crops, self._owner_letters, strict=True):
            ok, encoded = cv2.imencode(".png", crop)
            if not ok:
                raise ValueError("a taught crop could not be encoded as PNG")
            samples.append({"letter": letter, "png": base64.b64encode(encoded).decode("ascii")})
        return {"samples": samples}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> LetterClassifier:
        """The default classifier taught the samples of :meth:`to_dict` (ValueError if broken)."""
        crops, letters = _samples_from_dict(data)
        default = cls.default()
        if not letters:
            return default
        return default.teach(crops, letters)


def _taught(
    base: _Statistics,
    limits: _Limits,
    crops: np.ndarray,
    letters: Sequence[str],
) -> LetterClassifier:
    labels = np.array([LETTERS.index(letter) for letter in letters])
    copies, copy_labels = _augmented(crops, labels, np.random.default_rng(len(labels)))
    features, copy_labels, _turns = _training_rows(copies, copy_labels)
    statistics = base.adding_linear(features, copy_labels, OWNER_WEIGHT)
    owner = _OwnerSums.of(base.projected(features), copy_labels)
    taught = LetterClassifier(statistics, crops, letters, limits, owner)
    return taught._judging_owner_pairs(features, copy_labels[::VIEWS])


def _augmented(
    crops: np.ndarray, labels: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Every crop as taken plus copies turned, shifted, scaled and seen through a camera again."""
    copies = [crops]
    centre = ((CROP_SIDE - 1) / 2, (CROP_SIDE - 1) / 2)
    for _ in range(OWNER_COPIES - 1):
        batch = np.empty_like(crops)
        for index, crop in enumerate(crops):
            turn = cv2.getRotationMatrix2D(centre, rng.uniform(-15, 15), rng.uniform(0.94, 1.06))
            turn[:, 2] += rng.uniform(-2, 2, 2)
            batch[index] = cv2.warpAffine(
                crop, turn, (CROP_SIDE, CROP_SIDE), borderMode=cv2.BORDER_REPLICATE
            )
        copies.append(degraded(batch, rng, TEACH_EFFECTS))
    return np.concatenate(copies), np.tile(labels, OWNER_COPIES)


TEACH_EFFECTS = CameraEffects(
    brightness=(0.8, 1.15),
    gradient=0.2,
    cast=0.08,
    shadow_chance=0.1,
    low_resolution_chance=0.2,
    low_resolution=(0.8, 0.95),
    blur_chance=0.5,
    blur_sigma=(0.3, 0.8),
    noise_sigma=(0.0, 4.0),
    jpeg_chance=0.5,
    jpeg_quality=(60, 95),
)
"""Milder camera effects laid again over the owner's (already photographed) samples."""


def _train_default() -> LetterClassifier:
    """Synthetic crops of every letter (and of no letter) -> the default classifier."""
    rng = np.random.default_rng(TRAINING_SEED)
    labels = np.tile(np.arange(len(LETTERS)), CROPS_PER_LETTER)
    crops = synthetic_crops(
        [LETTERS[label] for label in labels],
        TRAINING_FONTS,
        rng,
        max_shear=0.15,
        italic_chance=0.5,
    )
    features, row_labels, turns = _training_rows(crops, labels)
    others, _, _ = _training_rows(_no_letter_crops(len(crops) // 6, rng), np.zeros(0, np.intp))
    statistics = _statistics(features, row_labels, others, rng)
    reference = LetterClassifier(statistics)._model
    limits = _learned_limits(reference, statistics, features, turns, labels)
    return LetterClassifier(statistics, limits=limits)


def _learned_limits(
    model: _Model,
    statistics: _Statistics,
    features: np.ndarray,
    turns: np.ndarray,
    labels: np.ndarray,
) -> _Limits:
    """When to trust a reading, from the training rows: ``features`` (each crop's views
    in turn), their ``turns`` and the crops' letters ``labels``.

    Everything is taken in the view the reader would read (the more letter-like
    one): the other view, often cut badly, would widen the limits.

    The distance limit is DISTANCE_SLACK times the 99.5th percentile of each letter's
    training crops' distances; the turn limit TURN_SLACK times that of their turns, and
    at least MAX_TURN_DEG (an X or a Z, square-ish, is often stood up a few degrees off).
    Reading b over a needs PAIR_MARGIN_FACTOR times the usual gap where a's training
    crops came close to b (:data:`PAIR_CLOSENESS`).
    """
    scores, distances = _quadratic_scores(model, statistics, features)
    crops, rows = len(labels), np.arange(len(labels))
    read_view = _read_views(scores)
    read = distances.reshape(crops, VIEWS, -1)[rows, read_view]
    read_turns = np.abs(turns.reshape(crops, VIEWS)[rows, read_view])
    distance_limits = [np.quantile(read[labels == letter, letter], 0.995) for letter in range(26)]
    turn_limits = [np.quantile(read_turns[labels == letter], 0.995) for letter in range(26)]
    pair_scales = _scales_of(_closest_gaps(_read_view_scores(scores), labels))
    pair_letters = np.argwhere(pair_scales > 1.0)
    pair_weights, pair_thresholds = _pair_checks(features, labels, pair_letters)
    return _Limits(
        np.array(distance_limits) * DISTANCE_SLACK,
        pair_scales.astype(np.float32),
        np.maximum(np.array(turn_limits) * TURN_SLACK, np.radians(MAX_TURN_DEG)).astype(np.float32),
        pair_letters,
        pair_weights,
        pair_thresholds,
    )


PAIR_CHECK_RIDGE = 1.0
"""Ridge of each pair check's least-squares fit."""
PAIR_CHECK_SLACK = 0.3
"""A pair check clears the rival only this far (score units: the two letters' targets are
2 apart) above the highest score a held-back crop of the rival reached (fresh crops of the
rival reach past that highest score in about 0.5% of views)."""


def _pair_checks(
    features: np.ndarray, labels: np.ndarray, pairs: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """A linear check per confusable pair (b, a) and the score that clears the rival a.

    Each check is a ridge least-squares fit, b's rows (both views) +1 and a's -1, on
    the even training crops; its threshold is the highest score any odd crop of a
    reached in either view (fitted and judged on different crops, so the threshold
    is not the fit's own optimism). A crop read as b scoring above it needs only the
    usual gap over a: G and O are apart where a G's bar shows, and a blob stays doubtful.
    """
    crop_labels = np.repeat(labels, VIEWS)
    fitting = np.repeat(_alternate_of_each_letter(labels), VIEWS)
    weights = np.zeros((len(pairs), FEATURE_SIZE + 1), np.float32)
    thresholds = np.full(len(pairs), np.inf, np.float32)
    for index, (read, rival) in enumerate(pairs):
        chosen = fitting & ((crop_labels == read) | (crop_labels == rival))
        design = _with_bias(features[chosen]).astype(np.float64)
        target = np.where(crop_labels[chosen] == read, 1.0, -1.0)
        kernel = design @ design.T + PAIR_CHECK_RIDGE * np.eye(len(design))
        weights[index] = design.T @ np.linalg.solve(kernel, target)
        judged = ~fitting & (crop_labels == rival)
        rival_scores = _with_bias(features[judged]) @ weights[index]
        thresholds[index] = rival_scores.max() + PAIR_CHECK_SLACK
    return weights, thresholds


def _alternate_of_each_letter(labels: np.ndarray) -> np.ndarray:
    """(N,) True for the first, third, fifth... crop of each letter in ``labels``."""
    chosen = np.zeros(len(labels), bool)
    for letter in np.unique(labels):
        chosen[np.flatnonzero(labels == letter)[::2]] = True
    return chosen


def _read_views(scores: np.ndarray) -> np.ndarray:
    """(N,) the view the reader reads of each crop, from its rows' scores (N * VIEWS, 26)."""
    return np.argmax(scores.max(axis=1).reshape(-1, VIEWS), axis=1)


def _read_view_scores(scores: np.ndarray) -> np.ndarray:
    """(N, 26) the scores of each crop's read view, from its rows' scores (N * VIEWS, 26)."""
    per_crop = scores.reshape(-1, VIEWS, scores.shape[1])
    return per_crop[np.arange(len(per_crop)), _read_views(scores)]


def _closest_gaps(scores: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(26, 26): how close (1st percentile of the log-likelihood gap) crops of letter a (row)
    came to being read as b (column); infinite where a has no crops and on the diagonal."""
    gaps = scores[np.arange(len(labels)), labels][:, None] - scores
    closest = np.full((26, 26), np.inf)
    for letter in np.unique(labels):
        closest[letter] = np.quantile(gaps[labels == letter], 0.01, axis=0)
    np.fill_diagonal(closest, np.inf)
    return closest


def _scales_of(closest: np.ndarray) -> np.ndarray:
    """(26, 26) pair scales: reading b (row) over a (column) needs PAIR_MARGIN_FACTOR times
    the gap where a's crops came within PAIR_CLOSENESS of b."""
    return np.where(closest.T < PAIR_CLOSENESS, PAIR_MARGIN_FACTOR, 1.0)


def _training_rows(
    crops: np.ndarray, labels: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both views of every crop as rows (N * VIEWS, features), each with its crop's label,
    and the turn (N * VIEWS,) each view was taken at."""
    views = seen_views(crops)
    features = views.features.reshape(len(crops) * VIEWS, FEATURE_SIZE)
    return features, np.repeat(labels, VIEWS), views.turns.reshape(-1)


_RECIPE_MODULES = (
    "parts/letters",
    "parts/letter_features",
    "parts/letter_crops",
    "parts/tiles",
    "layout",
)
"""The modules whose source makes the default classifier (with the numpy and OpenCV versions)."""


def recipe_hash() -> str:
    """A hash of everything the default classifier is trained from: its code and libraries."""
    digest = hashlib.sha256(f"{np.__version__} {cv2.__version__}".encode())
    for module in _RECIPE_MODULES:
        digest.update((Path(__file__).parents[1] / f"{module}.py").read_bytes())
    return digest.hexdigest()[:20]


def cache_path() -> Path:
    """Where the default classifier's arrays are cached ($XDG_CACHE_HOME or ~/.cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cogtable" / f"letters-{recipe_hash()}.npz"


def _save(classifier: LetterClassifier, path: Path) -> None:
    """Write the default classifier's arrays to ``path`` (atomically; quietly not if unwritable)."""
    statistics = classifier._statistics
    arrays = {field: getattr(statistics, field) for field in _Statistics.__dataclass_fields__}
    arrays["gram"] = statistics.gram.astype(np.float32)  # half the file; the ridge hides the rest
    for field in _Limits.__dataclass_fields__:
        arrays[f"limit_{field}"] = getattr(classifier._limits, field)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        with temporary.open("wb") as file:
            np.savez(file, **arrays)
        os.replace(temporary, path)
        for stale in path.parent.glob("letters-*.npz"):
            if stale != path:
                stale.unlink(missing_ok=True)
    except OSError:
        return


def _loaded(path: Path) -> LetterClassifier | None:
    """The classifier cached at ``path``, or None if there is none or it is unreadable."""
    try:
        with np.load(path) as arrays:
            fields = {field: arrays[field] for field in _Statistics.__dataclass_fields__}
            fields["gram"] = fields["gram"].astype(np.float64)
            limits = _Limits(
                **{name: arrays[f"limit_{name}"] for name in _Limits.__dataclass_fields__}
            )
    except (OSError, KeyError, ValueError, EOFError):
        return None
    return LetterClassifier(_Statistics(**fields), limits=limits)


def _principal_directions(
    centred: np.ndarray, dimensions: int, rng: np.random.Generator
) -> np.ndarray:
    """The leading principal directions (FEATURE_SIZE, dimensions) by a randomised range finder.

    Two passes of power iteration over a random subspace 32 dimensions wider;
    far cheaper than an eigendecomposition of the full covariance.
    """
    sample = centred[:: max(1, len(centred) // 4000)].astype(np.float32)
    probe = rng.standard_normal((sample.shape[1], dimensions + 32)).astype(np.float32)
    for _ in range(2):
        range_basis, _ = np.linalg.qr(sample @ probe)
        probe, _ = np.linalg.qr(sample.T @ range_basis)
    small = sample @ probe
    _, _, right = np.linalg.svd(small, full_matrices=False)
    return np.ascontiguousarray(probe @ right[:dimensions].T).astype(np.float32)


def _statistics(
    features: np.ndarray, labels: np.ndarray, others: np.ndarray, rng: np.random.Generator
) -> _Statistics:
    """The sums of the default training set: principal subspace, letter moments, X^T X."""
    mean = features.mean(axis=0)
    basis = _principal_directions(features - mean, PRINCIPAL_DIMENSIONS, rng)
    dimensions = basis.shape[1]
    empty = _Statistics(
        mean.astype(np.float32),
        basis,
        np.zeros(26),
        np.zeros((26, dimensions)),
        np.zeros((26, dimensions, dimensions)),
        np.zeros((FEATURE_SIZE + 1, FEATURE_SIZE + 1)),
        np.zeros((FEATURE_SIZE + 1, len(LETTERS) + 1)),
    )
    all_features = np.concatenate((features, others))
    all_labels = np.concatenate((labels, np.full(len(others), NO_LETTER)))
    return empty.adding(all_features, all_labels, 1.0)


def _no_letter_crops(count: int, rng: np.random.Generator) -> np.ndarray:
    """Crops the part reader might pass by mistake: empty cells, backs, stars, blanks, noise."""
    faces = [("", WILD, STAR)[index % 3] for index in range(count // 2)]
    placed = synthetic_crops(faces, TRAINING_FONTS, rng)
    rest = count - len(placed)
    noise = rng.integers(0, 256, (rest, CROP_SIDE, CROP_SIDE, 3), dtype=np.uint8)
    smooth = rest // 2
    for index in range(smooth):
        colour = rng.integers(30, 256, 3)
        shade = cv2.GaussianBlur(noise[index].astype(np.float32), (0, 0), rng.uniform(2, 8))
        noise[index] = np.clip(colour * (0.6 + shade / 400), 0, 255).astype(np.uint8)
    return np.concatenate((placed, noise))


def _solve(
    statistics: _Statistics,
    owner: _OwnerSums | None,
    limits: _Limits,
) -> _Model:
    """Letter Gaussians (blended covariances) and the ridge classifier from the sums.

    A letter the owner taught is centred partly on the owner's samples (their tiles
    are printed in one font); its spread stays the training fonts' (a few augmented
    samples understate how a tile varies under the camera).
    """
    counts = np.maximum(statistics.counts, 1.0)
    means = statistics.sums / counts[:, None]
    covariances = statistics.squares / counts[:, None, None] - means[:, :, None] * means[:, None, :]
    shared = covariances.mean(axis=0)
    if owner is not None:
        means, covariances = _owner_centred(means, covariances, owner)
    dimensions = means.shape[1]
    blended = (1 - SHARED_COVARIANCE) * covariances + SHARED_COVARIANCE * shared
    blended += 1e-4 * np.eye(dimensions)
    cholesky = np.linalg.cholesky(blended)
    whitening = np.linalg.inv(cholesky).transpose(0, 2, 1)
    log_determinants = 2 * np.log(np.diagonal(cholesky, axis1=1, axis2=2)).sum(axis=1)
    regulariser = RIDGE * np.eye(len(statistics.gram))
    weights = np.linalg.solve(statistics.gram + regulariser, statistics.targets)
    return _Model(
        means.astype(np.float32),
        whitening.astype(np.float32),
        log_determinants,
        weights.astype(np.float32),
        limits,
    )


def _owner_centred(
    means: np.ndarray, covariances: np.ndarray, owner: _OwnerSums
) -> tuple[np.ndarray, np.ndarray]:
    """Taught letters' means moved towards the owner's samples (covariances kept)."""
    counts = np.maximum(owner.counts, 1.0)[:, None]
    moved = (1 - OWNER_MEAN_SHARE) * means + OWNER_MEAN_SHARE * owner.sums / counts
    return np.where(owner.counts[:, None] > 0, moved, means), covariances


@dataclass(frozen=True)
class _ViewReadings:
    """What the classifiers make of each row of features (one view of one crop)."""

    best: np.ndarray
    """The most likely letter (index)."""
    likelihood: np.ndarray
    """Its log-likelihood (up to a constant shared by all rows)."""
    margin: np.ndarray
    """Its log-likelihood's least lead over any other letter's, each lead divided by that
    pair's scale (a confusable rival needs a wider lead)."""
    linear_agrees: np.ndarray
    """The linear classifier prefers the same letter by at least LINEAR_MARGIN."""
    within: np.ndarray
    """The row lies within the spread of that letter's training crops."""
    upright: np.ndarray
    """The view was turned no farther than that letter's training crops were (and than
    :data:`MAX_TURN_DEG`): a plausible stand-up."""

    @staticmethod
    def of(
        model: _Model, statistics: _Statistics, features: np.ndarray, turns: np.ndarray
    ) -> _ViewReadings:
        """What the classifiers make of ``features`` (rows), taken at ``turns`` (radians)."""
        scores, distances = _quadratic_scores(model, statistics, features)
        rows = np.arange(len(features))
        best = np.argmax(scores, axis=1)
        leads = (scores[rows, best][:, None] - scores) / model.limits.pair_scales_of(features, best)
        leads[rows, best] = np.inf
        linear = _with_bias(features) @ model.weights
        linear_order = np.argsort(linear, axis=1)
        linear_gap = linear[rows, linear_order[:, -1]] - linear[rows, linear_order[:, -2]]
        return _ViewReadings(
            best=best,
            likelihood=scores[rows, best],
            margin=leads.min(axis=1),
            linear_agrees=(linear_order[:, -1] == best) & (linear_gap >= LINEAR_MARGIN),
            within=distances[rows, best] <= model.limits.distances[best],
            upright=np.abs(turns) <= model.limits.turns[best],
        )

    def confidences(self) -> np.ndarray:
        """Each row's confidence in its best letter, in [0, 1]: the gap's, if every check holds."""
        sureness = 1.0 - np.exp(-self.margin / MARGIN_SCALE)
        return sureness * (self.linear_agrees & self.within & self.upright)

    def per_crop(self, count: int) -> _ViewReadings:
        """Every field reshaped (count, VIEWS): rows of one crop's views side by side."""
        return _ViewReadings(
            **{
                name: getattr(self, name).reshape(count, VIEWS)
                for name in self.__dataclass_fields__
            }
        )


def _distances(model: _Model, projected: np.ndarray) -> np.ndarray:
    """(N, 26) squared Mahalanobis distances of projected features to every letter.

    Every letter's whitening in one matrix product per chunk of rows.
    """
    letters, dimensions = model.means.shape
    out = np.empty((len(projected), letters), np.float32)
    for start in range(0, len(projected), _DISTANCE_CHUNK):
        rows = projected[start : start + _DISTANCE_CHUNK].astype(np.float32)
        whitened = (rows @ model.stacked_whitening).reshape(len(rows), letters, dimensions)
        whitened -= model.whitened_means
        out[start : start + len(rows)] = np.einsum("nck,nck->nc", whitened, whitened)
    return out


_DISTANCE_CHUNK = 1024


def _quadratic_scores(
    model: _Model, statistics: _Statistics, features: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(N, 26) Gaussian log-likelihoods (up to a constant) and squared distances."""
    projected = (features - statistics.mean) @ statistics.basis
    distances = _distances(model, projected)
    return -0.5 * (distances + model.log_determinants), distances


def _with_bias(features: np.ndarray) -> np.ndarray:
    return np.hstack((features, np.ones((len(features), 1), features.dtype)))


def _signed_one_hot(labels: np.ndarray) -> np.ndarray:
    targets = -np.ones((len(labels), len(LETTERS) + 1))
    targets[np.arange(len(labels)), labels] = 1.0
    return targets


def _checked_crops(crops: np.ndarray) -> np.ndarray:
    crops = np.asarray(crops)
    if crops.ndim != 4 or crops.shape[1:] != (CROP_SIDE, CROP_SIDE, 3) or crops.dtype != np.uint8:
        raise ValueError(
            f"crops must be uint8 of shape (N, {CROP_SIDE}, {CROP_SIDE}, 3), "
            f"not {crops.dtype} {crops.shape}"
        )
    return np.ascontiguousarray(crops)


def _letter_labels(letters: Sequence[str], count: int) -> np.ndarray:
    if isinstance(letters, str) or len(letters) != count:
        raise ValueError(f"teach needs one letter per crop: {count} crops")
    unknown = sorted({letter for letter in letters if letter not in LETTERS})
    if unknown:
        raise ValueError(f"teach: {', '.join(map(repr, unknown))} are not letters A..Z")
    return np.array([LETTERS.index(letter) for letter in letters])


def _samples_from_dict(data: Mapping[str, object]) -> tuple[np.ndarray, list[str]]:
    """Crops and letters of a :meth:`LetterClassifier.to_dict` mapping; ValueError if broken."""
    if not isinstance(data, Mapping) or not isinstance(data.get("samples"), list):
        raise ValueError("letter samples: expected a mapping with a list under 'samples'")
    crops, letters = [], []
    for index, sample in enumerate(data["samples"]):
        where = f"letter samples: sample {index}"
        if not isinstance(sample, Mapping):
            raise ValueError(f"{where} is not a mapping with 'letter' and 'png'")
        letter, png = sample.get("letter"), sample.get("png")
        if letter not in LETTERS:
            raise ValueError(f"{where}: letter {letter!r} is not one of A..Z")
        crops.append(_decoded_crop(png, where))
        letters.append(str(letter))
    stacked = np.stack(crops) if crops else np.zeros((0, CROP_SIDE, CROP_SIDE, 3), np.uint8)
    return stacked, letters


def _decoded_crop(png: object, where: str) -> np.ndarray:
    if not isinstance(png, str):
        raise ValueError(f"{where}: 'png' must be a base64 string")
    try:
        raw = base64.b64decode(png.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as error:
        raise ValueError(f"{where}: 'png' is not base64 ({error})") from None
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR) if raw else None
    if image is None or image.shape != (CROP_SIDE, CROP_SIDE, 3):
        shape = "nothing" if image is None else "x".join(map(str, image.shape))
        raise ValueError(f"{where}: 'png' decodes to {shape}, not a {CROP_SIDE} px colour crop")
    return image
