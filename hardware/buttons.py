"""Seat and table buttons on the Pi's GPIO, delivered as plain events.

A seat has confirm, undo and pass buttons; the table has new game and pause,
and a die roll button when ``dice.roll_pin`` is given (kind ``roll``, seat
``None``: the Pi rolls). Each button the profile puts on GPIO becomes a
gpiozero :class:`~gpiozero.Button` (with the profile's bounce time and hold
time). Its presses and holds arrive as :class:`ButtonEvent` values at one
``deliver`` callable, typically the controller's ``queue.put``; the callable
runs in gpiozero's threads, so it must only hand the event over.

Debouncing: gpiozero passes ``bounce_time`` to the pin driver, but not every
pin factory honours it (the mock factory ignores it), so presses are also
filtered here with the injected clock: a press closer than ``bounce_time`` to
the previous edge of the same button (pressed or released) is contact chatter
and is dropped. Holds come from gpiozero's ``when_held``.

The pin factory is gpiozero's choice (``GPIOZERO_PIN_FACTORY``) when that
variable is set; otherwise the profile's ``gpio.pin_factory`` (``mock`` for the
mock table); otherwise gpiozero's default.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Final

from gpiozero import Button
from gpiozero.pins import Factory

from hardware.profile import GpioProfile, Pin, Profile

KINDS: Final = ("confirm", "undo", "pass", "new_game", "pause", "roll")
GESTURES: Final = ("pressed", "held")


@dataclass(frozen=True)
class ButtonEvent:
    """One press or hold: ``seat`` is the seat's index, or ``None`` for a table button."""

    seat: int | None
    kind: str
    gesture: str
    time: float


def pin_factory_for(gpio: GpioProfile | None) -> Factory | None:
    """The pin factory the profile names, unless ``GPIOZERO_PIN_FACTORY`` decides.

    ``None`` means "gpiozero's default" (which itself reads the variable).
    """
    if os.environ.get("GPIOZERO_PIN_FACTORY") or gpio is None or gpio.pin_factory is None:
        return None
    (found,) = entry_points(group="gpiozero_pin_factories", name=gpio.pin_factory)
    factory: Factory = found.load()()
    return factory


def button_pins(profile: Profile) -> dict[tuple[int | None, str], Pin]:
    """Every button on GPIO, by (seat or ``None``, kind)."""
    pins: dict[tuple[int | None, str], Pin | None] = {}
    for number, seat in enumerate(profile.seats):
        pins[(number, "confirm")] = seat.confirm_pin
        pins[(number, "undo")] = seat.undo_pin
        pins[(number, "pass")] = seat.pass_pin
    if profile.gpio is not None:
        pins[(None, "new_game")] = profile.gpio.new_game_pin
        pins[(None, "pause")] = profile.gpio.pause_pin
    pins[(None, "roll")] = profile.dice.roll_pin
    return {key: pin for key, pin in pins.items() if pin is not None}


class TableButtons:
    """The profile's GPIO buttons, delivering a :class:`ButtonEvent` for each press and hold."""

    def __init__(
        self,
        profile: Profile,
        deliver: Callable[[ButtonEvent], Any],
        *,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Factory | None = None,
    ) -> None:
        gpio = profile.gpio or GpioProfile(None, 0.05, 1.0, True, False, None, None)
        self.deliver = deliver
        self.clock = clock
        self.bounce_time = gpio.bounce_time_s
        self.last_edge: dict[tuple[int | None, str], float] = {}
        self.lock = threading.Lock()
        self.buttons: dict[tuple[int | None, str], Button] = {}
        try:
            for key, pin in button_pins(profile).items():
                self.buttons[key] = self._button(key, pin, gpio, pin_factory)
        except BaseException:
            self.close()
            raise

    def _button(
        self, key: tuple[int | None, str], pin: Pin, gpio: GpioProfile, factory: Factory | None
    ) -> Button:
        button = Button(
            pin,
            pull_up=gpio.pull_up,
            bounce_time=gpio.bounce_time_s or None,
            hold_time=gpio.hold_time_s,
            pin_factory=factory,
        )
        button.when_pressed = lambda: self._pressed(key)
        button.when_released = lambda: self._edge(key)
        button.when_held = lambda: self._send(key, "held", self.clock())
        return button

    def _edge(self, key: tuple[int | None, str]) -> bool:
        """Note an edge; True if it is far enough from the previous one to be real."""
        with self.lock:
            now = self.clock()
            previous = self.last_edge.get(key)
            self.last_edge[key] = now
        return previous is None or now - previous >= self.bounce_time

    def _pressed(self, key: tuple[int | None, str]) -> None:
        if self._edge(key):
            self._send(key, "pressed", self.last_edge[key])

    def _send(self, key: tuple[int | None, str], gesture: str, when: float) -> None:
        seat, kind = key
        self.deliver(ButtonEvent(seat, kind, gesture, when))

    def button(self, seat: int | None, kind: str) -> Button:
        """The gpiozero button for a seat's (or the table's) ``kind`` of button."""
        try:
            return self.buttons[(seat, kind)]
        except KeyError:
            where = "the table" if seat is None else f"seat {seat}"
            raise KeyError(f"{where} has no {kind} button on GPIO") from None

    def close(self) -> None:
        """Release every pin."""
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
