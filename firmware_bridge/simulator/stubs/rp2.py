"""Stand-in for MicroPython's ``rp2`` module: the BOOTSEL button, released."""

from __future__ import annotations


def bootsel_button() -> int:
    """1 while BOOTSEL is held; the simulated one never is."""
    return 0
