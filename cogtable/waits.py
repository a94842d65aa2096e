"""Why the table cannot go on, in words: what it expected, what it sees, how to put it right.

A table that waits never waits silently (docs/ARCHITECTURE.md, "Reading the physical
board"). Whatever holds it up (a Pico that is gone, a camera that sees
nothing or cannot tell what the board shows, a board that differs from the
game, a request nobody answered) is a :class:`Wait`; once one has lasted
:data:`WAIT_SHOWN_S` on the table's own clock, the table shows it on the
screen, in its status (``status.json``, ``cogtable status``, the web view)
and, for what the table itself cannot get past, with its status LED amber.

:func:`waits_of` lists what holds the table up now, most pressing first;
:class:`WaitWatch` remembers since when each has held and picks the one to show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from cogtable.sensing import Asked
from cogtable.tables.base import Verdict
from games.core import State

WAIT_SHOWN_S = 3.0
"""How long the table waits before it says why (seconds of the table's clock)."""

LINK_OK = "connected"
CAMERA_OK = ("ok", "not used", "unknown")


class WaitKind(Enum):
    """What holds the table up."""

    PICO = "pico"
    """The Pico (LEDs, buttons, dice) is not connected."""
    CAMERA = "camera"
    """The camera gives no picture, or no settled one the table can judge."""
    BOARD = "board"
    """The board differs from the game (out of sync, an illegal change, a piece held up)."""
    REQUEST = "request"
    """The game asks for something nobody has given yet (a move, a roll, a choice)."""


@dataclass(frozen=True)
class Wait:
    """One thing the table waits for, in words a person at the table can act on."""

    kind: WaitKind
    expected: str
    """What the table expected (the board as the game has it, Red's move, a roll)."""
    seen: str
    """What it sees instead."""
    remedy: str
    """How to put it right."""
    topic: str = ""
    """What this wait is about (a part, the requests' keys): a new topic is a new wait."""
    since: float | None = None
    """When it began, on the table's clock (set by :class:`WaitWatch`)."""

    @property
    def key(self) -> tuple[WaitKind, str]:
        """Its identity: the same wait while its kind and topic stay (words may change)."""
        return self.kind, self.topic

    @property
    def amber(self) -> bool:
        """The table itself cannot go on (status LED amber); a player's turn is not that."""
        return self.kind is not WaitKind.REQUEST

    def seconds(self, now: float) -> float:
        """How long it has lasted at ``now``."""
        return 0.0 if self.since is None else max(0.0, now - self.since)

    def lines(self, now: float) -> list[str]:
        """The screen's lines for it."""
        return [
            f"waiting {self.seconds(now):.0f} s: expected {self.expected}",
            f"  sees: {self.seen}",
            f"  to go on: {self.remedy}",
        ]


@dataclass(frozen=True)
class TableFacts:
    """What the table knows that may hold it up (the controller thread fills it in)."""

    state: State
    asked: Sequence[Asked]
    verdict: Verdict
    synced: bool
    reads_camera: bool
    camera: str = ""
    """Why the camera has no settled reading now (its last ``BoardUnsettled`` reason)."""
    put_right: str = ""
    """After an undo, how to put the board right (the table's words), else empty."""
    seen_any: bool = False
    """Whether the camera has settled on any reading yet."""
    differences: str = ""
    """Where the last settled reading differs from the game, in the game's words."""
    parts: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Each part's last reported status and detail (``camera``, ``link``, ``gpio``)."""


def waits_of(facts: TableFacts) -> list[Wait]:
    """What holds the table up now, most pressing first (empty: nothing, or the game is over)."""
    if facts.state.is_over():
        return []
    waits = [_pico(facts), _no_camera(facts), _unsettled(facts), _board(facts), _request(facts)]
    return [wait for wait in waits if wait is not None]


def _pico(facts: TableFacts) -> Wait | None:
    status, detail = facts.parts.get("link", (LINK_OK, ""))
    if status in (LINK_OK, "unknown"):
        return None
    remedy = (
        "check the Pico's USB cable to the table's computer (unplug it and plug it in again);"
        " the table goes on by itself once the Pico answers"
    )
    if status == "version mismatch":  # the link does not retry: the firmware must change
        remedy = (
            "flash the firmware this table runs (cogtable firmware flash), then restart the"
            " table (sudo systemctl restart cogtable)"
        )
    return Wait(
        WaitKind.PICO,
        "the Pico (the LEDs, buttons and dice) connected",
        f"the Pico link is {status}" + (f": {detail}" if detail else ""),
        remedy,
        topic="link",
    )


def _no_camera(facts: TableFacts) -> Wait | None:
    status, detail = facts.parts.get("camera", ("unknown", ""))
    if not facts.reads_camera or status in CAMERA_OK:
        return None
    return Wait(
        WaitKind.CAMERA,
        "a picture of the table from the camera",
        f"{status}" + (f": {detail}" if detail else ""),
        "check the camera's cable and that nothing else uses it; the table looks again"
        " every second",
        topic="part",
    )


def _unsettled(facts: TableFacts) -> Wait | None:
    seen = facts.camera
    if not facts.reads_camera or not seen:
        return None
    if "cannot" in seen or "unsure" in seen:
        remedy = (
            "set each piece named squarely on its place and keep shadows and glare off the board;"
            " if it still cannot tell, type the move at the console"
        )
    elif "marker" in seen:
        remedy = "bring the board's corner markers back into the camera's view, uncovered"
    elif "no camera" in seen:
        remedy = "check the camera's cable and that nothing else uses it"
    else:
        remedy = "take your hands off the board and clear anything lying over it"
    return Wait(WaitKind.CAMERA, "the board still and in full view", seen, remedy, topic="settle")


def _board(facts: TableFacts) -> Wait | None:
    verdict = facts.verdict
    if facts.synced and verdict.kind not in ("illegal", "lifted", "out-of-sync", "choose"):
        return None
    if verdict.kind == "choose" and facts.synced:  # the table asks a player: not held up
        return Wait(
            WaitKind.REQUEST,
            "to know which of the moves that fit the board was made",
            verdict.reason or "a change that more than one move explains",
            "the player presses confirm for the plain move, or types the one meant",
            topic="choose",
        )
    if verdict.kind == "lifted" and facts.synced:
        return Wait(
            WaitKind.BOARD,
            "the lifted piece put down",
            verdict.reason or "a piece held up off the board",
            "put it down on one of the places lit white, or back where it was",
            topic="lifted",
        )
    if verdict.kind == "illegal" and facts.synced:
        return Wait(
            WaitKind.BOARD,
            "a legal move, or the board as the game stands",
            verdict.reason or "a change the rules do not allow",
            "put the pieces blinking red back where they were, then make a legal move",
            topic="illegal",
        )
    ply = len(facts.state.history)
    seen = facts.differences or _differing_count(verdict)
    if not seen:
        seen = "the board differs from the game" if facts.seen_any else "no settled board yet"
    said = verdict.reason if verdict.kind == "out-of-sync" else ""
    remedy = facts.put_right or said or "set the board as the game stands"
    remedy += " (the places blinking amber differ; or hold undo, or press new game)"
    return Wait(
        WaitKind.BOARD, f"the board as the game stands after move {ply}", seen, remedy, topic="sync"
    )


def _differing_count(verdict: Verdict) -> str:
    """How many places differ, where the game has no words for them ("" when none are lit)."""
    count = len(verdict.places) + sum(len(places) for _, places in verdict.other_places)
    if verdict.kind != "out-of-sync" or not count:
        return ""
    return f"{count} place{'s' if count != 1 else ''} not as the game has them"


def _request(facts: TableFacts) -> Wait | None:
    if not facts.asked:
        return None
    state = facts.state
    routes = {ask.route for ask in facts.asked}
    seen = {
        "camera": "no change on the board for it yet",
        "dice": "no roll yet",
        "console": "no answer typed yet",
    }
    remedy = {
        "camera": "make it on the board and take your hand away",
        "dice": "press the roll button",
        "console": "type the answer at the console (or: cogtable answer ... on the table's"
        " computer)",
    }
    return Wait(
        WaitKind.REQUEST,
        "; ".join(ask.question(state) for ask in facts.asked),
        "; ".join(seen[route] for route in sorted(routes)),
        "; ".join(remedy[route] for route in sorted(routes)),
        topic=",".join(sorted(ask.key for ask in facts.asked)),
    )


class WaitWatch:
    """Since when each wait has held; which one the table shows now."""

    def __init__(self, after: float = WAIT_SHOWN_S) -> None:
        self.after = after
        self.since: dict[tuple[WaitKind, str], float] = {}

    def update(self, waits: Sequence[Wait], now: float) -> Wait | None:
        """Note the waits that hold now; the most pressing that has held ``after`` seconds."""
        since = {wait.key: self.since.get(wait.key, now) for wait in waits}
        self.since = since
        for wait in waits:
            if now - since[wait.key] >= self.after:
                return replace(wait, since=since[wait.key])
        return None
