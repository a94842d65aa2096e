"""GPIO buttons through gpiozero's mock pins: presses, contact bounce, holds."""

from __future__ import annotations

import queue
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import KINDS, ButtonEvent, TableButtons, button_pins, pin_factory_for
from hardware.profile import GpioProfile, load_profile, parse_profile
from tests.hardware.profile_helpers import MOCK, edited


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def events() -> queue.Queue[ButtonEvent]:
    return queue.Queue()


def test_the_mock_profile_puts_six_buttons_on_gpio() -> None:
    assert button_pins(load_profile()) == {
        (0, "confirm"): 5,
        (0, "undo"): 6,
        (1, "confirm"): 13,
        (1, "undo"): 19,
        (None, "new_game"): 20,
        (None, "pause"): 21,
    }


def test_a_press_becomes_one_event_for_its_seat(
    mock_pins: MockFactory, clock: Clock, events: queue.Queue[ButtonEvent]
) -> None:
    with TableButtons(load_profile(), events.put, clock=clock) as buttons:
        pin = mock_pins.pin(13)
        pin.drive_low()
        clock.now += 0.5
        pin.drive_high()
        mock_pins.pin(20).drive_low()
        mock_pins.pin(20).drive_high()
        assert buttons.button(1, "confirm").is_pressed is False
    assert events.get_nowait() == ButtonEvent(1, "confirm", "pressed", 100.0)
    assert events.get_nowait() == ButtonEvent(None, "new_game", "pressed", 100.5)
    assert events.empty()


def test_contact_bounce_is_one_press(
    mock_pins: MockFactory, clock: Clock, events: queue.Queue[ButtonEvent]
) -> None:
    with TableButtons(load_profile(), events.put, clock=clock):
        pin = mock_pins.pin(6)
        for _ in range(4):  # chatter on pressing: edges 5 ms apart
            pin.drive_low()
            clock.now += 0.005
            pin.drive_high()
            clock.now += 0.005
        pin.drive_low()
        clock.now += 0.3
        for _ in range(3):  # chatter on releasing
            pin.drive_high()
            clock.now += 0.005
            pin.drive_low()
            clock.now += 0.005
        pin.drive_high()
        clock.now += 0.2
        pin.drive_low()  # a second, real press
        pin.drive_high()
    presses = [events.get_nowait() for _ in range(events.qsize())]
    assert [(e.seat, e.kind, e.gesture) for e in presses] == [(0, "undo", "pressed")] * 2
    assert presses[1].time - presses[0].time == pytest.approx(0.57)


def test_holding_a_button_sends_held(
    mock_pins: MockFactory, clock: Clock, events: queue.Queue[ButtonEvent]
) -> None:
    profile = parse_profile(edited("hold_time_s = 1.0", "hold_time_s = 0.05", MOCK))
    with TableButtons(profile, events.put, clock=clock):
        mock_pins.pin(19).drive_low()
        first = events.get(timeout=5)
        held = events.get(timeout=5)
        mock_pins.pin(19).drive_high()
    assert (first.kind, first.gesture) == ("undo", "pressed")
    assert (held.seat, held.kind, held.gesture) == (1, "undo", "held")


def test_a_short_press_is_not_held(
    mock_pins: MockFactory, clock: Clock, events: queue.Queue[ButtonEvent]
) -> None:
    with TableButtons(load_profile(), events.put, clock=clock):  # hold time 1 s
        mock_pins.pin(5).drive_low()
        mock_pins.pin(5).drive_high()
        assert events.get_nowait().gesture == "pressed"
    assert events.empty()


def test_pull_down_buttons_are_pressed_when_driven_high(
    mock_pins: MockFactory, clock: Clock, events: queue.Queue[ButtonEvent]
) -> None:
    profile = parse_profile(edited("pull_up = true", "pull_up = false", MOCK))
    with TableButtons(profile, events.put, clock=clock):
        mock_pins.pin(21).drive_high()
        mock_pins.pin(21).drive_low()
    assert events.get_nowait() == ButtonEvent(None, "pause", "pressed", 100.0)


def test_closing_releases_the_pins(mock_pins: MockFactory, events: queue.Queue[Any]) -> None:
    TableButtons(load_profile(), events.put).close()
    with TableButtons(load_profile(), events.put) as again:  # would fail if pins were still held
        assert len(again.buttons) == 6
    with pytest.raises(KeyError, match="seat 0 has no pause button on GPIO"):
        again.button(0, "pause")


PASS_AND_ROLL = edited(
    "pico = [0]",
    "pico = [0]\nroll_pin = 17",
    edited("undo_pin = 19", "undo_pin = 19\npass_pin = 26"),
)


def test_pass_and_roll_buttons_are_on_gpio_when_the_profile_gives_their_pins() -> None:
    pins = button_pins(parse_profile(PASS_AND_ROLL))
    assert (pins[(1, "pass")], pins[(None, "roll")]) == (26, 17)
    assert len(pins) == 8
    assert set(KINDS) >= {kind for _, kind in pins}


def test_a_pass_press_and_a_roll_press_become_events(
    mock_pins: MockFactory, clock: Clock, events: queue.Queue[ButtonEvent]
) -> None:
    with TableButtons(parse_profile(PASS_AND_ROLL), events.put, clock=clock) as buttons:
        mock_pins.pin(26).drive_low()
        clock.now += 0.2
        mock_pins.pin(26).drive_high()
        mock_pins.pin(17).drive_low()
        mock_pins.pin(17).drive_high()
        assert buttons.button(None, "roll").is_pressed is False
        assert len(buttons.buttons) == 8
    assert events.get_nowait() == ButtonEvent(1, "pass", "pressed", 100.0)
    assert events.get_nowait() == ButtonEvent(None, "roll", "pressed", 100.2)
    assert events.empty()


def test_holding_pass_sends_held(
    mock_pins: MockFactory, clock: Clock, events: queue.Queue[ButtonEvent]
) -> None:
    profile = parse_profile(edited("hold_time_s = 1.0", "hold_time_s = 0.05", PASS_AND_ROLL))
    with TableButtons(profile, events.put, clock=clock):
        mock_pins.pin(26).drive_low()
        first = events.get(timeout=5)
        held = events.get(timeout=5)
        mock_pins.pin(26).drive_high()
    assert (first.seat, first.kind, first.gesture) == (1, "pass", "pressed")
    assert (held.seat, held.kind, held.gesture) == (1, "pass", "held")


def test_the_pin_factory_comes_from_the_environment_then_the_profile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gpio = GpioProfile("mock", 0.05, 1.0, True, False, None, None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert isinstance(pin_factory_for(gpio), MockFactory)
    assert pin_factory_for(None) is None
    assert pin_factory_for(GpioProfile(None, 0.05, 1.0, True, False, None, None)) is None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    assert pin_factory_for(gpio) is None
