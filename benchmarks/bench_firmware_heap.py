"""Firmware heap: how much of a small MicroPython heap the firmware leaves free, boot to full queue.

Run: .venv/bin/python benchmarks/bench_firmware_heap.py [--heap 160K --heap 128K ...] [--bridge DIR]
Prints, per heap size, under the real MicroPython Unix port (64-bit objects,
about twice a Pico's): whether the firmware ran, and the bytes free (after a
collection) after boot, after 300 100-LED frames from the host, and with the
send queue full of button events (a host that stopped answering), with the
send queue's slots, as the firmware test ``test_the_firmware_runs_in_a_pico_sized_heap``
runs it. ``--bridge DIR`` measures another copy of the sources (``DIR/wire.py``
and ``DIR/firmware/``), e.g. an older commit's, to compare.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge.simulator.heap_probe import BRIDGE, LED_FRAMES, HeapProbeFailed, probe_heap

HEAPS = ("160K", "128K", "112K", "96K", "80K", "64K")


def measure(heap: str, bridge: Path) -> str:
    """One line of figures for one heap size."""
    try:
        probe = probe_heap(heap, bridge)
    except HeapProbeFailed as error:
        return f"heap {heap:>5}: FAILED ({error})"
    return (
        f"heap {heap:>5}: ran; free after boot {probe.booted:>6} B, after {LED_FRAMES} LED "
        f"frames {probe.framed:>6} B, send queue full ({probe.queued} events, {probe.errors} "
        f"errors) {probe.full:>6} B"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heap", action="append", help="a heap size (repeatable), e.g. 128K")
    parser.add_argument("--bridge", type=Path, default=BRIDGE, help="wire.py and firmware/ here")
    args = parser.parse_args()
    print(f"sources: {args.bridge}")
    for heap in args.heap or HEAPS:
        print(measure(heap, args.bridge), flush=True)


if __name__ == "__main__":
    main()
