"""A simulated person for the hardware self-test: eyes on the simulated Pico's LEDs, hands on
its buttons and on gpiozero's mock pins.

:class:`SimulatedPerson` answers :class:`cogtable.selftest_terms.Question` values as a
careful person would: it looks at the LEDs the simulated firmware really shows
and presses a seat's confirm button if exactly the named ones are lit, undo
if not; asked for a button, it presses that one (through the simulated Pico,
or by driving the mock pin gpiozero reads); asked for a die, it presses the
die's roll button. Its answer is whatever reaches the self-test's inbox, so the
firmware's debouncing, the link and gpiozero's callbacks are all on the path.

:class:`Slips` make the table (or the person) wrong on purpose, for tests: a
physical chain shorter than the profile says, LEDs wired out of order, a
person who presses another button than the one asked, a button that never
works.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gpiozero import Device

from cogtable.mock.world import SimClock
from cogtable.selftest import TableParts
from cogtable.selftest_terms import Answer, Question, TableButton
from hardware.profile import Pin

PRESS_S = 0.2
"""Simulated seconds a person's press and release take (longer than any debounce)."""
ANSWER_S = 2.0
"""Real seconds to wait for a press to come through the simulated Pico."""


@dataclass(frozen=True)
class Slips:
    """What is wrong at this simulated table."""

    chain_length: int | None = None
    """LEDs on the physical chain; the ones past it never light (None: as many as driven)."""
    misplaced: Mapping[int, int] = field(default_factory=dict)
    """LED index -> the place it really sits on the table (wired out of order); others as named."""
    presses_instead: Mapping[TableButton, TableButton] = field(default_factory=dict)
    """Asked for the key, the person presses the value."""
    dead: frozenset[TableButton] = frozenset()
    """Buttons whose press never reaches anything (a broken wire)."""
    dark_pins: frozenset[Pin] = frozenset()
    """GPIO seat LED pins whose LED never lights (a broken wire, a dead channel)."""


class SimulatedPerson:
    """Answers the self-test through the simulated Pico and the mock pins (see the module)."""

    def __init__(self, parts: TableParts, clock: SimClock, slips: Slips | None = None) -> None:
        if parts.simulator is None:
            raise ValueError("a simulated person needs the simulated Pico (serial port 'sim')")
        self.parts = parts
        self.simulator: Any = parts.simulator
        self.clock = clock
        self.slips = slips or Slips()
        self.asked = 0

    def ask(self, question: Question) -> Answer:
        """Look, press, and hand back what the table received."""
        self.asked += 1
        self.parts.inbox.clear()
        if question.die is not None:
            self.simulator.press_roll(question.die)
            return self.parts.inbox.next(ANSWER_S)
        if question.button is not None:
            return self._press(self.slips.presses_instead.get(question.button, question.button))
        if question.face:
            return self._press(self._pips_shown(question.face, question.pips))
        if question.pins:
            lit = self._seat_pins_lit()
            return self._press(self._quickest("confirm" if lit == set(question.pins) else "undo"))
        return self._press(self._yes_or_no(question.leds))

    def _yes_or_no(self, named: tuple[int, ...]) -> TableButton:
        """Confirm if exactly the named LEDs are lit, else undo (the quickest such button)."""
        return self._quickest("confirm" if self._lit() == set(named) else "undo")

    def _pips_shown(self, face: tuple[int, ...], pips: int) -> TableButton:
        """Confirm if the face shows ``pips`` lit LEDs and nothing else is lit, else undo."""
        lit = self._lit()
        return self._quickest("confirm" if lit <= set(face) and len(lit) == pips else "undo")

    def _seat_pins_lit(self) -> set[Pin]:
        """The GPIO seat LED pins that are on (and whose LED works)."""
        factory = self.parts.pin_factory or Device.pin_factory
        pins = {pin for seat in self.parts.profile.seats for pin in seat.led_pins}
        return {pin for pin in pins - self.slips.dark_pins if factory.pin(pin).state}

    def _lit(self) -> set[int]:
        """The places on the table where an LED shines (an LED's place is its index, unless
        it is misplaced)."""
        shown = self.simulator.leds()
        length = len(shown) if self.slips.chain_length is None else self.slips.chain_length
        lit = [index for index, colour in enumerate(shown[:length]) if any(colour)]
        return {self.slips.misplaced.get(index, index) for index in lit}

    def _quickest(self, kind: str) -> TableButton:
        """A seat's button of ``kind``: one on GPIO (no debounce wait) if there is one."""
        candidates = [b for b in self.parts.buttons if b.kind == kind and b.seat is not None]
        candidates.sort(key=lambda button: button.bus != "gpio" or self.parts.gpio is None)
        if not candidates:
            raise ValueError(f"this table has no seat {kind} button to answer with")
        return candidates[0]

    def _press(self, button: TableButton) -> Answer:
        """Press and release ``button``; what reached the inbox meanwhile."""
        if button in self.slips.dead:
            return self.parts.inbox.next(0.05)
        if button.bus == "pico":
            self.simulator.press(button.number)
            answer = self.parts.inbox.next(ANSWER_S)
            self.simulator.release(button.number)
            self.parts.inbox.released(
                int(button.number), ANSWER_S
            )  # a finger lifts before the next press
            return answer
        return self._press_pin(button)

    def _press_pin(self, button: TableButton) -> Answer:
        """Drive the mock pin to its pressed level (low when the buttons pull up), then back."""
        assert self.parts.gpio is not None
        pin = self.parts.gpio.button(button.seat, button.kind).pin
        gpio = self.parts.profile.gpio
        press, release = (pin.drive_low, pin.drive_high)
        if gpio is not None and not gpio.pull_up:
            press, release = release, press
        self.clock.advance(PRESS_S)
        press()
        answer = self.parts.inbox.next(ANSWER_S)
        self.clock.advance(PRESS_S)
        release()
        return answer
