"""``cogtable selftest``: unattended on the mock table (simulated Pico, gpiozero's mock pins).

A simulated person looks at the LEDs the real firmware shows and presses
buttons through the simulated Pico and the mock pins; :class:`Slips` make the
table or the person wrong on purpose, and the report must name what went wrong.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from cogtable.cli import main
from cogtable.mock.people.selftest import SimulatedPerson, Slips
from cogtable.mock.world import SimClock
from cogtable.selftest import (
    TableParts,
    button_step,
    dice_step,
    led_step,
    open_table_parts,
    results_table,
    run_selftest,
    seat_led_step,
)
from cogtable.selftest_camera import camera_step
from cogtable.selftest_terms import ButtonPerson, Outcome, Question, TableButton
from firmware_bridge.firmware_config import read_firmware_config
from firmware_bridge.simulator import Simulator
from hardware.buttons import button_pins
from hardware.profile import (
    Profile,
    default_profile_path,
    load_profile,
    parse_profile,
    pico_buttons,
)
from vision.peg_disk.geometry import start_position
from vision.peg_disk.renderer import Camera, Renderer, Scene

PROFILE = load_profile()
RED_CONFIRM = TableButton(0, "confirm", "pico", 0)
BLUE_UNDO = TableButton(1, "undo", "pico", 3)
GREEN_PASS = TableButton(2, "pass", "pico", 10)


@pytest.fixture
def table() -> Iterator[tuple[TableParts, SimClock]]:
    """The mock table's parts: the simulated Pico connected, the GPIO buttons on mock pins."""
    clock = SimClock()
    with (
        Simulator() as simulator,
        open_table_parts(PROFILE, simulator.port, simulator=simulator, clock=clock.now) as parts,
    ):
        yield parts, clock


def test_the_mock_table_passes_every_step_unattended(table: tuple[TableParts, SimClock]) -> None:
    parts, clock = table
    person = SimulatedPerson(parts, clock)
    steps = run_selftest(parts, person, read_firmware_config())
    assert [step.name for step in steps] == [
        "Pico firmware",
        "LED chain",
        "seat LEDs (GPIO)",
        "buttons",
        "dice",
        "camera",
    ]
    outcomes = [step.outcome for step in steps]
    assert outcomes == [Outcome.PASSED] * 2 + [Outcome.SKIPPED] + [Outcome.PASSED] * 3, outcomes
    buttons = len(parts.buttons)
    on_gpio = [key for key in button_pins(PROFILE) if key[1] != "roll"]  # a roll pin is a die's
    assert buttons == len(pico_buttons(PROFILE)) + len(on_gpio)
    assert {button.bus for button in parts.buttons} == {"pico", "gpio"}
    assert steps[3].found == f"{buttons} of {buttons} buttons came as asked"
    pip_face = 1
    assert person.asked == len(PROFILE.leds.segments) + PROFILE.leds.length + buttons + 1 + pip_face
    assert "(the firmware drives 108: LEDs 101-107 are not the profile's)" in steps[1].found
    assert steps[4].found.endswith(", its face showed it")
    assert "nothing to fix" in results_table(steps)


def test_a_wrong_button_is_named(table: tuple[TableParts, SimClock]) -> None:
    parts, clock = table
    slips = Slips(presses_instead={RED_CONFIRM: BLUE_UNDO})
    step = button_step(parts, SimulatedPerson(parts, clock, slips))
    assert step.outcome is Outcome.FAILED
    assert (
        "asked for Red's confirm button (Pico button 0), got Blue's undo button (Pico button 3)"
        in step.found
    )
    assert step.found.startswith(f"{len(parts.buttons) - 1} of {len(parts.buttons)}")


def test_the_same_pico_button_pressed_again_and_again_comes_every_time() -> None:
    text = default_profile_path().with_name("two-seat.toml").read_text(encoding="utf-8")
    two_seats = parse_profile(text.replace('port = "auto"', 'port = "sim"'))  # no GPIO buttons
    clock = SimClock()
    with (
        Simulator() as simulator,
        open_table_parts(two_seats, simulator.port, simulator=simulator, clock=clock.now) as parts,
    ):
        assert {button.bus for button in parts.buttons} == {"pico"}
        always_red = Slips(presses_instead={b: RED_CONFIRM for b in parts.buttons})
        step = button_step(parts, SimulatedPerson(parts, clock, always_red))
    assert "never came" not in step.found
    assert step.found.count("got Red's confirm button (Pico button 0)") == len(parts.buttons) - 1


@pytest.fixture
def reference_table() -> Iterator[tuple[TableParts, SimClock]]:
    """The reference table's parts (RGB seat LEDs on GPIO) on the simulated Pico and mock pins."""
    text = default_profile_path().with_name("reference.toml").read_text(encoding="utf-8")
    text = text.replace('port = "auto"', 'port = "sim"')
    text = text.replace("pwm_leds = true", 'pwm_leds = false\npin_factory = "mock"')
    profile = parse_profile(text)
    clock = SimClock()
    with (
        Simulator() as simulator,
        open_table_parts(profile, simulator.port, simulator=simulator, clock=clock.now) as parts,
    ):
        yield parts, clock


def test_gpio_seat_leds_pass_channel_by_channel(
    reference_table: tuple[TableParts, SimClock],
) -> None:
    parts, clock = reference_table
    person = SimulatedPerson(parts, clock)
    step = seat_led_step(parts, person)
    assert step.outcome is Outcome.PASSED, step
    assert step.found == "6 channels of 2 seat LEDs lit one by one as the profile says"
    assert person.asked == 6


def test_a_dead_seat_led_channel_is_named(reference_table: tuple[TableParts, SimClock]) -> None:
    parts, clock = reference_table
    red_pin = parts.profile.seats[0].led_pins[0]
    step = seat_led_step(
        parts, SimulatedPerson(parts, clock, Slips(dark_pins=frozenset({red_pin})))
    )
    assert step.outcome is Outcome.FAILED
    assert step.found.endswith(f"not as named: Red's red (GPIO {red_pin})")
    assert "led_pins" in step.fix


def test_the_mock_table_has_no_gpio_seat_leds_to_test(table: tuple[TableParts, SimClock]) -> None:
    parts, clock = table
    step = seat_led_step(parts, SimulatedPerson(parts, clock))
    assert step.outcome is Outcome.SKIPPED


def test_a_button_that_never_comes_is_named(table: tuple[TableParts, SimClock]) -> None:
    parts, clock = table
    step = button_step(parts, SimulatedPerson(parts, clock, Slips(dead=frozenset({GREEN_PASS}))))
    assert step.outcome is Outcome.FAILED
    assert "Green's pass button (Pico button 10) never came" in step.found


def test_a_chain_shorter_than_the_profile_says_is_named(table: tuple[TableParts, SimClock]) -> None:
    parts, clock = table
    step = led_step(parts, SimulatedPerson(parts, clock, Slips(chain_length=60)))
    assert step.outcome is Outcome.FAILED
    assert "LEDs 60-100 were not the one named" in step.found
    assert "segment 'seats' was not as named" in step.found  # its last LED, 60, is dark
    assert "segment 'pegs' was not" not in step.found
    assert "the chain seems to end after LED 59 (60 LEDs, the profile says 101)" in step.fix


def test_nobody_at_the_table_stops_each_step_after_two_questions(
    table: tuple[TableParts, SimClock],
) -> None:
    parts, _ = table
    prompts: list[str] = []
    person = ButtonPerson(parts.inbox, timeout_s=0.05, say=prompts.append)
    leds, buttons = led_step(parts, person), button_step(parts, person)
    assert len(prompts) == 4
    assert leds.outcome is Outcome.FAILED and leds.found.startswith("stopped, nobody answered")
    assert buttons.outcome is Outcome.FAILED
    assert buttons.found.startswith(f"0 of {len(parts.buttons)} buttons came as asked")
    assert f"stopped, nobody pressed: {len(parts.buttons) - 2} not asked" in buttons.found


def test_leds_wired_out_of_order_are_named(table: tuple[TableParts, SimClock]) -> None:
    parts, clock = table
    swapped = Slips(misplaced={3: 7, 7: 3})
    step = led_step(parts, SimulatedPerson(parts, clock, swapped))
    assert step.outcome is Outcome.FAILED
    assert "LEDs 3, 7 were not the one named" in step.found
    assert "segment" not in step.found.split(": ", 1)[1]  # the whole pegs segment still looks right
    assert "[leds.segments] indices" in step.fix


def test_a_pip_face_off_the_end_of_the_chain_is_named(table: tuple[TableParts, SimClock]) -> None:
    parts, clock = table
    person = SimulatedPerson(parts, clock, Slips(chain_length=PROFILE.leds.length))
    step = dice_step(parts, person, read_firmware_config())
    assert step.outcome is Outcome.FAILED
    assert "but its face did not show it (no): check LEDs 101-107" in step.found


def test_a_press_before_the_question_does_not_answer_it(
    table: tuple[TableParts, SimClock],
) -> None:
    parts, _ = table
    simulator = parts.simulator
    assert isinstance(simulator, Simulator)
    simulator.press(RED_CONFIRM.number)
    assert parts.inbox.next(2.0) == RED_CONFIRM  # the Pico reported it
    simulator.release(RED_CONFIRM.number)
    simulator.press(BLUE_UNDO.number)
    time.sleep(0.2)  # pressed and released events on their way, not taken
    person = ButtonPerson(parts.inbox, timeout_s=0.1, say=lambda prompt: None)
    assert person.ask(Question("Press Red's confirm button.", button=RED_CONFIRM)) is None
    simulator.release(BLUE_UNDO.number)


def profile_with_camera(source: str) -> Profile:
    """The mock profile with another ``[camera] source``."""
    text = default_profile_path().read_text(encoding="utf-8")
    return parse_profile(text.replace('source = "synthetic"', f'source = "{source}"'))


def test_a_camera_that_cannot_be_opened_is_named(tmp_path: Path) -> None:
    step = camera_step(profile_with_camera(str(tmp_path / "nothing-here.mp4")))
    assert step.outcome is Outcome.FAILED
    assert step.found.startswith("cannot open")
    assert "[camera] source" in step.fix


def test_a_camera_that_sees_no_board_names_the_missing_markers(tmp_path: Path) -> None:
    blank = np.full((480, 640, 3), 200, np.uint8)
    cv2.imwrite(str(tmp_path / "frame.png"), blank)
    step = camera_step(profile_with_camera(str(tmp_path)))
    assert step.outcome is Outcome.FAILED
    assert "markers none" in step.found
    assert step.fix.startswith("no markers in sight: point the camera at the board")


def test_a_camera_that_sees_the_board_tilted_gets_the_camera_checks_advice(tmp_path: Path) -> None:
    frame, _ = Renderer().render(
        Scene(start_position(), (960, 540), Camera(tilt_deg=35.0, fill=0.8)), 1
    )
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    step = camera_step(profile_with_camera(str(tmp_path)))
    assert step.outcome is Outcome.FAILED
    assert "markers 0:" in step.found and "tilt" in step.found
    assert "tilted" in step.fix and step.fix.endswith("(cogtable camera check shows it live)")


def test_the_camera_step_says_which_board_it_checks(tmp_path: Path) -> None:
    frame, _ = Renderer().render(Scene(start_position(), (960, 540), Camera(fill=0.9)), 1)
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    step = camera_step(profile_with_camera(str(tmp_path)))
    assert step.outcome is Outcome.PASSED
    assert "frame from" in step.found and "checked on the Kogworks peg disk: " in step.found


def profile_for_game(game: str) -> Profile:
    """The mock profile whose table starts with ``game``."""
    text = default_profile_path().read_text(encoding="utf-8")
    changed = text.replace('game = "kogworks"', f'game = "{game}"', 1)
    assert changed != text
    return parse_profile(changed)


@pytest.mark.parametrize(
    ("game", "read"), [("cog", "board, mat1, mat2, mat3, mat4"), ("commissars", "cards")]
)
def test_a_game_read_on_other_parts_is_not_judged_on_the_kogworks_board(
    game: str, read: str
) -> None:
    step = camera_step(profile_for_game(game))
    assert step.outcome is Outcome.SKIPPED and not step.failed
    assert step.found.startswith("a 1280x720 frame from 'synthetic'; its aim is not checked")
    assert f"knows only the Kogworks peg disk, and this table's game ({game}) reads {read}" in (
        step.found
    )


def test_a_game_the_table_does_not_know_is_said_in_the_camera_step() -> None:
    step = camera_step(profile_for_game("chess"))
    assert step.outcome is Outcome.SKIPPED and "no table adapter for the game 'chess'" in step.found


def test_an_unusable_colour_calibration_fails_the_camera_step(tmp_path: Path) -> None:
    broken = tmp_path / "calibration.json"
    broken.write_text("{not json", encoding="utf-8")
    text = default_profile_path().read_text(encoding="utf-8")
    text = text.replace('source = "synthetic"', f'source = "synthetic"\ncalibration = "{broken}"')
    step = camera_step(parse_profile(text))
    assert step.outcome is Outcome.FAILED
    assert step.found == "the colour calibration is unusable"
    assert str(broken) in step.fix and "cogtable calibrate" in step.fix


def test_selftest_command_runs_unattended_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest"]) == 0
    out = capsys.readouterr().out
    assert "unattended" in out
    for part in ("Pico firmware", "LED chain", "buttons", "dice", "camera"):
        assert f"\n{part.ljust(16)}  passed " in out
    assert "\nseat LEDs (GPIO)  skipped  no seat LED on the Pi's GPIO" in out
    assert out.rstrip().endswith("nothing to fix")


def test_a_failed_step_exits_1_with_what_to_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    longer = tmp_path / "long-chain.toml"
    text = default_profile_path().read_text(encoding="utf-8")
    longer.write_text(text.replace("length = 101", "length = 120"), encoding="utf-8")
    assert main(["selftest", "--profile", str(longer)]) == 1
    out = capsys.readouterr().out
    assert (
        "LED chain         FAILED   the profile's chain has 120 LEDs, the firmware drives 108"
        in out
    )
    assert "what to fix:" in out
    assert "set [leds] length to at most 108" in out


def test_a_file_that_is_no_serial_port_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_port = tmp_path / "ttyACM0"
    not_a_port.write_text("a file\n", encoding="utf-8")
    profile = tmp_path / "real.toml"
    text = default_profile_path().read_text(encoding="utf-8")
    profile.write_text(text.replace('port = "sim"', f'port = "{not_a_port}"'), encoding="utf-8")
    assert main(["selftest", "--profile", str(profile)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"cogtable selftest: cannot open the serial port {not_a_port} ")
    assert captured.err.count("\n") == 1


def test_a_missing_serial_port_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "real.toml"
    text = default_profile_path().read_text(encoding="utf-8")
    missing = tmp_path / "ttyACM9"
    profile.write_text(text.replace('port = "sim"', f'port = "{missing}"'), encoding="utf-8")
    assert main(["selftest", "--profile", str(profile)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"cogtable selftest: no serial port {missing} ([serial] port in {profile}): "
        "is the Pico plugged in?\n"
    )
