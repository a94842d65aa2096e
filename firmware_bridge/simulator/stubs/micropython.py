"""Stand-in for MicroPython's ``micropython`` module, for the CPython fallback only.

Under the MicroPython Unix port the interpreter's own built-in module wins over
this file (built-in ``micropython`` cannot be shadowed), so the real
``kbd_intr`` and ``const`` are used there.
"""

kbd_intr_char = 3


def kbd_intr(char):
    """Remember which byte would interrupt the program (-1: none)."""
    global kbd_intr_char  # noqa: PLW0603 - mirrors the interpreter's single setting
    kbd_intr_char = char


def const(value):
    """Compile-time constants are plain values here."""
    return value
