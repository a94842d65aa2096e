"""Run ``cogtable`` and signal its whole process group while a button is held down.

    python -m tests.mock.signalled_sim SIGNAL NUMBER NOTE COGTABLE-ARGUMENTS...

``SIGNAL`` (``SIGINT`` or ``SIGTERM``) goes to the process group the moment
the ``NUMBER``-th press on the simulated Pico is down (before its release), as
Ctrl-C at a terminal or ``kill -- -PGID`` sends it: the firmware process gets it
too, so the release and what follows meet a Pico that is gone. The process
makes itself its group's leader first, so nothing outside it is signalled.
Just before signalling it writes ``press NUMBER down: SIGNAL sent`` to the file
``NOTE``, so a caller knows the signal was sent; a run that ends before that
press exits as usual and leaves ``NOTE`` unwritten.

Both signals get their usual effect first (KeyboardInterrupt, termination),
as for a command in the foreground at a terminal: a command started in the
background by a script (``pytest ... &``) inherits SIGINT *ignored*, and then
the firmware process died of the signal while ``cogtable`` went on, every press
failing, until the sim gave up after thousands of frames.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cogtable.cli import main
from firmware_bridge.simulator import Simulator


def as_in_the_foreground() -> None:
    """SIGINT raises KeyboardInterrupt and SIGTERM terminates, whatever the parent ignored."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def signal_during_press(signalled: signal.Signals, number: int, note: Path) -> None:
    """Patch the simulated Pico so that its ``number``-th press signals the process group."""
    seen = 0

    def pressed(original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            nonlocal seen
            result = original(*args, **kwargs)
            seen += 1
            if seen == number:
                note.write_text(f"press {number} down: {signalled.name} sent\n", encoding="utf-8")
                os.killpg(os.getpgid(0), signalled)
            return result

        return wrapper

    Simulator.press = pressed(Simulator.press)  # type: ignore[method-assign]


if __name__ == "__main__":
    if os.getpgid(0) != os.getpid():  # not yet its group's leader (run from a shell)
        os.setpgid(0, 0)
    as_in_the_foreground()
    signal_during_press(signal.Signals[sys.argv[1]], int(sys.argv[2]), Path(sys.argv[3]))
    raise SystemExit(main(sys.argv[4:]))
