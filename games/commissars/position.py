"""A Cogs and Commissars position as data, to read from a game or set one up.

Seats, stack entries and tasks are the model's own pieces (copied on the way
in and out). A position is taken as it is: queued tasks run when the next
action is applied.

>>> from dataclasses import replace
>>> from games import commissars
>>> from games.commissars.model import Seat
>>> state = commissars.new_game({"players": 2}, seed=0)
>>> seats = (Seat("red", "", hand=Counter({"Propaganda": 1})), Seat("blue", ""))
>>> state.set_position(replace(state.position(), seats=seats, tasks=(), phase="action"))
>>> state.seats[0].hand, state.phase
(Counter({'Propaganda': 1}), 'action')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from .effects import Effects
from .model import Entry, Seat, Window
from .tasks import Task


@dataclass(frozen=True)
class CommissarsPosition:
    """Everything on the table between two actions, and the tasks still waiting."""

    seats: tuple[Seat, ...]
    gulag: Mapping[str, int]
    phase: str
    turn: int
    active: int
    actions_left: int
    hand_limit: int
    played: tuple[int, ...]
    stack: tuple[Entry, ...] = ()
    tasks: tuple[Task, ...] = ()
    window: Window | None = None
    next_id: int = 1
    disarmed: int = -1
    pool: Mapping[str, int] = field(default_factory=dict)
    picked: tuple[bool, ...] = ()
    winner: int = -1
    ended: str = ""
    resolving: Entry | None = None
    resolving_sent: int = 0


class Positions(Effects):
    """Reading a game's position and setting one up."""

    phase: str
    turn: int
    hand_limit: int
    played: list[int]
    tasks: list[Task]
    window: Window | None
    pool: Counter[str]
    picked: list[bool]
    ended: str

    def position(self) -> CommissarsPosition:
        """The position now, as data (copies: changing them changes nothing here)."""
        return CommissarsPosition(
            tuple(seat.copy() for seat in self.seats), dict(self.gulag), self.phase,
            self.turn, self.active, self.actions_left, self.hand_limit, tuple(self.played),
            tuple(entry.clone() for entry in self.stack), tuple(self.tasks),
            None if self.window is None else Window(self.window.next, self.window.passes),
            self.next_id, self.disarmed, dict(self.pool), tuple(self.picked), self.winner,
            self.ended, None if self.resolving is None else self.resolving.clone(),
            self.resolving_sent,
        )  # fmt: skip

    def set_position(self, position: CommissarsPosition) -> None:
        """Set the game to ``position`` as it is; the history is cleared (no replay to it)."""
        if len(position.seats) != self.num_players:
            raise ValueError(f"a {self.num_players}-player game needs {self.num_players} seats")
        self.seats = [seat.copy() for seat in position.seats]
        self.gulag, self.phase, self.turn = dict(position.gulag), position.phase, position.turn
        self.active, self.actions_left = position.active, position.actions_left
        self.hand_limit, self.played = position.hand_limit, list(position.played)
        self.stack = [entry.clone() for entry in position.stack]
        self.tasks, self.next_id = list(position.tasks), position.next_id
        window = position.window
        self.window = None if window is None else Window(window.next, window.passes)
        self.disarmed, self.pool = position.disarmed, Counter(position.pool)
        self.picked = list(position.picked) or [False] * self.num_players
        self.winner, self.ended = position.winner, position.ended
        resolving = position.resolving
        self.resolving = None if resolving is None else resolving.clone()
        self.resolving_sent, self.history = position.resolving_sent, []
