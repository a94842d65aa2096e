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
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from hardware.broker import ID_EXPECTED, BrokerUrl, parse_broker_url, valid_id

T = TypeVar("T")
RGB = tuple[int, int, int]
Pin = int | str
"""A GPIO pin as gpiozero names it: a BCM number (17) or a name ("GPIO17", "BOARD11")."""

CAMERA_KEYWORDS = ("synthetic", "picamera2")
SERIAL_KEYWORDS = ("auto", "sim")
PIN_FACTORIES = ("mock", "lgpio", "rpigpio", "pigpio", "native")
ARUCO_IDS = range(50)
"""Marker ids of the DICT_4X4_50 dictionary."""
MIN_SEATS = 2
MAX_SEATS = 6
PICO_BUTTON_IDS = range(32)
"""Button ids the Pico's firmware may report (``firmware/config.py`` ``BUTTONS``)."""
PICO_DIE_IDS = range(8)
"""Die ids of the Pico's electronic dice (``firmware/config.py`` ``DICE``)."""
PICO_DIE_FACES = 6
"""The Pico's electronic dice are six-sided (a 7-LED pip face)."""
DIE_FACES = range(2, 21)
PICO_BUTTON_KINDS = ("confirm", "undo", "pass", "new_game", "pause")
Option = bool | int | float | str
"""A game option's value: one TOML scalar."""
_GAME_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_PIN_NAME = re.compile(r"^(GPIO|BCM|WPI|BOARD)\d{1,2}$|^(J8|P1):\d{1,2}$")
_HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
PROFILE_LIMIT = 1024 * 1024
"""Bytes a profile file may hold (a table's profile is a few KiB)."""


class ProfileError(ValueError):
    """A profile that cannot be used; :attr:`errors` holds one line per mistake."""

    def __init__(self, source: str, errors: list[str]) -> None:
        self.source = source
        self.errors = tuple(errors)
        count = f"{len(errors)} mistake{'s' if len(errors) != 1 else ''}"
        super().__init__(f"{source}: {count}: " + "; ".join(errors))


# -- the typed profile ---------------------------------------------------------


@dataclass(frozen=True)
class TableProfile:
    """The game this table starts with (``[table]``) and the options its engine gets."""

    game: str = "kogworks"
    """A game's lower-case name; ``cogtable`` knows which names are games."""
    options: Mapping[str, Option] = field(default_factory=dict)
    """``[table.options]``: scalar values, passed to the game's engine as they are."""


@dataclass(frozen=True)
class PicoProfile:
    """The table's own buttons wired to the Pico (``[pico]``), by firmware button id."""

    new_game_button: int | None = None
    pause_button: int | None = None


@dataclass(frozen=True)
class DiceProfile:
    """The dice this table rolls by itself (``[dice]``); none: the console asks."""

    pico: tuple[int, ...] = ()
    """Electronic dice on the Pico, by firmware die id (the Pico rolls)."""
    roll_pin: Pin | None = None
    """A roll button on the Pi's GPIO (the Pi rolls)."""
    faces: int = 6
    camera: bool = False
    """Physical dice the camera reads by their pips where a game's board has die slots."""


@dataclass(frozen=True)
class CameraProfile:
    """Where frames come from: a device index, a path, ``synthetic`` or ``picamera2``."""

    source: int | str
    resolution: tuple[int, int]
    calibration: str | None = None
    """The colour calibration file written by ``cogtable calibrate`` (None: the
    synthetic reference colours, right only for the mock table's camera)."""
    letters: str | None = None
    """The owner's letter tiles taught by ``cogtable calibrate cog --teach`` (None:
    the reader's built-in fonts only)."""


@dataclass(frozen=True)
class Marker:
    """One ArUco marker (DICT_4X4_50): its id and its centre on the board in mm."""

    id: int
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class BoardProfile:
    """The board's geometry in millimetres: peg pitch and the markers that locate it.

    Board coordinates have their origin at the centre of the disk (the centroid
    of the peg triangle), x to the right and y towards the bases, as seen by the
    overhead camera; marker positions are the centres of their black squares.
    """

    peg_pitch_mm: float
    marker_size_mm: float
    markers: tuple[Marker, ...]
    disk_radius_mm: float = 162.0


@dataclass(frozen=True)
class CardZoneProfile:
    """One zone of the card mat: its name, whose seat (None: shared, the centre), centre, size."""

    name: str
    seat: int | None
    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float


@dataclass(frozen=True)
class CardsProfile:
    """The card mat (``[cards]``): its size, its markers (DICT_4X4_50) and its zones, in mm.

    Mat coordinates are millimetres from its top-left corner, x right, y down,
    as printed (``cogtable cards print mat``); positions are centres.
    """

    width_mm: float
    height_mm: float
    marker_size_mm: float
    markers: tuple[Marker, ...]
    zones: tuple[CardZoneProfile, ...]


@dataclass(frozen=True)
class SerialProfile:
    """The Pico's serial port: ``auto`` (find it), ``sim`` (the simulator) or a device path."""

    port: str


@dataclass(frozen=True)
class GpioProfile:
    """Settings shared by everything on the Pi's GPIO, and the table's own buttons."""

    pin_factory: str | None
    bounce_time_s: float
    hold_time_s: float
    pull_up: bool
    pwm_leds: bool
    new_game_pin: Pin | None
    pause_pin: Pin | None


@dataclass(frozen=True)
class Seat:
    """One player's place at the table: its buttons and LED on GPIO, its buttons on the Pico.

    ``*_pin`` are the Pi's GPIO pins, ``*_button`` the Pico's firmware button ids;
    a button may be on either, on both, or absent.
    """

    name: str
    colour: RGB
    confirm_pin: Pin | None = None
    undo_pin: Pin | None = None
    led_pins: tuple[Pin, ...] = ()
    """No pins (no GPIO LED), one (a plain LED) or three (an RGB LED: red, green, blue)."""
    pass_pin: Pin | None = None
    confirm_button: int | None = None
    undo_button: int | None = None
    pass_button: int | None = None


@dataclass(frozen=True)
class Segment:
    """A named run of LEDs on the chain, in logical order (index 0 first)."""

    name: str
    leds: tuple[int, ...]


@dataclass(frozen=True)
class LedProfile:
    """The WS2812 chain: its length, its segments and the colour correction it needs."""

    length: int
    segments: tuple[Segment, ...]
    brightness: float = 1.0
    correction: tuple[float, float, float] = (1.0, 1.0, 1.0)
    gamma: float = 1.0

    def segment(self, name: str) -> Segment:
        """The segment called ``name``; :class:`KeyError` naming the known ones if absent."""
        for segment in self.segments:
            if segment.name == name:
                return segment
        raise KeyError(f"no LED segment {name!r}; segments: {self.segment_names()}")

    def segment_names(self) -> list[str]:
        """The segment names in profile order."""
        return [segment.name for segment in self.segments]


@dataclass(frozen=True)
class FleetProfile:
    """Publishing to the venue's MQTT broker (``[fleet]``, opt-in; see :mod:`cogtable.fleet`)."""

    broker: BrokerUrl
    venue: str
    table: str
    """This table's id in the venue (an MQTT topic level)."""
    ca_file: str | None = None
    """The CA certificate that signed an ``mqtts://`` broker's (required there)."""
    credentials: str | None = None
    """A file with the broker user's name and password, readable only by the service user."""


@dataclass(frozen=True)
class Profile:
    """Everything this table has. Nothing may assume a part the profile does not declare."""

    name: str
    camera: CameraProfile
    board: BoardProfile
    serial: SerialProfile
    gpio: GpioProfile | None
    seats: tuple[Seat, ...]
    leds: LedProfile
    source: str = "<string>"
    table: TableProfile = field(default_factory=TableProfile)
    pico: PicoProfile = field(default_factory=PicoProfile)
    dice: DiceProfile = field(default_factory=DiceProfile)
    cards: CardsProfile | None = None
    """The card mat the camera reads, when the table has one."""
    fleet: FleetProfile | None = None
    """The venue's broker this table publishes to, when it does."""

    def summary(self) -> str:
        """A few lines a person reads to see what this profile describes."""
        seats = ", ".join(seat.name for seat in self.seats)
        segments = ", ".join(f"{s.name} ({len(s.leds)})" for s in self.leds.segments)
        return "\n".join(
            [
                f"table: {self.name}",
                f"game: {self._game_summary()}",
                f"camera: {self.camera.source} at {self.camera.resolution[0]}x"
                f"{self.camera.resolution[1]}",
                f"board: peg pitch {self.board.peg_pitch_mm} mm, "
                f"markers {[m.id for m in self.board.markers]}",
                f"serial: {self.serial.port}",
                f"gpio: {self._gpio_summary()}",
                f"pico: {len(pico_buttons(self))} buttons",
                f"seats: {len(self.seats)} ({seats})",
                f"dice: {self._dice_summary()}",
                f"leds: {self.leds.length} on the chain; segments {segments}",
            ]
        )

    def _game_summary(self) -> str:
        options = ", ".join(f"{k} = {_show(v)}" for k, v in self.table.options.items())
        return f"{self.table.game} ({options})" if options else self.table.game

    def _gpio_summary(self) -> str:
        if self.gpio is None:
            return "none"
        pins = len(gpio_pins(self))
        return f"{pins} pins, pin factory {self.gpio.pin_factory or 'gpiozero default'}"

    def _dice_summary(self) -> str:
        dice = self.dice
        parts = []
        if dice.pico:
            ids = ", ".join(str(die) for die in dice.pico)
            parts.append(f"Pico {'die' if len(dice.pico) == 1 else 'dice'} {ids}")
        if dice.roll_pin is not None:
            parts.append(f"GPIO roll button {_show(dice.roll_pin)}")
        if dice.camera:
            parts.append("the camera reads dice in a board's die slots")
        if not parts:
            return "none (the console asks for rolls)"
        return f"{' and '.join(parts)}; {dice.faces} faces"


def gpio_pins(profile: Profile) -> dict[str, Pin]:
    """Every GPIO pin the profile uses, by the dotted key that names it."""
    seats = [(number, _fields_of(seat)) for number, seat in enumerate(profile.seats)]
    return _pin_uses(_fields_of(profile.gpio), seats, _fields_of(profile.dice))


def _fields_of(section: Any) -> Mapping[str, Any]:
    """A section's values by key (none for an absent section), as :func:`_pin_uses` reads them."""
    return {} if section is None else vars(section)


def _pin_uses(
    gpio: Mapping[str, Any], seats: list[tuple[int, Mapping[str, Any]]], dice: Mapping[str, Any]
) -> dict[str, Pin]:
    """The GPIO pins of these sections' values (seats by their number), by dotted key.

    Values by key, not typed sections, so that the pins a section with a mistake
    elsewhere got right are checked too.
    """
    pins: dict[str, Pin | None] = {
        "gpio.new_game_pin": gpio.get("new_game_pin"),
        "gpio.pause_pin": gpio.get("pause_pin"),
    }
    for number, seat in seats:
        pins[f"seats[{number}].confirm_pin"] = seat.get("confirm_pin")
        pins[f"seats[{number}].undo_pin"] = seat.get("undo_pin")
        pins[f"seats[{number}].pass_pin"] = seat.get("pass_pin")
        for channel, pin in enumerate(seat.get("led_pins", ())):
            pins[f"seats[{number}].led_pins[{channel}]"] = pin
    pins["dice.roll_pin"] = dice.get("roll_pin")
    return {key: pin for key, pin in pins.items() if pin is not None}


def pico_buttons(profile: Profile) -> dict[int, tuple[int | None, str]]:
    """Firmware button id -> (seat index or None for a table button, kind).

    The kind is one of :data:`PICO_BUTTON_KINDS`; a checked profile uses each id once.
    """
    return {button: (seat, kind) for _, button, seat, kind in _pico_button_uses(profile)}


def _pico_button_uses(profile: Profile) -> Iterator[tuple[str, int, int | None, str]]:
    """(dotted key, firmware button id, seat or None, kind) for each button on the Pico."""
    seats = [(number, _fields_of(seat)) for number, seat in enumerate(profile.seats)]
    return _button_uses(_fields_of(profile.pico), seats)


def _button_uses(
    pico: Mapping[str, Any], seats: list[tuple[int, Mapping[str, Any]]]
) -> Iterator[tuple[str, int, int | None, str]]:
    """The Pico buttons of these sections' values (seats by number); see _pico_button_uses."""
    for kind in ("new_game", "pause"):
        button = pico.get(f"{kind}_button")
        if button is not None:
            yield f"pico.{kind}_button", button, None, kind
    for number, seat in seats:
        for kind in ("confirm", "undo", "pass"):
            button = seat.get(f"{kind}_button")
            if button is not None:
                yield f"seats[{number}].{kind}_button", button, number, kind


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
    profile = _build_profile(_Table(data, "", errors), source)
    if errors or profile is None:
        raise ProfileError(source, errors)
    return profile


# -- reading tables with messages that name the key ------------------------------


class _Missing:
    """Marks a key that has no default (it must be given)."""


_MISSING = _Missing()
_BAD = object()
"""What a reader returns for a value it reported as a mistake."""


def _show(value: Any) -> str:
    """A value the way it looks in TOML, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_show(item) for item in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)


class _Table:
    """A TOML table being read: each value is checked, every mistake is noted with its key."""

    def __init__(self, data: dict[str, Any], path: str, errors: list[str]) -> None:
        self.data = data
        self.path = path
        self.errors = errors
        self.used: set[str] = set()
        self.accepted: dict[str, Any] = {}
        """The values given here that passed their check, by key (whatever else is wrong)."""
        self.children: dict[str, _Table] = {}
        """The sub-tables read so far, by key (``name`` or ``name[number]``)."""

    def key(self, name: str) -> str:
        """The dotted path of one of this table's keys."""
        return f"{self.path}.{name}" if self.path else name

    def fail(self, name: str, value: Any, expected: str) -> Any:
        """Note a mistake in ``name`` and return the marker for a bad value."""
        self.errors.append(f"{self.key(name)} = {_show(value)}: expected {expected}")
        return _BAD

    def get(self, name: str, check: Callable[[Any], T | None], expected: str, default: Any) -> Any:
        """The value of ``name`` if ``check`` accepts it (returns not ``None``), else a mistake."""
        self.used.add(name)
        if name not in self.data:
            if default is _MISSING:
                self.errors.append(f"{self.key(name)}: missing; expected {expected}")
                return _BAD
            return default
        value = check(self.data[name])
        if value is None:
            return self.fail(name, self.data[name], expected)
        self.accepted[name] = value
        return value

    def table(self, name: str, default: Any = _MISSING) -> _Table | Any:
        """A sub-table, or the default (a mistake if none) when it is absent."""
        value = self.get(name, _as_dict, "a table", default)
        if not isinstance(value, dict):
            return value
        self.children[name] = _Table(value, self.key(name), self.errors)
        return self.children[name]

    def tables(self, name: str, expected: str) -> Iterator[_Table]:
        """Each table of an array of tables (``[[name]]``)."""
        items = self.get(name, _as_list, expected, _MISSING)
        if items is _BAD:
            return
        for number, item in enumerate(items):
            if isinstance(item, dict):
                child = _Table(item, f"{self.key(name)}[{number}]", self.errors)
                self.children[f"{name}[{number}]"] = child
                yield child
            else:
                self.errors.append(f"{self.key(name)}[{number}] = {_show(item)}: expected a table")

    def finish(self) -> None:
        """Report every key nobody asked for: unknown keys are mistakes."""
        known = ", ".join(sorted(self.used))
        for name in self.data:
            if name not in self.used:
                self.errors.append(
                    f"{self.key(name)} = {_show(self.data[name])}: unknown key; "
                    f"expected one of {known}"
                )


# -- value checks: return the value to use, or None if it is wrong ----------------


def _as_dict(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def _as_list(value: Any) -> list[Any] | None:
    return value if isinstance(value, list) else None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _positive(value: Any) -> float | None:
    return float(value) if _is_number(value) and value > 0 else None


def _any_number(value: Any) -> float | None:
    return float(value) if _is_number(value) else None


def _fraction(value: Any) -> float | None:
    return float(value) if _is_number(value) and 0 <= value <= 1 else None


def _seconds(value: Any) -> float | None:
    return float(value) if _is_number(value) and 0 <= value <= 60 else None


def _gamma(value: Any) -> float | None:
    return float(value) if _is_number(value) and 1 <= value <= 4 else None


def _boolean(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _name(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _chain_length(value: Any) -> int | None:
    return value if _is_int(value) and 1 <= value <= 4096 else None


def _marker_id(value: Any) -> int | None:
    return value if _is_int(value) and value in ARUCO_IDS else None


def _resolution(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value):
        width, height = value
        return (width, height) if 16 <= width <= 8192 and 16 <= height <= 8192 else None
    return None


def _camera_source(value: Any) -> int | str | None:
    if _is_int(value):
        return value if value >= 0 else None
    if isinstance(value, str) and (value in CAMERA_KEYWORDS or "/" in value):
        return value
    return None


def _serial_port(value: Any) -> str | None:
    if isinstance(value, str) and (value in SERIAL_KEYWORDS or value.startswith("/")):
        return value
    return None


def _pin_factory(value: Any) -> str | None:
    return value if value in PIN_FACTORIES else None


def _pin(value: Any) -> Pin | None:
    if _is_int(value):
        return value if 0 <= value <= 27 else None
    return value if isinstance(value, str) and _PIN_NAME.match(value) else None


def _led_pins(value: Any) -> tuple[Pin, ...] | None:
    if _pin(value) is not None:
        return (value,)
    if isinstance(value, list) and len(value) == 3 and all(_pin(v) is not None for v in value):
        return tuple(value)
    return None


def _colour(value: Any) -> RGB | None:
    if isinstance(value, str) and _HEX_COLOUR.match(value):
        return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
    channels = value if isinstance(value, list) and len(value) == 3 else []
    if channels and all(_is_int(v) and 0 <= v <= 255 for v in channels):
        return (channels[0], channels[1], channels[2])
    return None


def _game(value: Any) -> str | None:
    return value if isinstance(value, str) and _GAME_NAME.match(value) else None


def _option(value: Any) -> Option | None:
    return value if isinstance(value, bool | int | float | str) else None


def _pico_button(value: Any) -> int | None:
    return value if _is_int(value) and value in PICO_BUTTON_IDS else None


def _die_ids(value: Any) -> tuple[int, ...] | None:
    if isinstance(value, list) and all(_is_int(v) and v in PICO_DIE_IDS for v in value):
        return tuple(value)
    return None


def _faces(value: Any) -> int | None:
    return value if _is_int(value) and value in DIE_FACES else None


def _correction(value: Any) -> tuple[float, float, float] | None:
    if isinstance(value, list) and len(value) == 3 and all(_fraction(v) is not None for v in value):
        return (float(value[0]), float(value[1]), float(value[2]))
    return None


def _led_indices(value: Any) -> tuple[int, ...] | None:
    """A segment: a list of chain indices, or ``{first = N, count = M}``."""
    if isinstance(value, list) and value and all(_is_int(v) and v >= 0 for v in value):
        return tuple(value)
    if isinstance(value, dict) and set(value) == {"first", "count"}:
        first, count = value["first"], value["count"]
        if _is_int(first) and _is_int(count) and first >= 0 and count >= 1:
            return tuple(range(first, first + count))
    return None


# -- sections --------------------------------------------------------------------

PIN_EXPECTED = 'a GPIO pin: a BCM number 0-27 or a name like "GPIO17" or "BOARD11"'
BUTTON_EXPECTED = "a Pico button id, 0-31 (as the firmware's config.py BUTTONS numbers them)"


def _build_profile(top: _Table, source: str) -> Profile | None:
    name = top.get("name", _name, "a non-empty name for this table", _MISSING)
    parts = {
        "camera": _section(top, "camera", _camera),
        "board": _section(top, "board", _board),
        "serial": _section(top, "serial", _serial),
        "gpio": _section(top, "gpio", _gpio, default=None),
        "leds": _section(top, "leds", _leds),
        "table": _section(top, "table", _table_section, default=TableProfile()),
        "pico": _section(top, "pico", _pico, default=PicoProfile()),
        "dice": _section(top, "dice", _dice, default=DiceProfile()),
        "cards": _section(top, "cards", _cards, default=None),
        "fleet": _section(top, "fleet", _fleet, default=None),
    }
    seats = tuple(_seat(table) for table in top.tables("seats", "an array of [[seats]] tables"))
    top.finish()
    if isinstance(top.data.get("seats"), list):
        _check_seat_count(top, len(seats))
    _cross_check(top, parts, len(seats))
    _check_cards(top, top.errors)
    if any(value is _BAD for value in [name, *parts.values(), *seats]) or not seats:
        return None
    return Profile(name=name, seats=seats, source=source, **parts)


def _check_seat_count(top: _Table, count: int) -> None:
    if not MIN_SEATS <= count <= MAX_SEATS:
        top.errors.append(
            f"seats: {count} seat{'s' if count != 1 else ''}: "
            f"expected {MIN_SEATS} to {MAX_SEATS} [[seats]] tables"
        )


def _section(
    top: _Table, name: str, build: Callable[[_Table], Any], default: Any = _MISSING
) -> Any:
    table = top.table(name, default)
    if not isinstance(table, _Table):
        return table
    result = build(table)
    table.finish()
    return result


def _all_good(*values: Any) -> bool:
    return all(value is not _BAD for value in values)


def _camera(table: _Table) -> CameraProfile | Any:
    source = table.get(
        "source",
        _camera_source,
        'a camera index (0, 1, ...), a path with a "/" (like "/dev/video0" or '
        '"./game.mp4"), "synthetic" or "picamera2"',
        _MISSING,
    )
    resolution = table.get(
        "resolution", _resolution, "[width, height] in pixels, each 16-8192", _MISSING
    )
    calibration = table.get(
        "calibration", _nonempty_text, "the path of a calibration file (cogtable calibrate)", None
    )
    letters = table.get(
        "letters",
        _nonempty_text,
        "the path of taught letters (cogtable calibrate cog --teach)",
        None,
    )
    if _all_good(source, resolution, calibration, letters):
        return CameraProfile(source, resolution, calibration, letters)
    return _BAD


def _nonempty_text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _board(table: _Table) -> BoardProfile | Any:
    pitch = table.get("peg_pitch_mm", _positive, "a positive number of millimetres", _MISSING)
    size = table.get("marker_size_mm", _positive, "a positive number of millimetres", _MISSING)
    radius = table.get("disk_radius_mm", _positive, "a positive number of millimetres", 162.0)
    markers = tuple(_marker(t) for t in table.tables("markers", "an array of [[board.markers]]"))
    ids_ok = _markers_ok(table, _given_marker_ids(table), len(markers))
    if _all_good(pitch, size, radius, *markers) and ids_ok:
        return BoardProfile(pitch, size, markers, radius)
    return _BAD


def _marker(table: _Table) -> Marker | Any:
    marker_id = table.get("id", _marker_id, "an ArUco DICT_4X4_50 id, 0-49", _MISSING)
    x = table.get("x_mm", _any_number, "a number of millimetres", _MISSING)
    y = table.get("y_mm", _any_number, "a number of millimetres", _MISSING)
    table.finish()
    return Marker(marker_id, x, y) if _all_good(marker_id, x, y) else _BAD


def _markers_ok(table: _Table, ids: list[int], count: int, least: int = 4) -> bool:
    """Enough markers for a homography, each id once (among the ids right by themselves)."""
    if count < least:
        homography = "the board's" if least == 4 else "the mat's"
        table.fail("markers", ids, f"at least {least} markers ({homography} homography needs them)")
        return False
    if len(set(ids)) != len(ids):
        table.fail("markers", ids, "each marker id once")
        return False
    return True


def _given_marker_ids(table: _Table) -> list[int]:
    """The ids of this section's [[markers]] that passed their own check, in order."""
    markers = [child for key, child in table.children.items() if key.startswith("markers[")]
    return [marker.accepted["id"] for marker in markers if "id" in marker.accepted]


def _cards(table: _Table) -> CardsProfile | Any:
    """The ``[cards]`` section: the card mat's size, markers and zones."""
    width = table.get("width_mm", _positive, "a positive number of millimetres", _MISSING)
    height = table.get("height_mm", _positive, "a positive number of millimetres", _MISSING)
    side = table.get("marker_size_mm", _positive, "a positive number of millimetres", _MISSING)
    markers = tuple(_marker(t) for t in table.tables("markers", "an array of [[cards.markers]]"))
    zones = tuple(_card_zone(t) for t in table.tables("zones", "an array of [[cards.zones]]"))
    ids_ok = _markers_ok(table, _given_marker_ids(table), len(markers), least=3)
    if not _all_good(width, height, side, *markers, *zones):
        return _BAD
    cards = CardsProfile(width, height, side, markers, zones)
    return cards if _card_mat_ok(table, cards) and ids_ok else _BAD


def _card_zone(table: _Table) -> CardZoneProfile | Any:
    name = table.get("name", _name, "a non-empty zone name", _MISSING)
    seat = table.get("seat", _seat_number, "a seat number, 1 to 6 (leave it out: shared)", None)
    x = table.get("x_mm", _any_number, "a number of millimetres (the zone's centre)", _MISSING)
    y = table.get("y_mm", _any_number, "a number of millimetres (the zone's centre)", _MISSING)
    width = table.get("width_mm", _positive, "a positive number of millimetres", _MISSING)
    height = table.get("height_mm", _positive, "a positive number of millimetres", _MISSING)
    table.finish()
    values = (name, seat, x, y, width, height)
    return CardZoneProfile(*values) if _all_good(*values) else _BAD


def _seat_number(value: Any) -> int | None:
    return value if _is_int(value) and 1 <= value <= MAX_SEATS else None


def _card_mat_ok(table: _Table, cards: CardsProfile) -> bool:
    """Zones: each name once, inside the mat, apart (the markers' ids are checked before)."""
    errors_before = len(table.errors)
    names = [zone.name for zone in cards.zones]
    if not names:
        table.fail("zones", [], "at least one [[cards.zones]] table")
    elif len(set(names)) != len(names):
        table.fail("zones", names, "each zone name once")
    half = cards.marker_size_mm / 2
    boxes = [(f"markers[{n}]", m.x_mm, m.y_mm, half, half) for n, m in enumerate(cards.markers)]
    boxes += [
        (f"zones[{n}]", z.x_mm, z.y_mm, z.width_mm / 2, z.height_mm / 2)
        for n, z in enumerate(cards.zones)
    ]
    for key, x, y, half_w, half_h in boxes:
        if (
            x - half_w < 0
            or y - half_h < 0
            or x + half_w > cards.width_mm
            or y + half_h > cards.height_mm
        ):
            table.fail(
                key,
                f"{2 * half_w:g} x {2 * half_h:g} mm at ({x:g}, {y:g})",
                f"inside the {cards.width_mm:g} x {cards.height_mm:g} mm mat",
            )
    for index, (key, x, y, half_w, half_h) in enumerate(boxes):
        for other, ox, oy, other_w, other_h in boxes[index + 1 :]:
            if (
                key.startswith("zones")
                and abs(x - ox) < half_w + other_w
                and abs(y - oy) < half_h + other_h
            ):
                table.fail(key, f"({x:g}, {y:g})", f"a zone clear of {other}")
    return len(table.errors) == errors_before


def _check_cards(top: _Table, errors: list[str]) -> None:
    """The card mat's markers are not the board's (the camera sees both).

    Checked among the marker ids that are right by themselves, whatever else
    is wrong in [board] or [cards]. A zone may name a seat the table does not
    have: a six-seat mat serves a two-seat game, its other zones unused.
    """
    shared = sorted(_marker_ids(top, "cards") & _marker_ids(top, "board"))
    if shared:
        errors.append(
            f"cards.markers = {shared}: expected ids not used by board.markers (the camera "
            "sees both)"
        )


def _marker_ids(top: _Table, section: str) -> set[int]:
    """The ids given in ``section``'s [[markers]] that passed their own check."""
    table = top.children.get(section)
    return set() if table is None else set(_given_marker_ids(table))


def _serial(table: _Table) -> SerialProfile | Any:
    port = table.get(
        "port", _serial_port, '"auto", "sim" or a device path like "/dev/ttyACM0"', _MISSING
    )
    return SerialProfile(port) if port is not _BAD else _BAD


def _gpio(table: _Table) -> GpioProfile | Any:
    factories = ", ".join(f'"{name}"' for name in PIN_FACTORIES)
    values = (
        table.get("pin_factory", _pin_factory, f"one of {factories}", None),
        table.get("bounce_time_s", _seconds, "a number of seconds, 0-60", 0.05),
        table.get("hold_time_s", _seconds, "a number of seconds, 0-60", 1.0),
        table.get("pull_up", _boolean, "true or false", True),
        table.get("pwm_leds", _boolean, "true or false", False),
        table.get("new_game_pin", _pin, PIN_EXPECTED, None),
        table.get("pause_pin", _pin, PIN_EXPECTED, None),
    )
    return GpioProfile(*values) if _all_good(*values) else _BAD


def _seat(table: _Table) -> Seat | Any:
    values = (
        table.get("name", _name, "a non-empty seat name", _MISSING),
        table.get("colour", _colour, 'a colour: "#rrggbb" or [red, green, blue] 0-255', _MISSING),
        table.get("confirm_pin", _pin, PIN_EXPECTED, None),
        table.get("undo_pin", _pin, PIN_EXPECTED, None),
        table.get("led_pins", _led_pins, "one GPIO pin, or three [red, green, blue]", ()),
        table.get("pass_pin", _pin, PIN_EXPECTED, None),
        table.get("confirm_button", _pico_button, BUTTON_EXPECTED, None),
        table.get("undo_button", _pico_button, BUTTON_EXPECTED, None),
        table.get("pass_button", _pico_button, BUTTON_EXPECTED, None),
    )
    table.finish()
    return Seat(*values) if _all_good(*values) else _BAD


def _table_section(table: _Table) -> TableProfile | Any:
    game = table.get(
        "game", _game, 'a game\'s name in lower case, like "kogworks" or "cookie"', "kogworks"
    )
    options = _options(table)
    return TableProfile(game, options) if _all_good(game, options) else _BAD


def _options(table: _Table) -> dict[str, Option] | Any:
    found = table.table("options", None)
    if not isinstance(found, _Table):
        return {} if found is None else _BAD
    expected = "one value for the game: true or false, a number or a text (not a list or table)"
    options = {name: found.get(name, _option, expected, _MISSING) for name in found.data}
    return options if _all_good(*options.values()) else _BAD


def _broker(value: Any) -> BrokerUrl | None:
    try:
        broker = parse_broker_url(value)
    except ValueError:
        return None
    return broker if not broker.path else None


def _fleet(table: _Table) -> FleetProfile | Any:
    expected = 'a broker address: "mqtt://host[:port]" or "mqtts://host[:port]"'
    broker = table.get("broker", _broker, expected, _MISSING)
    values = (
        table.get("venue", valid_id, f"the venue's id: {ID_EXPECTED}", _MISSING),
        table.get("table", valid_id, f"this table's id in the venue: {ID_EXPECTED}", _MISSING),
        table.get("ca_file", _nonempty_text, "the path of the broker's CA certificate", None),
        table.get("credentials", _nonempty_text, "the path of the credentials file", None),
    )
    if isinstance(broker, BrokerUrl) and broker.tls and values[2] is None:
        table.errors.append(
            f"{table.key('broker')} = {_show(table.data['broker'])}: mqtts needs "
            f"{table.key('ca_file')}, the CA certificate that signed the broker's"
        )
        return _BAD
    if isinstance(broker, BrokerUrl) and not broker.tls and isinstance(values[2], str):
        return table.fail(
            "ca_file", values[2], "no CA file with mqtt:// (plain MQTT; use mqtts://)"
        )
    return FleetProfile(broker, *values) if _all_good(broker, *values) else _BAD


def _pico(table: _Table) -> PicoProfile | Any:
    values = (
        table.get("new_game_button", _pico_button, BUTTON_EXPECTED, None),
        table.get("pause_button", _pico_button, BUTTON_EXPECTED, None),
    )
    return PicoProfile(*values) if _all_good(*values) else _BAD


def _dice(table: _Table) -> DiceProfile | Any:
    pico = table.get("pico", _die_ids, "a list of the Pico's die ids, each 0-7", ())
    roll_pin = table.get("roll_pin", _pin, PIN_EXPECTED, None)
    faces = table.get("faces", _faces, "a number of faces, 2-20", 6)
    camera = table.get("camera", _boolean, "true or false", False)
    if pico is not _BAD and len(set(pico)) != len(pico):
        pico = table.fail("pico", list(pico), "each die id once")
    if _all_good(pico, roll_pin, faces, camera) and _pico_faces_ok(table, pico, faces):
        return DiceProfile(pico, roll_pin, faces, camera)
    return _BAD


def _pico_faces_ok(table: _Table, pico: tuple[int, ...], faces: int) -> bool:
    """The Pico's firmware rolls six-sided dice only."""
    if pico and faces != PICO_DIE_FACES:
        expected = f"{PICO_DIE_FACES} with dice.pico (the Pico's dice are six-sided)"
        table.fail("faces", faces, expected)
        return False
    return True


def _leds(table: _Table) -> LedProfile | Any:
    length = table.get("length", _chain_length, "a number of LEDs, 1-4096", _MISSING)
    brightness = table.get("brightness", _fraction, "a number from 0 to 1", 1.0)
    correction = table.get(
        "correction", _correction, "[red, green, blue] factors, each 0-1", (1.0, 1.0, 1.0)
    )
    gamma = table.get("gamma", _gamma, "a number from 1 to 4 (1: no gamma)", 1.0)
    segments = _segments(table, length)
    if _all_good(length, brightness, correction, gamma, segments):
        return LedProfile(length, segments, brightness, correction, gamma)
    return _BAD


def _segments(table: _Table, length: Any) -> tuple[Segment, ...] | Any:
    found = table.table("segments")
    if not isinstance(found, _Table):
        return _BAD
    expected = "a list of LED indices on the chain, or {first = N, count = M}"
    segments = [(name, found.get(name, _led_indices, expected, _MISSING)) for name in found.data]
    if not segments:
        found.errors.append(f"{found.path} = {{}}: expected at least one segment")
    if not _all_good(*(leds for _, leds in segments)) or not segments:
        return _BAD
    if length is not _BAD and not _segments_fit(found, segments, length):
        return _BAD
    return tuple(Segment(name, leds) for name, leds in segments)


def _segments_fit(table: _Table, segments: list[tuple[str, Any]], length: int) -> bool:
    """Every index is on the chain and every LED belongs to one segment only."""
    owner: dict[int, str] = {}
    good = True
    for name, leds in segments:
        for index in leds:
            if index >= length:
                table.fail(name, table.data[name], f"indices below leds.length ({length})")
                good = False
                break
            if index in owner:
                table.fail(name, table.data[name], f"LED {index} in one segment only")
                table.errors[-1] += f" (it is also in {table.key(owner[index])})"
                good = False
                break
            owner[index] = name
    return good


# -- checks across sections ------------------------------------------------------


def _cross_check(top: _Table, parts: dict[str, Any], seat_count: int) -> None:
    """Mistakes no single value shows: names, pins or button ids used twice, seat LEDs.

    Checked among every value that is right by itself, even in a section with
    another mistake, so that every mistake is reported at once.
    """
    errors = top.errors
    seats = _accepted_seats(top)
    pins = _pin_uses(_accepted(top, "gpio"), seats, _accepted(top, "dice"))
    _check_seat_names(seats, errors)
    _check_pins_unique(pins, errors)
    _check_pico_buttons_unique(_button_uses(_accepted(top, "pico"), seats), errors)
    if parts["leds"] is not _BAD:
        _check_seat_segment(parts["leds"], seat_count, errors)
    if parts["gpio"] is None:
        _check_gpio_table(pins, errors)


def _accepted_seats(top: _Table) -> list[tuple[int, Mapping[str, Any]]]:
    """Each [[seats]] table's accepted values, by its place in the array (an item that is
    no table has no number here, and the seats after it keep theirs)."""
    return [
        (int(key.removeprefix("seats[").removesuffix("]")), child.accepted)
        for key, child in top.children.items()
        if key.startswith("seats[")
    ]


def _accepted(top: _Table, key: str) -> Mapping[str, Any]:
    """The values of sub-table ``key`` that passed their own check (none if it is absent)."""
    child = top.children.get(key)
    return {} if child is None else child.accepted


def _check_seat_names(seats: list[tuple[int, Mapping[str, Any]]], errors: list[str]) -> None:
    seen: set[str] = set()
    for number, seat in seats:
        name = seat.get("name")
        if name is None:
            continue
        if name.lower() in seen:
            errors.append(f'seats[{number}].name = "{name}": expected a name not used before')
        seen.add(name.lower())


def _canonical_pin(pin: Pin) -> str:
    """One spelling per BCM pin, so 17, "GPIO17" and "BCM17" compare equal."""
    if isinstance(pin, int):
        return f"GPIO{pin}"
    return re.sub(r"^BCM", "GPIO", pin)


def _check_pins_unique(pins: dict[str, Pin], errors: list[str]) -> None:
    first_user: dict[str, str] = {}
    for key, pin in pins.items():
        canonical = _canonical_pin(pin)
        if canonical in first_user:
            errors.append(
                f"{key} = {_show(pin)}: expected a pin not used elsewhere "
                f"(it is already {first_user[canonical]})"
            )
        first_user.setdefault(canonical, key)


def _check_gpio_table(pins: dict[str, Pin], errors: list[str]) -> None:
    """GPIO pins need a [gpio] table: one mistake per section (seats, dice) that has pins."""
    sections = dict.fromkeys(re.split(r"[.\[]", key)[0] for key in pins)
    for section in sections:
        errors.append(f"{section}: pins are given but there is no [gpio] table: expected one")


def _check_pico_buttons_unique(
    uses: Iterator[tuple[str, int, int | None, str]], errors: list[str]
) -> None:
    first_user: dict[int, str] = {}
    for key, button, _, _ in uses:
        if button in first_user:
            errors.append(
                f"{key} = {button}: expected a Pico button id not used elsewhere "
                f"(it is already {first_user[button]})"
            )
        first_user.setdefault(button, key)


def _check_seat_segment(leds: LedProfile, seats: int, errors: list[str]) -> None:
    """A ``seats`` LED segment, when there is one, has exactly one LED per seat."""
    try:
        indices = leds.segment("seats").leds
    except KeyError:
        return
    if len(indices) != seats:
        errors.append(
            f"leds.segments.seats = {_show(list(indices))}: expected one LED per seat ({seats})"
        )
