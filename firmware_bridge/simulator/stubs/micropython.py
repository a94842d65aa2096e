"""Stand-in for MicroPython's ``micropython`` module (the parts the firmware uses)."""

from __future__ import annotations

kbd_intr_char = 3


def kbd_intr(char: int) -> None:
    """Remember which byte would interrupt the program (-1: none)."""
    global kbd_intr_char  # noqa: PLW0603 - mirrors the interpreter's single setting
    kbd_intr_char = char


def const(value: int) -> int:
    """Compile-time constants are plain values here."""
    return value
