"""The LED frame model and its renderers.

A :class:`Frame` holds what every logical LED should show: LEDs are addressed
by segment name and index (``frame.set("pegs", 12, AMBER, blink())``), each
with a colour and an animation (solid, blink, pulse, chase, flash) that is a
pure function of time. A renderer turns a frame at a moment into light:

- :class:`TerminalRenderer`: coloured dots in a terminal (plain letters when
  ``NO_COLOR`` is set or the output is not a terminal);
- :class:`GpioSeatLeds`: seat LEDs on the Pi's GPIO through gpiozero;
- the Pico link (in ``firmware_bridge``) sends :func:`chain_pixels`, the
  physical chain after colour correction and brightness.

Every renderer keeps the small :class:`Renderer` protocol.

>>> frame = Frame({"seats": 2})
>>> frame.set("seats", 1, (200, 0, 0), blink(period=1.0))
>>> frame.colours(0.25)["seats"], frame.colours(0.75)["seats"]
([(0, 0, 0), (200, 0, 0)], [(0, 0, 0), (0, 0, 0)])
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TextIO

from gpiozero import LED, PWMLED, RGBLED

from hardware.profile import RGB, LedProfile, Profile, Seat

BLACK: Final = (0, 0, 0)
WHITE: Final = (255, 255, 255)
RED: Final = (255, 0, 0)
GREEN: Final = (0, 255, 0)
AMBER: Final = (255, 160, 0)

KINDS: Final = ("solid", "blink", "pulse", "chase", "flash")


def check_colour(colour: Any) -> RGB:
    """``colour`` if it is three whole numbers 0-255, else a :class:`ValueError` saying so."""
    good = isinstance(colour, tuple) and len(colour) == 3
    if not good or not all(isinstance(c, int) and 0 <= c <= 255 for c in colour):
        raise ValueError(f"a colour is (red, green, blue), each 0-255, not {colour!r}")
    return colour


def scale(colour: RGB, factor: float) -> RGB:
    """``colour`` with every channel times ``factor`` (0-1), rounded."""
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


# -- looks: a colour and how it changes with time ------------------------------------


@dataclass(frozen=True)
class Animation:
    """How an LED's brightness changes with time; :meth:`level` is 0 (off) to 1 (full).

    ``blink`` and ``chase`` are lit for the ``duty`` fraction of each period,
    starting at ``phase`` (a fraction of the period); ``pulse`` breathes
    smoothly; ``flash`` is lit once, for ``period`` seconds from ``start``.
    """

    kind: str = "solid"
    period: float = 1.0
    phase: float = 0.0
    duty: float = 0.5
    start: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown animation {self.kind!r}; expected one of {KINDS}")
        if not self.period > 0:
            raise ValueError(f"an animation period must be positive, not {self.period!r}")
        if not 0 < self.duty <= 1:
            raise ValueError(f"an animation duty must be above 0 and at most 1, not {self.duty!r}")

    def level(self, now: float) -> float:
        """The brightness factor at time ``now`` (seconds, same clock as ``start``)."""
        if self.kind == "solid":
            return 1.0
        elapsed = now - self.start
        if self.kind == "flash":
            return 1.0 if 0 <= elapsed < self.period else 0.0
        position = (elapsed / self.period - self.phase) % 1.0
        if self.kind == "pulse":
            return 0.5 - 0.5 * math.cos(2 * math.pi * position)
        return 1.0 if position < self.duty else 0.0


SOLID: Final = Animation()


def blink(period: float = 0.5, start: float = 0.0) -> Animation:
    """On for half of each period, off for the other half."""
    return Animation("blink", period, start=start)


def pulse(period: float = 2.0, start: float = 0.0) -> Animation:
    """A smooth breathing from off to full and back, once a period."""
    return Animation("pulse", period, start=start)


def flash(start: float, duration: float = 0.4) -> Animation:
    """Lit once, from ``start`` for ``duration`` seconds (an accepted move)."""
    return Animation("flash", duration, start=start)


@dataclass(frozen=True)
class Look:
    """What one LED shows: a colour and its animation."""

    colour: RGB = BLACK
    animation: Animation = SOLID

    def __post_init__(self) -> None:
        check_colour(self.colour)

    def at(self, now: float) -> RGB:
        """The colour at time ``now``."""
        return scale(self.colour, self.animation.level(now))


DARK: Final = Look()


# -- the frame -----------------------------------------------------------------


class Frame:
    """Every logical LED's look, by segment name and index; all dark to begin with."""

    def __init__(self, sizes: Mapping[str, int]) -> None:
        self.looks: dict[str, list[Look]] = {name: [DARK] * size for name, size in sizes.items()}

    @classmethod
    def for_profile(cls, profile: Profile) -> Frame:
        """A frame with the profile's chain segments, and ``seats`` (one LED per seat)."""
        sizes = {segment.name: len(segment.leds) for segment in profile.leds.segments}
        sizes.setdefault("seats", len(profile.seats))
        return cls(sizes)

    def size(self, segment: str) -> int:
        """How many LEDs ``segment`` has."""
        return len(self._segment(segment))

    def set(self, segment: str, index: int, colour: RGB, animation: Animation = SOLID) -> None:
        """Give LED ``index`` of ``segment`` a colour and an animation."""
        looks = self._segment(segment)
        if not 0 <= index < len(looks):
            raise IndexError(f"LED {index} is not in segment {segment!r} (0-{len(looks) - 1})")
        looks[index] = Look(colour, animation)

    def fill(
        self,
        segment: str,
        colour: RGB,
        animation: Animation = SOLID,
        indices: Sequence[int] | None = None,
    ) -> None:
        """Give several LEDs of ``segment`` (all when ``indices`` is None) the same look."""
        for index in self._indices(segment, indices):
            self.set(segment, index, colour, animation)

    def chase(
        self,
        segment: str,
        colour: RGB,
        period: float = 1.0,
        indices: Sequence[int] | None = None,
        start: float = 0.0,
    ) -> None:
        """A light that runs along ``indices`` in order, once a period (a winner's path)."""
        chosen = list(self._indices(segment, indices))
        for position, index in enumerate(chosen):
            phase = position / len(chosen)
            animation = Animation("chase", period, phase, 1 / len(chosen), start)
            self.set(segment, index, colour, animation)

    def clear(self, segment: str | None = None) -> None:
        """Darken one segment, or every segment."""
        for name in [segment] if segment is not None else list(self.looks):
            self.fill(name, BLACK)

    def look(self, segment: str, index: int) -> Look:
        """What LED ``index`` of ``segment`` shows."""
        return self._segment(segment)[index]

    def colours(self, now: float) -> dict[str, list[RGB]]:
        """Every LED's colour at time ``now``, by segment (before any correction)."""
        return {name: [look.at(now) for look in looks] for name, looks in self.looks.items()}

    def copy(self) -> Frame:
        """An independent copy."""
        twin = Frame({})
        twin.looks = {name: list(looks) for name, looks in self.looks.items()}
        return twin

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Frame) and self.looks == other.looks

    __hash__ = None  # type: ignore[assignment]

    def _segment(self, segment: str) -> list[Look]:
        try:
            return self.looks[segment]
        except KeyError:
            known = ", ".join(self.looks)
            raise KeyError(f"no LED segment {segment!r}; segments: {known}") from None

    def _indices(self, segment: str, indices: Sequence[int] | None) -> Sequence[int]:
        return range(self.size(segment)) if indices is None else indices


# -- the physical chain ----------------------------------------------------------


def correct(colour: RGB, leds: LedProfile) -> RGB:
    """A logical colour as the chain must be driven: gamma, per-channel factors, brightness."""
    return (
        _channel(colour[0], leds.correction[0], leds),
        _channel(colour[1], leds.correction[1], leds),
        _channel(colour[2], leds.correction[2], leds),
    )


def _channel(value: int, factor: float, leds: LedProfile) -> int:
    return round(255 * leds.brightness * factor * (value / 255) ** leds.gamma)


def chain_pixels(frame: Frame, leds: LedProfile, now: float) -> list[RGB]:
    """The whole chain, LED by LED in wiring order, corrected: what the Pico is sent.

    LEDs that belong to no segment stay dark; frame segments that are not on
    the chain (seat LEDs on GPIO only) are skipped.
    """
    pixels: list[RGB] = [BLACK] * leds.length
    colours = frame.colours(now)
    for segment in leds.segments:
        for index, colour in zip(segment.leds, colours.get(segment.name, ()), strict=False):
            pixels[index] = correct(colour, leds)
    return pixels


# -- renderers -------------------------------------------------------------------


class Renderer(Protocol):
    """Anything that shows a frame: the terminal, GPIO LEDs, the Pico link."""

    def show(self, frame: Frame, now: float) -> None:
        """Show ``frame`` as it looks at time ``now``."""

    def close(self) -> None:
        """Turn the LEDs off and release what the renderer holds."""


PALETTE: Final = {
    "R": (255, 0, 0),
    "G": (0, 255, 0),
    "B": (0, 0, 255),
    "Y": (255, 255, 0),
    "A": AMBER,
    "C": (0, 255, 255),
    "M": (255, 0, 255),
    "W": WHITE,
}
"""Letters for colours in plain output: the nearest hue; lowercase when dim."""


def colour_letter(colour: RGB) -> str:
    """One letter for a colour: ``.`` dark, else the nearest palette hue (lowercase if dim)."""
    peak = max(colour)
    if peak == 0:
        return "."
    full = scale(colour, 255 / peak)
    letter = min(PALETTE, key=lambda name: _distance(PALETTE[name], full))
    return letter if peak >= 128 else letter.lower()


def _distance(a: RGB, b: RGB) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class TerminalRenderer:
    """Draws every segment's LEDs as coloured dots, one labelled block per segment.

    ``arrangement`` may lay a segment out in rows of indices (the Kogworks
    pegs as a triangle); other segments are one row.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        colour: bool | None = None,
        arrangement: Mapping[str, Sequence[Sequence[int]]] | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.colour = wants_colour(self.stream) if colour is None else colour
        self.arrangement = dict(arrangement or {})

    def render(self, frame: Frame, now: float) -> str:
        """The frame at ``now`` as text."""
        colours = frame.colours(now)
        width = max((len(name) for name in colours), default=0)
        lines: list[str] = []
        for name, row_colours in colours.items():
            rows = self.arrangement.get(name, [range(len(row_colours))])
            lines.extend(self._block(name.ljust(width), rows, row_colours))
        return "\n".join(lines)

    def _block(self, label: str, rows: Sequence[Sequence[int]], colours: list[RGB]) -> list[str]:
        widest = max((len(row) for row in rows), default=0)
        lines = []
        for number, row in enumerate(rows):
            dots = " ".join(self._dot(colours[index]) for index in row)
            indent = " " * (widest - len(row))
            lines.append(f"{label if number == 0 else ' ' * len(label)}  {indent}{dots}")
        return lines

    def _dot(self, colour: RGB) -> str:
        if not self.colour:
            return colour_letter(colour)
        if colour == BLACK:
            return "\x1b[2m·\x1b[0m"
        return f"\x1b[38;2;{colour[0]};{colour[1]};{colour[2]}m●\x1b[0m"

    def show(self, frame: Frame, now: float) -> None:
        """Write the frame, then a blank line."""
        self.stream.write(self.render(frame, now) + "\n\n")
        self.stream.flush()

    def close(self) -> None:
        """Nothing to release."""


class GpioSeatLeds:
    """Seat LEDs wired to the Pi's GPIO, driven through gpiozero from the ``seats`` segment.

    A seat with one pin has a plain LED (lit when the seat colour's brightest
    channel is at least half, or dimmed by PWM when ``pwm`` is set); three pins
    make an RGB LED. Profile brightness and correction are for the WS2812
    chain and do not apply here.
    """

    def __init__(
        self,
        seats: Sequence[Seat],
        pwm: bool = False,
        segment: str = "seats",
        pin_factory: Any = None,
    ) -> None:
        self.pwm = pwm
        self.segment = segment
        self.devices: dict[int, Any] = {}
        try:
            for number, seat in enumerate(seats):
                if seat.led_pins:
                    self.devices[number] = self._device(seat.led_pins, pin_factory)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_profile(cls, profile: Profile, pin_factory: Any = None) -> GpioSeatLeds:
        """The seat LEDs the profile puts on GPIO (none is fine: nothing to drive)."""
        pwm = profile.gpio.pwm_leds if profile.gpio is not None else False
        return cls(profile.seats, pwm, pin_factory=pin_factory)

    def _device(self, pins: tuple[Any, ...], pin_factory: Any) -> Any:
        if len(pins) == 3:
            return RGBLED(*pins, pwm=self.pwm, pin_factory=pin_factory)
        kind = PWMLED if self.pwm else LED
        return kind(pins[0], pin_factory=pin_factory)

    def show(self, frame: Frame, now: float) -> None:
        """Set every seat LED to its seat's colour in the frame at ``now``."""
        colours = frame.colours(now)[self.segment]
        for number, device in self.devices.items():
            device.value = self._value(device, colours[number])

    def _value(self, device: Any, colour: RGB) -> Any:
        if self.pwm:
            channels = tuple(c / 255 for c in colour)
            return channels if isinstance(device, RGBLED) else max(channels)
        on = tuple(1 if c >= 128 else 0 for c in colour)
        return on if isinstance(device, RGBLED) else max(on)

    def close(self) -> None:
        """Turn the LEDs off and release their pins."""
        for device in self.devices.values():
            device.close()
        self.devices.clear()
