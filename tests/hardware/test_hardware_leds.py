"""The LED frame model, colour correction, the terminal renderer and GPIO seat LEDs."""

from __future__ import annotations

import io

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.leds import (
    AMBER,
    BLACK,
    Animation,
    Frame,
    GpioSeatLeds,
    Look,
    Renderer,
    TerminalRenderer,
    blink,
    chain_pixels,
    colour_letter,
    correct,
    flash,
    pulse,
    wants_colour,
)
from hardware.profile import LedProfile, Seat, Segment, load_profile

RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)
REFERENCE = load_profile().source.replace("mock.toml", "reference.toml")


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# -- animations ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("animation", "now", "level"),
    [
        (Animation(), 123.4, 1.0),
        (blink(0.5), 0.1, 1.0),
        (blink(0.5), 0.3, 0.0),
        (blink(0.5), 10.6, 1.0),
        (blink(0.5, start=0.2), 0.3, 1.0),
        (pulse(2.0), 0.0, 0.0),
        (pulse(2.0), 0.5, 0.5),
        (pulse(2.0), 1.0, 1.0),
        (pulse(2.0), 3.0, 1.0),
        (flash(10.0, 0.4), 9.9, 0.0),
        (flash(10.0, 0.4), 10.1, 1.0),
        (flash(10.0, 0.4), 10.5, 0.0),
    ],
)
def test_animation_levels(animation: Animation, now: float, level: float) -> None:
    assert animation.level(now) == pytest.approx(level)


def test_a_look_scales_its_colour_by_the_animation() -> None:
    assert Look((200, 100, 0), pulse(2.0)).at(0.5) == (100, 50, 0)
    assert Look((200, 100, 0), blink(1.0)).at(0.75) == BLACK


def test_a_chase_runs_one_light_along_the_chosen_leds_in_order() -> None:
    frame = Frame({"pegs": 10})
    path = [7, 2, 5, 9]
    frame.chase("pegs", BLUE, period=1.0, indices=path)
    for step, now in enumerate([0.1, 0.35, 0.6, 0.9]):
        lit = [i for i, colour in enumerate(frame.colours(now)["pegs"]) if colour != BLACK]
        assert lit == [path[step]]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Animation("wave"), "unknown animation 'wave'"),
        (lambda: Animation("blink", 0), "period must be positive"),
        (lambda: Animation("blink", 1, duty=0), "duty must be above 0"),
        (lambda: Look((256, 0, 0)), "each 0-255"),
        (lambda: Look([1, 2, 3]), "each 0-255"),  # type: ignore[arg-type]
    ],
)
def test_bad_looks_are_refused(make: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()  # type: ignore[operator]


# -- the frame -------------------------------------------------------------------


def test_a_frame_addresses_leds_by_segment_and_index() -> None:
    frame = Frame({"pegs": 4, "status": 1})
    frame.set("pegs", 3, RED)
    frame.fill("status", AMBER, blink())
    frame.fill("pegs", WHITE, indices=[0, 1])
    assert frame.colours(0.1) == {"pegs": [WHITE, WHITE, BLACK, RED], "status": [AMBER]}
    assert frame.look("status", 0) == Look(AMBER, blink())
    twin = frame.copy()
    frame.clear("pegs")
    assert frame.colours(0.0)["pegs"] == [BLACK] * 4
    assert twin.colours(0.0)["pegs"][3] == RED
    assert twin != frame
    frame.clear()
    assert frame == Frame({"pegs": 4, "status": 1})


def test_a_frame_refuses_unknown_segments_and_indices() -> None:
    frame = Frame({"pegs": 4, "status": 1})
    with pytest.raises(KeyError, match="no LED segment 'ring'; segments: pegs, status"):
        frame.set("ring", 0, RED)
    with pytest.raises(IndexError, match="LED 4 is not in segment 'pegs' \\(0-3\\)"):
        frame.set("pegs", 4, RED)
    with pytest.raises(ValueError, match="each 0-255"):
        frame.set("pegs", 0, (0, 0, -1))
    assert frame == Frame({"pegs": 4, "status": 1})


def test_a_profile_frame_has_its_segments_and_one_led_per_seat() -> None:
    frame = Frame.for_profile(load_profile())
    assert {name: frame.size(name) for name in frame.looks} == {
        "pegs": 55,
        "seats": 6,
        "status": 1,
        "cog-spaces": 16,
        "track": 16,
        "clock": 7,
    }


# -- colour correction and the chain ------------------------------------------------


def test_identity_correction_changes_nothing() -> None:
    leds = LedProfile(3, (Segment("all", (0, 1, 2)),))
    for colour in [(0, 0, 0), (1, 2, 3), (128, 64, 255), (255, 255, 255)]:
        assert correct(colour, leds) == colour


def test_correction_applies_gamma_factors_and_brightness() -> None:
    leds = LedProfile(1, (Segment("all", (0,)),), 0.5, (1.0, 0.8, 0.5), 2.0)
    # 255 * brightness * factor * (value / 255) ** gamma, rounded
    assert correct((255, 255, 255), leds) == (128, 102, 64)
    assert correct((128, 0, 255), leds) == (32, 0, 64)


def test_chain_pixels_put_each_segment_where_it_is_wired() -> None:
    profile = load_profile()
    frame = Frame.for_profile(profile)
    frame.set("pegs", 3, RED)
    frame.set("seats", 1, BLUE)
    frame.set("seats", 5, WHITE)
    frame.set("status", 0, AMBER, blink(1.0))
    pixels = chain_pixels(frame, profile.leds, now=0.25)
    assert len(pixels) == 101
    lit = {index: colour for index, colour in enumerate(pixels) if colour != BLACK}
    assert lit == {
        3: correct(RED, profile.leds),
        56: correct(BLUE, profile.leds),
        60: correct(WHITE, profile.leds),
        61: correct(AMBER, profile.leds),
    }
    assert correct(RED, profile.leds) == (153, 0, 0)
    assert 61 not in {i for i, c in enumerate(chain_pixels(frame, profile.leds, 0.75)) if any(c)}


def test_leds_outside_every_segment_stay_dark() -> None:
    leds = LedProfile(5, (Segment("ring", (4, 0)),))
    frame = Frame({"ring": 2, "seats": 2})
    frame.fill("ring", WHITE)
    frame.fill("seats", RED)
    assert chain_pixels(frame, leds, 0.0) == [WHITE, BLACK, BLACK, BLACK, WHITE]


# -- the terminal renderer ------------------------------------------------------------


def test_plain_output_names_colours_by_letter() -> None:
    assert [colour_letter(c) for c in [BLACK, RED, (0, 60, 0), WHITE, AMBER, (40, 40, 40)]] == [
        ".",
        "R",
        "g",
        "W",
        "A",
        "w",
    ]
    frame = Frame({"pegs": 3, "seats": 2})
    frame.set("pegs", 0, RED)
    frame.set("pegs", 2, (0, 60, 0))
    frame.set("seats", 1, WHITE, blink(1.0))
    renderer = TerminalRenderer(io.StringIO())
    assert renderer.render(frame, 0.25) == "pegs   R . g\nseats  . W"
    assert renderer.render(frame, 0.75) == "pegs   R . g\nseats  . ."


def test_an_arrangement_draws_a_segment_in_rows() -> None:
    frame = Frame({"pegs": 6, "status": 1})
    frame.fill("pegs", BLUE, indices=[0, 5])
    triangle = {"pegs": [[0], [1, 2], [3, 4, 5]]}
    text = TerminalRenderer(io.StringIO(), arrangement=triangle).render(frame, 0.0)
    assert text.splitlines() == [
        "pegs      B",
        "         . .",
        "        . . B",
        "status  .",
    ]


def test_colour_output_uses_24_bit_ansi_and_show_writes_it() -> None:
    frame = Frame({"seats": 2})
    frame.set("seats", 0, (224, 32, 32))
    terminal = FakeTerminal()
    renderer: Renderer = TerminalRenderer(terminal)
    renderer.show(frame, 0.0)
    renderer.close()
    assert terminal.getvalue() == "seats  \x1b[38;2;224;32;32m●\x1b[0m \x1b[2m·\x1b[0m\n\n"


def test_no_color_or_a_pipe_means_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert wants_colour(FakeTerminal()) is True
    assert wants_colour(io.StringIO()) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert wants_colour(FakeTerminal()) is False
    assert TerminalRenderer(FakeTerminal()).colour is False


# -- seat LEDs on GPIO ----------------------------------------------------------------


def test_rgb_seat_leds_show_the_seat_colour_with_pwm(mock_pins: MockFactory) -> None:
    profile = load_profile(REFERENCE)
    frame = Frame.for_profile(profile)
    frame.set("seats", 0, (255, 0, 51))
    frame.set("seats", 1, BLUE, blink(1.0))
    leds = GpioSeatLeds.from_profile(profile)
    leds.show(frame, 0.25)
    assert [mock_pins.pin(p).state for p in (16, 12, 25)] == pytest.approx([1.0, 0.0, 0.2])
    assert [mock_pins.pin(p).state for p in (26, 7, 8)] == [0, 0, 1]
    leds.show(frame, 0.75)
    assert [mock_pins.pin(p).state for p in (26, 7, 8)] == [0, 0, 0]
    leds.close()
    assert mock_pins.pin(16).state == 0


def test_plain_seat_leds_are_on_for_bright_colours(mock_pins: MockFactory) -> None:
    seats = [
        Seat("Red", RED, led_pins=(23,)),
        Seat("Blue", BLUE),
        Seat("Green", RED, led_pins=(24,)),
    ]
    leds = GpioSeatLeds(seats)
    frame = Frame({"seats": 3})
    frame.set("seats", 0, (200, 10, 10))
    frame.set("seats", 2, (60, 0, 0))
    leds.show(frame, 0.0)
    assert (mock_pins.pin(23).state, mock_pins.pin(24).state) == (1, 0)
    assert set(leds.devices) == {0, 2}
    leds.close()


def test_the_docstring_examples_hold() -> None:
    import doctest

    import hardware.leds
    import hardware.profile

    for module in (hardware.leds, hardware.profile):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
