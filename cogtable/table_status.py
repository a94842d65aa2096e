"""The table's status as its screen shows it: typed and immutable, JSON only at the edge.

The controller thread builds one after every change (:meth:`GameTable.status`)
and publishes it; other threads (the status file, the web view, the fleet, the
mock people) read the last one published. It turns into JSON only where it
leaves the process (:meth:`TableStatus.to_json`: the status file, MQTT).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cogtable.waits import Wait, WaitKind


@dataclass(frozen=True)
class ShownWait:
    """A wait the table says (:class:`cogtable.waits.Wait`) as it was shown, at that moment."""

    kind: WaitKind
    seconds: float
    """How long it had lasted when shown (rounded to a tenth)."""
    expected: str
    seen: str
    remedy: str

    @classmethod
    def of(cls, wait: Wait, now: float) -> ShownWait:
        """``wait`` as shown at ``now``."""
        seconds = round(wait.seconds(now), 1)
        return cls(wait.kind, seconds, wait.expected, wait.seen, wait.remedy)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready for the status file."""
        return {
            "kind": self.kind.value,
            "seconds": self.seconds,
            "expected": self.expected,
            "seen": self.seen,
            "remedy": self.remedy,
        }


@dataclass(frozen=True)
class TableStatus:
    """Game, turn, sync, what the table waits for and the last thing it said.

    The default is the status of a table that has shown nothing yet.
    """

    game: str = ""
    game_id: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    ply: int | None = None
    """Actions journaled in this game (None before the first status)."""
    turn: str | None = None
    """Who acts, in words; None at the end of a game."""
    in_sync: bool = False
    waiting: str = ""
    """Why the camera cannot settle ("" when it can)."""
    waiting_for: tuple[Mapping[str, Any], ...] = ()
    """The open requests as the whole table may see them (each request's public JSON)."""
    asking: str = ""
    camera: str = ""
    last: str = ""
    message: str = ""
    verdict: str = ""
    outcome: Mapping[str, Any] | None = None
    wait: ShownWait | None = None
    stopped: str = ""
    """Why a game played with another table stopped ("" while it goes on)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready for the status file, the web view and the venue (keys as before)."""
        return {
            "game": self.game,
            "game_id": self.game_id,
            "options": dict(self.options),
            "seed": self.seed,
            "ply": self.ply,
            "turn": self.turn,
            "in_sync": self.in_sync,
            "waiting": self.waiting,
            "waiting_for": [dict(asked) for asked in self.waiting_for],
            "asking": self.asking,
            "camera": self.camera,
            "last": self.last,
            "message": self.message,
            "verdict": self.verdict,
            "outcome": dict(self.outcome) if self.outcome is not None else None,
            "wait": self.wait.to_json() if self.wait is not None else None,
            "stopped": self.stopped,
        }
