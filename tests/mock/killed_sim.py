"""Run ``cogtable`` and SIGKILL it the moment the journal has committed a given change.

    python -m tests.mock.killed_sim KIND NUMBER COGTABLE-ARGUMENTS...

``KIND`` is what the journal commits:

- ``move``: an action appended (any game's action: a move, a roll, a choice);
- ``end``: an action appended that ends the game;
- ``undo``: the last action taken back;
- ``new_game``: a game started.

The process kills itself with SIGKILL as soon as its ``NUMBER``-th commit of
that kind (counted in this process) has returned: nothing after the commit
runs, not the LEDs, not the people's saving of what they saw. That is the
worst moment for anything that saves after the journal, like a power cut
right after the commit. A run that ends before that commit exits as usual.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from cogtable.cli import main
from cogtable.journal import Journal

KINDS = ("move", "end", "undo", "new_game")


def kill_after(kind: str, number: int) -> None:
    """Patch the journal so that its ``number``-th commit of ``kind`` is the last thing done."""
    if kind not in KINDS:
        raise SystemExit(f"KIND is one of {', '.join(KINDS)}, not {kind!r}")
    seen = 0

    def counted(original: Callable[..., Any], counts: Callable[..., bool]) -> Callable[..., Any]:
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            nonlocal seen
            result = original(*args, **kwargs)
            if counts(*args, **kwargs):
                seen += 1
                if seen == number:
                    os.kill(os.getpid(), signal.SIGKILL)
            return result

        return wrapper

    always: Callable[..., bool] = lambda *args, **kwargs: True  # noqa: E731
    if kind in ("move", "end"):
        ends = lambda journal, game_id, ply, action, source, state: (  # noqa: E731
            state.outcome() is not None
        )
        Journal._append = counted(Journal._append, always if kind == "move" else ends)  # type: ignore[method-assign]
    elif kind == "undo":
        Journal._delete_last = counted(Journal._delete_last, always)  # type: ignore[method-assign]
    else:
        Journal.new_game = counted(Journal.new_game, always)  # type: ignore[method-assign]


if __name__ == "__main__":
    kill_after(sys.argv[1], int(sys.argv[2]))
    raise SystemExit(main(sys.argv[3:]))
