"""What the self-test asks and reports: its steps' results, its questions, who answers them.

Each step ends as a :class:`SelfTestStep` (passed, failed or skipped, what was
found, what to fix).

A :class:`Question` names what is lit or what to press; the answer is the
:class:`TableButton` pressed or the :class:`Roll` made (None: no answer in
time). :class:`ButtonPerson` asks on the terminal and waits for a real press
through :class:`PressInbox` (the Pico's events and gpiozero's callbacks, one
queue); the mock table's simulated person answers the same questions.
"""

from __future__ import annotations

import collections
import contextlib
import enum
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from firmware_bridge.link import ButtonEvent, DiceEvent, Link
from hardware.buttons import ButtonEvent as GpioEvent
from hardware.buttons import button_pins
from hardware.profile import Pin, Profile, pico_buttons


class Outcome(enum.Enum):
    """How a step ended."""

    PASSED = "passed"
    FAILED = "FAILED"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class SelfTestStep:
    """One part of the table checked: its name, the outcome, what was found, what to fix."""

    name: str
    outcome: Outcome
    found: str
    fix: str = ""

    @property
    def failed(self) -> bool:
        """True if this part needs fixing."""
        return self.outcome is Outcome.FAILED


@dataclass(frozen=True)
class TableButton:
    """A physical button: whose (seat index, None for the table), what for, and where it is.

    ``bus`` is ``pico`` (``number`` is the firmware's button id) or ``gpio``
    (``number`` is the Pi's pin).
    """

    seat: int | None
    kind: str
    bus: str
    number: Pin

    def label(self, profile: Profile) -> str:
        """Words a person finds it by: ``Red's confirm button (Pico button 0)``."""
        where = f"Pico button {self.number}" if self.bus == "pico" else f"GPIO {self.number}"
        if self.kind == "unknown":
            return f"{where}, which the profile does not name"
        owner = "the table's" if self.seat is None else f"{profile.seats[self.seat].name}'s"
        return f"{owner} {self.kind.replace('_', ' ')} button ({where})"


@dataclass(frozen=True)
class Roll:
    """An electronic die rolled ``value``."""

    die: int
    value: int


Answer = TableButton | Roll | None
"""What a person did when asked: pressed a button, rolled a die, or nothing in time."""


@dataclass(frozen=True)
class Question:
    """What the test asks a person, in words and as data (the simulated person reads the data).

    ``leds``: the LEDs lit now, alone (answer yes or no), ``segment`` the
    profile's segment when it is one lit whole; ``pins``: a GPIO seat LED's
    channel lit alone (yes or no); ``face`` and ``pips``: does a
    die's pip face (its LEDs) show that many pips, and nothing else is lit (yes
    or no); ``button``: the button to press; ``die``: the die to roll.
    """

    prompt: str
    leds: tuple[int, ...] = ()
    segment: str = ""
    face: tuple[int, ...] = ()
    pips: int = 0
    pins: tuple[Pin, ...] = ()
    """A seat LED on GPIO: the pins that should be on now, and no other seat LED's."""
    button: TableButton | None = None
    die: int | None = None


class Person(Protocol):
    """Someone at the table who answers the self-test's questions by pressing buttons."""

    def ask(self, question: Question) -> Answer:
        """Ask; what the person did (None: nothing within the time-out)."""
        ...


def table_buttons(profile: Profile) -> list[TableButton]:
    """Every button the profile names, Pico ones first, then GPIO (the roll pin is a die's)."""
    found = [
        TableButton(seat, kind, "pico", number)
        for number, (seat, kind) in sorted(pico_buttons(profile).items())
    ]
    found += [
        TableButton(seat, kind, "gpio", pin)
        for (seat, kind), pin in button_pins(profile).items()
        if kind != "roll"
    ]
    return found


class PressInbox:
    """Presses and rolls from the Pico link and from GPIO, as :data:`Answer` values, in order."""

    def __init__(self, profile: Profile, link: Link | None) -> None:
        self.link = link
        self._pico = pico_buttons(profile)
        self._gpio_pins = button_pins(profile)
        self._gpio: queue.SimpleQueue[TableButton] = queue.SimpleQueue()
        self._pending: collections.deque[Answer] = collections.deque()
        """Answers taken while waiting for a release, handed out next."""
        self._released: set[int] = set()
        """Pico buttons whose last event was a release."""

    def from_gpio(self, event: GpioEvent) -> None:
        """gpiozero's callback (any thread): keep a press, ignore holds."""
        if event.gesture == "pressed":
            pin = self._gpio_pins[(event.seat, event.kind)]
            self._gpio.put(TableButton(event.seat, event.kind, "gpio", pin))

    def clear(self) -> None:
        """Forget everything pressed, released or rolled so far (before a new question)."""
        self._pending.clear()
        queues: list[queue.Queue[object] | queue.SimpleQueue[TableButton]] = [self._gpio]
        if self.link is not None:
            queues.append(self.link.events)  # type: ignore[arg-type]
        for waiting in queues:
            with contextlib.suppress(queue.Empty):
                while True:
                    waiting.get_nowait()

    def next(self, timeout: float) -> Answer:
        """The next press or roll within ``timeout`` seconds, else None."""
        deadline = time.monotonic() + timeout
        while True:
            found = self._take(min(0.005, max(0.0, deadline - time.monotonic())))
            if found is not None or time.monotonic() >= deadline:
                return found

    def released(self, button: int, timeout: float) -> bool:
        """Wait until the Pico reports Pico button ``button`` released (debounced); False on
        time-out. A press or roll that comes meanwhile is kept for :meth:`next`."""
        deadline = time.monotonic() + timeout
        while button not in self._released and time.monotonic() < deadline:
            found = self._take(0.005)
            if found is not None:
                self._pending.append(found)
        return button in self._released

    def _take(self, wait: float) -> Answer:
        if self._pending:
            return self._pending.popleft()
        try:
            return self._gpio.get_nowait()
        except queue.Empty:
            pass
        if self.link is None:
            time.sleep(wait)
            return None
        try:
            event = self.link.events.get(timeout=wait) if wait else self.link.events.get_nowait()
        except queue.Empty:
            return None
        return self._answer(event)

    def _answer(self, event: object) -> Answer:
        if isinstance(event, DiceEvent):
            return Roll(event.die, event.value)
        if isinstance(event, ButtonEvent) and event.action == "released":
            self._released.add(event.button)
        if isinstance(event, ButtonEvent) and event.action == "pressed":
            self._released.discard(event.button)
            seat, kind = self._pico.get(event.button, (None, "unknown"))
            return TableButton(seat, kind, "pico", event.button)
        return None


class ButtonPerson:
    """A real person: each question is printed, the answer is their next press or roll."""

    def __init__(
        self, inbox: PressInbox, timeout_s: float, say: Callable[[str], object] = print
    ) -> None:
        self.inbox = inbox
        self.timeout_s = timeout_s
        self.say = say

    def ask(self, question: Question) -> Answer:
        """Print the question, wait for a press (older presses do not count)."""
        self.inbox.clear()
        self.say(question.prompt)
        return self.inbox.next(self.timeout_s)
