"""The console of a headless table: answers typed with ``cogtable answer``, read by the service.

The kiosk service has no terminal and no network listener. A person answers
what the table asks (a letter drawn, a card dealt, a choice) with
``cogtable answer TEXT``, which drops one small JSON file into
``STATE_DIR/console/``; the runtime's console thread takes each file in turn,
deletes it and puts a :class:`~cogtable.inputs.ConsoleCommand` on the
controller's queue. Each file is written under a temporary name and renamed,
so the service never reads half of one. An answer names the request it was
typed for (its key in the status file): if that request has been answered
meanwhile, the table refuses it instead of applying it to the next question.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

from cogtable.inputs import ConsoleCommand

log = logging.getLogger(__name__)
FOLDER = "console"
SUFFIX = ".json"
MAX_BYTES = 4096


class Inbox:
    """The ``console`` folder of a state directory."""

    def __init__(self, state_dir: Path) -> None:
        self.folder = state_dir / FOLDER

    def post(self, command: ConsoleCommand) -> Path:
        """Leave ``command`` for the service; the file's path. OSError if it cannot be written."""
        self.folder.mkdir(exist_ok=True)
        name = f"{time.time_ns():020d}-{os.getpid()}"
        partial = self.folder / f".{name}.partial"
        data = {"text": command.text, "seat": command.seat, "answers": command.answers}
        partial.write_text(json.dumps(data), encoding="utf-8")
        final = self.folder / f"{name}{SUFFIX}"
        os.replace(partial, final)
        return final

    def take(self) -> list[ConsoleCommand]:
        """Every answer left so far, oldest first; each file is removed once read."""
        try:
            names = sorted(path for path in self.folder.iterdir() if path.suffix == SUFFIX)
        except OSError:
            return []
        return [command for path in names if (command := _read(path)) is not None]


def _read(path: Path) -> ConsoleCommand | None:
    """The answer in ``path`` (removed); None, with a warning, for a file that is not one."""
    try:
        raw = path.read_bytes()[:MAX_BYTES]
        path.unlink()
    except OSError as error:
        log.warning("console: cannot take %s: %s", path.name, error)
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
        return _command(data)
    except (ValueError, TypeError, KeyError) as error:
        log.warning("console: %s is not an answer (%s); ignored", path.name, error)
        return None


def _command(data: dict[str, object]) -> ConsoleCommand:
    text, seat, answers = data["text"], data.get("seat"), data.get("answers")
    if not isinstance(text, str):
        raise TypeError("text must be a string")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise TypeError("seat must be a whole number")
    if answers is not None and not isinstance(answers, str):
        raise TypeError("answers must be a request key")
    return ConsoleCommand(text, seat, answers)
