"""wire.py and the firmware logic under the real MicroPython interpreter, against CPython.

The interpreter is MicroPython's WebAssembly port from npm, run by node:
install it once with ``npm ci --prefix tools/micropython``. Without it these
tests fail (they never skip): the firmware must be proven on MicroPython.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BRIDGE = ROOT / "firmware_bridge"
TOOLS = ROOT / "tools" / "micropython"
VECTORS = Path(__file__).resolve().parent / "firmware_vectors.py"
INSTALL = "npm ci --prefix tools/micropython"


def micropython(script: Path | str) -> subprocess.CompletedProcess[str]:
    """Run a script (path, or source text) under MicroPython with the firmware on its path."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed; MicroPython's WebAssembly port needs node 18 or newer")
    if not (TOOLS / "node_modules" / "@micropython").is_dir():
        pytest.fail(f"the MicroPython interpreter is not installed; run: {INSTALL}")
    command = [node, str(TOOLS / "run.mjs"), "--lib", str(BRIDGE / "wire.py")]
    command += ["--lib", str(BRIDGE / "firmware")]
    source = script if isinstance(script, str) else None
    command.append("-" if source is not None else str(script))
    return subprocess.run(
        command, input=source, capture_output=True, text=True, timeout=60, check=False
    )


def cpython(script: Path) -> subprocess.CompletedProcess[str]:
    """Run a script under this CPython with the same import path the Pico has."""
    path = os.pathsep.join([str(BRIDGE), str(BRIDGE / "firmware")])
    return subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": path},
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


def test_a_failing_script_fails_under_micropython() -> None:
    result = micropython("import wire\nwire.decode_frame(b'\\x05\\x01')\n")
    assert result.returncode == 1
    assert "FrameError" in result.stderr
