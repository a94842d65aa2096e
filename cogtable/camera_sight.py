"""What the camera thread does with a frame: read the game's regions, settle, tell the table.

Three kinds of region exist (:class:`~cogtable.tables.base.CameraRegion`):

- ``peg-disk``: the Kogworks disk, read peg by peg by
  :class:`vision.peg_disk.reader.BoardReader` and settled as one board;
- ``parts``: printed parts (the C.O.G. board and mats), each with its own
  markers, read together by :class:`vision.parts.reader.PartsReader` and settled
  part by part, so a hand over one mat holds back only that mat: a part that
  settles with a change sends the table every part's latest committed
  reading (:class:`BoardSettled`), once every part has been committed once.

- ``cards``: the card mat, read by :class:`vision.cards.reader.CardReader` and
  settled as one mat (:class:`CardsSight`): a committed reading sends the
  table region name -> zone -> (face-up tag ids, face-down count).

Whichever, a frame is never a move by itself: only the settling filter's
commits reach the table (docs/ARCHITECTURE.md, "Reading the physical board"). Each sight
given a :class:`~cogtable.camera_picture.CameraPicture` hands it the frame with
its own overlay when what it reads changes (``<state-dir>/camera.png``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from cogtable.camera_picture import CameraPicture
from cogtable.commit_decision import Explanations, StillBoardJudge, evidence_of_reading
from cogtable.inputs import BoardSettled, BoardUnsettled, Input, PartStatus
from cogtable.tables.base import CameraRegion
from vision.cards.reader import CardMatReading
from vision.parts.reader import TableReading
from vision.peg_disk.overlay import draw_parts_reading, draw_reading
from vision.peg_disk.reader import NO_CAMERA
from vision.peg_disk.settle import BoardState, SettleStatus, SettlingFilter


class Offer(Protocol):
    """How a sight hands an input to the runtime (queued; in lock step with a mock world)."""

    def __call__(self, item: Input, seen_at: float | None = None) -> None: ...


@dataclass
class CameraPart:
    """The camera's own status, sent only when it changes."""

    offer: Offer
    status: str = "unknown"

    def report(self, status: str, detail: str) -> None:
        """Say the camera's status if it changed (``ok``, ``no camera``, ``not used``)."""
        if status != self.status:
            self.status = status
            self.offer(PartStatus("camera", status, detail if status != "ok" else ""))


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
        previous, self.board = self.board, status.state
        if status.state is BoardState.SETTLED:
            if status.new_commit or previous is not BoardState.SETTLED:
                self.offer(_settled_disk(status, self.clock()), seen_at)
        elif status.state != previous:
            unsure = status.state is BoardState.UNSURE and status.message
            self.offer(BoardUnsettled(status.message if unsure else status.state.value))

    def idle(self) -> None:
        """The game reads nothing: forget the board, so the next reading is sent afresh."""
        self.board = None


def _settled_disk(status: SettleStatus, now: float) -> BoardSettled:
    committed = status.committed or {}
    return BoardSettled({peg: colour for peg, colour in committed.items() if colour}, now)


@dataclass
class PartsSight:
    """Printed parts: one reader for all, a settling filter per part."""

    offer: Offer
    camera: CameraPart
    clock: Callable[[], float]
    regions: Sequence[CameraRegion]
    make_reader: Callable[[Sequence[CameraRegion]], Any]
    settles: dict[str, SettlingFilter] = field(init=False)
    states: dict[str, BoardState] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    """Why each part is not settled, as its settling filter says ("cannot read mat1 place r2c3")."""
    committed: dict[str, dict[str, str]] = field(default_factory=dict)
    waiting: str | None = None
    sent: bool = False
    reader: Any = None
    picture: CameraPicture | None = None

    def __post_init__(self) -> None:
        self.settles = {region.name: SettlingFilter(clock=self.clock) for region in self.regions}

    def see(self, grabbed: Any, seen_at: float) -> None:
        """Read (unless the truth camera did) and settle each part; tell the table what changed."""
        frame = grabbed if isinstance(grabbed, np.ndarray) else None
        if frame is not None or grabbed is None:
            self.reader = self.reader or self.make_reader(self.regions)
            grabbed = self.reader.read(grabbed)
        self._see(grabbed, seen_at)
        if frame is not None:
            self._offer_picture(frame, grabbed)

    def _offer_picture(self, frame: np.ndarray, reading: Any) -> None:
        """The frame with the parts' overlay, when a part's state or commit changed."""
        if self.picture is None or not isinstance(reading, TableReading):
            return
        layouts = [region.layout for region in self.regions if region.layout is not None]
        states = tuple(sorted((name, state.value) for name, state in self.states.items()))
        key = (getattr(reading, "status", None), states, repr(sorted(self.committed.items())))
        self.picture.offer(key, lambda: draw_parts_reading(frame, reading, layouts))

    def _see(self, grabbed: Any, seen_at: float) -> None:
        """Settle each part of one reading; tell the table what changed."""
        if not isinstance(grabbed, TableReading):  # a mock camera of another kind of board
            self.camera.report("no camera", "this camera shows no printed parts")
            return
        if not grabbed.ok:
            self.camera.report("no camera", grabbed.message)
            self._wait(grabbed.message)
            return
        self.camera.report("ok", "")
        changed = [name for name in self.settles if self._settle(name, grabbed.parts.get(name))]
        unsettled = [name for name, state in self.states.items() if state is not BoardState.SETTLED]
        if len(self.committed) == len(self.settles) and (changed or not self.sent):
            self.sent = True
            self.offer(
                BoardSettled({n: dict(p) for n, p in self.committed.items()}, self.clock()), seen_at
            )
        self._wait("; ".join(self._why(name) for name in unsettled) if unsettled else None)

    def _settle(self, name: str, reading: Any) -> bool:
        """Settle one part's reading; True when it committed a change or settled again."""
        previous = self.states.get(name)
        if reading is None:
            self.states[name] = BoardState.NO_MARKERS
            return False
        status = self.settles[name].update(reading)
        self.states[name] = status.state
        self.messages[name] = status.message
        if status.state is BoardState.SETTLED and status.committed is not None:
            new = status.committed
            changed = self.committed.get(name) != new or previous is not BoardState.SETTLED
            self.committed[name] = dict(new)
            return changed
        return False

    def _why(self, name: str) -> str:
        """A part's state, and what its filter waits for when that says more (a tile unread)."""
        message = self.messages.get(name, "")
        if message.startswith("cannot read"):
            return f"{name}: {message}"
        return f"{name}: {self.states[name].value}"

    def _wait(self, reason: str | None) -> None:
        """Say once when parts start or stop waiting (moving, covered, not found)."""
        if reason != self.waiting:
            self.waiting = reason
            if reason:
                self.offer(BoardUnsettled(reason))

    def idle(self) -> None:
        """The game changed: everything is read afresh."""
        self.sent = False


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

    def __post_init__(self) -> None:
        self.settle = SettlingFilter(clock=self.clock)

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
                self.offer(BoardSettled({self.name: dict(status.committed)}, self.clock()), seen_at)
            self._wait(None)
            return
        why = status.message if status.message.startswith("cannot read") else status.state.value
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
