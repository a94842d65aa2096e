"""The host link against the simulated Pico over a real pseudo-terminal and pyserial.

Every simulator here runs the firmware on the real MicroPython Unix port
(``interpreter="micropython"``): without it they fail saying what to install.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from firmware_bridge.firmware_config import read_firmware_config
from firmware_bridge.link import (
    SEND_QUEUE_MESSAGES,
    ButtonEvent,
    DiceEvent,
    Link,
    Status,
    VersionMismatch,
)
from firmware_bridge.simulator import Faults, Simulator
from firmware_bridge.wire import SET_LEDS

MICROPYTHON = "micropython"  # never the CPython fallback in these tests
LEDS = read_firmware_config().led_count  # the chain the simulated firmware drives


@pytest.fixture
def sim() -> Iterator[Simulator]:
    with Simulator(interpreter=MICROPYTHON) as simulator:
        yield simulator


@pytest.fixture
def noisy_sim() -> Iterator[Simulator]:
    to_host = Faults(drop=0.01, corrupt=0.01, seed=1)
    to_firmware = Faults(drop=0.01, corrupt=0.01, seed=2)
    with Simulator(to_host=to_host, to_firmware=to_firmware, interpreter=MICROPYTHON) as simulator:
        yield simulator


def connect(sim: Simulator) -> Link:
    link = Link(sim.port).start()
    link.wait_connected(5)
    return link


def wait_until(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def take(link: Link, count: int, timeout: float = 30.0) -> list[ButtonEvent]:
    return [link.events.get(timeout=timeout) for _ in range(count)]  # type: ignore[misc]


def test_handshake_reports_the_firmware(sim: Simulator) -> None:
    with Link(sim.port) as link:
        info = link.wait_connected(5)
        assert link.status == Status.CONNECTED
    assert (info.protocol, info.version_text, info.leds, info.buttons, info.dice) == (
        1,
        "1.1.0",
        LEDS,
        20,
        1,
    )


def test_leds_set_fill_and_animate_reach_the_chain(sim: Simulator) -> None:
    with connect(sim) as link:
        link.fill(0, 100, (0, 0, 8))
        link.set_leds(10, [(1, 2, 3), (4, 5, 6)])
        link.animate(0, "blink", 50, 2, colour=(255, 0, 0), period_ms=60000)
        assert link.flush(5)
        assert wait_until(lambda: sim.leds()[10:12] == [(1, 2, 3), (4, 5, 6)])
        shown = sim.leds()
        assert shown[9] == (0, 0, 8) and shown[12] == (0, 0, 8)
        assert shown[50] == shown[51] == (255, 0, 0)  # the first half of a blink period
        with pytest.raises(ValueError, match=f"outside the {LEDS}-LED chain"):
            link.set_leds(LEDS - 1, [(1, 1, 1), (1, 1, 1)])


def test_a_pressed_button_arrives_once_debounced(sim: Simulator) -> None:
    with connect(sim) as link:
        sim.press(2)
        time.sleep(0.1)
        sim.release(2)
        events = take(link, 2, timeout=5)
        assert [(e.button, e.action) for e in events] == [(2, "pressed"), (2, "released")]
        assert events[1].pico_ms - events[0].pico_ms >= 50
        time.sleep(0.1)
        assert link.events.empty()


def test_every_seat_and_table_button_of_the_six_seat_table_reaches_the_host(
    sim: Simulator,
) -> None:
    with connect(sim) as link:
        for button in range(20):
            sim.press(button)
        time.sleep(0.1)
        for button in range(20):
            sim.release(button)
        events = take(link, 40, timeout=10)
    pressed = {e.button for e in events if e.action == "pressed"}
    released = {e.button for e in events if e.action == "released"}
    assert pressed == released == set(range(20))


def test_a_die_rolls_on_request_and_shows_its_pips(sim: Simulator) -> None:
    with connect(sim) as link:
        link.roll(0)
        event = link.events.get(timeout=5)
        assert isinstance(event, DiceEvent) and event.die == 0 and 1 <= event.value <= 6
        assert wait_until(lambda: sum(c != (0, 0, 0) for c in sim.leds()[101:108]) == event.value)


def rolls(sim: Simulator, count: int) -> list[int]:
    """The values of ``count`` rolls of die 0 asked for over the link."""
    values = []
    with connect(sim) as link:
        for _ in range(count):
            link.roll(0)
            event = link.events.get(timeout=5)
            assert isinstance(event, DiceEvent)
            values.append(event.value)
    return values


@pytest.mark.parametrize("interpreter", [MICROPYTHON, "cpython"])
def test_a_dice_seed_rolls_the_same_dice_on_either_interpreter_and_after_a_reset(
    interpreter: str,
) -> None:
    with Simulator(interpreter=interpreter, dice_seed=7) as sim:
        first = rolls(sim, 12)
        sim.reset()
        after_reset = rolls(sim, 12)
    with Simulator(interpreter=MICROPYTHON, dice_seed=7) as again:
        assert rolls(again, 12) == first
    with Simulator(interpreter=MICROPYTHON, dice_seed=8) as other:
        assert rolls(other, 12) != first
    assert after_reset != first  # each boot draws its own sequence
    assert set(first) | set(after_reset) <= set(range(1, 7)) and len(set(first)) > 2


def test_noise_10000_events_and_1000_led_frames_arrive_once_in_order(
    noisy_sim: Simulator,
) -> None:
    """1% of bytes corrupted and 1% dropped, both ways."""
    with connect(noisy_sim) as link:
        noisy_sim.emit_buttons(10_000)
        assert [event.pico_ms for event in take(link, 10_000)] == list(range(10_000))
        before = noisy_sim.state()["commands"]
        frames = [bytes((n & 255, n >> 8, 7)) * 4 for n in range(1000)]
        for rgb in frames:
            link.set_leds(1, rgb)
        assert link.flush(60)
        received = noisy_sim.commands(before)
        assert [(mtype, payload[2:]) for mtype, payload in received] == [
            (SET_LEDS, rgb) for rgb in frames
        ]
        counters = link.counters()
        assert counters["rejected_frames"] > 100 and counters["retransmissions"] > 10
        assert noisy_sim.to_host.counts["corrupted"] > 100
        assert link.events.empty()


def test_duplicated_bytes_and_frames_are_delivered_once(sim: Simulator) -> None:
    sim.to_host.duplicate = 0.01
    sim.to_firmware.duplicate = 0.01
    with connect(sim) as link:
        sim.emit_buttons(2000)
        assert [event.pico_ms for event in take(link, 2000)] == list(range(2000))
        time.sleep(0.1)
        assert link.events.empty()


def test_duplicate_frames_are_suppressed() -> None:
    """A line that repeats whole chunks: the receiver sees every frame twice."""
    with Simulator(interpreter=MICROPYTHON) as sim, connect(sim) as link:
        original = sim.to_host.apply
        sim.to_host.apply = lambda data: original(data) * 2  # type: ignore[method-assign]
        sim.emit_buttons(500)
        assert [event.pico_ms for event in take(link, 500)] == list(range(500))
        assert link.counters()["duplicates"] >= 400


def test_cable_pulled_for_two_seconds_mid_stream(sim: Simulator) -> None:
    with connect(sim) as link:
        link.fill(0, LEDS, (0, 30, 0))
        sim.emit_buttons(3000)
        first = take(link, 500)
        sim.unplug()
        link.fill(20, 10, (90, 0, 0))  # changed while the cable is out
        time.sleep(2.0)
        assert link.status == Status.RECONNECTING
        sim.plug()
        plugged = time.monotonic()
        assert link.wait_status({Status.CONNECTED}, 5) == Status.CONNECTED
        assert time.monotonic() - plugged < 1.0
        rest = take(link, 2500)
        assert [e.pico_ms for e in first + rest] == list(range(3000))
        assert wait_until(lambda: sim.leds() == link.leds())
        assert sim.leds()[20] == (90, 0, 0) and sim.leds()[30] == (0, 30, 0)
        assert link.counters()["reconnects"] >= 1 and link.counters()["firmware_resets"] == 0


def test_more_led_changes_than_the_queue_holds_while_the_cable_is_out(sim: Simulator) -> None:
    """Each change is remembered, not queued: the same Pico plugged back gets the last state."""
    with connect(sim) as link:
        sim.unplug()
        assert link.wait_status({Status.RECONNECTING}, 5) == Status.RECONNECTING
        for change in range(SEND_QUEUE_MESSAGES + 100):
            link.fill(change % LEDS, 1, (change % 256, 0, 9))
        assert link.counters()["backlog"] == 0
        sim.plug()
        assert link.wait_status({Status.CONNECTED}, 5) == Status.CONNECTED
        assert wait_until(lambda: sim.leds() == link.leds())
        assert link.counters()["firmware_resets"] == 0, "the same Pico, so a rewind"


def test_pico_reset_mid_stream_loses_nothing_acknowledged_and_resends_leds(
    sim: Simulator,
) -> None:
    with connect(sim) as link:
        link.fill(0, LEDS, (7, 7, 7))
        assert link.flush(5)
        sim.emit_buttons(2000)
        before = take(link, 300)
        old_boot = sim.state()["boot_id"]
        sim.reset()
        assert wait_until(lambda: link.counters()["firmware_resets"] == 1)
        assert sim.state()["boot_id"] != old_boot
        assert wait_until(lambda: sim.leds() == [(7, 7, 7)] * LEDS)
        # Whatever the old firmware had sent before the reset arrives once, in order:
        while not link.events.empty():
            before.append(link.events.get())
        assert [e.pico_ms for e in before] == list(range(len(before)))
        sim.emit_buttons(1000)  # the new firmware numbers its events from 0 again
        assert [e.pico_ms for e in take(link, 1000)] == list(range(1000))


def test_other_protocol_version_is_refused_with_how_to_update() -> None:
    with Simulator(protocol=99, interpreter=MICROPYTHON) as sim:
        link = Link(sim.port).start()
        with pytest.raises(VersionMismatch) as refused:
            link.wait_connected(5)
        link.close()
    message = str(refused.value)
    assert "protocol 99" in message and "protocol 1" in message
    assert f"cogtable firmware flash --port {sim.port}" in message


def test_firmware_shows_host_lost_after_three_silent_seconds(sim: Simulator) -> None:
    link = connect(sim)
    assert sim.state()["host_lost"] is False
    link.close()
    silent = time.monotonic()
    assert wait_until(lambda: sim.state()["host_lost"], timeout=5)
    assert 2.9 <= time.monotonic() - silent < 4.0
    # the profiles' status LED (61) breathes red; the two-seat table's old one (57) stays dark
    assert wait_until(lambda: sim.leds()[61][0] > 100, timeout=4)
    shown = sim.leds()
    assert shown[61][1:] == (0, 0) and shown[57] == (0, 0, 0)
    with connect(sim):
        assert wait_until(lambda: not sim.state()["host_lost"], timeout=2)
