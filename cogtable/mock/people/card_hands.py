"""What the simulated people at a card mat share: the mat as they mean it, and a hand laying it.

The Cookie's and Commissars' people (``cogtable.mock.people.cookie``,
``cogtable.mock.people.commissars``) are both :class:`CardMatPeople`: a person
reaches over the mat, changes it with a hand over it for a few frames,
withdraws, and waits for the table's verdict (taken, asked which, refused, or
nothing for a while); a button press waits the same way. Each game says only
how its cards move (turned up, or taken and laid), what the mat should hold,
how it answers the table, and what it says.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cogtable.mock.cards_world import CardsWorld
from cogtable.mock.people.console import ConsolePeople
from games.core import CHANCE, Action, Record, replay

HAND_FRAMES = (2, 4)
"""A hand stays over the mat this many frames (fewest, most) while laying a card."""
PATIENCE_FRAMES = 25
"""Frames to wait for the table to take what was laid, before looking again."""
Zones = dict[str, tuple[Counter[int], int]]
"""Zone name -> (face-up tag ids, backs): a mat as the people mean it to be."""


@dataclass
class Laying:
    """A hand at work on the mat: the zones to change, until when, and what it means."""

    who: str
    target: Zones
    until: int
    actions: tuple[Action, ...]
    mistake: bool = False


@dataclass
class Waiting:
    """Something laid or pressed, waiting for the table to take it (its move count to go on)."""

    actions: tuple[Action, ...]
    ply: int
    since: int
    mistake: bool = False


def mat_of(world: CardsWorld) -> Zones:
    """The world's mat as it lies now."""
    return {name: (Counter(up), down) for name, (up, down) in world.contents().items()}


def zone_differs(mat: Zones, target: Zones, name: str) -> bool:
    """Whether zone ``name`` lies otherwise than ``target`` wants it."""
    up, down = mat.get(name, (Counter(), 0))
    want_up, want_down = target.get(name, (Counter(), 0))
    return +up != +want_up or down != want_down


def differs(mat: Zones, target: Zones) -> bool:
    """Whether any zone lies otherwise than ``target`` wants it."""
    return any(zone_differs(mat, target, name) for name in set(mat) | set(target))


def start_laying(
    world: CardsWorld,
    rng: random.Random,
    who: str,
    target: Zones,
    actions: tuple[Action, ...],
    *,
    mistake: bool = False,
) -> Laying | None:
    """Reach over the first zone to change (None: nothing to change); the hand stays a while."""
    changed = [name for name in target if zone_differs(mat_of(world), target, name)]
    if not changed:
        return None
    world.reach(who, changed[0])
    return Laying(who, target, world.frames + rng.randint(*HAND_FRAMES), actions, mistake)


@dataclass
class CardMatPeople(ConsolePeople, ABC):
    """Everyone at a table whose camera reads a card mat, acting once per frame of the world.

    Each frame they finish the laying in hand, or wait for the table's verdict,
    or put the mat right, or answer what the table asks. A game's people
    (a subclass) give what the mat should hold (:meth:`_target`), how their
    cards move (:meth:`_move_cards`), how they answer (``_answer``), and what
    they do and say when the table asks which was meant or refuses.
    """

    world: CardsWorld | None = None
    laying: Laying | None = None
    waiting: Waiting | None = None
    meant: list[Action] = field(default_factory=list)
    """Every action the people meant the table to take (not a slip), in order."""
    forgot_until: int = 0
    """Until which frame someone who forgot to press a button goes on forgetting (0: nobody)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        assert self.world is not None, f"{type(self).__name__} play on a card mat"
        self.zones = {
            zone.seat - 1: zone.name for zone in self.world.mat.zones if zone.seat is not None
        }
        """Seat (from 0) -> the name of its zone on the mat."""

    def __call__(self, world: Any) -> None:
        """Look at the table and do one thing, at one frame of the world."""
        if self.finished:
            return
        status = self.table.shown_status()
        self._follow(status)
        if status.get("game_id") != self.game_id:
            return
        if self.laying is not None:
            self._go_on_laying()
            return
        if self.waiting is not None and self._still_waiting(status):
            return
        self._catch_up(status)
        if self.memory.is_over() or status.get("outcome"):
            if self._mat_right():
                self._game_over(status)
            return
        if not self._mat_right() or not status.get("in_sync") or status.get("waiting"):
            return
        asked = status.get("waiting_for") or []
        if asked and status.get("ply") == len(self.memory.history):
            self._answer(self._pick(asked), status)

    # -- what each game gives ----------------------------------------------------------

    @abstractmethod
    def _catch_up(self, status: dict[str, Any]) -> None:
        """Believe the table's game over memory (an undo, a restart) and follow it."""

    @abstractmethod
    def _pick(self, asked: list[dict[str, Any]]) -> dict[str, Any]:
        """Which of the requests the table waits for to answer now."""

    @abstractmethod
    def _target(self) -> Zones:
        """The mat as it should lie now."""

    @abstractmethod
    def _move_cards(self, mat: Zones, target: Zones) -> None:
        """Change the world's mat (lying as ``mat``) into ``target``, as this game's cards move."""

    @abstractmethod
    def _say_which(self, action: Action, status: dict[str, Any]) -> None:
        """The table asks which of several readings ``action`` (laid) was: answer it."""

    @abstractmethod
    def _refused(self, waiting: Waiting, message: str) -> None:
        """The table refused what ``waiting`` laid or pressed (``message``): say so, undo it."""

    # -- keeping up with the table -------------------------------------------------------

    def _table_record(self) -> Record | None:
        """The game as the table journaled it (its screen and web view show it), if it has one."""
        return self.table.game_record()  # type: ignore[no-any-return]

    def _mat(self) -> Zones:
        assert self.world is not None
        return mat_of(self.world)

    def _mat_right(self) -> bool:
        """Put the mat as the people mean it; True if it already was."""
        target = self._target()
        if differs(self._mat(), target):
            self._lay("tidy", target, ())
            return False
        return True

    def _hold_undo(self) -> bool:
        """The last player holds undo; True if the table took the last move back (so do they)."""
        last = self.memory.history[-1]
        seat = last.player if last.player != CHANCE else 0
        if not self.table.press(seat, "undo", held=True):
            return False
        record = self.memory.record()
        if self.table.shown_status().get("ply") != len(record.actions) - 1:
            return False
        self.memory = replay(Record(record.game, record.options, record.seed, record.actions[:-1]))
        self.undos += 1
        return True

    def _forgets(self, slip: str, frames: int, *, counted: bool = False) -> bool:
        """Whether a button press is forgotten this frame: still, or newly (``slip`` is said).

        Someone who forgets goes on forgetting for ``frames`` frames, then
        presses; ``counted``: a new lapse counts as a mistake.
        """
        assert self.world is not None
        if self.world.frames < self.forgot_until:
            return True
        if not self.forgot_until and self.rng.random() < self.style.mistake_rate:
            self.forgot_until = self.world.frames + frames
            self.mistakes += counted
            self.say(slip)
            return True
        self.forgot_until = 0
        return False

    # -- hands on the mat and the table's verdict -------------------------------------------

    def _lay(
        self, who: str, target: Zones, actions: tuple[Action, ...], mistake: bool = False
    ) -> None:
        """Reach over the first zone to change; the change is made, the hand stays a while."""
        assert self.world is not None
        laying = start_laying(self.world, self.rng, who, target, actions, mistake=mistake)
        if laying is None:
            return
        if not mistake:
            self.meant.extend(actions)
        self.laying = laying

    def _go_on_laying(self) -> None:
        """The hand makes the change and stays until its time is up; then it waits for a verdict."""
        assert self.world is not None and self.laying is not None
        laying = self.laying
        self._move_cards(self._mat(), laying.target)
        if self.world.frames < laying.until:
            return
        self.world.withdraw(laying.who)
        self.laying = None
        if laying.actions or laying.mistake:
            self._wait(laying.actions, laying.mistake)

    def _wait(self, actions: tuple[Action, ...], mistake: bool = False) -> None:
        """Wait for the table to take ``actions`` (laid or pressed), from this frame."""
        assert self.world is not None
        self.waiting = Waiting(actions, len(self.memory.history), self.world.frames, mistake)

    def _patient_again(self) -> None:
        """Wait the whole patience again from this frame (the table was just answered)."""
        assert self.world is not None and self.waiting is not None
        self.waiting.since = self.world.frames

    def _still_waiting(self, status: dict[str, Any]) -> bool:
        """Whether to go on waiting for the table to take what was laid or pressed."""
        assert self.world is not None and self.waiting is not None
        waiting = self.waiting
        if waiting.actions and status.get("ply", 0) >= waiting.ply + len(waiting.actions):
            self.waiting = None
            self.say(f"{'; '.join(a.notation() for a in waiting.actions)}: accepted")
            return False
        if status.get("verdict") == "choose" and waiting.actions:
            self._say_which(waiting.actions[0], status)
            return True
        if status.get("verdict") == "illegal":
            self.waiting = None
            self.mistakes += waiting.mistake
            self._refused(waiting, str(status.get("message", "")))
            return False
        if self.world.frames - waiting.since < PATIENCE_FRAMES:
            return True
        self.waiting = None
        return False
