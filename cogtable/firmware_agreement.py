"""Where the Pico's firmware and the table profile disagree, one sentence each.

``cogtable firmware check`` prints these; ``cogtable selftest`` counts them in
its firmware step. Both the firmware's own ``config.py`` and, when a Pico was
asked, what its running firmware reports are compared with the profile.
"""

from __future__ import annotations

from collections.abc import Iterator

from firmware_bridge.firmware_config import FirmwareConfig
from firmware_bridge.link import FirmwareInfo
from hardware.profile import Profile, pico_buttons


def differences(
    profile: Profile, config: FirmwareConfig, running: FirmwareInfo | None = None
) -> list[str]:
    """Every way the firmware and the profile disagree, one sentence each (none: they agree).

    ``config`` gives the button and die ids and the LEDs the firmware lights by
    itself (status, pips); ``running``, when a Pico was asked, what it really
    drives, which must be what ``config`` says (else it was flashed from another
    config.py).
    """
    found = list(_running_versus_config(config, running)) if running else []
    found += _leds(profile, config, running.leds if running else config.led_count)
    found += _buttons(profile, config)
    found += _dice(profile, config)
    return found


def _running_versus_config(config: FirmwareConfig, running: FirmwareInfo) -> Iterator[str]:
    """Where the Pico's firmware is not the one ``config`` describes."""
    hint = "flash it again (cogtable firmware flash) or pass its own config.py with --config"
    pairs = (
        ("version", running.version_text, config.version_text, "FIRMWARE_VERSION"),
        ("LED count", running.leds, config.led_count, "LED_COUNT"),
        ("button count", running.buttons, len(config.buttons), "BUTTONS"),
        ("dice count", running.dice, len(config.dice), "DICE"),
    )
    for what, reported, declared, name in pairs:
        if reported != declared:
            yield (
                f"the Pico reports {what} {reported} but {config.path.name} says {declared} "
                f"({name}): {hint}"
            )


def _leds(profile: Profile, config: FirmwareConfig, count: int) -> Iterator[str]:
    """The chain's length, the status LED and the pip faces against the profile's segments."""
    if profile.leds.length > count:
        yield (
            f"the profile's chain has {profile.leds.length} LEDs ([leds] length) but the "
            f"firmware drives {count} (LED_COUNT)"
        )
    owners = {led: s.name for s in profile.leds.segments for led in s.leds if s.name != "status"}
    status = next((s for s in profile.leds.segments if s.name == "status"), None)
    if status is not None and status.leds != (config.status_led,):
        shown = ", ".join(str(led) for led in status.leds)
        yield (
            f"the profile's status LED is {shown} ([leds.segments] status) but the firmware "
            f"breathes LED {config.status_led} when the host is lost (STATUS_LED)"
        )
    if config.status_led in owners:
        yield (
            f"the firmware's status LED {config.status_led} (STATUS_LED) is in the profile's "
            f"'{owners[config.status_led]}' segment"
        )
    for die in config.dice:
        yield from _pip_face(die.die, die.pip_leds, count, owners)


def _pip_face(die: int, pips: range, count: int, owners: dict[int, str]) -> Iterator[str]:
    """A die's pip face must be on the chain and on no LED of the profile's."""
    face = f"die {die}'s pip face (LEDs {pips.start}-{pips.stop - 1}, DICE)"
    if pips.stop > count:
        yield f"{face} runs past the firmware's {count} LEDs (LED_COUNT)"
    taken = sorted({owners[led] for led in pips if led in owners})
    if taken:
        yield f"{face} covers LEDs of the profile's {', '.join(repr(n) for n in taken)} segment"


def _buttons(profile: Profile, config: FirmwareConfig) -> Iterator[str]:
    """Every Pico button the profile names must be one of the firmware's."""
    known = _id_ranges(sorted(config.buttons))
    for button, (seat, kind) in sorted(pico_buttons(profile).items()):
        if button not in config.buttons:
            key = f"pico.{kind}_button" if seat is None else f"seats[{seat}].{kind}_button"
            whose = "" if seat is None else f" (seat {profile.seats[seat].name})"
            yield (
                f"{key} = {button}{whose}: the firmware has no button {button} (BUTTONS: {known})"
            )


def _dice(profile: Profile, config: FirmwareConfig) -> Iterator[str]:
    """Every Pico die the profile rolls must be one of the firmware's."""
    known = _id_ranges(sorted(die.die for die in config.dice))
    for die in profile.dice.pico:
        if config.die(die) is None:
            yield f"[dice] pico names die {die}: the firmware has no die {die} (DICE: {known})"


def _id_ranges(ids: list[int]) -> str:
    """Sorted ids as runs: ``0-5, 7, 9-19``; ``none`` if there are none."""
    runs: list[list[int]] = []
    for number in ids:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts = [f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs]
    return ", ".join(parts) or "none"
