"""The Kogworks disk's sight: one reader, one settling filter for the whole board.

Read by :class:`vision.peg_disk.reader.BoardReader`; with the game's explanations the
filter commits what the commit decision singles out (:mod:`cogtable.commit_decision`).
Given a :class:`~cogtable.camera_picture.CameraPicture`, it hands over the frame with
its overlay when what it reads changes (``<state-dir>/camera.png``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cogtable.camera_picture import CameraPicture
from cogtable.commit_decision import Explanations, StillBoardJudge
from cogtable.inputs import BoardSettled, BoardUnsettled
from cogtable.place_evidence import evidence_of_reading
from cogtable.sights.camera import CameraPart, Offer
from cogtable.tables.base import CameraRegion
from vision.peg_disk.overlay import draw_reading
from vision.peg_disk.settle import BoardState, SettleStatus, SettlingFilter


@dataclass
class PegSight:
    """The Kogworks disk: one reader, one settling filter for the whole board."""

    offer: Offer
    camera: CameraPart
    clock: Callable[[], float]
    make_reader: Callable[[], Any]
    regions: Sequence[CameraRegion] = ()
    picture: CameraPicture | None = None
    settle: SettlingFilter = field(init=False)
    board: BoardState | None = None
    reader: Any = None
    explain: Callable[[], Explanations | None] | None = None
    """The game's explanations of what the disk may show next: the settling filter then
    commits what the commit decision singles out (:mod:`cogtable.commit_decision`) from every
    still frame's evidence; None: every peg of one frame must be certain, as before."""
    reason: str | None = None
    """The last reason sent in a :class:`BoardUnsettled` (None: none since the board settled)."""

    def __post_init__(self) -> None:
        judge = None
        if self.explain is not None:
            judge = StillBoardJudge(self.explain, evidence_of_reading)
        self.settle = SettlingFilter(clock=self.clock, judge=judge)

    def see(self, grabbed: Any, seen_at: float) -> None:
        """Read (unless the mock's truth camera already did) and settle one frame."""
        frame = grabbed if isinstance(grabbed, np.ndarray) else None
        if frame is not None or grabbed is None:
            self.reader = self.reader or self.make_reader()  # slow to build: only when needed
            grabbed = self.reader.read(grabbed)
        status = self.settle.update(grabbed)
        if status.new_commit and hasattr(self.reader, "adapt"):
            self.reader.adapt(grabbed)  # follow what light drift the locked camera leaves
        if self.picture is not None and frame is not None:
            reading, geometry = grabbed, self.reader.geometry
            key = (status.state, reading.status, reading.labels, reading.covered)
            self.picture.offer(key, lambda: draw_reading(frame, reading, geometry))
        self.camera.report(
            "no camera" if status.state is BoardState.NO_CAMERA else "ok", status.message
        )
        self._tell(status, seen_at)

    def _tell(self, status: SettleStatus, seen_at: float) -> None:
        """Offer what the board does now: a commit, or why there is none.

        A state is offered when it changes; an unsure board also whenever the
        places it cannot tell change (the table names them to the players, so
        the pegs named must be the ones in doubt now, not the first ones).
        """
        previous, self.board = self.board, status.state
        if status.state is BoardState.SETTLED:
            self.reason = None
            if status.new_commit or previous is not BoardState.SETTLED:
                self.offer(_settled_disk(status, self.clock()), seen_at)
            return
        unsure = status.state is BoardState.UNSURE and status.message
        reason = status.message if unsure else status.state.value
        if status.state != previous or reason != self.reason:
            self.offer(BoardUnsettled(reason))
        self.reason = reason

    def idle(self) -> None:
        """The game reads nothing: forget the board, so the next reading is sent afresh."""
        self.board = None
        self.reason = None


def _settled_disk(status: SettleStatus, now: float) -> BoardSettled:
    committed = status.committed or {}
    return BoardSettled({peg: colour for peg, colour in committed.items() if colour}, now)
