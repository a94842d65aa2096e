"""The controller: one thread that owns the game and consumes one input queue.

Sensor threads only put :mod:`cogtable.inputs` objects on the queue. The
controller takes them one at a time, hands each to the :class:`Table` (which
knows the game, the journal and the LEDs), and pings the heartbeat after
every item and every idle tick, so a watchdog sees a hung controller, not
just a dead process.

A failure while handling one input is logged and kept as the last error; the
loop goes on, because a kiosk must not stop for one bad frame. Nothing was
recorded for that input, since the table records an action only after it is
known to be legal.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from cogtable.inputs import Input, PartStatus, Shutdown
from cogtable.table_status import TableStatus

log = logging.getLogger(__name__)
Clock = Callable[[], float]


class Table(Protocol):
    """What the controller drives: the game, its journal, its adapter and LEDs."""

    def handle(self, item: Input, now: float) -> None:
        """React to one input (apply a move, undo, show a mismatch, ...)."""

    def tick(self, now: float) -> None:
        """Called when no input came for a tick: time-outs and animations."""

    def status(self) -> TableStatus:
        """What ``cogtable status`` shows: game, turn, and so on."""

    def pause(self) -> None:
        """Show the paused pattern and close the journal cleanly (shutdown)."""


@dataclass
class ControllerStatus:
    """What the controller knows beyond the game: parts and the last error."""

    parts: dict[str, str] = field(
        default_factory=lambda: {"camera": "unknown", "link": "unknown", "gpio": "unknown"}
    )
    last_error: str = ""
    handled: int = 0


class Controller:
    """Consumes ``inputs`` until a :class:`Shutdown`, driving ``table``."""

    def __init__(
        self,
        table: Table,
        inputs: queue.SimpleQueue[Input] | queue.Queue[Input],
        *,
        clock: Clock = time.monotonic,
        heartbeat: Callable[[], object] = lambda: None,
        tick_seconds: float = 0.5,
    ) -> None:
        self.table = table
        self.inputs = inputs
        self.clock = clock
        self.heartbeat = heartbeat
        self.tick_seconds = tick_seconds
        self.state = ControllerStatus()

    def run(self) -> str:
        """Run until shutdown; return the shutdown reason. Always leaves the table paused."""
        try:
            while True:
                item = self._next()
                if isinstance(item, Shutdown):
                    self.heartbeat()
                    return item.reason
                self._handle(item)
                self.heartbeat()  # after the item: the status written then already shows it
        finally:
            self.table.pause()

    def _next(self) -> Input | None:
        try:
            return self.inputs.get(timeout=self.tick_seconds)
        except queue.Empty:
            return None

    def _handle(self, item: Input | None) -> None:
        try:
            self._dispatch(item)
        except Exception as error:  # a kiosk keeps running; see the module doc
            log.exception("could not handle %r", item)
            self.state.last_error = f"{type(error).__name__}: {error}"

    def _dispatch(self, item: Input | None) -> None:
        now = self.clock()
        if item is None:
            self.table.tick(now)
            return
        self.state.handled += 1
        if isinstance(item, PartStatus):
            self.state.parts[item.part] = item.status
            if item.detail:
                log.warning("%s: %s (%s)", item.part, item.status, item.detail)
        self.table.handle(item, now)

    def status(self) -> dict[str, Any]:
        """The table's status with the parts and the last error added."""
        return {
            **self.table.status().to_json(),
            "parts": dict(self.state.parts),
            "last_error": self.state.last_error,
        }
