"""Firmware bridge speed: frame encode+decode rate, and the link against the simulated Pico.

Run: .venv/bin/python benchmarks/bench_firmware_bridge.py [--interpreter micropython|cpython]
Prints: frames/s encoded+decoded (CPython), which interpreter runs the simulated
firmware (the MicroPython Unix port by default; ``cpython`` measures the
fallback), the round-trip time of a set-LEDs command to its ACK (median and
95th percentile), and LED frames per second for a 100-LED chain, each frame
acknowledged by the simulated firmware.
"""

from __future__ import annotations

import argparse
import statistics
import time

from firmware_bridge import wire
from firmware_bridge.link import Link
from firmware_bridge.simulator import Simulator

LEDS = 100


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interpreter", choices=("micropython", "cpython"), default="micropython")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
