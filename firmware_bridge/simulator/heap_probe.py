"""How much of a small MicroPython heap the firmware leaves free, from boot to a full queue.

The firmware test (``test_the_firmware_runs_in_a_pico_sized_heap``) and
``benchmarks/bench_firmware_heap.py`` run the same probe under the real
MicroPython Unix port with ``-X heapsize=HEAP``: boot (compiling every source,
as a Pico does), 300 100-LED frames from the host, then button events until the
send queue is full (a host that stopped answering).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.simulator.interpreter import find_micropython, missing_message

BRIDGE = Path(__file__).resolve().parents[1]
"""The sources probed by default: ``wire.py``, ``channel.py`` and ``firmware/``."""
STUBS = BRIDGE / "simulator" / "stubs"
LED_FRAMES = 300
PROBE = """
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
for n in range(LED_FRAMES):
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
last = neopixel.STRIPS[0].shown[99]
print()
print("RESULT", booted, framed, full, len(firmware.channel.pending), firmware.channel.sent,
      firmware.errors, gc.mem_alloc() + gc.mem_free(), last[0], last[1], last[2])
"""


class HeapProbeFailed(RuntimeError):
    """The firmware did not run in that heap (or MicroPython is missing): the last line said."""


@dataclass(frozen=True)
class HeapProbe:
    """Bytes free (after a collection) at each step, and what the firmware held at the end."""

    booted: int
    framed: int
    """After the LED frames."""
    full: int
    """With the send queue full."""
    queued: int
    in_flight: int
    errors: int
    heap: int
    """The heap's whole size as MicroPython reports it (the ``-X heapsize`` in force)."""
    last_led: tuple[int, int, int]
    """The last LED of the last frame shown."""


def probe_heap(heap: str, bridge: Path = BRIDGE) -> HeapProbe:
    """Run the probe with ``-X heapsize=heap`` on the sources in ``bridge``."""
    interpreter = find_micropython()
    if interpreter is None:
        raise HeapProbeFailed(missing_message())
    script = PROBE.replace("STUBS", repr(str(STUBS))).replace("LED_FRAMES", str(LED_FRAMES))
    command = [*interpreter.command, "-X", f"heapsize={heap}", "-c", script]
    path = os.pathsep.join([str(bridge), str(bridge / "firmware")])
    environment = {**os.environ, "MICROPYPATH": path}
    done = subprocess.run(command, capture_output=True, timeout=120, check=False, env=environment)
    output = done.stdout.decode(errors="replace")  # the boot IDENTIFY frame comes first
    if done.returncode != 0 or "\nRESULT " not in output:
        said = (output + done.stderr.decode(errors="replace")).strip().splitlines()[-1:]
        raise HeapProbeFailed(said[0][:200] if said else f"exit status {done.returncode}")
    numbers = [int(word) for word in output.split("\nRESULT ")[1].split()[:10]]
    booted, framed, full, queued, in_flight, errors, total, red, green, blue = numbers
    return HeapProbe(booted, framed, full, queued, in_flight, errors, total, (red, green, blue))
