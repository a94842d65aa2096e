"""The card mat's sight: read by :class:`vision.cards.reader.CardReader`, settled as one mat.

A committed reading sends the table region name -> zone -> (face-up tag ids,
face-down count). With the game's explanations (``explain``) the settling
filter commits what the commit decision (:mod:`cogtable.commit_decision`)
singles out from the evidence of every still frame
(:mod:`cogtable.sights.card_evidence`); without, every zone of one frame must
be clear, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cogtable.camera_picture import CameraPicture
from cogtable.commit_decision import Explanations, StillBoardJudge
from cogtable.inputs import BoardSettled, BoardUnsettled
from cogtable.place_evidence import PlaceEvidence
from cogtable.sights.camera import CameraPart, Offer
from cogtable.sights.card_evidence import card_evidence, settled_position
from cogtable.tables.base import CameraRegion
from vision.cards.reader import CardMatReading
from vision.peg_disk.reader import NO_CAMERA
from vision.peg_disk.settle import BoardState, SettlingFilter


@dataclass
class CardsSight:
    """The card mat: one reader and one settling filter for the mat.

    A doubtful zone (a hand over it, a card whose tag is hidden) holds the
    whole mat back, and the wait names the zones ("cannot read zones seat2").
    """

    offer: Offer
    camera: CameraPart
    clock: Callable[[], float]
    regions: Sequence[CameraRegion]
    make_reader: Callable[[Sequence[CameraRegion]], Any]
    settle: SettlingFilter = field(init=False)
    state: BoardState | None = None
    waiting: str | None = None
    reader: Any = None
    picture: CameraPicture | None = None
    """Handed the frame as it is (the card mat draws no overlay of its own yet)."""
    explain: Callable[[], Explanations | None] | None = None
    """The game's explanations of what the mat may show next (as the controller last
    published them); None: no commit decision, every zone of a frame must be clear."""

    shown: set = field(default_factory=set)
    """The labels frames showed since the last commit (kept among the evidence's classes)."""

    def __post_init__(self) -> None:
        judge = None
        if self.explain is not None:
            judge = StillBoardJudge(self.explain, self._evidence)
        self.settle = SettlingFilter(clock=self.clock, judge=judge)

    def _evidence(self, reading: object) -> PlaceEvidence | None:
        """A reading's evidence against what the game may expect and the mat last committed."""
        if not isinstance(reading, CardMatReading) or self.explain is None:
            return None
        shown = card_evidence(reading, self.explain(), self.settle.committed, self.shown)
        if shown is not None:
            self.shown.update(shown.classes)
        return shown

    @property
    def name(self) -> str:
        """The mat's region name (the key of what is sent to the table)."""
        return self.regions[0].name

    def see(self, grabbed: Any, seen_at: float) -> None:
        """Read (unless the truth camera did) and settle one frame; tell the table what changed."""
        if self.picture is not None and isinstance(grabbed, np.ndarray):
            frame = grabbed
            self.picture.offer(("cards", self.state, self.waiting), lambda: frame)
        if isinstance(grabbed, np.ndarray) or grabbed is None:
            self.reader = self.reader or self.make_reader(self.regions)
            grabbed = self.reader.read(grabbed)
        if not isinstance(grabbed, CardMatReading):  # a mock camera of another kind of board
            self.camera.report("no camera", "this camera shows no card mat")
            return
        if grabbed.status == NO_CAMERA:
            self.camera.report("no camera", grabbed.message)
            self._wait(f"{self.name}: {grabbed.message}")
            return
        self.camera.report("ok", "")
        status = self.settle.update(grabbed)
        previous, self.state = self.state, status.state
        if status.state is BoardState.SETTLED and status.committed is not None:
            if status.new_commit or previous is not BoardState.SETTLED:
                position = settled_position(status.committed)
                self.shown.clear()
                self.offer(BoardSettled({self.name: position}, self.clock()), seen_at)
            self._wait(None)
            return
        said = status.message.startswith(("cannot", "something over"))
        why = status.message if said else status.state.value
        self._wait(f"{self.name}: {why}")

    def _wait(self, reason: str | None) -> None:
        """Say once when the mat starts or stops waiting (moving, covered, not found)."""
        if reason != self.waiting:
            self.waiting = reason
            if reason:
                self.offer(BoardUnsettled(reason))

    def idle(self) -> None:
        """The game changed: the mat is read afresh."""
        self.state = None
