"""Stand-in for MicroPython's ``machine`` module: pins whose levels the simulator sets.

Every Pin made by the firmware is registered in ``PINS`` by GPIO number, so the
simulator presses a button by setting that pin's level to 0. Written in the
subset that both MicroPython and CPython run (no annotations, no typing).
"""

PINS = {}  # GPIO number -> Pin


class Pin:
    """A GPIO pin: inputs read ``level`` (1 with the pull-up), outputs store it."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, gpio, mode=IN, pull=None):
        self.gpio = gpio
        self.mode = mode
        self.level = 0 if pull == Pin.PULL_DOWN else 1
        self.reads = 0
        PINS[gpio] = self

    def value(self, level=None):
        """Read the level, or set it (outputs)."""
        if level is not None:
            self.level = 1 if level else 0
        self.reads += 1
        return self.level


def reset():
    """A hard reset is a new process in the simulator: just stop this one."""
    raise SystemExit(0)


def unique_id():
    """The board's serial number."""
    return b"cogtable-sim"
