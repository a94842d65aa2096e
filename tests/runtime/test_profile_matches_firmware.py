"""The shipped profiles and the Pico firmware agree on the LED chain."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

import firmware_bridge
from hardware.profile import default_profile_path, load_profile

CONFIG = runpy.run_path(str(Path(firmware_bridge.__file__).parent / "firmware" / "config.py"))
REFERENCE = default_profile_path().with_name("reference.toml")


@pytest.mark.parametrize("path", [default_profile_path(), REFERENCE], ids=["mock", "reference"])
def test_the_firmware_status_led_is_the_profiles_status_led(path: Path) -> None:
    profile = load_profile(path)
    assert profile.leds.segment("status").leds == (CONFIG["STATUS_LED"],)
    assert profile.leds.length <= CONFIG["LED_COUNT"]


@pytest.mark.parametrize("path", [default_profile_path(), REFERENCE], ids=["mock", "reference"])
def test_no_profile_segment_covers_the_dice_pips(path: Path) -> None:
    used = {led for segment in load_profile(path).leds.segments for led in segment.leds}
    for _die, _pin, first, _colour in CONFIG["DICE"]:
        assert used.isdisjoint(range(first, first + 7))
