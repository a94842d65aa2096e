"""The hardware self-test: walk the table's parts one by one and say what was found.

``cogtable selftest`` runs :func:`run_selftest`: the Pico's firmware (its
version and whether it matches the profile), the LED chain (each segment lit,
then each LED alone; a person confirms with a seat button that what is lit is
what was named), the seat LEDs on the Pi's GPIO (each colour channel alone),
every button the profile names (pressed when asked), the dice (rolled, and the
pip face shows the value) and the camera (a frame through
:func:`cogtable.camera_check.check_frame`: its figures and its advice, where
the profile's game reads the Kogworks peg disk, the one board the check knows).
Each step ends as a :class:`SelfTestStep` (passed, failed or skipped, what
was found, what to fix) and :func:`results_table` prints them.

The person is injected (:class:`Person`): :class:`ButtonPerson` prints each
question and waits for a real press on the Pico or the Pi's GPIO;
:class:`cogtable.mock.people.selftest.SimulatedPerson` looks at the simulated
Pico's LEDs and presses its buttons and gpiozero's mock pins, so the mock table
runs the test unattended. Either way the answers come back through the same
path: firmware debouncing, the serial link, gpiozero callbacks.

A person answers an LED question with any seat's confirm button (yes, that is
what is lit) or undo button (no).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from gpiozero.pins import Factory

from cogtable.firmware_agreement import differences
from cogtable.selftest_camera import camera_step
from cogtable.selftest_terms import (
    Answer,
    Outcome,
    Person,
    PressInbox,
    Question,
    Roll,
    SelfTestStep,
    TableButton,
    table_buttons,
)
from firmware_bridge.firmware_config import FirmwareConfig
from firmware_bridge.link import FirmwareInfo, Link, LinkError
from hardware.buttons import TableButtons, button_pins, pin_factory_for
from hardware.leds import GpioSeatLeds
from hardware.profile import Profile, Seat

CONNECT_S = 5.0
"""How long the Pico gets to answer the handshake."""
DARK = (0, 0, 0)
LIT = (90, 90, 90)
"""What an LED under test shows: white, bright enough to see, easy on the eyes."""
GIVE_UP_AFTER = 2
"""Unanswered questions in a row after which a step stops asking (nobody is there)."""
T = TypeVar("T")


# -- the parts under test -----------------------------------------------------------------


@dataclass
class TableParts:
    """What the self-test talks to: the Pico link (and simulator), GPIO buttons, the inbox."""

    profile: Profile
    inbox: PressInbox
    link: Link | None = None
    info: FirmwareInfo | None = None
    """What the firmware said at the handshake; None if it never answered."""
    link_error: str = ""
    simulator: object | None = None
    """The simulated Pico (``firmware_bridge.simulator.Simulator``) when the port is ``sim``."""
    gpio: TableButtons | None = None
    gpio_error: str = ""
    seat_leds: GpioSeatLeds | None = None
    seat_leds_error: str = ""
    pin_factory: Factory | None = None
    """The pin factory both use (None: gpiozero's default, ``Device.pin_factory``)."""
    buttons: list[TableButton] = field(default_factory=list)


@contextmanager
def open_table_parts(
    profile: Profile,
    device: str,
    *,
    simulator: object | None = None,
    clock: Callable[[], float] = time.monotonic,
    connect_s: float = CONNECT_S,
) -> Iterator[TableParts]:
    """Connect to the Pico on ``device`` and take the GPIO buttons; closed on exit.

    A Pico that does not answer, or GPIO pins that cannot be had, are written
    into the parts (``link_error``, ``gpio_error``) for the steps to report:
    the test goes on with what it has.
    """
    with ExitStack() as stack:
        link = stack.enter_context(Link(device))
        parts = TableParts(profile, PressInbox(profile, link), link, simulator=simulator)
        parts.buttons = table_buttons(profile)
        try:
            parts.info = link.wait_connected(connect_s)
        except LinkError as error:
            parts.link_error = str(error)
        _take_gpio(parts, stack, clock)
        yield parts
        if parts.info is not None:
            _all_dark(parts)


def _take_gpio(parts: TableParts, stack: ExitStack, clock: Callable[[], float]) -> None:
    """The GPIO buttons and seat LEDs the profile names, on one pin factory (closed on exit)."""
    profile = parts.profile
    wanted = bool(button_pins(profile)) or any(seat.led_pins for seat in profile.seats)
    if not wanted:
        return
    try:
        parts.pin_factory = pin_factory_for(profile.gpio)
    except Exception as error:  # a pin factory that will not load (no lgpio, no such name)
        parts.gpio_error = parts.seat_leds_error = f"{type(error).__name__}: {error}"
        return
    if button_pins(profile):
        parts.gpio, parts.gpio_error = _gpio_part(
            lambda: TableButtons(
                profile, parts.inbox.from_gpio, clock=clock, pin_factory=parts.pin_factory
            )
        )
        if parts.gpio is not None:
            stack.callback(parts.gpio.close)
    if any(seat.led_pins for seat in profile.seats):
        parts.seat_leds, parts.seat_leds_error = _gpio_part(
            lambda: GpioSeatLeds.from_profile(profile, parts.pin_factory)
        )
        if parts.seat_leds is not None:
            stack.callback(parts.seat_leds.close)


def _gpio_part(make: Callable[[], T]) -> tuple[T | None, str]:
    try:
        return make(), ""
    except Exception as error:  # gpiozero raises many kinds (no pins, pins in use, ...)
        return None, f"{type(error).__name__}: {error}"


# -- the steps ----------------------------------------------------------------------------


def firmware_step(parts: TableParts, config: FirmwareConfig) -> SelfTestStep:
    """The Pico answers, and its firmware (version, LEDs, buttons, dice) matches the profile."""
    name = "Pico firmware"
    if parts.info is None:
        return SelfTestStep(
            name,
            Outcome.FAILED,
            f"no answer from the Pico: {parts.link_error}",
            "plug the Pico in and flash it: cogtable firmware flash",
        )
    info = parts.info
    found = (
        f"firmware {info.version_text} (protocol {info.protocol}): {info.leds} LEDs, "
        f"{info.buttons} buttons, {info.dice} {'die' if info.dice == 1 else 'dice'}"
    )
    problems = differences(parts.profile, config, info)
    if problems:
        return SelfTestStep(name, Outcome.FAILED, found, "; ".join(problems))
    return SelfTestStep(name, Outcome.PASSED, f"{found}; matches the profile")


def led_step(parts: TableParts, person: Person) -> SelfTestStep:
    """Each segment lit, then each LED alone; the person says whether it is the one named."""
    name = "LED chain"
    leds = parts.profile.leds
    if parts.info is None:
        return SelfTestStep(name, Outcome.SKIPPED, "no Pico to drive the chain", "")
    if leds.length > parts.info.leds:
        return SelfTestStep(
            name,
            Outcome.FAILED,
            f"the profile's chain has {leds.length} LEDs, the firmware drives {parts.info.leds}",
            f"set [leds] length to at most {parts.info.leds}, or LED_COUNT in the firmware's "
            "config.py to the chain's length and flash it",
        )
    checks = [_segment_question(segment.name, segment.leds) for segment in leds.segments]
    checks += [_led_question(parts.profile, index) for index in range(leds.length)]
    wrong, unanswered = _ask_all(parts, person, checks)
    _all_dark(parts)
    return _led_result(parts, wrong, unanswered, len(leds.segments))


def _segment_question(name: str, leds: tuple[int, ...]) -> Question:
    shown = f"{leds[0]}-{leds[-1]}" if len(leds) > 1 else str(leds[0])
    prompt = (
        f"Is the segment '{name}' lit ({len(leds)} LED{'s' if len(leds) > 1 else ''}: {shown}) "
        "and nothing else? confirm = yes, undo = no"
    )
    return Question(prompt, leds=leds, segment=name)


def _led_question(profile: Profile, index: int) -> Question:
    where = _place_of(profile, index)
    return Question(f"Is LED {index} ({where}) lit, alone? confirm = yes, undo = no", leds=(index,))


def _place_of(profile: Profile, index: int) -> str:
    """``pegs #13``: the segment an LED is in and its place there (1-based)."""
    for segment in profile.leds.segments:
        if index in segment.leds:
            return f"{segment.name} #{segment.leds.index(index) + 1}"
    return "in no segment"


def _ask_all(
    parts: TableParts, person: Person, checks: Sequence[Question]
) -> tuple[list[Question], list[Question]]:
    """Light and ask each in turn; the ones answered no, and the ones not answered."""
    wrong: list[Question] = []
    unanswered: list[Question] = []
    in_a_row = 0
    for question in checks:
        _light(parts, question.leds)
        answer = person.ask(question)
        kind = answer.kind if isinstance(answer, TableButton) else None
        if kind == "confirm":
            in_a_row = 0
            continue
        in_a_row = 0 if kind == "undo" else in_a_row + 1
        (wrong if kind == "undo" else unanswered).append(question)
        if in_a_row >= GIVE_UP_AFTER:
            break
    return wrong, unanswered


def _light(parts: TableParts, lit: tuple[int, ...]) -> None:
    """Everything dark but ``lit``; back once the Pico has it (what the person sees is it)."""
    assert parts.link is not None and parts.info is not None
    shown = set(lit)
    parts.link.set_leds(0, [LIT if i in shown else DARK for i in range(parts.info.leds)])
    parts.link.flush(1.0)


def _all_dark(parts: TableParts) -> None:
    assert parts.link is not None and parts.info is not None
    parts.link.set_leds(0, [DARK] * parts.info.leds)
    parts.link.flush(1.0)


def _led_result(
    parts: TableParts, wrong: list[Question], unanswered: list[Question], segments: int
) -> SelfTestStep:
    """Passed, or the LEDs that were not what was named, with what that points to."""
    name, length = "LED chain", parts.profile.leds.length
    found = f"{segments} segments and {length} LEDs lit one by one"
    driven = parts.info.leds if parts.info is not None else length
    if driven != length:
        found += (
            f" (the firmware drives {driven}: LEDs {length}-{driven - 1} are not the profile's)"
        )
    if len(unanswered) >= GIVE_UP_AFTER:
        return SelfTestStep(
            name,
            Outcome.FAILED,
            f"stopped, nobody answered: {unanswered[-1].prompt.split('?')[0]}?",
            "answer each question with a seat's confirm (yes) or undo (no) button",
        )
    single = sorted(q.leds[0] for q in wrong + unanswered if not q.segment)
    groups = [q.segment for q in wrong + unanswered if q.segment]
    if not single and not groups:
        return SelfTestStep(name, Outcome.PASSED, f"{found}: every one as the profile says")
    return SelfTestStep(
        name, Outcome.FAILED, _led_failures(found, single, groups), _led_fix(parts, single)
    )


def _led_failures(found: str, single: list[int], segments: list[str]) -> str:
    said = [f"LEDs {ranges(single)} were not the one named" if single else ""]
    said += [f"segment {name!r} was not as named" for name in segments]
    return f"{found}: " + "; ".join(part for part in said if part)


def _led_fix(parts: TableParts, single: list[int]) -> str:
    """A tail of dark LEDs is a short chain; anything else is order or wiring."""
    length = parts.profile.leds.length
    if single and single == list(range(single[0], length)):
        return (
            f"the chain seems to end after LED {single[0] - 1} ({single[0]} LEDs, the profile "
            f"says {length}): check the wiring after LED {single[0] - 1}, or set [leds] length "
            "and the segments to the real chain"
        )
    return (
        "check those LEDs' wiring and the [leds.segments] indices in the profile (an LED lit "
        "elsewhere means the segment lists the wrong index)"
    )


def seat_led_step(parts: TableParts, person: Person) -> SelfTestStep:
    """Each seat LED on the Pi's GPIO, one colour channel at a time: is that one lit, alone?"""
    name = "seat LEDs (GPIO)"
    seats = [(number, seat) for number, seat in enumerate(parts.profile.seats) if seat.led_pins]
    if not seats:
        return SelfTestStep(name, Outcome.SKIPPED, "no seat LED on the Pi's GPIO")
    if parts.seat_leds is None:
        return SelfTestStep(
            name, Outcome.FAILED, f"cannot drive them: {parts.seat_leds_error}", _gpio_fix()
        )
    wrong = []
    for number, seat in seats:
        for channel, pin in enumerate(seat.led_pins):
            if not _seat_channel_lit(parts, person, number, channel):
                wrong.append(f"{seat.name}'s {_channel_name(seat, channel)} (GPIO {pin})")
    found = f"{sum(len(seat.led_pins) for _, seat in seats)} channels of {len(seats)} seat LEDs"
    if wrong:
        fix = "check those pins' wiring and the seats' led_pins (red, green, blue) in the profile"
        return SelfTestStep(name, Outcome.FAILED, f"{found}: not as named: {', '.join(wrong)}", fix)
    return SelfTestStep(name, Outcome.PASSED, f"{found} lit one by one as the profile says")


def _channel_name(seat: Seat, channel: int) -> str:
    return ("red", "green", "blue")[channel] if len(seat.led_pins) == 3 else "LED"


def _seat_channel_lit(parts: TableParts, person: Person, number: int, channel: int) -> bool:
    """Light one channel of seat ``number``'s LED alone, ask, put it out; True if confirmed."""
    assert parts.seat_leds is not None
    seat = parts.profile.seats[number]
    device = parts.seat_leds.devices[number]
    if len(seat.led_pins) == 3:
        device.color = tuple(1.0 if c == channel else 0.0 for c in range(3))
    else:
        device.on()
    colour = _channel_name(seat, channel)
    prompt = (
        f"Is {seat.name}'s seat LED lit {'' if colour == 'LED' else colour + ' '}"
        f"(GPIO {seat.led_pins[channel]}), and no other seat LED? confirm = yes, undo = no"
    )
    answer = person.ask(Question(prompt, pins=(seat.led_pins[channel],)))
    device.off()
    return isinstance(answer, TableButton) and answer.kind == "confirm"


def _gpio_fix() -> str:
    return (
        "check the pin factory (GPIOZERO_PIN_FACTORY, [gpio] pin_factory) and that no other "
        "program holds the pins"
    )


def button_step(parts: TableParts, person: Person) -> SelfTestStep:
    """Every button the profile names, pressed when asked; a missing or wrong press is named."""
    name = "buttons"
    profile = parts.profile
    if not parts.buttons:
        return SelfTestStep(name, Outcome.SKIPPED, "the profile names no buttons")
    usable = [b for b in parts.buttons if _reachable(parts, b)]
    problems = [
        f"{b.label(profile)}: {_unreachable(parts, b)}" for b in parts.buttons if b not in usable
    ]
    came = _press_each(parts, person, usable, problems)
    found = f"{came} of {len(parts.buttons)} buttons came as asked"
    if problems:
        return SelfTestStep(name, Outcome.FAILED, found + ": " + "; ".join(problems), _button_fix())
    return SelfTestStep(name, Outcome.PASSED, found)


def _press_each(
    parts: TableParts, person: Person, buttons: list[TableButton], problems: list[str]
) -> int:
    """Ask for each button in turn; how many came as asked (what did not goes to ``problems``)."""
    came = in_a_row = 0
    for number, button in enumerate(buttons):
        answer = person.ask(Question(f"Press {button.label(parts.profile)}.", button=button))
        if answer == button:
            came += 1
        else:
            problems.append(_wrong_press(parts.profile, button, answer))
        in_a_row = in_a_row + 1 if answer is None else 0
        if in_a_row >= GIVE_UP_AFTER and number + 1 < len(buttons):
            problems.append(f"stopped, nobody pressed: {len(buttons) - number - 1} not asked")
            break
    return came


def _reachable(parts: TableParts, button: TableButton) -> bool:
    return parts.info is not None if button.bus == "pico" else parts.gpio is not None


def _unreachable(parts: TableParts, button: TableButton) -> str:
    return "not tested, no Pico" if button.bus == "pico" else f"not tested, {parts.gpio_error}"


def _wrong_press(profile: Profile, asked: TableButton, answer: Answer) -> str:
    if answer is None:
        return f"{asked.label(profile)} never came"
    if isinstance(answer, Roll):
        return f"asked for {asked.label(profile)}, die {answer.die} rolled instead"
    return f"asked for {asked.label(profile)}, got {answer.label(profile)}"


def _button_fix() -> str:
    return (
        "a button that never came: check its wiring and its id/pin in the profile; a wrong "
        "one: the profile names the two the other way round (swap their *_button or *_pin)"
    )


def dice_step(parts: TableParts, person: Person, config: FirmwareConfig) -> SelfTestStep:
    """Each die the table rolls by itself: its roll button pressed, a value in range comes,
    and (a Pico die) its pip face shows that value."""
    name = "dice"
    dice = parts.profile.dice
    if not dice.pico and dice.roll_pin is None:
        how = "the camera reads them (see camera)" if dice.camera else "the console asks"
        return SelfTestStep(name, Outcome.SKIPPED, f"no electronic dice: {how}")
    if dice.pico and parts.info is None:
        return SelfTestStep(name, Outcome.SKIPPED, "no Pico to roll its dice")
    results = [_roll_die(parts, person, die, config) for die in dice.pico]
    if dice.roll_pin is not None:
        results.append(_roll_pin(parts, person))
    bad = [text for ok, text in results if not ok]
    found = "; ".join(text for _, text in results)
    if bad:
        return SelfTestStep(name, Outcome.FAILED, found, "check the roll button's wiring and id")
    return SelfTestStep(name, Outcome.PASSED, found)


def _roll_die(
    parts: TableParts, person: Person, die: int, config: FirmwareConfig
) -> tuple[bool, str]:
    faces = parts.profile.dice.faces
    answer = person.ask(Question(f"Press die {die}'s roll button on the Pico.", die=die))
    if isinstance(answer, Roll) and answer.die == die and 1 <= answer.value <= faces:
        return _pip_face_shows(parts, person, config, answer)
    if isinstance(answer, Roll):
        return False, f"die {die}: got die {answer.die} rolling {answer.value} (1-{faces} wanted)"
    what = "nothing" if answer is None else answer.label(parts.profile)
    return False, f"die {die}: no roll came ({what})"


def _pip_face_shows(
    parts: TableParts, person: Person, config: FirmwareConfig, roll: Roll
) -> tuple[bool, str]:
    """Ask whether the die's pip face shows the value rolled (the Pico lights it by itself)."""
    rolled = f"die {roll.die} rolled {roll.value}"
    found = config.die(roll.die)
    if found is None:
        return True, rolled
    face = tuple(found.pip_leds)
    prompt = (
        f"Does die {roll.die}'s face (LEDs {face[0]}-{face[-1]}) show {roll.value} "
        f"pip{'s' if roll.value > 1 else ''}? confirm = yes, undo = no"
    )
    answer = person.ask(Question(prompt, face=face, pips=roll.value))
    if isinstance(answer, TableButton) and answer.kind == "confirm":
        return True, f"{rolled}, its face showed it"
    said = "no" if isinstance(answer, TableButton) and answer.kind == "undo" else "no answer"
    return (
        False,
        f"{rolled}, but its face did not show it ({said}): check LEDs {face[0]}-{face[-1]}",
    )


def _roll_pin(parts: TableParts, person: Person) -> tuple[bool, str]:
    pin = parts.profile.dice.roll_pin
    if parts.gpio is None:
        return False, f"the GPIO roll button (GPIO {pin}): {parts.gpio_error}"
    button = TableButton(None, "roll", "gpio", pin)  # type: ignore[arg-type]
    answer = person.ask(Question(f"Press {button.label(parts.profile)}.", button=button))
    if answer == button:
        return True, f"the GPIO roll button (GPIO {pin}) came"
    return False, _wrong_press(parts.profile, button, answer)


# -- the whole test -----------------------------------------------------------------------


def run_selftest(
    parts: TableParts,
    person: Person,
    config: FirmwareConfig,
    *,
    camera: Callable[[Profile], SelfTestStep] = camera_step,
    progress: Callable[[SelfTestStep], object] = lambda step: None,
) -> list[SelfTestStep]:
    """Every step in turn (firmware first: the LEDs, buttons and dice need the Pico)."""
    steps: list[Callable[[], SelfTestStep]] = [
        lambda: firmware_step(parts, config),
        lambda: led_step(parts, person),
        lambda: seat_led_step(parts, person),
        lambda: button_step(parts, person),
        lambda: dice_step(parts, person, config),
        lambda: camera(parts.profile),
    ]
    results = []
    for step in steps:
        results.append(step())
        progress(results[-1])
    return results


def results_table(steps: Sequence[SelfTestStep]) -> str:
    """The results as a text table (part, result, found), then what to fix, numbered."""
    width = max(len(step.name) for step in steps)
    lines = [f"{'part'.ljust(width)}  result   found", f"{'-' * width}  -------  -----"]
    lines += [f"{s.name.ljust(width)}  {s.outcome.value.ljust(7)}  {s.found}" for s in steps]
    fixes = [step for step in steps if step.failed]
    if fixes:
        lines.append("what to fix:")
        lines += [f"  {n}. {s.name}: {s.fix}" for n, s in enumerate(fixes, start=1)]
    else:
        lines.append("nothing to fix")
    return "\n".join(lines)


def ranges(numbers: Sequence[int]) -> str:
    """Sorted numbers as runs: ``0-5, 7, 9-19``."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)
