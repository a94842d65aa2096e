"""Glue renderers: frames to the Pico's steady colours and animation slots; fan-out; sight."""

from __future__ import annotations

from typing import Any

import pytest

from cogtable.mock.people.kogworks import Sight
from cogtable.outputs import SLOTS, ChangedOnly, FanOut, LastFrame, PicoRenderer, chain_image
from cogtable.tables.kogworks import adapter
from hardware.leds import Frame, blink, correct, flash
from hardware.profile import load_profile

PROFILE = load_profile()
LEDS = PROFILE.leds


class FakeLink:
    """Records what would go over the wire."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    def set_leds(self, start: int, colours: Any) -> None:
        self.sent.append(("set", (start, tuple(colours))))

    def animate(self, slot: int, kind: str, start: int, count: int, **rest: Any) -> None:
        self.sent.append(("animate", (slot, kind, start, count, rest["colour"], rest["period_ms"])))


def frame() -> Frame:
    return Frame.for_profile(PROFILE)


def test_neighbouring_blinking_leds_share_one_slot_and_steady_ones_are_pixels() -> None:
    leds = frame()
    leds.fill("pegs", (255, 0, 0), blink(0.4), indices=[3, 4, 5])
    leds.set("seats", 1, (32, 80, 240))
    image = chain_image(leds, LEDS, now=0.0)
    assert len(image.runs) == 1
    run = image.runs[0]
    assert (run.kind, run.start, run.count, run.period_ms) == ("blink", 3, 3, 400)
    assert run.colour == correct((255, 0, 0), LEDS)
    seat = LEDS.segment("seats").leds[1]
    assert image.pixels[seat] == correct((32, 80, 240), LEDS)
    assert image.pixels[3] == (0, 0, 0), "an animated LED's steady colour is dark"


def test_more_runs_than_slots_are_shown_lit_and_steady() -> None:
    leds = frame()
    leds.fill("pegs", (255, 140, 0), blink(0.8), indices=list(range(0, 40, 2)))
    image = chain_image(leds, LEDS, now=0.0)
    assert len(image.runs) == SLOTS
    first_unslotted = 2 * SLOTS
    assert image.pixels[first_unslotted] == correct((255, 140, 0), LEDS)


def test_a_flash_is_sent_steady_while_it_lasts() -> None:
    leds = frame()
    leds.set("pegs", 7, (0, 255, 0), flash(start=1.0, duration=0.5))
    assert chain_image(leds, LEDS, now=1.2).pixels[7] == correct((0, 255, 0), LEDS)
    assert chain_image(leds, LEDS, now=2.0).pixels[7] == (0, 0, 0)


def test_the_pico_gets_only_what_changed() -> None:
    link = FakeLink()
    pico = PicoRenderer(link, LEDS)
    leds = frame()
    leds.set("status", 0, (255, 140, 0))
    pico.show(leds, 0.0)
    assert [kind for kind, _ in link.sent] == ["set"] + ["animate"] * SLOTS
    link.sent.clear()
    pico.show(leds, 1.0)
    assert link.sent == [], "an unchanged frame sends nothing"
    leds.fill("pegs", (255, 0, 0), blink(0.4), indices=[9])
    pico.show(leds, 2.0)
    assert link.sent == [("animate", (0, "blink", 9, 1, correct((255, 0, 0), LEDS), 400))]


def test_a_failing_renderer_does_not_keep_the_frame_from_the_others() -> None:
    class Broken:
        def show(self, frame: Frame, now: float) -> None:
            raise OSError("terminal closed")

        def close(self) -> None:
            raise OSError("terminal closed")

    seen = LastFrame()
    fan = FanOut([Broken(), ChangedOnly(seen)])
    fan.show(frame(), 0.0)
    fan.close()
    assert seen.frame == frame()
    assert fan.errors == {"Broken": "terminal closed"}


@pytest.mark.parametrize(
    ("paint", "expected"),
    [
        (lambda f: f.set("seats", 1, (32, 80, 240)), Sight(turn=1)),
        (lambda f: f.chase("seats", (224, 32, 32), indices=[0]), Sight(winner=0)),
        (lambda f: f.fill("pegs", adapter.RED, blink(0.4), indices=[4]), Sight(red=(4,))),
        (lambda f: f.fill("pegs", adapter.AMBER, blink(0.8), indices=[6]), Sight(amber=(6,))),
    ],
)
def test_people_read_turn_winner_and_blinking_pegs(paint: Any, expected: Sight) -> None:
    leds = frame()
    paint(leds)
    assert Sight.of(leds) == expected
