"""Reading the firmware's config.py on the host: the same values the Pico runs, nothing executed."""

from __future__ import annotations

import ast
import runpy
from pathlib import Path

import pytest

from firmware_bridge.firmware_config import (
    CONFIG_PATH,
    PIP_LEDS,
    FirmwareConfigError,
    read_firmware_config,
)

INPUTS = CONFIG_PATH.with_name("inputs.py")


def test_the_shipped_config_reads_as_the_pico_runs_it() -> None:
    ran = runpy.run_path(str(CONFIG_PATH))
    config = read_firmware_config()
    assert config.version == ran["FIRMWARE_VERSION"]
    assert (config.led_count, config.status_led) == (ran["LED_COUNT"], ran["STATUS_LED"])
    assert config.buttons == dict(ran["BUTTONS"])
    assert [(d.die, d.gpio, d.first_led, d.colour) for d in config.dice] == list(ran["DICE"])


def test_a_pip_face_has_as_many_leds_as_the_firmware_lights() -> None:
    tree = ast.parse(INPUTS.read_text(encoding="utf-8"))
    [face_leds] = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "FACE_LEDS"
    ]
    assert face_leds == PIP_LEDS
    die = read_firmware_config().dice[0]
    assert list(die.pip_leds) == list(range(die.first_led, die.first_led + face_leds))


def test_reading_runs_nothing_in_the_file(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    config = tmp_path / "config.py"
    text = CONFIG_PATH.read_text(encoding="utf-8")
    config.write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit(3)\n" + text)
    assert read_firmware_config(config).led_count == read_firmware_config().led_count
    assert not marker.exists()


def test_every_mistake_is_named_at_once(tmp_path: Path) -> None:
    config = tmp_path / "config.py"
    config.write_text(
        "FIRMWARE_VERSION = (1, 2)\nLED_COUNT = True\nSTATUS_LED = -1\n"
        "BUTTONS = ((0, 2), (0, 3))\nDICE = make_dice()\n"
    )
    with pytest.raises(FirmwareConfigError) as refused:
        read_firmware_config(config)
    assert str(refused.value) == (
        f"the firmware config {config}: FIRMWARE_VERSION must be three whole numbers, not "
        "(1, 2); LED_COUNT must be a whole number above 0, not True; STATUS_LED must be an "
        "LED index (0 or more), not -1; BUTTONS must be (button id, GPIO) pairs, ids unique, "
        "not ((0, 2), (0, 3)); DICE must be a plain value ((die id, GPIO, first LED, "
        "(r, g, b)) entries), not an expression"
    )


def test_a_die_with_a_bad_colour_or_a_repeated_id_is_refused(tmp_path: Path) -> None:
    base = "FIRMWARE_VERSION = (1, 0, 0)\nLED_COUNT = 20\nSTATUS_LED = 0\nBUTTONS = ()\n"
    for dice in ("((0, 8, 1, (256, 0, 0)),)", "((0, 8, 1, (1, 1, 1)), (0, 9, 9, (1, 1, 1)))"):
        config = tmp_path / "config.py"
        config.write_text(base + f"DICE = {dice}\n")
        with pytest.raises(FirmwareConfigError, match="DICE must be"):
            read_firmware_config(config)
