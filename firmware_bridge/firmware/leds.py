"""The LED chain on the Pico: the host's colours, local animations, the host-lost pattern.

Pure integer arithmetic on a bytearray of r, g, b triples, so the Pico never
needs floats and the same code runs (and is tested) on the desktop. ``strip``
is anything with ``strip[i] = (r, g, b)`` and ``write()``: a ``neopixel.NeoPixel``.
"""

import wire

HOST_LOST_COLOUR = (255, 0, 0)
HOST_LOST_PERIOD_MS = 3000  # slow breathing


def triangle(elapsed, period):
    """0..255..0 over one period: the brightness of a pulse."""
    phase = (elapsed % period) * 512 // period
    return phase if phase < 256 else 511 - phase


def scaled(colour, level):
    """``colour`` at brightness ``level`` out of 255."""
    return (colour[0] * level // 255, colour[1] * level // 255, colour[2] * level // 255)


class Animation:
    """One animation in a slot: a kind, a segment, a colour, a period, a start time."""

    def __init__(self, kind, start, count, *, colour, period_ms, started):
        self.kind = kind
        self.start = start
        self.count = count
        self.colour = colour
        self.period_ms = max(1, period_ms)
        self.started = started

    def colour_at(self, offset, elapsed):
        """The colour of the segment's LED ``offset`` at ``elapsed`` ms, or None for unchanged."""
        if self.kind == wire.ANIM_BLINK:
            on = (elapsed % self.period_ms) * 2 < self.period_ms
            return self.colour if on else (0, 0, 0)
        if self.kind == wire.ANIM_PULSE:
            return scaled(self.colour, triangle(elapsed, self.period_ms))
        if self.kind == wire.ANIM_CHASE:
            lit = (elapsed % self.period_ms) * self.count // self.period_ms
            return self.colour if offset == lit else None
        return None


class Leds:
    """The chain's state: base colours from the host, animation slots, host-lost."""

    def __init__(self, strip, count, status_led, clock_diff):
        self.strip = strip
        self.count = count
        self.status_led = status_led
        self.base = bytearray(3 * count)
        self.slots = [None] * wire.ANIMATION_SLOTS
        self.host_lost = False
        self.host_lost_since = 0
        self.dirty = True
        self.writes = 0
        self._diff = clock_diff

    def check_range(self, start, count):
        """ValueError unless LEDs start..start+count-1 exist on this chain."""
        if count < 0 or start < 0 or start + count > self.count:
            raise ValueError(
                f"LEDs {start}..{start + count - 1} are outside the {self.count}-LED chain"
            )

    def set_rgb(self, start, rgb):
        """Set LEDs from ``start`` to the r, g, b triples in ``rgb``."""
        self.check_range(start, len(rgb) // 3)
        self.base[3 * start : 3 * start + len(rgb)] = rgb
        self.dirty = True

    def fill(self, start, count, colour):
        """Set ``count`` LEDs from ``start`` to one colour."""
        self.check_range(start, count)
        self.base[3 * start : 3 * (start + count)] = bytes(colour) * count
        self.dirty = True

    def animate(self, slot, kind, start, count, *, colour, period_ms, now):
        """Start (or with ANIM_OFF stop) the animation in ``slot``."""
        if not 0 <= slot < wire.ANIMATION_SLOTS:
            raise ValueError(f"animation slot {slot} is not 0..{wire.ANIMATION_SLOTS - 1}")
        if kind not in wire.ANIMATION_KINDS:
            raise ValueError(f"unknown animation kind {kind}")
        self.check_range(start, count)
        running = kind != wire.ANIM_OFF and count > 0
        self.slots[slot] = (
            Animation(kind, start, count, colour=colour, period_ms=period_ms, started=now)
            if running
            else None
        )
        self.dirty = True

    def set_host_lost(self, lost, now):
        """Show (or stop showing) the host-lost pattern on the status LED."""
        if lost != self.host_lost:
            self.host_lost = lost
            self.host_lost_since = now
            self.dirty = True

    def moving(self):
        """True while something on the chain changes by itself over time."""
        return self.host_lost or any(slot is not None for slot in self.slots)

    def frame(self, now):
        """The colour of every LED at ``now``: base, then animations, then host-lost."""
        base = self.base
        colours = [(base[i], base[i + 1], base[i + 2]) for i in range(0, 3 * self.count, 3)]
        for slot in self.slots:
            if slot is not None:
                self._overlay(slot, colours, now)
        if self.host_lost and 0 <= self.status_led < self.count:
            level = triangle(self._diff(now, self.host_lost_since), HOST_LOST_PERIOD_MS)
            colours[self.status_led] = scaled(HOST_LOST_COLOUR, level)
        return colours

    def _overlay(self, animation, colours, now):
        """Draw one animation over ``colours``."""
        elapsed = self._diff(now, animation.started)
        for offset in range(animation.count):
            colour = animation.colour_at(offset, elapsed)
            if colour is not None:
                colours[animation.start + offset] = colour

    def show(self, now):
        """Write the frame at ``now`` to the chain."""
        for index, colour in enumerate(self.frame(now)):
            self.strip[index] = colour
        self.strip.write()
        self.writes += 1
        self.dirty = False
