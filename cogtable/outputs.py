"""Glue renderers: the Pico's LED chain, a fan-out to several renderers, change filters.

:class:`PicoRenderer` turns a logical :class:`~hardware.leds.Frame` into what
the firmware understands: the chain's steady colours (``SET_LEDS``, corrected
by :func:`~hardware.leds.chain_pixels`) and up to eight animation slots
(``ANIMATE``) for runs of neighbouring LEDs that blink, pulse or chase alike,
so the Pico animates by itself and the host sends only when the frame
changes. Animated LEDs that do not fit in the slots are sent lit, steady.

:class:`FanOut` shows one frame on several renderers; one renderer failing
(a terminal closed, a GPIO pin gone) never keeps the frame from the others.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from hardware.leds import BLACK, Animation, Frame, Renderer, correct
from hardware.profile import RGB, LedProfile

log = logging.getLogger(__name__)
SLOTS = 8
"""Animation slots on the firmware (``wire.ANIMATION_SLOTS``)."""
FIRMWARE_KINDS = ("blink", "pulse", "chase")
"""Animations the firmware runs by itself; a ``flash`` is sent steady while it lasts."""


class LedLink(Protocol):
    """What the renderer needs from :class:`firmware_bridge.link.Link`."""

    def set_leds(self, start: int, colours: Sequence[Sequence[int]] | bytes) -> None: ...

    def animate(
        self, slot: int, kind: str, start: int, count: int, *, colour: Sequence[int], period_ms: int
    ) -> None: ...


@dataclass(frozen=True)
class Run:
    """Neighbouring chain LEDs with the same animation and corrected colour: one firmware slot."""

    kind: str
    start: int
    count: int
    colour: RGB
    period_ms: int


@dataclass(frozen=True)
class ChainImage:
    """A frame as the firmware takes it: steady pixels plus animation runs."""

    pixels: tuple[RGB, ...]
    runs: tuple[Run, ...]


def chain_image(frame: Frame, leds: LedProfile, now: float, slots: int = SLOTS) -> ChainImage:
    """Split ``frame`` into the chain's steady colours and at most ``slots`` animation runs."""
    pixels: list[RGB] = [BLACK] * leds.length
    animated: dict[int, tuple[str, RGB, int]] = {}
    for segment in leds.segments:
        if segment.name not in frame.looks:
            continue
        for index, look in zip(segment.leds, frame.looks[segment.name], strict=False):
            if look.animation.kind in FIRMWARE_KINDS and look.colour != BLACK:
                animated[index] = _animated(look.colour, look.animation, leds)
            else:
                pixels[index] = correct(look.at(now), leds)
    runs = _runs(animated)
    for run in runs[slots:]:
        pixels[run.start : run.start + run.count] = [run.colour] * run.count
    return ChainImage(tuple(pixels), tuple(runs[:slots]))


def _animated(colour: RGB, animation: Animation, leds: LedProfile) -> tuple[str, RGB, int]:
    period_ms = max(1, min(0xFFFF, round(animation.period * 1000)))
    return animation.kind, correct(colour, leds), period_ms


def _runs(animated: dict[int, tuple[str, RGB, int]]) -> list[Run]:
    """Group animated LEDs into runs of consecutive chain indices that look alike."""
    runs: list[Run] = []
    for index in sorted(animated):
        kind, colour, period = animated[index]
        last = runs[-1] if runs else None
        if last and last.start + last.count == index and _alike(last, kind, colour, period):
            runs[-1] = Run(kind, last.start, last.count + 1, colour, period)
        else:
            runs.append(Run(kind, index, 1, colour, period))
    return runs


def _alike(run: Run, kind: str, colour: RGB, period_ms: int) -> bool:
    return (run.kind, run.colour, run.period_ms) == (kind, colour, period_ms)


class PicoRenderer:
    """Sends frames to the Pico over the link; only what changed since the last frame.

    ``sent_at`` is the :func:`time.perf_counter` moment the last frame left the
    host (for the latency benchmark); ``shown`` is the last frame sent.
    """

    def __init__(self, link: LedLink, leds: LedProfile) -> None:
        self.link = link
        self.leds = leds
        self.image: ChainImage | None = None
        self.shown: Frame | None = None
        self.sent_at = 0.0
        self.sends = 0
        self.lock = threading.Lock()

    def show(self, frame: Frame, now: float) -> None:
        """Send the steady colours and animation slots that differ from the last frame."""
        image = chain_image(frame, self.leds, now)
        with self.lock:
            previous, self.image = self.image, image
            self.shown = frame.copy()
            if previous is None or image.pixels != previous.pixels:
                self.link.set_leds(0, image.pixels)
            self._send_runs(image.runs, previous.runs if previous else None)
            if previous != image:
                self.sent_at = time.perf_counter()
                self.sends += 1

    def _send_runs(self, runs: tuple[Run, ...], before: tuple[Run, ...] | None) -> None:
        for slot in range(SLOTS):
            run = runs[slot] if slot < len(runs) else None
            old = before[slot] if before is not None and slot < len(before) else None
            if before is not None and run == old:
                continue
            if run is None:
                self.link.animate(slot, "off", 0, 0, colour=BLACK, period_ms=1)
            else:
                self.link.animate(
                    slot, run.kind, run.start, run.count, colour=run.colour, period_ms=run.period_ms
                )

    def close(self) -> None:
        """Turn the chain dark (the link itself is closed by its owner)."""
        self.show(_dark_like(self.shown), 0.0)


def _dark_like(frame: Frame | None) -> Frame:
    if frame is None:
        return Frame({})
    dark = frame.copy()
    dark.clear()
    return dark


class FanOut:
    """Shows each frame on every renderer; a failing renderer is logged and skipped."""

    def __init__(self, renderers: Iterable[Renderer]) -> None:
        self.renderers = list(renderers)
        self.errors: dict[str, str] = {}

    def show(self, frame: Frame, now: float) -> None:
        """Hand the frame to each renderer in turn."""
        for renderer in self.renderers:
            self._each(renderer, lambda r: r.show(frame, now))

    def close(self) -> None:
        """Close every renderer."""
        for renderer in self.renderers:
            self._each(renderer, lambda r: r.close())

    def _each(self, renderer: Renderer, call: Callable[[Any], object]) -> None:
        name = type(renderer).__name__
        try:
            call(renderer)
        except Exception as error:  # one broken output must not hide the frame elsewhere
            if self.errors.get(name) != str(error):
                log.warning("LED renderer %s failed: %s", name, error)
            self.errors[name] = str(error)


class ChangedOnly:
    """Passes a frame on only when it differs from the last one (a terminal is not flooded)."""

    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer
        self.last: Frame | None = None

    def show(self, frame: Frame, now: float) -> None:
        """Show ``frame`` unless it looks exactly like the previous one."""
        if frame != self.last:
            self.last = frame.copy()
            self.renderer.show(frame, now)

    def close(self) -> None:
        """Close the wrapped renderer."""
        self.renderer.close()


class LastFrame:
    """Keeps the last frame shown: what someone looking at the table sees (mock players)."""

    def __init__(self) -> None:
        self.frame: Frame | None = None

    def show(self, frame: Frame, now: float) -> None:
        """Remember ``frame``."""
        self.frame = frame.copy()

    def close(self) -> None:
        """Nothing to release."""
