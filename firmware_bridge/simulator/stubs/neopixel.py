"""Stand-in for MicroPython's ``neopixel`` module: a chain that remembers what it showed.

Every chain made by the firmware is appended to ``STRIPS``; ``shown`` holds the
colours of the last ``write()``, which is what the LEDs would display. Written
in the subset that both MicroPython and CPython run.
"""

STRIPS = []  # every NeoPixel made, in order


class NeoPixel:
    """A WS2812 chain on one pin."""

    def __init__(self, pin, count, bpp=3, timing=1):
        self.pin = pin
        self.n = count
        self.pixels = [(0, 0, 0)] * count
        self.shown = [(0, 0, 0)] * count
        self.writes = 0
        STRIPS.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        self.pixels[index] = tuple(colour)

    def __getitem__(self, index):
        return self.pixels[index]

    def fill(self, colour):
        """Set every LED to one colour."""
        self.pixels = [tuple(colour)] * self.n

    def write(self):
        """Send the colours down the chain: they become what is shown."""
        self.shown = list(self.pixels)
        self.writes += 1
