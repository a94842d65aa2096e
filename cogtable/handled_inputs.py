"""Which inputs the controller has handled: for producers that wait until theirs was.

The mock table runs in lock step (a camera frame, a press or a typed line
waits until the controller has handled what it put), and the runtime measures
the LED latency of a settled board, through these two.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from cogtable.inputs import Input
from cogtable.table import GameTable
from cogtable.table_status import TableStatus


class HandledLog:
    """Which inputs the controller has finished handling, for producers that wait for it."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.count = 0
        self.recent: deque[tuple[int, Input]] = deque(maxlen=512)

    def record(self, item: Input) -> None:
        """Note that ``item`` has been handled."""
        with self.changed:
            self.count += 1
            self.recent.append((self.count, item))
            self.changed.notify_all()

    def wait_for(
        self, match: Callable[[Input], bool], since: int, timeout: float, stop: threading.Event
    ) -> bool:
        """Block until an input handled after mark ``since`` matches; False on time-out or stop."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not self._seen(match, since):
                left = deadline - time.monotonic()
                if left <= 0 or stop.is_set():
                    return False
                self.changed.wait(min(left, 0.1))
        return True

    def _seen(self, match: Callable[[Input], bool], since: int) -> bool:
        for number, item in reversed(self.recent):
            if number <= since:
                return False
            if match(item):
                return True
        return False


class ObservedTable:
    """The game table as the controller sees it, noting each handled input and its latency."""

    def __init__(self, table: GameTable, note: Callable[[Input], object]) -> None:
        self.table = table
        self.note = note

    def handle(self, item: Input, now: float) -> None:
        """Let the table handle ``item``; then note it (and the LED latency of a settled board)."""
        try:
            self.table.handle(item, now)
        finally:
            self.note(item)

    def tick(self, now: float) -> None:
        """Pass the idle tick on."""
        self.table.tick(now)

    def status(self) -> TableStatus:
        """The table's status."""
        return self.table.status()

    def pause(self) -> None:
        """Pause the table (and close its journal)."""
        self.table.pause()
