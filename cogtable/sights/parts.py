"""Printed parts' sight (the C.O.G. board and mats): one reader for all, a filter per part.

Read together by :class:`vision.parts.reader.PartsReader` and settled part by part, so a
hand over one mat holds back only that mat: a part that settles with a change sends the
table every part's latest committed reading (:class:`~cogtable.inputs.BoardSettled`),
once every part has been committed once.

With the game's explanations (``explain``: places named ``(part, place)``) each part's
settling filter commits what the commit decision singles out
(:mod:`cogtable.commit_decision`) from the evidence of all its still frames
(:mod:`cogtable.sights.part_evidence`), weighed against the explanations of that part.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cogtable.camera_picture import CameraPicture
from cogtable.commit_decision import Explanation, Explanations, StillBoardJudge
from cogtable.inputs import BoardSettled, BoardUnsettled
from cogtable.sights.camera import CameraPart, Offer
from cogtable.sights.part_evidence import PartEvidence
from cogtable.tables.base import CameraRegion
from vision.parts.part_reading import TableReading
from vision.peg_disk.overlay import draw_parts_reading
from vision.peg_disk.settle import BoardState, SettlingFilter


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
    explain: Callable[[], Explanations | None] | None = None
    """The game's explanations of what the parts may show next, places named ``(part,
    place)`` (see the module docstring); None: every place of one frame must be certain."""
    judges: dict[str, StillBoardJudge] = field(init=False)
    _parts: tuple[Explanations | None, dict[str, Explanations]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._parts = (None, {})
        self.judges = {}
        self.settles = {}
        for region in self.regions:
            judge = None
            if self.explain is not None and region.layout is not None:
                judge = StillBoardJudge(
                    lambda name=region.name: self._explanations_of(name),
                    PartEvidence(region.layout),
                )
                self.judges[region.name] = judge
            self.settles[region.name] = SettlingFilter(clock=self.clock, judge=judge)

    def _explanations_of(self, name: str) -> Explanations | None:
        """The game's explanations restricted to one part, the same object while the game's
        are (so each judge compiles them once)."""
        assert self.explain is not None
        explained = self.explain()
        if explained is None:
            return None
        if self._parts[0] is not explained:
            self._parts = (explained, {})
        parts = self._parts[1]
        if name not in parts:
            parts[name] = part_explanations(explained, name)
        return parts[name]

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
        """A part's state, and what its filter waits for when that says more (a tile unread,
        places whose evidence does not yet single out what they show)."""
        message = self.messages.get(name, "")
        if message.startswith("cannot read"):
            return f"{name}: {message}"
        judge = self.judges.get(name)
        if self.states[name] is BoardState.UNSURE and judge is not None and judge.last.deciding:
            places = ", ".join(str(place) for place in judge.last.deciding[:6])
            more = " ..." if len(judge.last.deciding) > 6 else ""
            return f"{name}: cannot read {name} places {places}{more} for sure yet"
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


def part_explanations(explained: Explanations, part: str) -> Explanations:
    """The explanations of the places ``(part, place)`` of one part, named by ``place``.

    Explanations that differ only on other parts are one here (the first names it), so a
    change on a mat never leaves the board's judge unsure between two equal positions.
    """
    base = {place: label for (owner, place), label in explained.base.items() if owner == part}
    free = {place: labels for (owner, place), labels in explained.free.items() if owner == part}
    options, seen = [], set()
    for option in explained.options:
        changes = {
            place: label
            for (owner, place), label in option.changes.items()
            if owner == part and base.get(place) != label
        }
        key = frozenset(changes.items())
        if key not in seen:
            seen.add(key)
            options.append(Explanation(option.kind, changes, option.name))
    return Explanations(base, tuple(options), free)
