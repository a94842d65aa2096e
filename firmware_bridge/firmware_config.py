"""What the Pico firmware's ``config.py`` declares, read on the host without running it.

``cogtable firmware check`` compares it with a table profile: the chain's
length, the status LED, the button ids and the dice (with the LEDs of their pip
faces). The file is read as Python literals (``ast.literal_eval`` of each
top-level assignment), so nothing in it runs on the host and a broken file is
a :class:`FirmwareConfigError` naming every mistake.

>>> config = read_firmware_config()
>>> config.led_count > 0 and 0 in config.buttons
True
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONFIG_PATH = Path(__file__).resolve().parent / "firmware" / "config.py"
"""The config.py that ``cogtable firmware flash`` copies to the Pico."""
CONFIG_LIMIT = 1024 * 1024
"""Bytes a config.py may hold (the shipped one is 2 KiB; a Pico's flash is 2 MiB)."""

PIP_LEDS = 7
"""LEDs in a die's pip face (``FACE_LEDS`` in firmware/inputs.py)."""

RGB = tuple[int, int, int]


class FirmwareConfigError(ValueError):
    """A config.py that cannot be read; the message names the file and every mistake."""


@dataclass(frozen=True)
class FirmwareDie:
    """One electronic die in ``DICE``: its id, roll button, pip face and pip colour."""

    die: int
    gpio: int
    first_led: int
    colour: RGB

    @property
    def pip_leds(self) -> range:
        """The LEDs of its pip face."""
        return range(self.first_led, self.first_led + PIP_LEDS)


@dataclass(frozen=True)
class FirmwareConfig:
    """The parts of config.py a table profile must agree with."""

    path: Path
    version: tuple[int, int, int]
    led_count: int
    status_led: int
    buttons: Mapping[int, int]
    """Button id -> the GPIO it is wired to."""
    dice: tuple[FirmwareDie, ...]

    @property
    def version_text(self) -> str:
        """The firmware version as ``major.minor.patch``."""
        return ".".join(str(part) for part in self.version)

    def die(self, die: int) -> FirmwareDie | None:
        """The die with id ``die``, or None."""
        return next((found for found in self.dice if found.die == die), None)


def read_firmware_config(path: str | Path | None = None) -> FirmwareConfig:
    """config.py at ``path`` (default: the one flashed); FirmwareConfigError if it is unusable."""
    path = Path(path) if path is not None else CONFIG_PATH
    try:
        text = _read_config_text(path)
        tree = ast.parse(text, filename=str(path))
    except (OSError, UnicodeDecodeError) as error:
        raise FirmwareConfigError(f"the firmware config {path} cannot be read: {error}") from None
    except SyntaxError as error:
        raise FirmwareConfigError(
            f"the firmware config {path} is not valid Python (line {error.lineno}): {error.msg}"
        ) from None
    except ValueError as error:  # a NUL byte, on Python 3.11
        raise FirmwareConfigError(f"the firmware config {path} is not Python: {error}") from None
    return _build(path, _literals(tree))


def _literals(tree: ast.Module) -> dict[str, Any]:
    """Every top-level ``NAME = literal`` of the module (other statements are left alone)."""
    found: dict[str, Any] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                try:
                    found[target.id] = ast.literal_eval(statement.value)
                except ValueError:
                    found[target.id] = _NOT_LITERAL
    return found


def _read_config_text(path: Path) -> str:
    """The file's UTF-8 text; OSError if it holds more than CONFIG_LIMIT bytes.

    At most that + 1 bytes are read, so that a device or a huge file
    (``/dev/zero``) named by mistake is refused at once, not read into memory.
    """
    with path.open("rb") as file:
        data = file.read(CONFIG_LIMIT + 1)
    if len(data) > CONFIG_LIMIT:
        raise OSError(
            f"it holds over {CONFIG_LIMIT // 1024 // 1024} MiB: too big to be a config.py"
        )
    return data.decode("utf-8")


_NOT_LITERAL = object()


def _build(path: Path, values: dict[str, Any]) -> FirmwareConfig:
    """The typed config, or FirmwareConfigError naming every missing or wrong value."""
    errors: list[str] = []
    version = _get(values, "FIRMWARE_VERSION", _version, "three whole numbers", errors)
    led_count = _get(values, "LED_COUNT", _positive, "a whole number above 0", errors)
    status_led = _get(values, "STATUS_LED", _index, "an LED index (0 or more)", errors)
    buttons = _get(values, "BUTTONS", _buttons, "(button id, GPIO) pairs, ids unique", errors)
    dice = _get(values, "DICE", _dice, "(die id, GPIO, first LED, (r, g, b)) entries", errors)
    if errors:
        raise FirmwareConfigError(f"the firmware config {path}: " + "; ".join(errors))
    return FirmwareConfig(path, version, led_count, status_led, buttons, dice)


def _get(values: dict[str, Any], name: str, check: Any, expected: str, errors: list[str]) -> Any:
    """``check(values[name])``, or None with a line in ``errors`` saying what is wrong."""
    if name not in values:
        errors.append(f"{name} is missing")
        return None
    value = values[name]
    checked = None if value is _NOT_LITERAL else check(value)
    if value is _NOT_LITERAL:
        errors.append(f"{name} must be a plain value ({expected}), not an expression")
    elif checked is None:
        errors.append(f"{name} must be {expected}, not {value!r}")
    return checked


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _positive(value: Any) -> int | None:
    return value if _whole(value) and value > 0 else None


def _index(value: Any) -> int | None:
    return value if _whole(value) and value >= 0 else None


def _version(value: Any) -> tuple[int, int, int] | None:
    ok = isinstance(value, tuple) and len(value) == 3 and all(_index(v) is not None for v in value)
    return value if ok else None


def _buttons(value: Any) -> dict[int, int] | None:
    if not isinstance(value, tuple | list):
        return None
    pairs = [entry for entry in value if isinstance(entry, tuple | list) and len(entry) == 2]
    if len(pairs) != len(value) or not all(_index(a) is not None for pair in pairs for a in pair):
        return None
    buttons = {button: gpio for button, gpio in pairs}
    return buttons if len(buttons) == len(pairs) else None


def _dice(value: Any) -> tuple[FirmwareDie, ...] | None:
    if not isinstance(value, tuple | list):
        return None
    dice = [_die(entry) for entry in value]
    if any(die is None for die in dice) or len({die.die for die in dice if die}) != len(dice):
        return None
    return tuple(die for die in dice if die is not None)


def _die(entry: Any) -> FirmwareDie | None:
    if not isinstance(entry, tuple | list) or len(entry) != 4:
        return None
    die, gpio, first, colour = entry
    numbers_ok = all(_index(v) is not None for v in (die, gpio, first))
    colour_ok = isinstance(colour, tuple | list) and len(colour) == 3
    colour_ok = colour_ok and all(_whole(c) and 0 <= c <= 255 for c in colour)
    return FirmwareDie(die, gpio, first, tuple(colour)) if numbers_ok and colour_ok else None
