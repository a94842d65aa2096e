"""The Pico's config.py: the two-seat table's ids kept, six seats wired, and the profiles agree."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest

import firmware_bridge
from hardware.profile import default_profile_path, load_profile, pico_buttons

CONFIG: dict[str, Any] = runpy.run_path(
    str(Path(firmware_bridge.__file__).parent / "firmware" / "config.py")
)
PROFILES = ["mock.toml", "reference.toml", "two-seat.toml"]
PICO_HEADER_GPIOS = set(range(23)) | {26, 27, 28}
"""The RP2040 GPIOs a Pico brings out to its pins (GP23-25 are the board's own)."""


def test_the_two_seat_tables_button_ids_and_pins_are_unchanged() -> None:
    buttons = dict(CONFIG["BUTTONS"])
    assert {button: buttons[button] for button in range(6)} == {0: 2, 1: 3, 2: 4, 3: 5, 4: 6, 5: 7}
    assert [(die, gpio) for die, gpio, _, _ in CONFIG["DICE"]] == [(0, 8)]
    assert CONFIG["LED_PIN"] == 0


def test_seats_one_to_six_have_confirm_undo_and_pass_on_gp9_upwards() -> None:
    buttons = dict(CONFIG["BUTTONS"])
    assert len(buttons) == len(CONFIG["BUTTONS"]) == 20
    assert {button: buttons[button] for button in range(6, 20)} == {
        button: button + 3 for button in range(6, 20)
    }


def test_every_pico_pin_is_used_once_and_is_on_the_header() -> None:
    pins = [CONFIG["LED_PIN"]]
    pins += [gpio for _, gpio in CONFIG["BUTTONS"]]
    pins += [gpio for _, gpio, _, _ in CONFIG["DICE"]]
    assert len(pins) == len(set(pins))
    assert set(pins) <= PICO_HEADER_GPIOS


def test_the_status_led_and_the_pips_fit_the_chain() -> None:
    assert CONFIG["STATUS_LED"] == 61
    for _die, _gpio, first, _colour in CONFIG["DICE"]:
        assert CONFIG["STATUS_LED"] not in range(first, first + 7)
        assert first + 7 <= CONFIG["LED_COUNT"] == 108


@pytest.mark.parametrize("name", PROFILES)
def test_the_shipped_profiles_use_only_the_firmwares_buttons_dice_and_status_led(
    name: str,
) -> None:
    profile = load_profile(default_profile_path().with_name(name))
    assert set(pico_buttons(profile)) <= {button for button, _ in CONFIG["BUTTONS"]}
    assert set(profile.dice.pico) <= {die for die, _, _, _ in CONFIG["DICE"]}
    assert profile.leds.segment("status").leds == (CONFIG["STATUS_LED"],)
    assert profile.leds.length <= CONFIG["LED_COUNT"]
    used = {led for segment in profile.leds.segments for led in segment.leds}
    for _die, _gpio, first, _colour in CONFIG["DICE"]:
        assert used.isdisjoint(range(first, first + 7))


def test_the_config_comments_name_each_buttons_seat_and_kind() -> None:
    """config.py's comments and the profiles' button ids tell the same story."""
    text = (Path(firmware_bridge.__file__).parent / "firmware" / "config.py").read_text()
    for button, (seat, kind) in pico_buttons(load_profile()).items():
        gpio = dict(CONFIG["BUTTONS"])[button]
        if seat is None:
            comment = {"new_game": "table: new game", "pause": "table: pause"}[kind]
        else:
            comment = f"seat {seat + 1} {kind}"
        assert f"({button}, {gpio}),  # {comment}\n" in text
