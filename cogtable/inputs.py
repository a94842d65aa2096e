"""What sensor threads put on the controller's one input queue.

Producers (the camera reader, the Pico link, gpiozero callbacks, the console,
signal handlers) only build these plain frozen objects and ``put`` them; the
controller thread alone turns them into changes of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Peg = tuple[int, int]
PieceColour = Literal["red", "blue", "gold"]
ButtonName = Literal["confirm", "undo", "pass", "new_game", "pause"]
PartName = Literal["camera", "link", "gpio"]


@dataclass(frozen=True)
class BoardSettled:
    """A committed camera reading: the board was still and uncovered for the window.

    ``observation`` is what the game's camera regions read, as the game's
    adapter expects it: for the Kogworks disk every occupied peg and the
    colour seen there (empty pegs absent); for printed parts (the C.O.G.
    board and mats) part name -> place name -> label, the latest committed
    reading of every part.
    """

    observation: Mapping[Peg, PieceColour] | Mapping[str, Mapping[str, str]]
    frame_time: float = 0.0


@dataclass(frozen=True)
class BoardUnsettled:
    """The board is moving, covered or unreadable; ``reason`` says which, for the status."""

    reason: str


@dataclass(frozen=True)
class ButtonPressed:
    """A button was pressed, or ``held`` past its hold time; ``seat`` None: a table button."""

    button: ButtonName
    seat: int | None = None
    held: bool = False


@dataclass(frozen=True)
class DiceRolled:
    """An electronic die (the Pico's) or a GPIO roll button reported a value."""

    die: int
    value: int


@dataclass(frozen=True)
class ConsoleCommand:
    """A line typed at the console: an answer to what the table asks, or a command.

    ``seat`` says who typed it, where that matters (a choice at a table where
    several may act); ``answers`` names the request (its key in the status)
    the line answers, so an answer to a question no longer asked is refused.
    """

    text: str
    seat: int | None = None
    answers: str | None = None


@dataclass(frozen=True)
class PartStatus:
    """A sensor or output changed state: ``camera``/``link``/``gpio`` and a short word."""

    part: PartName
    status: str
    detail: str = ""


@dataclass(frozen=True)
class Shutdown:
    """Stop the controller cleanly (SIGTERM, end of a mock game)."""

    reason: str = "stop requested"


@dataclass(frozen=True)
class RemotePartner:
    """This table plays one game with another table, whose ``seats`` are played there.

    The other table's events (:mod:`cogtable.fleet.remote`) put it first, before
    any of its records: from then on a move for those seats is refused here.
    """

    table: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class RemoteTakeBack:
    """A take-back made at the other table: its move ``ply`` (``action``, as the journal's JSON)
    was taken back there, and no move came after it."""

    ply: int
    action: Any


@dataclass(frozen=True)
class RemoteRecord:
    """The other table's record of the shared game, as it last published it.

    ``actions`` are its journal's actions of the game in progress, as JSON in
    ply order; the controller compares them with its own record (it may be
    ahead, behind or the same; a difference stops the game).
    """

    table: str
    game: str
    actions: tuple[Any, ...]
    finished: bool = False
    """Its game is over: a fresh game here does not take its moves (it starts anew too)."""
    taken_back: RemoteTakeBack | None = None
    """A move of a seat played there that it took back (this table must take it back too)."""


@dataclass(frozen=True)
class RemoteStopped:
    """The other table stopped the shared game (a disagreement); ``reason`` says why."""

    table: str
    reason: str


Input = (
    BoardSettled
    | BoardUnsettled
    | ButtonPressed
    | DiceRolled
    | ConsoleCommand
    | PartStatus
    | RemotePartner
    | RemoteRecord
    | RemoteStopped
    | Shutdown
)
