"""What a table publishes: its status, its public state and one event per journaled action.

Every message is one JSON object. ``seq`` numbers a table's game by the
journal's ply: the state's ``seq`` is the ply it shows, an action's event
carries the ply it made (``seq`` = ``ply``), and a take-back's event the ply it
removed. A subscriber keeps, per table and game, the last ``seq`` it holds: an
action with ``seq`` = last + 1 is new, one at or below it is a repeat (the table
republishes from its journal after an outage), and a take-back of the last
ply steps back by one (:class:`PlyLog`).

Nothing here carries a secret: the words of an action are the web view's
(the adapter's ``describe``), the state is the web view's board picture.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Final

MAX_MESSAGE_BYTES: Final = 1_000_000
"""A message larger than this is refused unread (a table's state is a few KiB)."""


class MessageError(ValueError):
    """A message that is not what its topic carries; the text says why, in one line."""


class EventKind(Enum):
    """An action journaled, or the last one taken back."""

    ACTION = "action"
    TAKE_BACK = "take-back"


@dataclass(frozen=True)
class PlyEvent:
    """One journaled action (or take-back) in public words."""

    seq: int
    game_id: int
    game: str
    ply: int
    kind: EventKind
    action: str
    """The action in the words the web view uses (a secret named by its purpose only)."""
    player: str
    source: str
    """Where the action came from (camera, button, console, simulation); a take-back's too."""
    time: float
    """When the journal committed it (a take-back: when it was published)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {**asdict(self), "kind": self.kind.value}

    @classmethod
    def from_json(cls, data: Any) -> PlyEvent:
        """The event in ``data``; MessageError if it is not one."""
        fields = _object(data, "an event")
        try:
            return cls(
                seq=_int(fields, "seq"),
                game_id=_int(fields, "game_id"),
                game=_text(fields, "game"),
                ply=_int(fields, "ply"),
                kind=EventKind(fields.get("kind")),
                action=_text(fields, "action"),
                player=_text(fields, "player"),
                source=_text(fields, "source"),
                time=_number(fields, "time"),
            )
        except ValueError as error:
            raise MessageError(f"not an event: {error}") from None


@dataclass(frozen=True)
class TableStatus:
    """What a table is doing, for the venue: online or offline, its game, turn and wait."""

    online: bool
    game: str | None = None
    game_id: int | None = None
    ply: int | None = None
    players: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    """Each player's seat colour, ``#rrggbb`` (the profile's seats)."""
    turn: str | None = None
    waiting: str = ""
    """What the table waits for, in words ("" when nothing)."""
    in_sync: bool | None = None
    """The board matches the game (None when the table does not say: a sim writes no status)."""
    message: str = ""
    last: str = ""
    """The last ply in the web view's words ("" before the first)."""
    outcome: dict[str, Any] | None = None
    stuck: str = ""
    """Why the table looks stuck ("" when it does not)."""
    updated: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, with ``state`` = ``online`` or ``offline``."""
        data = asdict(self)
        data["state"] = "online" if data.pop("online") else "offline"
        data["players"] = list(self.players)
        data["colours"] = list(self.colours)
        return data

    @classmethod
    def from_json(cls, data: Any) -> TableStatus:
        """The status in ``data``; MessageError if it is not one."""
        fields = _object(data, "a status")
        state = fields.get("state")
        if state not in ("online", "offline"):
            raise MessageError(f"not a status: state is {state!r}, not online or offline")
        try:
            players, colours = _texts(fields, "players"), _texts(fields, "colours")
            outcome = fields.get("outcome")
            if outcome is not None and not isinstance(outcome, dict):
                raise ValueError("outcome is not an object")
            in_sync = fields.get("in_sync")
            return cls(
                online=state == "online",
                game=_optional_text(fields, "game"),
                game_id=_optional_int(fields, "game_id"),
                ply=_optional_int(fields, "ply"),
                players=players,
                colours=colours,
                turn=_optional_text(fields, "turn"),
                waiting=_optional_text(fields, "waiting") or "",
                in_sync=in_sync if isinstance(in_sync, bool) else None,
                message=_optional_text(fields, "message") or "",
                last=_optional_text(fields, "last") or "",
                outcome=outcome,
                stuck=_optional_text(fields, "stuck") or "",
                updated=_number(fields, "updated") if "updated" in fields else 0.0,
            )
        except ValueError as error:
            raise MessageError(f"not a status: {error}") from None


@dataclass(frozen=True)
class StateSnapshot:
    """The public state of a table's game after ``seq`` plies: the web view's board picture."""

    seq: int
    game_id: int
    game: str
    board: dict[str, Any]
    """:meth:`cogtable.web.table_view.BoardPicture.to_json`: lines, LEDs, players, public view."""
    updated: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> StateSnapshot:
        """The snapshot in ``data``; MessageError if it is not one."""
        fields = _object(data, "a state")
        try:
            board = fields.get("board")
            if not isinstance(board, dict):
                raise ValueError("board is not an object")
            return cls(
                seq=_int(fields, "seq"),
                game_id=_int(fields, "game_id"),
                game=_text(fields, "game"),
                board=board,
                updated=_number(fields, "updated") if "updated" in fields else 0.0,
            )
        except ValueError as error:
            raise MessageError(f"not a state: {error}") from None


def encode(message: PlyEvent | TableStatus | StateSnapshot) -> bytes:
    """The message as compact UTF-8 JSON."""
    return json.dumps(message.to_json(), separators=(",", ":")).encode("utf-8")


def decode_json(payload: bytes) -> Any:
    """The JSON in ``payload``; MessageError for anything else (never another exception)."""
    if len(payload) > MAX_MESSAGE_BYTES:
        raise MessageError(f"{len(payload)} bytes: too big to be a table's message")
    try:
        return json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MessageError("not JSON text") from None


@dataclass
class PlyLog:
    """One table's plies as a subscriber holds them: repeats dropped by ``seq``, order kept.

    ``accept`` says what an event did: ``new`` (appended), ``taken back``,
    ``repeat`` (already held: dropped), ``replaced`` (the same ply with other
    words: the table took it back while the broker was away, so the log steps
    back to before it and appends it), or ``gap`` (a ply is missing before it:
    kept out, the table republishes it).
    """

    game_id: int | None = None
    plies: list[PlyEvent] = field(default_factory=list)

    def accept(self, event: PlyEvent) -> str:
        """Take ``event`` in if it is new; what it did."""
        if event.game_id != self.game_id:
            if self.game_id is not None and event.game_id < self.game_id:
                return "repeat"
            self.game_id, self.plies = event.game_id, []
        last = len(self.plies)
        if event.kind is EventKind.TAKE_BACK:
            if event.seq != last:
                return "repeat"
            self.plies.pop()
            return "taken back"
        if event.seq == last + 1:
            self.plies.append(event)
            return "new"
        if event.seq > last + 1:
            return "gap"
        if self.plies[event.seq - 1].action != event.action:
            del self.plies[event.seq - 1 :]
            self.plies.append(event)
            return "replaced"
        return "repeat"


# -- field checks: ValueError naming the field -------------------------------------------


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise MessageError(f"not {what}: a JSON {type(data).__name__}, not an object")
    return data


def _int(fields: dict[str, Any], name: str) -> int:
    value = fields.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} is {value!r}, not a whole number")
    return value


def _optional_int(fields: dict[str, Any], name: str) -> int | None:
    return None if fields.get(name) is None else _int(fields, name)


def _number(fields: dict[str, Any], name: str) -> float:
    value = fields.get(name)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise ValueError(f"{name} is {value!r}, not a number")
    return float(value)


def _text(fields: dict[str, Any], name: str) -> str:
    value = fields.get(name)
    if not isinstance(value, str):
        raise ValueError(f"{name} is {value!r}, not a text")
    return value


def _texts(fields: dict[str, Any], name: str) -> tuple[str, ...]:
    value = fields.get(name) or []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{name} is {value!r}, not a list of texts")
    return tuple(value)


def _optional_text(fields: dict[str, Any], name: str) -> str | None:
    return None if fields.get(name) is None else _text(fields, name)
