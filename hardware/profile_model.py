"""The table profile's typed model: frozen dataclasses of what a table has, and its limits.

Read and checked from TOML by :mod:`hardware.profile` (:func:`~hardware.profile.load_profile`);
every other module takes these types from there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.broker import BrokerUrl

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
PROFILE_LIMIT = 1024 * 1024
"""Bytes a profile file may hold (a table's profile is a few KiB)."""


def show(value: Any) -> str:
    """A value the way it looks in TOML, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)


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
        options = ", ".join(f"{k} = {show(v)}" for k, v in self.table.options.items())
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
            parts.append(f"GPIO roll button {show(dice.roll_pin)}")
        if dice.camera:
            parts.append("the camera reads dice in a board's die slots")
        if not parts:
            return "none (the console asks for rolls)"
        return f"{' and '.join(parts)}; {dice.faces} faces"


def gpio_pins(profile: Profile) -> dict[str, Pin]:
    """Every GPIO pin the profile uses, by the dotted key that names it."""
    seats = [(number, fields_of(seat)) for number, seat in enumerate(profile.seats)]
    return pin_uses(fields_of(profile.gpio), seats, fields_of(profile.dice))


def fields_of(section: Any) -> Mapping[str, Any]:
    """A section's values by key (none for an absent section), as :func:`pin_uses` reads them."""
    return {} if section is None else vars(section)


def pin_uses(
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
    return {button: (seat, kind) for _, button, seat, kind in pico_button_uses(profile)}


def pico_button_uses(profile: Profile) -> Iterator[tuple[str, int, int | None, str]]:
    """(dotted key, firmware button id, seat or None, kind) for each button on the Pico."""
    seats = [(number, fields_of(seat)) for number, seat in enumerate(profile.seats)]
    return button_uses(fields_of(profile.pico), seats)


def button_uses(
    pico: Mapping[str, Any], seats: list[tuple[int, Mapping[str, Any]]]
) -> Iterator[tuple[str, int, int | None, str]]:
    """The Pico buttons of these sections' values (seats by number); see pico_button_uses."""
    for kind in ("new_game", "pause"):
        button = pico.get(f"{kind}_button")
        if button is not None:
            yield f"pico.{kind}_button", button, None, kind
    for number, seat in seats:
        for kind in ("confirm", "undo", "pass"):
            button = seat.get(f"{kind}_button")
            if button is not None:
                yield f"seats[{number}].{kind}_button", button, number, kind
