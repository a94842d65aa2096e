"""What the camera thread reads now: published by the controller, read by the camera alone.

The controller thread owns the game: it applies actions and replaces the
state. The camera thread must never read that state while it changes, so
after every change the controller publishes a :class:`ReadingPlan`, frozen and
built from the new state, through one :class:`PlanPost` (a single reference,
replaced whole: a reader sees the old plan or the new one, never half of
either). The camera thread reads only :attr:`PlanPost.current`: which regions
to read, why nothing is read, the observation last committed and the
explanations the commit decision weighs (:mod:`cogtable.commit_decision`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from cogtable.commit_decision import Explanations
from cogtable.tables.base import CameraRegion


@dataclass(frozen=True)
class ReadingPlan:
    """What to read now: the controller's word to the camera thread after a change."""

    regions: tuple[CameraRegion, ...] = ()
    """The parts of the table the camera reads (none: the game reads nothing)."""
    note: str = ""
    """Why the camera reads nothing, when it does not (the adapter's ``camera_note``)."""
    committed: Mapping[str, Any] | None = None
    """The last settled observation the table judged (read-only; None before the first)."""
    explanations: Explanations | None = None
    """What the board may show next, for the commit decision (None: nothing narrows it)."""
    game_id: int = 0
    ply: int = 0
    """The game and its length when the plan was made (a later plan has a later ply or game)."""

    @classmethod
    def of(
        cls,
        regions: tuple[CameraRegion, ...],
        note: str,
        committed: Any,
        explanations: Explanations | None,
        *,
        game_id: int,
        ply: int,
    ) -> ReadingPlan:
        """A plan; a committed observation given as a dict is wrapped read-only."""
        if isinstance(committed, dict):
            committed = MappingProxyType(committed)
        return cls(tuple(regions), note, committed, explanations, game_id, ply)


class PlanPost:
    """One atomic reference to the current :class:`ReadingPlan`.

    The controller thread :meth:`publish` es; any other thread reads
    :attr:`current` (a plain attribute read: the whole old plan or the whole new one).
    """

    def __init__(self, plan: ReadingPlan | None = None) -> None:
        self._plan = plan or ReadingPlan()

    @property
    def current(self) -> ReadingPlan:
        """The plan as last published."""
        return self._plan

    def publish(self, plan: ReadingPlan) -> None:
        """Replace the plan (the controller thread, after a change)."""
        self._plan = plan
