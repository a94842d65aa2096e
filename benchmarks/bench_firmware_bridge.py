"""Firmware bridge speed: the frame codec, and the link against the simulated Pico, clean and noisy.

Run: .venv/bin/python benchmarks/bench_firmware_bridge.py [--interpreter micropython|cpython]
Prints: frames/s encoded+decoded (CPython); which interpreter runs the simulated
firmware (the MicroPython Unix port by default; ``cpython`` measures the
fallback); the round trip of a set-LEDs command to its ACK (median and 95th
percentile) and 100-LED frames per second, each acknowledged by the firmware;
then, on a clean line and on one that corrupts 1% and drops 1% of the bytes in
each direction, button events per second from the firmware to the host and
small LED commands per second from the host to the firmware, each checked to
arrive exactly once and in order, with the noisy/clean ratio and the goal of
1,000 per second on the noisy line. A 100-LED frame (312 bytes) almost never
crosses such a line whole (0.98 ** 312 = 0.2%), so the noisy LED figure is for
4-LED SET_LEDS commands (22 bytes), as the link's noise test sends.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass

from firmware_bridge import wire
from firmware_bridge.link import ButtonEvent, Link
from firmware_bridge.simulator import Faults, Simulator

LEDS = 100
NOISY_GOAL = 1000.0  # events (and LED commands) per second on the 1% + 1% line
SMALL_LEDS = 4


@dataclass(frozen=True)
class Line:
    """What the line does to bytes in each direction."""

    name: str
    corrupt: float
    drop: float

    def faults(self, seed: int) -> Faults:
        """Fresh faults for one direction."""
        return Faults(drop=self.drop, corrupt=self.corrupt, seed=seed)


@dataclass(frozen=True)
class Throughput:
    """Both directions' rates on one line and what recovery cost."""

    line: Line
    events_per_s: float
    led_commands_per_s: float
    host_resends: int
    pico_resends: int
    host_timeouts: int
    pico_timeouts: int
    round_trip_ms: int


CLEAN = Line("clean", 0.0, 0.0)
NOISY = Line("1% corrupt + 1% drop, both ways", 0.01, 0.01)


def codec_rate(frames: int = 20_000) -> float:
    """Frames per second through encode_frame and the Decoder (a 100-LED SET_LEDS)."""
    payload = wire.pack_set_leds(0, bytes(range(256)) + bytes(3 * LEDS - 256))
    decoder = wire.Decoder()
    start = time.perf_counter()
    for seq in range(frames):
        decoder.feed(wire.encode_frame(seq, wire.SET_LEDS, payload))
    return frames / (time.perf_counter() - start)


def round_trips(link: Link, count: int = 200) -> list[float]:
    """Seconds from sending one set-LEDs command to having its ACK, one at a time."""
    times = []
    for n in range(count):
        start = time.perf_counter()
        link.set_leds(0, bytes((n & 255, 0, 0)) * LEDS)
        link.flush(5)
        times.append(time.perf_counter() - start)
    return times


def led_frame_rate(link: Link, frames: int = 1000) -> float:
    """100-LED frames per second, streamed and all acknowledged."""
    start = time.perf_counter()
    for n in range(frames):
        link.set_leds(0, bytes((0, n & 255, 0)) * LEDS)
    link.flush(60)
    return frames / (time.perf_counter() - start)


def event_rate(sim: Simulator, link: Link, count: int) -> float:
    """Button events per second from the firmware; RuntimeError unless each came once, in order."""
    start = time.perf_counter()
    sim.emit_buttons(count)
    events = [link.events.get(timeout=60) for _ in range(count)]
    elapsed = time.perf_counter() - start
    stamps = [event.pico_ms for event in events if isinstance(event, ButtonEvent)]
    if stamps != list(range(count)):
        raise RuntimeError(f"events lost, doubled or reordered: {len(stamps)} of {count}")
    return count / elapsed


def led_command_rate(sim: Simulator, link: Link, count: int) -> float:
    """4-LED SET_LEDS commands per second; RuntimeError unless the firmware carried out
    each once, in order."""
    before = sim.state()["commands"]
    colours = [bytes((n & 255, n >> 8, 7)) * SMALL_LEDS for n in range(count)]
    start = time.perf_counter()
    for rgb in colours:
        link.set_leds(1, rgb)
    if not link.flush(120):
        raise RuntimeError("the firmware did not acknowledge every LED command in 120 s")
    elapsed = time.perf_counter() - start
    carried_out = [payload[2:] for mtype, payload in sim.commands(before) if mtype == wire.SET_LEDS]
    if carried_out != colours:
        raise RuntimeError(f"LED commands lost, doubled or reordered: {len(carried_out)}")
    return count / elapsed


def throughput(line: Line, interpreter: str, events: int, commands: int, seed: int) -> Throughput:
    """Both directions' rates on a fresh simulated Pico behind ``line``."""
    to_host, to_firmware = line.faults(seed), line.faults(seed + 1)
    with (
        Simulator(to_host=to_host, to_firmware=to_firmware, interpreter=interpreter) as sim,
        Link(sim.port) as link,
    ):
        link.wait_connected(5)
        events_per_s = event_rate(sim, link, events)
        commands_per_s = led_command_rate(sim, link, commands)
        host, pico = link.counters(), sim.state()
    return Throughput(
        line,
        events_per_s,
        commands_per_s,
        host_resends=host["retransmissions"],
        pico_resends=pico["retransmissions"],
        host_timeouts=host["timeouts"],
        pico_timeouts=pico["timeouts"],
        round_trip_ms=host["round_trip_ms"],
    )


def report(result: Throughput, events: int, commands: int) -> None:
    """One line per direction."""
    print(
        f"  {result.line.name}: {result.events_per_s:,.0f} events/s Pico->host "
        f"({events:,} once, in order; Pico resent {result.pico_resends}, "
        f"{result.pico_timeouts} timer expiries)"
    )
    print(
        f"  {result.line.name}: {result.led_commands_per_s:,.0f} LED commands/s host->Pico "
        f"({commands:,} once, in order; host resent {result.host_resends}, "
        f"{result.host_timeouts} timer expiries; round trip {result.round_trip_ms} ms)"
    )


def compare(clean: Throughput, noisy: Throughput) -> None:
    """The noisy/clean ratios and the goal."""
    for what, calm, rough in (
        ("events Pico->host", clean.events_per_s, noisy.events_per_s),
        ("LED commands host->Pico", clean.led_commands_per_s, noisy.led_commands_per_s),
    ):
        verdict = "meets" if rough >= NOISY_GOAL else "MISSES"
        print(
            f"  {what}: noisy/clean {rough / calm:.2f} ({rough:,.0f} / {calm:,.0f} per s); "
            f"{verdict} the goal of {NOISY_GOAL:,.0f}/s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interpreter", choices=("micropython", "cpython"), default="micropython")
    parser.add_argument("--events", type=int, default=10_000, help="button events per line")
    parser.add_argument("--commands", type=int, default=2_000, help="LED commands per line")
    parser.add_argument("--seed", type=int, default=1, help="seed of the line's faults")
    args = parser.parse_args()
    if args.events < 1 or args.commands < 1:
        parser.error("--events and --commands must be at least 1")
    print(f"encode+decode, {3 * LEDS + 2}-byte payload: {codec_rate():,.0f} frames/s")
    with Simulator(interpreter=args.interpreter) as sim, Link(sim.port) as link:
        link.wait_connected(5)
        print(f"simulated firmware on: {sim.implementation['version']}")
        times = sorted(round_trips(link))
        p95 = times[int(len(times) * 0.95)]
        print(
            f"set-LEDs -> ACK round trip over the pty: median {statistics.median(times) * 1e3:.2f}"
            f" ms, p95 {p95 * 1e3:.2f} ms ({len(times)} commands)"
        )
        print(f"{LEDS}-LED frames to the simulated firmware: {led_frame_rate(link):,.0f} frames/s")
    print(f"the link, clean and noisy ({SMALL_LEDS}-LED SET_LEDS commands):")
    results = [
        throughput(line, args.interpreter, args.events, args.commands, args.seed)
        for line in (CLEAN, NOISY)
    ]
    for result in results:
        report(result, args.events, args.commands)
    compare(*results)


if __name__ == "__main__":
    main()
