"""The table profile: one TOML file that says what this table has.

A profile names the game it starts with, the camera, the board's geometry, the
serial port to the Pico, the buttons and LEDs on the Pi's own GPIO, the buttons
and dice on the Pico, the seats (2 to 6) and the LED chain. It is read with
:mod:`tomllib` into frozen dataclasses, and every mistake is reported with its
dotted key, its value and what was expected, all at once::

    board.peg_pitch_mm = -3: expected a positive number of millimetres

Unknown keys are mistakes too (a misspelt key would otherwise be silently
ignored). The mock table's profile ships in the package and is the default:

>>> profile = load_profile()
>>> profile.serial.port, profile.camera.source
('sim', 'synthetic')
>>> profile.table.game, len(profile.seats), profile.dice.pico
('kogworks', 6, (0,))
>>> pico_buttons(profile)[6], pico_buttons(profile)[4]
((0, 'pass'), (None, 'new_game'))

Which game names are real games is not known here: ``cogtable`` checks that.

This module is the front everyone imports from (loading, and the model's types
:data:`__all__` names); the typed model is :mod:`hardware.profile_model`, the
reading :mod:`hardware.profile_checks` (keys and values) and
:mod:`hardware.profile_sections` (sections and the checks across them).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from hardware.profile_checks import ProfileTable
from hardware.profile_model import (
    MAX_SEATS,
    PROFILE_LIMIT,
    RGB,
    DiceProfile,
    FleetProfile,
    GpioProfile,
    LedProfile,
    PicoProfile,
    Pin,
    Profile,
    ProfileError,
    Seat,
    Segment,
    TableProfile,
    gpio_pins,
    pico_buttons,
)
from hardware.profile_sections import build_profile

# -- loading -------------------------------------------------------------------


def default_profile_path() -> Path:
    """The mock table's profile shipped in the package (the default)."""
    return Path(str(resources.files("hardware.profiles").joinpath("mock.toml")))


def load_profile(path: str | Path | None = None) -> Profile:
    """Read and check the profile at ``path`` (the mock table's when ``None``).

    Raises :class:`ProfileError` for an unreadable file, a TOML syntax error
    (with its line) or any mistake in the contents (every one of them).
    """
    path = Path(path) if path is not None else default_profile_path()
    try:
        text = _read_profile_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise ProfileError(str(path), [f"cannot read the file: {error}"]) from error
    return parse_profile(text, source=str(path))


def _read_profile_text(path: Path) -> str:
    """The file's UTF-8 text; OSError if it holds more than PROFILE_LIMIT bytes.

    At most that + 1 bytes are read, so that a device or a huge file
    (``/dev/zero``) named by mistake is refused at once, not read into memory.
    """
    with path.open("rb") as file:
        data = file.read(PROFILE_LIMIT + 1)
    if len(data) > PROFILE_LIMIT:
        raise OSError(
            f"it holds over {PROFILE_LIMIT // 1024 // 1024} MiB: too big to be a table profile"
        )
    return data.decode("utf-8")


def parse_profile(text: str, source: str = "<string>") -> Profile:
    """Check profile TOML text and build the typed profile; see :func:`load_profile`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(source, [f"not valid TOML: {error}"]) from error
    errors: list[str] = []
    profile = build_profile(ProfileTable(data, "", errors), source)
    if errors or profile is None:
        raise ProfileError(source, errors)
    return profile


__all__ = [
    "MAX_SEATS",
    "RGB",
    "DiceProfile",
    "FleetProfile",
    "GpioProfile",
    "LedProfile",
    "PicoProfile",
    "Pin",
    "Profile",
    "ProfileError",
    "Seat",
    "Segment",
    "TableProfile",
    "default_profile_path",
    "gpio_pins",
    "load_profile",
    "parse_profile",
    "pico_buttons",
]
