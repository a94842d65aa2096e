"""Stand-in for MicroPython's ``neopixel`` module: a chain that remembers what it showed.

Every chain made by the firmware is appended to ``STRIPS``; ``shown`` holds the
colours of the last ``write()``, which is what the LEDs would display.
"""

from __future__ import annotations

STRIPS: list[NeoPixel] = []


class NeoPixel:
    """A WS2812 chain on one pin."""

    def __init__(self, pin: object, count: int, bpp: int = 3, timing: int = 1) -> None:
        self.pin = pin
        self.n = count
        self.pixels = [(0, 0, 0)] * count
        self.shown = [(0, 0, 0)] * count
        self.writes = 0
        STRIPS.append(self)

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, colour: tuple[int, int, int]) -> None:
        self.pixels[index] = tuple(colour)

    def __getitem__(self, index: int) -> tuple[int, int, int]:
        return self.pixels[index]

    def fill(self, colour: tuple[int, int, int]) -> None:
        """Set every LED to one colour."""
        self.pixels = [tuple(colour)] * self.n

    def write(self) -> None:
        """Send the colours down the chain: they become what is shown."""
        self.shown = list(self.pixels)
        self.writes += 1
