"""The settling filter: turns a stream of frame readings into committed board positions.

A reading is committed only after the board has been still, uncovered, fully
seen and confidently read for a settling window (default 0.3 s, and at least a
few frames). Anything else (a hand, a cog in the air, a bumped camera, lost
markers, a lost camera) restarts the window. A shadow across the board (a
lamp) is first treated as cover, and accepted once it has stayed put. Time
comes from an injected clock, so tests run windows instantly.

Given a *judge* (:class:`StillJudge`, e.g. :class:`cogtable.commit_decision.StillBoardJudge`)
the filter does not ask every place of one frame to be certain: it hands the
judge every still, clear frame since the window started, and commits what the
judge decides once the window has run (the game's explanations weigh the
evidence of all those frames). Motion, a hand, a bumped camera, lost markers
still restart the window exactly as without one, and so does a frame in which
the judge sees something over a place (likelier none of its classes: a hand
the rim did not show, a held cog); a shadow that stays put over
the window (the rim only darker or lighter, and unchanged) is part of the
still board.

It settles any reading with the attributes of :class:`vision.peg_disk.reading.Reading`
(:class:`SettleReading`): the Kogworks disk's, and each printed part's
(:class:`vision.parts.reader.PartReading`, one filter per part).

>>> from vision.peg_disk.reading import Reading
>>> times = iter([0.0, 0.1, 0.2, 0.35])
>>> settle = SettlingFilter(window=0.3, clock=lambda: next(times))
>>> [settle.update(Reading("no board", "markers not found: 2")).state.value for _ in range(1)]
['no markers']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

import numpy as np

from vision.frame import BAD_FRAME, NO_BOARD, NO_CAMERA
from vision.markers import project


class BoardState(Enum):
    """What the filter currently sees."""

    SETTLED = "settled"
    MOVING = "moving"
    COVERED = "covered"
    UNSURE = "unsure"
    """Still and clear, but the judge cannot yet tell what the board shows."""
    NO_MARKERS = "no markers"
    NO_CAMERA = "no camera"


class Judged(Protocol):
    """A judge's decision on a still window (:class:`cogtable.commit_decision.Decision`)."""

    @property
    def committed(self) -> bool: ...

    @property
    def position(self) -> Mapping[Any, Any]: ...

    def message(self, noun: str = "place") -> str: ...


class StillJudge(Protocol):
    """Decides what a still board shows from all its still frames (see the module docstring)."""

    def restart(self) -> None: ...

    def add(self, reading: Any) -> Sequence[Any]:
        """Add a frame; the places it shows something over (then the window restarts)."""
        ...

    def decide(self, committed: Mapping[Any, Any] | None) -> Judged: ...


class SettleReading(Protocol):
    """What the filter needs of a reading (:class:`vision.peg_disk.reading.Reading` and
    :class:`vision.parts.reader.PartReading` have it)."""

    status: str
    message: str
    labels: tuple[Any, ...] | None
    confidence: tuple[float, ...] | None
    covered: bool
    homography: np.ndarray | None
    features: np.ndarray | None
    shaded: bool
    rim: np.ndarray | None

    @property
    def ok(self) -> bool: ...

    @property
    def place_noun(self) -> str: ...

    @property
    def probe_points(self) -> np.ndarray: ...

    def position(self) -> Mapping[Any, Any] | None: ...

    def uncertain_places(self) -> list[str]: ...


@dataclass(frozen=True)
class SettleStatus:
    """The filter's answer for one frame.

    ``committed`` is the last committed position, as the committed reading's
    ``position()`` gives it (None before the first); ``new_commit`` is True
    only on the frame that committed a changed position.
    """

    state: BoardState
    committed: Mapping[Any, Any] | None
    new_commit: bool = False
    still_for: float = 0.0
    message: str = ""


RIM_CHANGE = 0.12
"""A rim point whose log colour moved more than this has changed (noise stays well below)."""

POINT_CHANGE = 20.0
"""A sample point whose value changed by more than this (grey levels) since the previous frame
(less the change of the room's light) has changed, on a clean frame..."""
POINT_NOISE = 6.0
"""...or by more than this many times the median change of all points, on a noisy one."""
LIT = 30.0
"""Points at least this bright tell how the light on a place changed (a gain per channel)."""
CHANGED_POINTS = 5
"""A place with this many of its inner points changed has changed (a few: a JPEG block)."""
EDGE_POINTS = 12
"""The last points of a place's samples are its edge ring, in order around it."""
LIGHT_STEP = 0.03
"""A median gain over the places this far from 1, with the gains of :data:`LIGHT_ALIKE` of the
places alike, is the room's light stepping, not a hand..."""
LIGHT_ALIKE = 0.8
"""...(a hand over many places changes each differently)..."""
ALIKE_GAIN = 0.1
"""...within this of it (a dark channel's gain is noisy)."""
LUMA = np.array([0.114, 0.587, 0.299], np.float32)
"""Weights of B, G, R in a pixel's brightness (as JPEG keeps it, at full resolution)."""
CLIPPED = 250
"""A channel at or above this is clipped: its change is unknown."""

STATUS_STATES = {
    NO_BOARD: BoardState.NO_MARKERS,
    NO_CAMERA: BoardState.NO_CAMERA,
    BAD_FRAME: BoardState.NO_CAMERA,
}


class SettlingFilter:
    """Commits a reading once the board has been still and uncovered for ``window`` seconds."""

    def __init__(
        self,
        window: float = 0.3,
        clock: Callable[[], float] = time.monotonic,
        min_frames: int = 3,
        motion_threshold: float = 0.5,
        camera_shift: float = 2.0,
        *,
        shadow_window: float = 1.0,
        judge: StillJudge | None = None,
    ) -> None:
        self.window = window
        self.clock = clock
        self.min_frames = min_frames
        self.motion_threshold = motion_threshold
        self.camera_shift = camera_shift
        self._committed: SettleReading | None = None
        self._candidate: tuple[Any, ...] | None = None
        self._since = 0.0
        self._frames = 0
        self._previous: SettleReading | None = None
        self.shadow_window = shadow_window
        self._shadow: tuple[np.ndarray, float] | None = None
        self._accepted_shadow: np.ndarray | None = None
        self.judge = judge
        self._position: Mapping[Any, Any] | None = None

    @property
    def committed(self) -> Mapping[Any, Any] | None:
        """The last committed position (the committed reading's ``position()``, or what the
        judge committed), or None."""
        if self.judge is not None:
            return self._position
        return None if self._committed is None else self._committed.position()

    def update(self, reading: SettleReading) -> SettleStatus:
        """Feed one frame's reading; say what the board is doing and whether it committed."""
        now = self.clock()
        previous, self._previous = self._previous, reading if reading.ok else None
        if not reading.ok:
            return self._restart(
                STATUS_STATES.get(reading.status, BoardState.NO_CAMERA), reading.message
            )
        if self.judge is not None:
            return self._judged(previous, reading, now)
        if not self._clear(reading, now):
            return self._restart(BoardState.COVERED, _cover_message(reading))
        if self._moved(previous, reading) or reading.labels != self._candidate:
            self._candidate, self._since, self._frames = reading.labels, now, 1
            return self._status(BoardState.MOVING, now, "waiting for the board to settle")
        self._frames += 1
        if now - self._since < self.window or self._frames < self.min_frames:
            return self._status(BoardState.MOVING, now, "waiting for the board to settle")
        changed = self._committed is None or reading.labels != self._committed.labels
        if changed:
            self._committed = reading
        return self._status(BoardState.SETTLED, now, "", new_commit=changed)

    def _judged(
        self, previous: SettleReading | None, reading: SettleReading, now: float
    ) -> SettleStatus:
        """One OK frame with a judge: restart on cover or motion, else add it to the window and,
        once the window has run, commit what the judge decides."""
        judge = self.judge
        assert judge is not None
        if reading.covered and not reading.shaded:
            return self._restart(BoardState.COVERED, _cover_message(reading))
        if self._moved(previous, reading) or self._frames == 0 or _rim_changed(previous, reading):
            self._since, self._frames = now, 1
            judge.restart()
            hidden = judge.add(reading)
            if hidden:
                return self._restart(BoardState.COVERED, _hidden_message(reading, hidden))
            return self._status(BoardState.MOVING, now, "waiting for the board to settle")
        self._frames += 1
        hidden = judge.add(reading)
        if hidden:
            return self._restart(BoardState.COVERED, _hidden_message(reading, hidden))
        if now - self._since < self.window or self._frames < self.min_frames:
            return self._status(BoardState.MOVING, now, "waiting for the board to settle")
        decision = judge.decide(self._position)
        if not decision.committed:
            return self._status(BoardState.UNSURE, now, decision.message(reading.place_noun))
        position = dict(decision.position)
        changed = self._position is None or position != dict(self._position)
        if changed:
            self._position = position
        return self._status(BoardState.SETTLED, now, "", new_commit=changed)

    def _clear(self, reading: SettleReading, now: float) -> bool:
        """Nothing over the board but, perhaps, a shadow that has stayed put; every peg read.

        A shadow (the reader says the rim is only darker or lighter board) is
        accepted once the rim has not changed for ``shadow_window`` seconds, and
        at once when it is the shadow accepted before (a hand came and went).
        """
        confident = bool(reading.confidence) and not reading.uncertain_places()
        if not reading.covered:
            self._shadow = None
            return confident
        if not reading.shaded or reading.rim is None:
            self._shadow = None
            return False
        if self._accepted_shadow is not None and _same_rim(self._accepted_shadow, reading.rim):
            return confident
        if self._shadow is None or not _same_rim(self._shadow[0], reading.rim):
            self._shadow = (reading.rim, now)
        steady = now - self._shadow[1] >= self.shadow_window
        if steady and confident:
            self._accepted_shadow = self._shadow[0]
        return steady and confident

    def _restart(self, state: BoardState, message: str) -> SettleStatus:
        self._candidate, self._frames = None, 0
        if self.judge is not None:
            self.judge.restart()
        return SettleStatus(state, self.committed, False, 0.0, message)

    def _status(self, state: BoardState, now: float, message: str, new_commit: bool = False):
        return SettleStatus(state, self.committed, new_commit, now - self._since, message)

    def _moved(self, previous: SettleReading | None, reading: SettleReading) -> bool:
        """Colours or the camera changed since the previous frame."""
        if previous is None or previous.features is None or reading.features is None:
            return True
        change = np.abs(reading.features - previous.features).max()
        if change > self.motion_threshold or self._camera_moved(previous, reading):
            return True
        return bool(points_changed(previous, reading).any())

    def _camera_moved(self, previous: SettleReading, reading: SettleReading) -> bool:
        """The image of the reading's probe points moved more than ``camera_shift`` pixels."""
        probe = reading.probe_points
        before = project(previous.homography, probe)
        after = project(reading.homography, probe)
        return bool(np.abs(after - before).max() > self.camera_shift)


def points_changed(previous: SettleReading, reading: SettleReading) -> np.ndarray:
    """Per place, whether its sample points changed since the previous frame (empty when the
    readings hold no ``samples``).

    A place changed when :data:`CHANGED_POINTS` of its inner points, or three in a row of the
    :data:`EDGE_POINTS` on its edge ring, moved beyond noise: a finger over the edge of a cog,
    a hand passing between pegs, a held cog set down, which the place's mean colour hardly
    shows (a compressed frame's ringing, or a cog's teeth, change points here and there).
    The light stepping scales each channel of a place's points alike (the place's median
    gain per channel is taken off); what is left is weighed as brightness (:data:`LUMA`: a
    compressed frame's colour is coarse and noisy where it is saturated); a clipped point
    has changed only if it is clearly below clipping in the other frame (a shadow on a board
    over-exposed white). A frame whose light stepped as a whole (every place alike, by more than
    :data:`LIGHT_STEP`) is compared no further: its colours, rim and markers say more.
    """
    before = getattr(previous, "samples", None)
    after = getattr(reading, "samples", None)
    if before is None or after is None or before.shape != after.shape:
        return np.zeros(0, bool)
    known = ((before < CLIPPED) & (after < CLIPPED)).all(axis=-1)
    lit = known[..., None] & (before >= LIT)
    gain = np.median(np.where(lit, after / np.maximum(before, 1.0), 1.0), axis=1)
    measured = (lit.sum(axis=1) >= CHANGED_POINTS).all(axis=1)
    if not measured.any():
        return np.zeros(len(gain), bool)
    step = np.median(gain[measured], axis=0)
    alike = (np.abs(gain[measured] - step) <= ALIKE_GAIN).all(axis=1).mean() >= LIGHT_ALIKE
    if alike and np.abs(step - 1.0).max() > LIGHT_STEP:
        return np.zeros(len(gain), bool)
    change = np.where(known, np.abs((after - gain[:, None] * before) @ LUMA), 0.0)
    typical = float(np.median(change[known])) if known.any() else 0.0
    unclipped = ((before >= CLIPPED) & (after < CLIPPED - POINT_CHANGE)) | (
        (after >= CLIPPED) & (before < CLIPPED - POINT_CHANGE)
    )
    changed = (change > max(POINT_CHANGE, POINT_NOISE * typical)) | unclipped.any(axis=-1)
    inner, edge = changed[:, :-EDGE_POINTS], changed[:, -EDGE_POINTS:]
    arc = edge & np.roll(edge, 1, axis=1) & np.roll(edge, -1, axis=1)
    return (inner.sum(axis=1) >= CHANGED_POINTS) | arc.any(axis=1)


def _rim_changed(previous: SettleReading | None, reading: SettleReading) -> bool:
    """The rim changed since the previous frame while something (a shadow, a hand) was over it
    in either: a shadow moving, or a hand coming or going over the rim (the rim covered in one
    frame and not in the other), is not still."""
    if not (_over_rim(reading) or (previous is not None and _over_rim(previous))):
        return False
    if previous is None or previous.rim is None or reading.rim is None:
        return True
    if previous.covered != reading.covered:
        return True
    return not _same_rim(_rim_shape(previous), _rim_shape(reading))


def _over_rim(reading: SettleReading) -> bool:
    return reading.covered or reading.shaded


def _rim_shape(reading: SettleReading) -> np.ndarray:
    """The rim less the light through it: the reader's ``rim_shape`` when it gives one, else the
    rim less its median per channel (a step of the room's light is not a shadow moving)."""
    shape = getattr(reading, "rim_shape", None)
    if shape is not None:
        return np.asarray(shape)
    assert reading.rim is not None
    return reading.rim - np.median(reading.rim, axis=0)


def _same_rim(before: np.ndarray, after: np.ndarray) -> bool:
    """The rim looks the same: at most a few points changed by more than noise."""
    changed = np.abs(after - before).max(axis=1) > RIM_CHANGE
    return bool(changed.sum() <= 2)


def _hidden_message(reading: SettleReading, places: Sequence[Any]) -> str:
    """Why a frame the judge finds something over is not used."""
    names = ", ".join(
        ",".join(map(str, place)) if isinstance(place, tuple) else str(place)
        for place in list(places)[:6]
    )
    plural = "s" if len(places) > 1 else ""
    more = " ..." if len(places) > 6 else ""
    return f"something over {reading.place_noun}{plural} {names}{more}"


def _cover_message(reading: SettleReading) -> str:
    """Why a reading that is OK cannot be committed yet."""
    if reading.covered and not reading.shaded:
        return reading.message
    if reading.uncertain_places() or not reading.covered:
        return _uncertain(reading)
    return "a shadow over the board: waiting to see that it stays put"


def _uncertain(reading: SettleReading) -> str:
    places = reading.uncertain_places()
    shown = ", ".join(places[:6])
    return f"cannot read {reading.place_noun}{'s' if len(places) > 1 else ''} {shown}" + (
        " ..." if len(places) > 6 else ""
    )
