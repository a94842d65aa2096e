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
import os
import subprocess
from pathlib import Path

from firmware_bridge.simulator.interpreter import find_micropython, missing_message

ROOT = Path(__file__).resolve().parents[1]
BRIDGE = ROOT / "firmware_bridge"
STUBS = BRIDGE / "simulator" / "stubs"
HEAPS = ("160K", "128K", "112K", "96K", "80K", "64K")
SCRIPT = """
import sys
sys.path.insert(0, STUBS)
import gc, neopixel, wire, main

def free():
    gc.collect()
    return gc.mem_free()

class Port:
    def __init__(self):
        self.incoming = [wire.encode_frame(0, wire.HELLO, wire.pack_hello(1, 7))]
    def read(self, wait_ms=0):
        return self.incoming.pop(0) if self.incoming else b""
    def write(self, data):
        pass

firmware = main.build()
firmware.port = Port()
firmware.step(wait_ms=0)
booted = free()
for n in range(300):
    payload = wire.pack_set_leds(0, bytes((n & 255, 1, 2)) * 100)
    firmware.port.incoming.append(wire.encode_frame(n & 255, wire.SET_LEDS, payload))
    firmware.step(wait_ms=0)
framed = free()
while firmware.channel.room():
    firmware.emit_button(n % 20, 1, n)
    n += 1
for _ in range(3):
    firmware.step(wait_ms=0)
full = free()
print()
print("RESULT", booted, framed, full, len(firmware.channel.pending), firmware.errors)
"""


def measure(interpreter, heap: str, bridge: Path) -> str:
    """One line of figures for one heap size."""
    command = [
        *interpreter.command,
        "-X",
        f"heapsize={heap}",
        "-c",
        SCRIPT.replace("STUBS", repr(str(STUBS))),
    ]
    path = os.pathsep.join([str(bridge), str(bridge / "firmware")])
    done = subprocess.run(
        command,
        capture_output=True,
        timeout=120,
        check=False,
        env={**os.environ, "MICROPYPATH": path},
    )
    output = done.stdout.decode(errors="replace")
    if done.returncode != 0 or "\nRESULT " not in output:
        last = (output + done.stderr.decode(errors="replace")).strip().splitlines()[-1:]
        return f"heap {heap:>5}: FAILED ({last[0][:100] if last else done.returncode})"
    booted, framed, full, queued, errors = output.split("\nRESULT ")[1].split()[:5]
    return (
        f"heap {heap:>5}: ran; free after boot {int(booted):>6} B, after 300 LED frames "
        f"{int(framed):>6} B, send queue full ({queued} events, {errors} errors) {int(full):>6} B"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heap", action="append", help="a heap size (repeatable), e.g. 128K")
    parser.add_argument("--bridge", type=Path, default=BRIDGE, help="wire.py and firmware/ here")
    args = parser.parse_args()
    interpreter = find_micropython()
    if interpreter is None:
        raise SystemExit(missing_message())
    print(f"sources: {args.bridge}")
    for heap in args.heap or HEAPS:
        print(measure(interpreter, heap, args.bridge), flush=True)


if __name__ == "__main__":
    main()
