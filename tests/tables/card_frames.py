"""Frames of a card mat as the reader gives them, and the shared decision on them: for the card
kits' explanation tests (:mod:`cogtable.tables.commissars.explain`, the Cookie's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from cogtable.commit_decision import Decision, Explanations, decide
from cogtable.place_evidence import StillEvidence
from cogtable.sights.card_evidence import card_evidence
from vision.cards.mat import CardMatLayout
from vision.cards.reader import CardMatReading, ZoneReading

Position = Mapping[str, tuple[tuple[int, ...], int]]


def mat_reading(
    mat: CardMatLayout, position: Position, doubtful: Sequence[str] = ()
) -> CardMatReading:
    """A frame's reading of ``mat`` showing ``position`` (zones in ``doubtful`` unsure)."""
    zones = {
        zone.name: ZoneReading(*position.get(zone.name, ((), 0)), doubtful=zone.name in doubtful)
        for zone in mat.zones
    }
    width, height = mat.width_mm, mat.height_mm
    corners = np.array([(0, 0), (width, 0), (width, height), (0, height)], float)
    return CardMatReading(
        zones, homography=np.eye(3), features=np.zeros((len(zones), 3)), corners_mm=corners
    )


def decided(explained: Explanations | None, frames: Sequence[CardMatReading]) -> Decision:
    """The decision on ``frames`` against ``explained``, the mat last committed being their
    base (the mat the table judged)."""
    assert isinstance(explained, Explanations)
    committed = dict(explained.base)
    still = StillEvidence()
    for frame in frames:
        evidence = card_evidence(frame, explained, committed)
        assert evidence is not None
        still.add(evidence)
    return decide(still, explained, committed)
