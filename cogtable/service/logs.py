"""Logging that journald reads well: a priority prefix per line, no second timestamp.

Under systemd (``JOURNAL_STREAM`` is set) each line starts with the syslog
priority in angle brackets, ``<3>`` for errors, which journald turns into the
entry's priority; journald adds the time itself. In a terminal, lines carry
the time and the level name instead.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

SYSLOG_PRIORITY = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}


class JournaldFormatter(logging.Formatter):
    """``<priority>logger: message``, one line per line of the message."""

    def format(self, record: logging.LogRecord) -> str:
        """Prefix every line, so a multi-line traceback keeps its priority."""
        priority = SYSLOG_PRIORITY.get(record.levelno, 6)
        text = super().format(record)
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines())


def under_journald(environ: Mapping[str, str] | None = None) -> bool:
    """True when stderr is connected to the systemd journal."""
    return bool((os.environ if environ is None else environ).get("JOURNAL_STREAM"))


def configure(
    level: int = logging.INFO, stream: TextIO | None = None, journald: bool | None = None
) -> logging.Handler:
    """Send cogtable's logs to ``stream`` (stderr) in the form that suits where it goes."""
    handler = logging.StreamHandler(stream or sys.stderr)
    if under_journald() if journald is None else journald:
        handler.setFormatter(JournaldFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    return handler
