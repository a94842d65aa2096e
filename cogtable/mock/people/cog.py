"""Simulated C.O.G. players at a table whose camera reads the board and the mats.

They play as people at such a table do. What the camera reads they do with
their hands on the simulated table (:class:`~cogtable.mock.parts_world.PartsWorld`):
they draw letters from the bag and lay them in the slot, square or reserve the
table asks for (face up, turning the far right top slot's letter over once the
table took it), lay the dice they rolled in their slots, put their cogs on the
board, move the letters, stars and pawns the rules give them, lay words on
their grids from their reserves and take tiles back to the bag. Their hand
stays over the part they work on for a few frames, so the camera sees a hand
before it sees the result. Whatever the camera cannot see (a cabinet card
drawn, a card activated, an item completed) they type at the console; a die
asked of the Pico's electronic dice they roll there, then lay a die showing
that face. When the table reads a cog placed as several choices (with or
without a star power) they press confirm or type the one they meant.

They make a person's mistakes: now and then a cog on a space the rules refuse
or a word laid with tiles that did not come from the reserve, which they put
back when the table blinks it red; and whenever the table differs from the
game as the table shows it (a pawn to move, cogs to take back at the end of a
round, an undo), they put the table right.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from cogtable.inputs import ConsoleCommand
from cogtable.mock.parts_world import PartsWorld
from cogtable.mock.people.cog_pieces import (
    BOARD,
    BY_HAND,
    COG_COLOURS,
    COG_PLACEMENTS,
    Table,
    lay_out,
    mat_of,
)
from cogtable.mock.people.console import ConsolePeople
from games.cog.actions import DrawLetter, PlaceWord, RollDie
from games.cog.edition import load_edition
from games.cog.layout import Layout
from games.core import CHANCE, Action, Record, replay
from vision.layout import EMPTY, WILD

HAND_FRAMES = (2, 5)
"""A hand stays over the part this many frames (fewest, most) while laying something."""
PATIENCE_FRAMES = 25
"""Frames to wait for the table to take what was laid, before looking at why not."""
UNREAD_PATIENCE_FRAMES = 20
"""Frames the table may say it cannot read a tile before someone straightens the tiles."""


@dataclass
class Laying:
    """What a person is doing with their hands: the table they make, and when they are done."""

    who: str
    target: Table
    part: str
    until: int
    action: Action | None
    mistake: bool = False


@dataclass
class Waiting:
    """Something laid, waiting for the table to take it (its move count to go on)."""

    action: Action | None
    ply: int
    since: int
    mistake: bool = False


@dataclass
class CogTablePeople(ConsolePeople):
    """Everyone at a C.O.G. table read by the camera, acting once per frame of the world."""

    world: PartsWorld | None = None
    layout: Layout | None = None
    laying: Laying | None = None
    waiting: Waiting | None = None
    tidied: int = field(default=0)
    straightened: int = field(default=0)
    meant: list[Action] = field(default_factory=list)
    """Every action the people laid out on the table meaning it (not a slip), in order."""
    doubted_since: dict[str, int] = field(default_factory=dict)
    """Since which frame the table has doubted a tile (``unread``) or shown a difference the
    people do not see (``misread``)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.layout = self.layout or load_edition().layout

    def __call__(self, world: Any) -> None:
        """Look at the table and do one thing, at one frame of the world."""
        if self.finished:
            return
        status = self.table.shown_status()
        self._follow(status)
        if status.get("game_id") != self.game_id:
            return
        if self.laying is not None:
            self._go_on_laying(status)
            return
        if self.waiting is not None and self._still_waiting(status):
            return
        self._catch_up(status)
        if self.memory.is_over() or status.get("outcome"):
            if self._table_right(status):
                self._game_over(status)
            return
        if not self._table_right(status):
            return
        if not status.get("in_sync") or status.get("waiting"):
            self._straighten_if_unread(status)
            return  # the camera has not yet seen the table still, as it is now
        asked = status.get("waiting_for") or []
        if asked and status.get("ply") == len(self.memory.history):
            self._answer(self.rng.choice(asked) if len(asked) > 1 else asked[0], status)

    # -- keeping up with the table ----------------------------------------------------

    def _catch_up(self, status: dict[str, Any]) -> None:
        """Believe the table's count of moves over memory (an undo, a restart, a typed choice)."""
        record = self.table.game_record()  # as journaled: not only its length, what was taken
        if record is not None and list(record.actions) != self.memory.history:
            self.memory = replay(record)

    def _table_right(self, status: dict[str, Any]) -> bool:
        """Put the table right where it differs from the game; True when it already matched."""
        assert self.world is not None and self.layout is not None
        target = lay_out(self.memory, self.layout)
        differences = self.world.differences(target)
        if not differences:
            self._straighten_if_misread(status)
            return True
        part = differences[0][0]
        self._lay("tidy", target, part, None)
        self.tidied += 1
        return False

    def _straighten_if_misread(self, status: dict[str, Any]) -> None:
        """The table shows a difference the people do not see (a tile misread): straighten."""
        doubt = f"the table says {status.get('message', '')}"
        self._straighten_after("misread", doubt if status.get("verdict") == "out-of-sync" else "")

    def _straighten_if_unread(self, status: dict[str, Any]) -> None:
        """The table says for a while it cannot read a tile: someone straightens the pieces."""
        waiting = str(status.get("waiting", ""))
        self._straighten_after(
            "unread", f"the table says {waiting}" if "cannot read" in waiting else ""
        )

    def _straighten_after(self, kind: str, why: str) -> None:
        """Straighten the tiles once ``why`` (a doubt of ``kind``) has lasted a while; "": none."""
        assert self.world is not None
        if not why:
            self.doubted_since.pop(kind, None)
            return
        started = self.doubted_since.setdefault(kind, self.world.frames)
        if self.world.frames - started > UNREAD_PATIENCE_FRAMES:
            self.say(f"{why}: straightening the tiles")
            self.world.straighten()
            del self.doubted_since[kind]
            self.straightened += 1

    # -- answering ---------------------------------------------------------------------

    def _answer(self, asked: dict[str, Any], status: dict[str, Any]) -> None:
        if asked["route"] != "camera":
            super()._answer(asked, status)
            return
        if asked["kind"] != "choice":
            self._draw_on_table(asked)
            return
        player = asked["player"]
        action = self.players[player](self.memory.clone(), player, self.rng)
        if not isinstance(action, BY_HAND):
            line = ConsoleCommand(action.notation(), seat=player, answers=asked["key"])
            if self.table.console(line):
                self._accepted(action, f"{self.memory.player_name(player)}: {action.notation()}")
            return
        if self.memory.history and self.rng.random() < self.style.undo_rate:
            self._undo()
            return
        mistake = self.rng.random() < self.style.mistake_rate
        self._do(action, COG_COLOURS[player], mistake)

    def _draw_on_table(self, asked: dict[str, Any]) -> None:
        """Draw a letter from the bag (or roll a die) and lay it where the table asks."""
        outcomes = self.memory.chance_outcomes()
        drawn = self.rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        assert isinstance(drawn, DrawLetter | RollDie)
        self._do(drawn, "the table", False)

    def _do(self, action: Action, who: str, mistake: bool) -> None:
        """Make the table look as it will after ``action`` (or a slip of it), hand in sight."""
        assert self.world is not None and self.layout is not None
        twin = self.memory.clone()
        twin.apply(action)
        target = lay_out(twin, self.layout)
        if mistake:
            target = _slip(self.memory, action, target, self.layout, self.rng) or target
            mistake = target != lay_out(twin, self.layout)
        if isinstance(action, DrawLetter):
            target = _face_up(self.world, target, action.letter)
        differences = self.world.differences(target)
        if not differences:
            return
        if not mistake:
            self.meant.append(action)
        self._lay(who, target, differences[0][0], action, mistake)

    def _lay(
        self,
        who: str,
        target: Table,
        part: str,
        action: Action | None,
        mistake: bool = False,
    ) -> None:
        assert self.world is not None
        place = next(iter(self.world.layouts[part].read_places())).name
        self.world.reach(who, part, place, self.rng)
        frames = self.rng.randint(*HAND_FRAMES)
        self.laying = Laying(who, target, part, self.world.frames + frames, action, mistake)

    def _go_on_laying(self, status: dict[str, Any]) -> None:
        """The hand lays everything at once, stays a little, then goes."""
        assert self.world is not None and self.laying is not None
        laying = self.laying
        for part, place, label in self.world.differences(laying.target):
            self.world.put(part, place, label)
        if self.world.frames < laying.until:
            return
        self.world.withdraw(laying.who)
        self.laying = None
        if laying.action is not None:
            self.waiting = Waiting(
                laying.action, len(self.memory.history), self.world.frames, laying.mistake
            )

    def _still_waiting(self, status: dict[str, Any]) -> bool:
        """Whether to go on waiting for the table to take what was laid."""
        assert self.world is not None and self.waiting is not None
        waiting = self.waiting
        if status.get("ply", 0) > waiting.ply:
            self.waiting = None
            self._catch_up(status)
            self.say(f"laid {waiting.action.notation() if waiting.action else 'it'}: accepted")
            return False
        if status.get("verdict") == "choose" and waiting.action is not None:
            self._choose_meant(waiting.action)
            waiting.since = self.world.frames
            return True
        if status.get("verdict") == "illegal":
            self.waiting = None
            self.mistakes += waiting.mistake
            self.say(f"the table blinks red: {status.get('message', '')}; putting it back")
            return False
        if self.world.frames - waiting.since < PATIENCE_FRAMES:
            return True
        self.waiting = None
        return False

    def _choose_meant(self, meant: Action) -> None:
        """The table read a placement as several choices: confirm the plain one, or type it."""
        if not _starred(meant) and self.rng.random() < 0.5:
            self.table.press(meant.player, "confirm")
        else:
            self.table.console(ConsoleCommand(meant.notation(), seat=meant.player))

    def _undo(self) -> None:
        """The last player holds undo; they then put the table back as the LEDs show."""
        last = self.memory.history[-1]
        seat = last.player if last.player != CHANCE else 0
        if self.table.press(seat, "undo", held=True):
            record = self.memory.record()
            if self.table.shown_status().get("ply") == len(record.actions) - 1:
                self.memory = replay(
                    Record(record.game, record.options, record.seed, record.actions[:-1])
                )
                self.undos += 1
                self.say(f"{self.memory.player_name(seat)} held undo: took back {last.notation()}")


def _face_up(world: PartsWorld, target: Table, letter: str) -> Table:
    """A drawn letter that will lie face down in a top slot is laid face up first.

    (A face-down tile already in a reserve is another tile: it stays as it is.)

    The person turns it over once the table took it (the table then differs
    from the game there, and they put it right).
    """
    laid = {part: dict(places) for part, places in target.items()}
    for part, place, label in world.differences(target):
        if part == BOARD and label == WILD and world.label(part, place) == EMPTY:
            laid[part][place] = letter
    return laid


def _slip(
    memory: Any,
    action: Action,
    target: Table,
    layout: Layout,
    rng: random.Random,
) -> Table | None:
    """A person's mistake instead of ``action``: a cog on a space the rules refuse, or a word
    whose tiles did not come from the reserve (the reserve left full). None: no slip fits."""
    if isinstance(action, PlaceWord):
        slipped = {part: dict(places) for part, places in target.items()}
        full = lay_out(memory, layout)[mat_of(action.player)]
        for place, label in full.items():
            if place.startswith("reserve"):
                slipped[mat_of(action.player)][place] = label
        return slipped
    if isinstance(action, COG_PLACEMENTS):
        board = lay_out(memory, layout)[BOARD]
        legal = {
            space
            for space, label in target[BOARD].items()
            if space.startswith("cog-") and label and board.get(space) != label
        }
        wrong = [
            space
            for space, label in board.items()
            if space.startswith("cog-") and label == EMPTY and space not in legal
        ]
        if not wrong:
            return None
        slipped = {part: dict(places) for part, places in lay_out(memory, layout).items()}
        slipped[BOARD][rng.choice(sorted(wrong))] = COG_COLOURS[action.player]
        return slipped
    return None


def _starred(action: Action) -> bool:
    return any(getattr(action, name, False) for name in ("reroll", "swap", "protect"))


TablePeople = CogTablePeople
"""The people :mod:`cogtable.commands.sim` seats at a C.O.G. table read by the camera."""

__all__ = ["CogTablePeople", "TablePeople"]
