"""The profile's sections read into the typed model, and the checks across sections.

:func:`build_profile` reads a whole profile's TOML tables; every mistake is
noted (with its dotted key) and all are reported at once by :mod:`hardware.profile`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from hardware import profile_checks as checks
from hardware.broker import ID_EXPECTED, BrokerUrl, parse_broker_url, valid_id
from hardware.profile_model import (
    MAX_SEATS,
    MIN_SEATS,
    PICO_DIE_FACES,
    PIN_FACTORIES,
    BoardProfile,
    CameraProfile,
    CardsProfile,
    CardZoneProfile,
    DiceProfile,
    FleetProfile,
    GpioProfile,
    LedProfile,
    Marker,
    Option,
    PicoProfile,
    Pin,
    Profile,
    Seat,
    Segment,
    SerialProfile,
    TableProfile,
    button_uses,
    pin_uses,
    show,
)

# -- sections --------------------------------------------------------------------

PIN_EXPECTED = 'a GPIO pin: a BCM number 0-27 or a name like "GPIO17" or "BOARD11"'
BUTTON_EXPECTED = "a Pico button id, 0-31 (as the firmware's config.py BUTTONS numbers them)"


def build_profile(top: checks.ProfileTable, source: str) -> Profile | None:
    name = top.get("name", checks.name, "a non-empty name for this table", checks.MISSING)
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
    if any(value is checks.BAD for value in [name, *parts.values(), *seats]) or not seats:
        return None
    return Profile(name=name, seats=seats, source=source, **parts)


def _check_seat_count(top: checks.ProfileTable, count: int) -> None:
    if not MIN_SEATS <= count <= MAX_SEATS:
        top.errors.append(
            f"seats: {count} seat{'s' if count != 1 else ''}: "
            f"expected {MIN_SEATS} to {MAX_SEATS} [[seats]] tables"
        )


def _section(
    top: checks.ProfileTable,
    name: str,
    build: Callable[[checks.ProfileTable], Any],
    default: Any = checks.MISSING,
) -> Any:
    table = top.table(name, default)
    if not isinstance(table, checks.ProfileTable):
        return table
    result = build(table)
    table.finish()
    return result


def _all_good(*values: Any) -> bool:
    return all(value is not checks.BAD for value in values)


def _camera(table: checks.ProfileTable) -> CameraProfile | Any:
    source = table.get(
        "source",
        checks.camera_source,
        'a camera index (0, 1, ...), a path with a "/" (like "/dev/video0" or '
        '"./game.mp4"), "synthetic" or "picamera2"',
        checks.MISSING,
    )
    resolution = table.get(
        "resolution", checks.resolution, "[width, height] in pixels, each 16-8192", checks.MISSING
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
    return checks.BAD


def _nonempty_text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _board(table: checks.ProfileTable) -> BoardProfile | Any:
    pitch = table.get(
        "peg_pitch_mm", checks.positive, "a positive number of millimetres", checks.MISSING
    )
    size = table.get(
        "marker_size_mm", checks.positive, "a positive number of millimetres", checks.MISSING
    )
    radius = table.get("disk_radius_mm", checks.positive, "a positive number of millimetres", 162.0)
    markers = tuple(_marker(t) for t in table.tables("markers", "an array of [[board.markers]]"))
    ids_ok = _markers_ok(table, _given_marker_ids(table), len(markers))
    if _all_good(pitch, size, radius, *markers) and ids_ok:
        return BoardProfile(pitch, size, markers, radius)
    return checks.BAD


def _marker(table: checks.ProfileTable) -> Marker | Any:
    marker_id = table.get("id", checks.marker_id, "an ArUco DICT_4X4_50 id, 0-49", checks.MISSING)
    x = table.get("x_mm", checks.any_number, "a number of millimetres", checks.MISSING)
    y = table.get("y_mm", checks.any_number, "a number of millimetres", checks.MISSING)
    table.finish()
    return Marker(marker_id, x, y) if _all_good(marker_id, x, y) else checks.BAD


def _markers_ok(table: checks.ProfileTable, ids: list[int], count: int, least: int = 4) -> bool:
    """Enough markers for a homography, each id once (among the ids right by themselves)."""
    if count < least:
        homography = "the board's" if least == 4 else "the mat's"
        table.fail("markers", ids, f"at least {least} markers ({homography} homography needs them)")
        return False
    if len(set(ids)) != len(ids):
        table.fail("markers", ids, "each marker id once")
        return False
    return True


def _given_marker_ids(table: checks.ProfileTable) -> list[int]:
    """The ids of this section's [[markers]] that passed their own check, in order."""
    markers = [child for key, child in table.children.items() if key.startswith("markers[")]
    return [marker.accepted["id"] for marker in markers if "id" in marker.accepted]


def _cards(table: checks.ProfileTable) -> CardsProfile | Any:
    """The ``[cards]`` section: the card mat's size, markers and zones."""
    width = table.get(
        "width_mm", checks.positive, "a positive number of millimetres", checks.MISSING
    )
    height = table.get(
        "height_mm", checks.positive, "a positive number of millimetres", checks.MISSING
    )
    side = table.get(
        "marker_size_mm", checks.positive, "a positive number of millimetres", checks.MISSING
    )
    markers = tuple(_marker(t) for t in table.tables("markers", "an array of [[cards.markers]]"))
    zones = tuple(_card_zone(t) for t in table.tables("zones", "an array of [[cards.zones]]"))
    ids_ok = _markers_ok(table, _given_marker_ids(table), len(markers), least=3)
    if not _all_good(width, height, side, *markers, *zones):
        return checks.BAD
    cards = CardsProfile(width, height, side, markers, zones)
    return cards if _card_mat_ok(table, cards) and ids_ok else checks.BAD


def _card_zone(table: checks.ProfileTable) -> CardZoneProfile | Any:
    name = table.get("name", checks.name, "a non-empty zone name", checks.MISSING)
    seat = table.get("seat", _seat_number, "a seat number, 1 to 6 (leave it out: shared)", None)
    x = table.get(
        "x_mm", checks.any_number, "a number of millimetres (the zone's centre)", checks.MISSING
    )
    y = table.get(
        "y_mm", checks.any_number, "a number of millimetres (the zone's centre)", checks.MISSING
    )
    width = table.get(
        "width_mm", checks.positive, "a positive number of millimetres", checks.MISSING
    )
    height = table.get(
        "height_mm", checks.positive, "a positive number of millimetres", checks.MISSING
    )
    table.finish()
    values = (name, seat, x, y, width, height)
    return CardZoneProfile(*values) if _all_good(*values) else checks.BAD


def _seat_number(value: Any) -> int | None:
    return value if checks.is_int(value) and 1 <= value <= MAX_SEATS else None


def _card_mat_ok(table: checks.ProfileTable, cards: CardsProfile) -> bool:
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


def _check_cards(top: checks.ProfileTable, errors: list[str]) -> None:
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


def _marker_ids(top: checks.ProfileTable, section: str) -> set[int]:
    """The ids given in ``section``'s [[markers]] that passed their own check."""
    table = top.children.get(section)
    return set() if table is None else set(_given_marker_ids(table))


def _serial(table: checks.ProfileTable) -> SerialProfile | Any:
    port = table.get(
        "port",
        checks.serial_port,
        '"auto", "sim" or a device path like "/dev/ttyACM0"',
        checks.MISSING,
    )
    return SerialProfile(port) if port is not checks.BAD else checks.BAD


def _gpio(table: checks.ProfileTable) -> GpioProfile | Any:
    factories = ", ".join(f'"{name}"' for name in PIN_FACTORIES)
    values = (
        table.get("pin_factory", checks.pin_factory, f"one of {factories}", None),
        table.get("bounce_time_s", checks.seconds, "a number of seconds, 0-60", 0.05),
        table.get("hold_time_s", checks.seconds, "a number of seconds, 0-60", 1.0),
        table.get("pull_up", checks.boolean, "true or false", True),
        table.get("pwm_leds", checks.boolean, "true or false", False),
        table.get("new_game_pin", checks.pin, PIN_EXPECTED, None),
        table.get("pause_pin", checks.pin, PIN_EXPECTED, None),
    )
    return GpioProfile(*values) if _all_good(*values) else checks.BAD


def _seat(table: checks.ProfileTable) -> Seat | Any:
    values = (
        table.get("name", checks.name, "a non-empty seat name", checks.MISSING),
        table.get(
            "colour",
            checks.colour,
            'a colour: "#rrggbb" or [red, green, blue] 0-255',
            checks.MISSING,
        ),
        table.get("confirm_pin", checks.pin, PIN_EXPECTED, None),
        table.get("undo_pin", checks.pin, PIN_EXPECTED, None),
        table.get("led_pins", checks.led_pins, "one GPIO pin, or three [red, green, blue]", ()),
        table.get("pass_pin", checks.pin, PIN_EXPECTED, None),
        table.get("confirm_button", checks.pico_button, BUTTON_EXPECTED, None),
        table.get("undo_button", checks.pico_button, BUTTON_EXPECTED, None),
        table.get("pass_button", checks.pico_button, BUTTON_EXPECTED, None),
    )
    table.finish()
    return Seat(*values) if _all_good(*values) else checks.BAD


def _table_section(table: checks.ProfileTable) -> TableProfile | Any:
    game = table.get(
        "game", checks.game, 'a game\'s name in lower case, like "kogworks" or "cookie"', "kogworks"
    )
    options = _options(table)
    return TableProfile(game, options) if _all_good(game, options) else checks.BAD


def _options(table: checks.ProfileTable) -> dict[str, Option] | Any:
    found = table.table("options", None)
    if not isinstance(found, checks.ProfileTable):
        return {} if found is None else checks.BAD
    expected = "one value for the game: true or false, a number or a text (not a list or table)"
    options = {
        name: found.get(name, checks.option, expected, checks.MISSING) for name in found.data
    }
    return options if _all_good(*options.values()) else checks.BAD


def _broker(value: Any) -> BrokerUrl | None:
    try:
        broker = parse_broker_url(value)
    except ValueError:
        return None
    return broker if not broker.path else None


def _fleet(table: checks.ProfileTable) -> FleetProfile | Any:
    expected = 'a broker address: "mqtt://host[:port]" or "mqtts://host[:port]"'
    broker = table.get("broker", _broker, expected, checks.MISSING)
    values = (
        table.get("venue", valid_id, f"the venue's id: {ID_EXPECTED}", checks.MISSING),
        table.get(
            "table", valid_id, f"this table's id in the venue: {ID_EXPECTED}", checks.MISSING
        ),
        table.get("ca_file", _nonempty_text, "the path of the broker's CA certificate", None),
        table.get("credentials", _nonempty_text, "the path of the credentials file", None),
    )
    if isinstance(broker, BrokerUrl) and broker.tls and values[2] is None:
        table.errors.append(
            f"{table.key('broker')} = {show(table.data['broker'])}: mqtts needs "
            f"{table.key('ca_file')}, the CA certificate that signed the broker's"
        )
        return checks.BAD
    if isinstance(broker, BrokerUrl) and not broker.tls and isinstance(values[2], str):
        return table.fail(
            "ca_file", values[2], "no CA file with mqtt:// (plain MQTT; use mqtts://)"
        )
    return FleetProfile(broker, *values) if _all_good(broker, *values) else checks.BAD


def _pico(table: checks.ProfileTable) -> PicoProfile | Any:
    values = (
        table.get("new_game_button", checks.pico_button, BUTTON_EXPECTED, None),
        table.get("pause_button", checks.pico_button, BUTTON_EXPECTED, None),
    )
    return PicoProfile(*values) if _all_good(*values) else checks.BAD


def _dice(table: checks.ProfileTable) -> DiceProfile | Any:
    pico = table.get("pico", checks.die_ids, "a list of the Pico's die ids, each 0-7", ())
    roll_pin = table.get("roll_pin", checks.pin, PIN_EXPECTED, None)
    faces = table.get("faces", checks.faces, "a number of faces, 2-20", 6)
    camera = table.get("camera", checks.boolean, "true or false", False)
    if pico is not checks.BAD and len(set(pico)) != len(pico):
        pico = table.fail("pico", list(pico), "each die id once")
    if _all_good(pico, roll_pin, faces, camera) and _pico_faces_ok(table, pico, faces):
        return DiceProfile(pico, roll_pin, faces, camera)
    return checks.BAD


def _pico_faces_ok(table: checks.ProfileTable, pico: tuple[int, ...], faces: int) -> bool:
    """The Pico's firmware rolls six-sided dice only."""
    if pico and faces != PICO_DIE_FACES:
        expected = f"{PICO_DIE_FACES} with dice.pico (the Pico's dice are six-sided)"
        table.fail("faces", faces, expected)
        return False
    return True


def _leds(table: checks.ProfileTable) -> LedProfile | Any:
    length = table.get("length", checks.chain_length, "a number of LEDs, 1-4096", checks.MISSING)
    brightness = table.get("brightness", checks.fraction, "a number from 0 to 1", 1.0)
    correction = table.get(
        "correction", checks.correction, "[red, green, blue] factors, each 0-1", (1.0, 1.0, 1.0)
    )
    gamma = table.get("gamma", checks.gamma, "a number from 1 to 4 (1: no gamma)", 1.0)
    segments = _segments(table, length)
    if _all_good(length, brightness, correction, gamma, segments):
        return LedProfile(length, segments, brightness, correction, gamma)
    return checks.BAD


def _segments(table: checks.ProfileTable, length: Any) -> tuple[Segment, ...] | Any:
    found = table.table("segments")
    if not isinstance(found, checks.ProfileTable):
        return checks.BAD
    expected = "a list of LED indices on the chain, or {first = N, count = M}"
    segments = [
        (name, found.get(name, checks.led_indices, expected, checks.MISSING)) for name in found.data
    ]
    if not segments:
        found.errors.append(f"{found.path} = {{}}: expected at least one segment")
    if not _all_good(*(leds for _, leds in segments)) or not segments:
        return checks.BAD
    if length is not checks.BAD and not _segments_fit(found, segments, length):
        return checks.BAD
    return tuple(Segment(name, leds) for name, leds in segments)


def _segments_fit(table: checks.ProfileTable, segments: list[tuple[str, Any]], length: int) -> bool:
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


def _cross_check(top: checks.ProfileTable, parts: dict[str, Any], seat_count: int) -> None:
    """Mistakes no single value shows: names, pins or button ids used twice, seat LEDs.

    Checked among every value that is right by itself, even in a section with
    another mistake, so that every mistake is reported at once.
    """
    errors = top.errors
    seats = _accepted_seats(top)
    pins = pin_uses(_accepted(top, "gpio"), seats, _accepted(top, "dice"))
    _check_seat_names(seats, errors)
    _check_pins_unique(pins, errors)
    _check_pico_buttons_unique(button_uses(_accepted(top, "pico"), seats), errors)
    if parts["leds"] is not checks.BAD:
        _check_seat_segment(parts["leds"], seat_count, errors)
    if parts["gpio"] is None:
        _check_gpio_table(pins, errors)


def _accepted_seats(top: checks.ProfileTable) -> list[tuple[int, Mapping[str, Any]]]:
    """Each [[seats]] table's accepted values, by its place in the array (an item that is
    no table has no number here, and the seats after it keep theirs)."""
    return [
        (int(key.removeprefix("seats[").removesuffix("]")), child.accepted)
        for key, child in top.children.items()
        if key.startswith("seats[")
    ]


def _accepted(top: checks.ProfileTable, key: str) -> Mapping[str, Any]:
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
                f"{key} = {show(pin)}: expected a pin not used elsewhere "
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
            f"leds.segments.seats = {show(list(indices))}: expected one LED per seat ({seats})"
        )
