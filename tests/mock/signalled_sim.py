"""Run ``cogtable`` and signal its whole process group while a button is held down.

    python -m tests.mock.signalled_sim SIGNAL NUMBER COGTABLE-ARGUMENTS...

``SIGNAL`` (``SIGINT`` or ``SIGTERM``) goes to the process group the moment
the ``NUMBER``-th press on the simulated Pico is down (before its release), as
Ctrl-C at a terminal or ``kill -- -PGID`` sends it: the firmware process gets it
too, so the release and what follows meet a Pico that is gone. The process
makes itself its group's leader first, so nothing outside it is signalled.
A run that ends before that press exits as usual.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from cogtable.cli import main
from firmware_bridge.simulator import Simulator


def signal_during_press(signalled: signal.Signals, number: int) -> None:
    """Patch the simulated Pico so that its ``number``-th press signals the process group."""
    seen = 0

    def pressed(original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            nonlocal seen
            result = original(*args, **kwargs)
            seen += 1
            if seen == number:
                os.killpg(os.getpgid(0), signalled)
            return result

        return wrapper

    Simulator.press = pressed(Simulator.press)  # type: ignore[method-assign]


if __name__ == "__main__":
    if os.getpgid(0) != os.getpid():  # not yet its group's leader (run from a shell)
        os.setpgid(0, 0)
    signal_during_press(signal.Signals[sys.argv[1]], int(sys.argv[2]))
    raise SystemExit(main(sys.argv[3:]))
