"""The table profile's game, seats, Pico buttons and dice: read, defaulted, checked."""

from __future__ import annotations

import pytest

from cogtable.cli import main
from hardware.profile import (
    DiceProfile,
    PicoProfile,
    Profile,
    Seat,
    TableProfile,
    default_profile_path,
    gpio_pins,
    load_profile,
    parse_profile,
    pico_buttons,
)
from tests.hardware.profile_helpers import (
    MOCK,
    MOCK_PICO_BUTTONS,
    SEAT_NAMES,
    edited,
    errors_of,
    without_line,
)

# -- the game, seats, Pico buttons and dice -------------------------------------------

BUTTON_EXPECTED = (
    "expected a Pico button id, 0-31 (as the firmware's config.py BUTTONS numbers them)"
)
OPTION_EXPECTED = (
    "expected one value for the game: true or false, a number or a text (not a list or table)"
)
NEW_CASES = [
    (
        'game = "kogworks"',
        'game = "Kogworks"',
        'table.game = "Kogworks": expected a game\'s name in lower case, like "kogworks" or '
        '"cookie"',
    ),
    (
        'game = "kogworks"',
        'game = ""',
        'table.game = "": expected a game\'s name in lower case, like "kogworks" or "cookie"',
    ),
    (
        'game = "kogworks"',
        'game = "cog"\n[table.options]\nseeds = [1, 2]',
        f"table.options.seeds = [1, 2]: {OPTION_EXPECTED}",
    ),
    (
        'game = "kogworks"',
        'game = "cog"\n[table.options]\nrules = { short = true }',
        f"table.options.rules = {{short = true}}: {OPTION_EXPECTED}",
    ),
    (
        'game = "kogworks"',
        'game = "cog"\noptions = 3',
        "table.options = 3: expected a table",
    ),
    (
        'game = "kogworks"',
        'game = "cog"\nplayers = 3',
        "table.players = 3: unknown key; expected one of game, options",
    ),
    (
        "new_game_button = 4",
        "new_game_button = 32",
        f"pico.new_game_button = 32: {BUTTON_EXPECTED}",
    ),
    ("pause_button = 5", 'pause_button = "5"', f'pico.pause_button = "5": {BUTTON_EXPECTED}'),
    (
        "pause_button = 5",
        "pause_button = 5\nroll_button = 8",
        "pico.roll_button = 8: unknown key; expected one of new_game_button, pause_button",
    ),
    (
        "confirm_button = 0",
        "confirm_button = -1",
        f"seats[0].confirm_button = -1: {BUTTON_EXPECTED}",
    ),
    ("undo_button = 3", "undo_button = true", f"seats[1].undo_button = true: {BUTTON_EXPECTED}"),
    ("pass_button = 19", "pass_button = 1.5", f"seats[5].pass_button = 1.5: {BUTTON_EXPECTED}"),
    (
        "pass_button = 19",
        "pass_button = 4",
        "seats[5].pass_button = 4: expected a Pico button id not used elsewhere (it is already "
        "pico.new_game_button)",
    ),
    (
        "undo_button = 9",
        "undo_button = 0",
        "seats[2].undo_button = 0: expected a Pico button id not used elsewhere (it is already "
        "seats[0].confirm_button)",
    ),
    (
        "pause_button = 5",
        "pause_button = 19",
        "seats[5].pass_button = 19: expected a Pico button id not used elsewhere (it is already "
        "pico.pause_button)",
    ),
    (
        "undo_pin = 6",
        "undo_pin = 6\npass_pin = 40",
        'seats[0].pass_pin = 40: expected a GPIO pin: a BCM number 0-27 or a name like "GPIO17" '
        'or "BOARD11"',
    ),
    (
        "undo_pin = 6",
        "undo_pin = 6\npass_pin = 13",
        "seats[1].confirm_pin = 13: expected a pin not used elsewhere (it is already "
        "seats[0].pass_pin)",
    ),
    (
        "pico = [0]",
        "pico = [8]",
        "dice.pico = [8]: expected a list of the Pico's die ids, each 0-7",
    ),
    ("pico = [0]", "pico = 0", "dice.pico = 0: expected a list of the Pico's die ids, each 0-7"),
    ("pico = [0]", "pico = [0, 0]", "dice.pico = [0, 0]: expected each die id once"),
    (
        "pico = [0]",
        'pico = [0]\nroll_pin = "GPIO20"',
        'dice.roll_pin = "GPIO20": expected a pin not used elsewhere (it is already '
        "gpio.new_game_pin)",
    ),
    (
        "pico = [0]",
        "pico = [0]\nroll_pin = 28",
        'dice.roll_pin = 28: expected a GPIO pin: a BCM number 0-27 or a name like "GPIO17" or '
        '"BOARD11"',
    ),
    ("pico = [0]", "pico = []\nfaces = 1", "dice.faces = 1: expected a number of faces, 2-20"),
    ("pico = [0]", "pico = []\nfaces = 21", "dice.faces = 21: expected a number of faces, 2-20"),
    ("pico = [0]", 'pico = []\nfaces = "6"', 'dice.faces = "6": expected a number of faces, 2-20'),
    (
        "pico = [0]",
        "pico = [0]\nfaces = 8",
        "dice.faces = 8: expected 6 with dice.pico (the Pico's dice are six-sided)",
    ),
    (
        "pico = [0]",
        "pico = [0]\nsides = 6",
        "dice.sides = 6: unknown key; expected one of camera, faces, pico, roll_pin",
    ),
]


@pytest.mark.parametrize(("old", "new", "message"), NEW_CASES, ids=[c[1] for c in NEW_CASES])
def test_each_game_seat_button_and_dice_mistake_is_named(old: str, new: str, message: str) -> None:
    assert errors_of(edited(old, new)) == (message,)


def test_the_game_and_its_options_are_read() -> None:
    text = edited(
        'game = "kogworks"',
        'game = "cookie"\n[table.options]\nplayers = 4\nvariant = "short"\nfast = true\npace = 1.5',
    )
    table = parse_profile(text).table
    assert table.game == "cookie"
    assert table.options == {"players": 4, "variant": "short", "fast": True, "pace": 1.5}
    assert parse_profile(edited('game = "kogworks"', 'game = "no-such_game2"')).table.game == (
        "no-such_game2"  # which names are games is for cogtable to say
    )


def test_pass_pins_and_a_gpio_roll_button_are_read_and_are_gpio_pins() -> None:
    text = edited("undo_pin = 19", "undo_pin = 19\npass_pin = 26")
    profile = parse_profile(edited("pico = [0]", "pico = []\nroll_pin = 17\nfaces = 20", text))
    assert profile.seats[1].pass_pin == 26
    assert profile.dice == DiceProfile((), 17, 20)
    pins = gpio_pins(profile)
    assert (pins["seats[1].pass_pin"], pins["dice.roll_pin"]) == (26, 17)
    assert "Pico" not in profile.summary().split("dice: ")[1]
    assert "dice: GPIO roll button 17; 20 faces" in profile.summary()


def test_absent_game_pico_and_dice_sections_take_their_defaults() -> None:
    text = MOCK
    for start, end in [("[table]", "[camera]"), ("# The table's own", "# Six seats")]:
        text = text[: text.index(start)] + text[text.index(end) :]
    profile = parse_profile(text)
    assert (profile.table, profile.pico, profile.dice) == (
        TableProfile(),
        PicoProfile(),
        DiceProfile(),
    )
    assert profile.table.game == "kogworks" and profile.dice.faces == 6
    assert set(pico_buttons(profile)) == set(range(4)) | set(range(6, 20))
    assert "dice: none (the console asks for rolls)" in profile.summary()


def test_profiles_built_in_code_keep_working_without_the_new_fields() -> None:
    shipped = load_profile()
    profile = Profile(
        shipped.name,
        shipped.camera,
        shipped.board,
        shipped.serial,
        shipped.gpio,
        shipped.seats[:2],
        shipped.leds,
    )
    assert (profile.table, profile.pico, profile.dice) == (
        TableProfile(),
        PicoProfile(),
        DiceProfile(),
    )
    seat = Seat("Red", (255, 0, 0), 5, 6, (16, 12, 25))
    assert (seat.pass_pin, seat.confirm_button, seat.undo_button, seat.pass_button) == (
        None,
        None,
        None,
        None,
    )


def test_pico_buttons_of_the_mock_profile_are_the_firmwares_twenty() -> None:
    assert pico_buttons(load_profile()) == MOCK_PICO_BUTTONS


SEATS_START = MOCK.index("[[seats]]")
SEATS_END = MOCK.index("# One WS2812 chain")


def with_seats(count: int) -> str:
    """The mock profile with ``count`` plain seats and no ``seats`` LED segment."""
    seats = "".join(f'[[seats]]\nname = "Seat {n}"\ncolour = "#808080"\n\n' for n in range(count))
    return without_line("seats = [55", MOCK[:SEATS_START] + seats + MOCK[SEATS_END:])


@pytest.mark.parametrize("count", [2, 3, 6])
def test_two_to_six_seats_are_a_table(count: int) -> None:
    assert len(parse_profile(with_seats(count)).seats) == count


@pytest.mark.parametrize(
    ("count", "message"),
    [
        (1, "seats: 1 seat: expected 2 to 6 [[seats]] tables"),
        (7, "seats: 7 seats: expected 2 to 6 [[seats]] tables"),
        (0, "seats: 0 seats: expected 2 to 6 [[seats]] tables"),
    ],
)
def test_fewer_than_two_or_more_than_six_seats_are_refused(count: int, message: str) -> None:
    text = with_seats(count)
    if count == 0:
        text = edited('name = "mock table"', 'name = "mock table"\nseats = []', text)
    assert errors_of(text) == (message,)


def test_a_wrong_seat_count_is_reported_with_the_other_mistakes() -> None:
    text = edited("peg_pitch_mm = 25.0", "peg_pitch_mm = -3", with_seats(7))
    assert errors_of(text) == (
        "board.peg_pitch_mm = -3: expected a positive number of millimetres",
        "seats: 7 seats: expected 2 to 6 [[seats]] tables",
    )
    text = with_seats(1).replace('colour = "#808080"', 'colour = "#808080"\nconfirm_button = 4')
    assert errors_of(text) == (
        "seats: 1 seat: expected 2 to 6 [[seats]] tables",
        "seats[0].confirm_button = 4: expected a Pico button id not used elsewhere (it is "
        "already pico.new_game_button)",
    )


def test_a_gpio_roll_button_without_a_gpio_table_is_refused() -> None:
    start, end = MOCK.index("[gpio]"), MOCK.index("# The table's own")
    text = edited("pico = [0]", "pico = [0]\nroll_pin = 17", MOCK[:start] + MOCK[end:])
    assert errors_of(text) == (
        "seats: pins are given but there is no [gpio] table: expected one",
        "dice: pins are given but there is no [gpio] table: expected one",
    )
    plain = text
    for pin in ("confirm_pin = 5\n", "undo_pin = 6\n", "confirm_pin = 13\n", "undo_pin = 19\n"):
        plain = plain.replace(pin, "")
    assert errors_of(plain) == ("dice: pins are given but there is no [gpio] table: expected one",)


@pytest.mark.parametrize("name", ["mock.toml", "reference.toml", "two-seat.toml"])
def test_every_shipped_profile_loads_and_summarises_game_seats_and_dice(name: str) -> None:
    profile = load_profile(default_profile_path().with_name(name))
    buttons = pico_buttons(profile)
    assert buttons == {b: MOCK_PICO_BUTTONS[b] for b in buttons}  # the firmware's ids only
    assert len(buttons) == 3 * len(profile.seats) + 2
    assert profile.leds.segment("seats").leds == tuple(range(55, 55 + len(profile.seats)))
    assert profile.leds.segment("status").leds == (61,)
    summary = profile.summary().splitlines()
    assert "game: kogworks" in summary
    assert f"seats: {len(profile.seats)} ({', '.join(SEAT_NAMES[: len(profile.seats)])})" in (
        summary
    )
    assert "dice: Pico die 0; 6 faces" in summary


def test_profile_check_of_the_two_seat_example(capsys: pytest.CaptureFixture[str]) -> None:
    two_seat = default_profile_path().with_name("two-seat.toml")
    assert main(["profile", "check", str(two_seat)]) == 0
    out = capsys.readouterr().out
    assert "seats: 2 (Red, Blue)" in out
    assert "pico: 8 buttons" in out
