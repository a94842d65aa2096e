"""Shared by the profile tests: the mock profile's text, edits of it, and the mistakes it gives."""

from __future__ import annotations

import pytest

from hardware.profile import (
    ProfileError,
    default_profile_path,
    parse_profile,
)

MOCK = default_profile_path().read_text(encoding="utf-8")
REFERENCE = default_profile_path().with_name("reference.toml")
SEAT_NAMES = ["Red", "Blue", "Green", "Yellow", "Purple", "Orange"]
MOCK_PICO_BUTTONS = {
    0: (0, "confirm"),
    1: (0, "undo"),
    2: (1, "confirm"),
    3: (1, "undo"),
    4: (None, "new_game"),
    5: (None, "pause"),
    6: (0, "pass"),
    7: (1, "pass"),
    8: (2, "confirm"),
    9: (2, "undo"),
    10: (2, "pass"),
    11: (3, "confirm"),
    12: (3, "undo"),
    13: (3, "pass"),
    14: (4, "confirm"),
    15: (4, "undo"),
    16: (4, "pass"),
    17: (5, "confirm"),
    18: (5, "undo"),
    19: (5, "pass"),
}
"""The firmware's button ids (firmware/config.py BUTTONS) as the shipped profiles use them."""


def edited(old: str, new: str, text: str = MOCK) -> str:
    """The mock profile with the first ``old`` replaced (which must be there)."""
    assert old in text, old
    return text.replace(old, new, 1)


def without_line(start: str, text: str = MOCK) -> str:
    """The mock profile without the first line that starts with ``start``."""
    lines = text.splitlines(keepends=True)
    number = next(n for n, line in enumerate(lines) if line.startswith(start))
    return "".join(lines[:number] + lines[number + 1 :])


def errors_of(text: str) -> tuple[str, ...]:
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, source="test.toml")
    return caught.value.errors
