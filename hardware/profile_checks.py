"""Reading the profile's TOML: a table reader that names the key of every mistake, and the
value checks (each returns the value to use, or None when it is wrong)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from hardware.profile_model import (
    ARUCO_IDS,
    CAMERA_KEYWORDS,
    DIE_FACES,
    PICO_BUTTON_IDS,
    PICO_DIE_IDS,
    PIN_FACTORIES,
    RGB,
    SERIAL_KEYWORDS,
    Option,
    Pin,
    show,
)

T = TypeVar("T")
_GAME_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_PIN_NAME = re.compile(r"^(GPIO|BCM|WPI|BOARD)\d{1,2}$|^(J8|P1):\d{1,2}$")
_HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


# -- reading tables with messages that name the key ------------------------------


class Missing:
    """Marks a key that has no default (it must be given)."""


MISSING = Missing()
BAD = object()
"""What a reader returns for a value it reported as a mistake."""


class ProfileTable:
    """A TOML table being read: each value is checked, every mistake is noted with its key."""

    def __init__(self, data: dict[str, Any], path: str, errors: list[str]) -> None:
        self.data = data
        self.path = path
        self.errors = errors
        self.used: set[str] = set()
        self.accepted: dict[str, Any] = {}
        """The values given here that passed their check, by key (whatever else is wrong)."""
        self.children: dict[str, ProfileTable] = {}
        """The sub-tables read so far, by key (``name`` or ``name[number]``)."""

    def key(self, name: str) -> str:
        """The dotted path of one of this table's keys."""
        return f"{self.path}.{name}" if self.path else name

    def fail(self, name: str, value: Any, expected: str) -> Any:
        """Note a mistake in ``name`` and return the marker for a bad value."""
        self.errors.append(f"{self.key(name)} = {show(value)}: expected {expected}")
        return BAD

    def get(self, name: str, check: Callable[[Any], T | None], expected: str, default: Any) -> Any:
        """The value of ``name`` if ``check`` accepts it (returns not ``None``), else a mistake."""
        self.used.add(name)
        if name not in self.data:
            if default is MISSING:
                self.errors.append(f"{self.key(name)}: missing; expected {expected}")
                return BAD
            return default
        value = check(self.data[name])
        if value is None:
            return self.fail(name, self.data[name], expected)
        self.accepted[name] = value
        return value

    def table(self, name: str, default: Any = MISSING) -> ProfileTable | Any:
        """A sub-table, or the default (a mistake if none) when it is absent."""
        value = self.get(name, as_dict, "a table", default)
        if not isinstance(value, dict):
            return value
        self.children[name] = ProfileTable(value, self.key(name), self.errors)
        return self.children[name]

    def tables(self, name: str, expected: str) -> Iterator[ProfileTable]:
        """Each table of an array of tables (``[[name]]``)."""
        items = self.get(name, as_list, expected, MISSING)
        if items is BAD:
            return
        for number, item in enumerate(items):
            if isinstance(item, dict):
                child = ProfileTable(item, f"{self.key(name)}[{number}]", self.errors)
                self.children[f"{name}[{number}]"] = child
                yield child
            else:
                self.errors.append(f"{self.key(name)}[{number}] = {show(item)}: expected a table")

    def finish(self) -> None:
        """Report every key nobody asked for: unknown keys are mistakes."""
        known = ", ".join(sorted(self.used))
        for name in self.data:
            if name not in self.used:
                self.errors.append(
                    f"{self.key(name)} = {show(self.data[name])}: unknown key; "
                    f"expected one of {known}"
                )


# -- value checks: return the value to use, or None if it is wrong ----------------


def as_dict(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def as_list(value: Any) -> list[Any] | None:
    return value if isinstance(value, list) else None


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def positive(value: Any) -> float | None:
    return float(value) if is_number(value) and value > 0 else None


def any_number(value: Any) -> float | None:
    return float(value) if is_number(value) else None


def fraction(value: Any) -> float | None:
    return float(value) if is_number(value) and 0 <= value <= 1 else None


def seconds(value: Any) -> float | None:
    return float(value) if is_number(value) and 0 <= value <= 60 else None


def gamma(value: Any) -> float | None:
    return float(value) if is_number(value) and 1 <= value <= 4 else None


def boolean(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def name(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def chain_length(value: Any) -> int | None:
    return value if is_int(value) and 1 <= value <= 4096 else None


def marker_id(value: Any) -> int | None:
    return value if is_int(value) and value in ARUCO_IDS else None


def resolution(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(is_int(v) for v in value):
        width, height = value
        return (width, height) if 16 <= width <= 8192 and 16 <= height <= 8192 else None
    return None


def camera_source(value: Any) -> int | str | None:
    if is_int(value):
        return value if value >= 0 else None
    if isinstance(value, str) and (value in CAMERA_KEYWORDS or "/" in value):
        return value
    return None


def serial_port(value: Any) -> str | None:
    if isinstance(value, str) and (value in SERIAL_KEYWORDS or value.startswith("/")):
        return value
    return None


def pin_factory(value: Any) -> str | None:
    return value if value in PIN_FACTORIES else None


def pin(value: Any) -> Pin | None:
    if is_int(value):
        return value if 0 <= value <= 27 else None
    return value if isinstance(value, str) and _PIN_NAME.match(value) else None


def led_pins(value: Any) -> tuple[Pin, ...] | None:
    if pin(value) is not None:
        return (value,)
    if isinstance(value, list) and len(value) == 3 and all(pin(v) is not None for v in value):
        return tuple(value)
    return None


def colour(value: Any) -> RGB | None:
    if isinstance(value, str) and _HEX_COLOUR.match(value):
        return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
    channels = value if isinstance(value, list) and len(value) == 3 else []
    if channels and all(is_int(v) and 0 <= v <= 255 for v in channels):
        return (channels[0], channels[1], channels[2])
    return None


def game(value: Any) -> str | None:
    return value if isinstance(value, str) and _GAME_NAME.match(value) else None


def option(value: Any) -> Option | None:
    return value if isinstance(value, bool | int | float | str) else None


def pico_button(value: Any) -> int | None:
    return value if is_int(value) and value in PICO_BUTTON_IDS else None


def die_ids(value: Any) -> tuple[int, ...] | None:
    if isinstance(value, list) and all(is_int(v) and v in PICO_DIE_IDS for v in value):
        return tuple(value)
    return None


def faces(value: Any) -> int | None:
    return value if is_int(value) and value in DIE_FACES else None


def correction(value: Any) -> tuple[float, float, float] | None:
    if isinstance(value, list) and len(value) == 3 and all(fraction(v) is not None for v in value):
        return (float(value[0]), float(value[1]), float(value[2]))
    return None


def led_indices(value: Any) -> tuple[int, ...] | None:
    """A segment: a list of chain indices, or ``{first = N, count = M}``."""
    if isinstance(value, list) and value and all(is_int(v) and v >= 0 for v in value):
        return tuple(value)
    if isinstance(value, dict) and set(value) == {"first", "count"}:
        first, count = value["first"], value["count"]
        if is_int(first) and is_int(count) and first >= 0 and count >= 1:
            return tuple(range(first, first + count))
    return None
