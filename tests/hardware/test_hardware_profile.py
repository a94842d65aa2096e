"""The table profile: every key checked with a message that names it, shipped profiles load."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtable.cli import main
from hardware.profile import (
    DiceProfile,
    PicoProfile,
    ProfileError,
    TableProfile,
    default_profile_path,
    gpio_pins,
    load_profile,
    pico_buttons,
)
from tests.hardware.profile_helpers import (
    MOCK,
    MOCK_PICO_BUTTONS,
    REFERENCE,
    SEAT_NAMES,
    edited,
    errors_of,
    without_line,
)

# (old text in the mock profile, replacement, the exact expected message)
CASES = [
    ('name = "mock table"', "name = 3", "name = 3: expected a non-empty name for this table"),
    ('name = "mock table"', 'name = "  "', 'name = "  ": expected a non-empty name for this table'),
    (
        'source = "synthetic"',
        'source = "synthetc"',
        'camera.source = "synthetc": expected a camera index (0, 1, ...), a path with a "/" '
        '(like "/dev/video0" or "./game.mp4"), "synthetic" or "picamera2"',
    ),
    (
        'source = "synthetic"',
        "source = -1",
        'camera.source = -1: expected a camera index (0, 1, ...), a path with a "/" (like '
        '"/dev/video0" or "./game.mp4"), "synthetic" or "picamera2"',
    ),
    (
        "resolution = [1280, 720]",
        "resolution = [1280]",
        "camera.resolution = [1280]: expected [width, height] in pixels, each 16-8192",
    ),
    (
        "resolution = [1280, 720]",
        "resolution = [1280, 0]",
        "camera.resolution = [1280, 0]: expected [width, height] in pixels, each 16-8192",
    ),
    (
        "peg_pitch_mm = 25.0",
        "peg_pitch_mm = -3",
        "board.peg_pitch_mm = -3: expected a positive number of millimetres",
    ),
    (
        "peg_pitch_mm = 25.0",
        'peg_pitch_mm = "30"',
        'board.peg_pitch_mm = "30": expected a positive number of millimetres',
    ),
    (
        "marker_size_mm = 45.0",
        "marker_size_mm = 0",
        "board.marker_size_mm = 0: expected a positive number of millimetres",
    ),
    ("id = 0", "id = 50", "board.markers[0].id = 50: expected an ArUco DICT_4X4_50 id, 0-49"),
    ("id = 1", "id = 0", "board.markers = [0, 0, 2, 3]: expected each marker id once"),
    (
        "x_mm = -180.0",
        "x_mm = true",
        "board.markers[0].x_mm = true: expected a number of millimetres",
    ),
    (
        "y_mm = -180.0",
        'y_mm = "a"',
        'board.markers[0].y_mm = "a": expected a number of millimetres',
    ),
    (
        'port = "sim"',
        'port = "simm"',
        'serial.port = "simm": expected "auto", "sim" or a device path like "/dev/ttyACM0"',
    ),
    (
        'pin_factory = "mock"',
        'pin_factory = "gpio"',
        'gpio.pin_factory = "gpio": expected one of "mock", "lgpio", "rpigpio", "pigpio", "native"',
    ),
    (
        "bounce_time_s = 0.05",
        "bounce_time_s = -0.1",
        "gpio.bounce_time_s = -0.1: expected a number of seconds, 0-60",
    ),
    (
        "hold_time_s = 1.0",
        "hold_time_s = 100",
        "gpio.hold_time_s = 100: expected a number of seconds, 0-60",
    ),
    ("pull_up = true", "pull_up = 1", "gpio.pull_up = 1: expected true or false"),
    ("pull_up = true", "pwm_leds = 0", "gpio.pwm_leds = 0: expected true or false"),
    (
        "new_game_pin = 20",
        "new_game_pin = 40",
        'gpio.new_game_pin = 40: expected a GPIO pin: a BCM number 0-27 or a name like "GPIO17" '
        'or "BOARD11"',
    ),
    (
        "pause_pin = 21",
        'pause_pin = "PIN21"',
        'gpio.pause_pin = "PIN21": expected a GPIO pin: a BCM number 0-27 or a name like '
        '"GPIO17" or "BOARD11"',
    ),
    ('name = "Red"', 'name = ""', 'seats[0].name = "": expected a non-empty seat name'),
    ('name = "Blue"', 'name = "red"', 'seats[1].name = "red": expected a name not used before'),
    (
        'colour = "#e02020"',
        'colour = "red"',
        'seats[0].colour = "red": expected a colour: "#rrggbb" or [red, green, blue] 0-255',
    ),
    (
        'colour = "#e02020"',
        "colour = [255, 0, 256]",
        'seats[0].colour = [255, 0, 256]: expected a colour: "#rrggbb" or [red, green, blue] 0-255',
    ),
    (
        "confirm_pin = 5",
        "confirm_pin = -5",
        "seats[0].confirm_pin = -5: expected a GPIO pin: a BCM number 0-27 or a name like "
        '"GPIO17" or "BOARD11"',
    ),
    (
        "undo_pin = 6",
        'undo_pin = "GPIO5"',
        'seats[0].undo_pin = "GPIO5": expected a pin not used elsewhere (it is already '
        "seats[0].confirm_pin)",
    ),
    (
        "undo_pin = 19",
        "undo_pin = 19\nled_pins = [1, 2]",
        "seats[1].led_pins = [1, 2]: expected one GPIO pin, or three [red, green, blue]",
    ),
    ("length = 101", "length = 0", "leds.length = 0: expected a number of LEDs, 1-4096"),
    (
        "length = 101",
        "length = 100",
        "leds.segments.clock = {first = 94, count = 7}: expected indices below leds.length (100)",
    ),
    (
        "brightness = 0.6",
        "brightness = 1.5",
        "leds.brightness = 1.5: expected a number from 0 to 1",
    ),
    (
        "correction = [1.0, 0.8, 0.9]",
        "correction = [1.0, 0.8]",
        "leds.correction = [1.0, 0.8]: expected [red, green, blue] factors, each 0-1",
    ),
    ("gamma = 2.2", "gamma = 0.5", "leds.gamma = 0.5: expected a number from 1 to 4 (1: no gamma)"),
    (
        "seats = [55, 56, 57, 58, 59, 60]",
        "seats = [54, 56, 57, 58, 59, 60]",
        "leds.segments.seats = [54, 56, 57, 58, 59, 60]: expected LED 54 in one segment only "
        "(it is also in leds.segments.pegs)",
    ),
    (
        "seats = [55, 56, 57, 58, 59, 60]",
        "seats = [55, 56]",
        "leds.segments.seats = [55, 56]: expected one LED per seat (6)",
    ),
    (
        "status = [61]",
        "status = []",
        "leds.segments.status = []: expected a list of LED indices on the chain, or "
        "{first = N, count = M}",
    ),
    (
        "pegs = { first = 0, count = 55 }",
        "pegs = { first = 0, count = 0 }",
        "leds.segments.pegs = {first = 0, count = 0}: expected a list of LED indices on the "
        "chain, or {first = N, count = M}",
    ),
]


@pytest.mark.parametrize(("old", "new", "message"), CASES, ids=[c[1] for c in CASES])
def test_each_mistake_is_named_with_key_value_and_expectation(
    old: str, new: str, message: str
) -> None:
    assert errors_of(edited(old, new)) == (message,)


@pytest.mark.parametrize(
    ("old", "message"),
    [
        ("peg_pitch_mm = 25.0", "board.peg_pitch_mm: missing; expected a positive number of"),
        ('port = "sim"', 'serial.port: missing; expected "auto", "sim"'),
        ("length = 101", "leds.length: missing; expected a number of LEDs"),
        ('colour = "#e02020"', "seats[0].colour: missing; expected a colour"),
        ("id = 2", "board.markers[2].id: missing; expected an ArUco"),
    ],
)
def test_a_missing_key_is_named(old: str, message: str) -> None:
    (error,) = errors_of(without_line(old))
    assert error.startswith(message)


def test_unknown_keys_are_refused_and_the_known_ones_listed() -> None:
    text = edited("[camera]\n", "[camera]\nfps = 30\n")
    assert errors_of(text) == (
        "camera.fps = 30: unknown key; expected one of calibration, letters, resolution, source",
    )
    text = edited("[[seats]]\n", "[[seats]]\nbutton = 4\n")
    (error,) = errors_of(text)
    assert error.startswith("seats[0].button = 4: unknown key; expected one of colour,")
    (error,) = errors_of("lights = 1\n" + MOCK)
    assert error.startswith("lights = 1: unknown key; expected one of board, camera")


def test_every_mistake_is_reported_at_once() -> None:
    text = edited("peg_pitch_mm = 25.0", "peg_pitch_mm = -3", edited("length = 101", "length = 0"))
    errors = errors_of(text)
    assert len(errors) == 2
    assert errors[0].startswith("board.peg_pitch_mm = -3")
    assert errors[1].startswith("leds.length = 0")


def test_a_pin_or_button_used_twice_is_named_even_where_its_own_section_has_a_mistake() -> None:
    """The pause pin is seat 1's confirm pin, while [gpio] and that seat each have a mistake."""
    text = edited("pause_pin = 21", "pause_pin = 5")
    text = edited("bounce_time_s = 0.05", 'bounce_time_s = "fast"', text)
    text = edited('colour = "#e02020"', 'colour = "reddish"', text)
    text = edited("pass_button = 6", "pass_button = 4", text)
    text = edited('name = "Blue"', 'name = "red"', edited('colour = "#2050f0"', "colour = 7", text))
    assert errors_of(text) == (
        'gpio.bounce_time_s = "fast": expected a number of seconds, 0-60',
        'seats[0].colour = "reddish": expected a colour: "#rrggbb" or [red, green, blue] 0-255',
        'seats[1].colour = 7: expected a colour: "#rrggbb" or [red, green, blue] 0-255',
        'seats[1].name = "red": expected a name not used before',
        "seats[0].confirm_pin = 5: expected a pin not used elsewhere (it is already "
        "gpio.pause_pin)",
        "seats[0].pass_button = 4: expected a Pico button id not used elsewhere (it is already "
        "pico.new_game_button)",
    )


def test_a_card_mat_marker_that_is_the_boards_is_named_while_both_have_other_mistakes() -> None:
    text = edited("id = 40", "id = 2")
    text = edited("peg_pitch_mm = 25.0", "peg_pitch_mm = -3", text)
    text = edited("width_mm = 680", 'width_mm = "wide"', text)
    assert errors_of(text) == (
        "board.peg_pitch_mm = -3: expected a positive number of millimetres",
        'cards.width_mm = "wide": expected a positive number of millimetres',
        "cards.markers = [2]: expected ids not used by board.markers (the camera sees both)",
    )


def test_a_marker_id_used_twice_is_named_while_another_marker_has_a_mistake() -> None:
    text = edited("id = 2\nx_mm = 180.0", "id = 1\nx_mm = 180.0")
    text = edited("id = 3\nx_mm = -180.0", 'id = 3\nx_mm = "left"', text)
    text = edited("id = 41", "id = 40", text)  # the card mat's second marker
    text = edited("width_mm = 680", "width_mm = -1", text)
    assert errors_of(text) == (
        'board.markers[3].x_mm = "left": expected a number of millimetres',
        "board.markers = [0, 1, 1, 3]: expected each marker id once",
        "cards.width_mm = -1: expected a positive number of millimetres",
        "cards.markers = [40, 40, 42, 43]: expected each marker id once",
    )


def with_inline_seats(items: str) -> str:
    """The mock profile with its [[seats]] tables replaced by ``seats = [items]`` (inline)."""
    lines = MOCK.splitlines(keepends=True)
    first = lines.index("[[seats]]\n")
    after = lines.index("[leds]\n")
    return f"seats = [{items}]\n" + "".join(lines[:first] + lines[after:])


def test_a_pin_used_twice_is_named_in_a_seat_after_an_item_that_is_no_table() -> None:
    red = '{name = "Red", colour = "#e02020", confirm_pin = 5, undo_pin = 6}'
    blue = '{name = "Blue", colour = "#2050f0", confirm_pin = 5, undo_pin = 19}'
    assert errors_of(with_inline_seats(f"{red}, 7, {blue}")) == (
        "seats[1] = 7: expected a table",
        "seats[2].confirm_pin = 5: expected a pin not used elsewhere (it is already "
        "seats[0].confirm_pin)",
        "leds.segments.seats = [55, 56, 57, 58, 59, 60]: expected one LED per seat (2)",
    )


def test_a_toml_syntax_error_names_its_line() -> None:
    (error,) = errors_of(edited("gamma = 2.2", "gamma = = 2.2"))
    line = MOCK.splitlines().index("gamma = 2.2") + 1
    assert error.startswith("not valid TOML:")
    assert f"line {line}," in error


def test_missing_sections_and_too_few_markers() -> None:
    errors = errors_of('name = "bare"\n')
    assert errors == (
        "camera: missing; expected a table",
        "board: missing; expected a table",
        "serial: missing; expected a table",
        "leds: missing; expected a table",
        "seats: missing; expected an array of [[seats]] tables",
    )
    fewer = MOCK.replace("[[board.markers]]\nid = 3\nx_mm = -180.0\ny_mm = 180.0\n", "")
    assert errors_of(fewer) == (
        "board.markers = [0, 1, 2]: expected at least 4 markers (the board's homography needs "
        "them)",
    )


def test_pins_without_a_gpio_table_are_refused() -> None:
    start, end = MOCK.index("[gpio]"), MOCK.index("[[seats]]")
    assert errors_of(MOCK[:start] + MOCK[end:]) == (
        "seats: pins are given but there is no [gpio] table: expected one",
    )


def test_the_mock_profile_is_the_default_and_describes_a_mock_table() -> None:
    profile = load_profile()
    assert profile.camera.source == "synthetic"
    assert profile.serial.port == "sim"
    assert profile.gpio is not None and profile.gpio.pin_factory == "mock"
    assert [seat.name for seat in profile.seats] == SEAT_NAMES
    assert profile.seats[0].colour == (0xE0, 0x20, 0x20)
    assert profile.seats[1].colour == (0x20, 0x50, 0xF0)
    assert len({seat.colour for seat in profile.seats}) == 6
    assert profile.leds.segment("pegs").leds == tuple(range(55))
    assert profile.leds.segment("seats").leds == (55, 56, 57, 58, 59, 60)
    assert profile.leds.segment("status").leds == (61,)
    assert profile.leds.length == 101
    assert gpio_pins(profile)["seats[1].undo_pin"] == 19
    assert [seat.confirm_pin for seat in profile.seats] == [5, 13, None, None, None, None]
    assert profile.table == TableProfile("kogworks", {})
    assert profile.pico == PicoProfile(new_game_button=4, pause_button=5)
    assert profile.dice == DiceProfile(pico=(0,), roll_pin=None, faces=6)


def test_the_reference_profile_loads_with_rgb_seat_leds() -> None:
    profile = load_profile(REFERENCE)
    assert profile.camera.source == 0
    assert profile.serial.port == "auto"
    assert profile.seats[0].led_pins == (16, 12, 25)
    assert profile.gpio is not None and profile.gpio.pin_factory is None
    assert [seat.name for seat in profile.seats] == SEAT_NAMES
    assert pico_buttons(profile) == MOCK_PICO_BUTTONS
    assert (profile.table.game, profile.pico, profile.dice) == (
        "kogworks",
        PicoProfile(4, 5),
        DiceProfile((0,)),
    )
    assert profile.leds.segment("seats").leds == (55, 56, 57, 58, 59, 60)
    assert profile.leds.segment("status").leds == (61,)


def test_an_unknown_segment_names_the_known_ones() -> None:
    known = "'pegs', 'seats', 'status', 'cog-spaces', 'track', 'clock'"
    with pytest.raises(KeyError, match=f"segments: \\[{known}\\]"):
        load_profile().leds.segment("ring")


def test_an_unreadable_file_is_a_profile_error(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="cannot read the file"):
        load_profile(tmp_path / "absent.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ProfileError, match="cannot read the file"):
        load_profile(binary)


# -- the command -----------------------------------------------------------------


def test_profile_check_ok_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "check", str(REFERENCE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"OK {REFERENCE}\n")
    assert "seats: 6 (Red, Blue, Green, Yellow, Purple, Orange)" in out
    assert "game: kogworks" in out
    assert "dice: Pico die 0; 6 faces" in out
    assert "pico: 20 buttons" in out
    assert "serial: auto" in out


def test_profile_check_lists_each_mistake_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text(
        edited("peg_pitch_mm = 25.0", "peg_pitch_mm = -3", edited('port = "sim"', "port = 1"))
    )
    assert main(["profile", "check", str(broken)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"{broken}: 2 mistakes",
        "  board.peg_pitch_mm = -3: expected a positive number of millimetres",
        '  serial.port = 1: expected "auto", "sim" or a device path like "/dev/ttyACM0"',
    ]


def test_profile_check_of_a_missing_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profile", "check", str(tmp_path / "nope.toml")]) == 2
    assert "cannot read the file" in capsys.readouterr().err


def test_profile_show_prints_the_default_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "show"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"# {default_profile_path()}"
    assert out.endswith(MOCK)


def test_board_disk_radius_and_camera_calibration_are_optional_and_checked() -> None:
    profile = load_profile()
    assert profile.board.disk_radius_mm == 162.0 and profile.camera.calibration is None
    text = edited("disk_radius_mm = 162.0", "disk_radius_mm = -1")
    assert errors_of(text) == (
        "board.disk_radius_mm = -1: expected a positive number of millimetres",
    )
    text = edited("resolution = [1280, 720]", 'resolution = [1280, 720]\ncalibration = ""')
    assert errors_of(text)[0].startswith('camera.calibration = "": expected the path of')
