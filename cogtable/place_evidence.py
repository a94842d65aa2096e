"""What a camera's frames say of each place: one frame's evidence, and a still window's sum.

A reader gives, per frame, the log likelihood of each class at each place and of "none of
them" (covered, unreadable): :class:`PlaceEvidence`. While the board is still and clear the
frames are summed (:class:`StillEvidence`), so sensor noise averages out; the commit
decision (:mod:`cogtable.commit_decision`) weighs the sum against what the game expects.

Each frame can argue against a class at a place only so much: a class's likelihood is mixed
with the place's "none of them" likelihood (:data:`OUTLIER_SHARE`), so one glint or a passing
shadow cannot outweigh the other frames. Places and classes are whatever a reader names (a
peg and a cog colour, a tile slot and a letter, a card zone and a tag).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

Place = Hashable
Label = Hashable

OUTLIER_SHARE = 1e-3
"""Prior share of frames in which a place shows none of its classes (a glint, a passing
shadow): a class's per-frame likelihood is mixed with "none of them" at this share."""
HIDDEN_MARGIN = 2.0
"""Nats by which "none of the classes" must beat every class for a place to count as having
something over it in a frame (a shadow or a glint only leaves a peg doubtful)."""


@dataclass(frozen=True)
class PlaceEvidence:
    """One frame's evidence: per place and class, the log likelihood of what was seen.

    ``log_likelihood`` is (places, classes); ``unseen`` (places,) is the log
    likelihood of what was seen if the place showed none of the classes
    (covered, a glint, unreadable; None: as unlikely as the least likely class
    less 5 nats). Only differences between classes at a place matter.
    """

    places: tuple[Place, ...]
    classes: tuple[Label, ...]
    log_likelihood: np.ndarray
    unseen: np.ndarray | None = None

    def robust(self) -> np.ndarray:
        """Per place and class, the log likelihood mixed with "none of them" (see module),
        shifted so each place's best class is 0: (places, classes), every value <= 0."""
        values = np.asarray(self.log_likelihood, dtype=np.float64)
        unseen = values.min(axis=1) - 5.0 if self.unseen is None else np.asarray(self.unseen)
        floor = unseen[:, None] + math.log(OUTLIER_SHARE)
        mixed = np.logaddexp(values + math.log1p(-OUTLIER_SHARE), floor)
        return mixed - mixed.max(axis=1, keepdims=True)

    def unseen_places(self) -> tuple[Place, ...]:
        """The places likelier (by :data:`HIDDEN_MARGIN`) to show none of the classes than any
        of them: something over them."""
        if self.unseen is None:
            return ()
        best = np.asarray(self.log_likelihood).max(axis=1)
        hidden = np.asarray(self.unseen) > best + HIDDEN_MARGIN
        return tuple(place for place, flag in zip(self.places, hidden, strict=True) if flag)


@dataclass
class StillEvidence:
    """The evidence of one still window: per-frame robust log likelihoods, summed."""

    total: np.ndarray | None = None
    frames: int = 0
    places: tuple[Place, ...] = ()
    classes: tuple[Label, ...] = ()
    last: PlaceEvidence | None = None

    def add(self, evidence: PlaceEvidence) -> None:
        """Add one still frame (a frame of other places or classes starts the sum afresh)."""
        robust = evidence.robust()
        if self.total is None or (evidence.places, evidence.classes) != (
            self.places,
            self.classes,
        ):
            self.places, self.classes = evidence.places, evidence.classes
            self.total, self.frames = robust, 1
        else:
            self.total = self.total + robust
            self.frames += 1
        self.last = evidence

    def clear(self) -> None:
        """Forget every frame (the board moved, was covered, the camera was bumped)."""
        self.total, self.frames, self.last = None, 0, None

    def reading(self) -> dict[Place, Label]:
        """Every place's most likely class over the window."""
        if self.total is None:
            return {}
        best = self.total.argmax(axis=1)
        return {place: self.classes[i] for place, i in zip(self.places, best, strict=True)}


def evidence_of_reading(reading: Any) -> PlaceEvidence | None:
    """A reading's evidence, when it carries one: ``places``, ``classes``, ``log_likelihood``
    (places x classes) and ``unseen`` attributes, as :class:`vision.peg_disk.reading.Reading`
    has; None otherwise (a reading without evidence is never committed by a judge)."""
    likelihood = getattr(reading, "log_likelihood", None)
    if likelihood is None:
        return None
    places, classes = tuple(reading.places), tuple(reading.classes)
    return PlaceEvidence(places, classes, likelihood, getattr(reading, "unseen", None))
