"""``cogtable`` with a controller that hangs while STATE_DIR/hang exists (the watchdog test).

The hang is put where a real bug would put it, inside the controller thread's
work, so the process stays alive while its heartbeat stops.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from cogtable import table
from cogtable.cli import main

STATE_DIR = Path(sys.argv[sys.argv.index("--state-dir") + 1])
_tick = table.GameTable.tick


def hanging_tick(self: table.GameTable, now: float) -> None:
    """Block the controller for as long as the hang file exists."""
    while (STATE_DIR / "hang").exists():
        time.sleep(0.05)
    _tick(self, now)


table.GameTable.tick = hanging_tick  # type: ignore[method-assign]
raise SystemExit(main(sys.argv[1:]))
