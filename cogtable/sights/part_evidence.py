"""One printed part's frame as evidence for the commit decision, every place of it.

The parts reader gives calibrated evidence for tile places
(:attr:`vision.parts.part_reading.PartReading.tile_log_likelihood`: the colour vote and the letter
model's probabilities). Cog spaces, pawn spaces and dice it reads by a label and a
confidence only; they are not dropped: :class:`PartEvidence` turns each into log
likelihoods over the classes of its kind (the label read at 0, every other class of the
kind at ``-CONFIDENCE_NATS`` times the confidence), so a place read at the old per-frame
threshold (0.5) gives :data:`CONFIDENCE_NATS` / 2 nats a frame and three such frames reach the
commit decision's bound, as three certain frames did before. Tile places take the same
form when the classifier gives no probabilities (the feature classifier).

Every part's evidence has the same classes (:data:`PART_CLASSES`), so a commit decision
sums a part's frames and an adapter's explanations may name any label of any kind.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from cogtable.place_evidence import PlaceEvidence
from vision.layout import DIE_LABELS, EMPTY, LETTERS, PartLayout, pawn_label
from vision.parts.look import REFERENCE
from vision.parts.part_reading import TILE_EVIDENCE_CLASSES, PartReading

PIECES = REFERENCE.piece_names()
"""The cog and pawn colours the reader names."""
PAWN_LABELS = tuple(
    pawn_label(group) for size in range(1, len(PIECES) + 1) for group in combinations(PIECES, size)
)
KIND_CLASSES: dict[str, tuple[str, ...]] = {
    "tile": TILE_EVIDENCE_CLASSES,
    "cog": (EMPTY, *PIECES),
    "pawn": (EMPTY, *PAWN_LABELS),
    "die": DIE_LABELS,
}
"""The classes a place of each kind may show."""
PART_CLASSES: tuple[str, ...] = tuple(dict.fromkeys(c for k in KIND_CLASSES.values() for c in k))
"""Every part's evidence columns: tile classes, cog colours, pawn labels, die faces."""
CONFIDENCE_NATS = 8.0
"""Nats a frame by which a place read with confidence 1 favours its label over its kind's
other classes (see the module docstring)."""
OTHER_KIND = -30.0
"""A class of another kind of place (a pawn on a tile place): never what the place shows."""
FACE = "face"
"""The reader's label of a face-up tile whose letter it did not name."""


class PartEvidence:
    """Turns one part's :class:`PartReading` into :class:`PlaceEvidence` (see the module)."""

    def __init__(self, layout: PartLayout) -> None:
        self.places = tuple(place.name for place in layout.read_places())
        kinds = {place.name: place.kind for place in layout.read_places()}
        column = {label: i for i, label in enumerate(PART_CLASSES)}
        self.own = np.zeros((len(self.places), len(PART_CLASSES)), bool)
        for row, name in enumerate(self.places):
            self.own[row, [column[c] for c in KIND_CLASSES.get(kinds[name], ())]] = True
        self.column = column
        self.tile_columns = np.array([column[c] for c in TILE_EVIDENCE_CLASSES])
        self.letters = np.array([column[c] for c in LETTERS])
        self._tile_rows: tuple[tuple[str, ...], np.ndarray] | None = None

    def __call__(self, reading: object) -> PlaceEvidence | None:
        """The reading's evidence (None: a reading of another part, or not read)."""
        if not isinstance(reading, PartReading) or reading.places != self.places:
            return None
        if reading.labels is None or reading.confidence is None:
            return None
        values = self._from_labels(reading.labels, reading.confidence)
        unseen = values.max(axis=1) - CONFIDENCE_NATS - 5.0
        if reading.tile_log_likelihood is not None and reading.tile_unseen is not None:
            rows = self._rows(reading.tile_places)
            tiles = np.full((len(rows), len(PART_CLASSES)), OTHER_KIND, np.float64)
            tiles[:, self.tile_columns] = reading.tile_log_likelihood
            values[rows] = tiles
            unseen[rows] = reading.tile_unseen
        return PlaceEvidence(self.places, PART_CLASSES, values, unseen)

    def _rows(self, names: tuple[str, ...]) -> np.ndarray:
        """The rows of these places (the reader names the same tile places every frame)."""
        if self._tile_rows is None or self._tile_rows[0] != names:
            self._tile_rows = (names, np.array([self.places.index(n) for n in names], int))
        return self._tile_rows[1]

    def _from_labels(self, labels: tuple[str, ...], confidence: tuple[float, ...]) -> np.ndarray:
        """Log likelihoods from each place's label and confidence (see the module docstring)."""
        sure = np.clip(np.asarray(confidence, np.float64), 0.0, 1.0)
        values = np.where(self.own, -CONFIDENCE_NATS * sure[:, None], OTHER_KIND)
        for row, label in enumerate(labels):
            if label == FACE:
                values[row, self.letters] = 0.0
            elif label in self.column and self.own[row, self.column[label]]:
                values[row, self.column[label]] = 0.0
        return values
