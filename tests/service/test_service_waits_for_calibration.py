"""A service with no calibration yet waits for one (status, LEDs, systemd) instead of failing.

A fresh install has no calibration: the service must not exit (and be
restarted by systemd every 3 s) but say that it waits, leave the camera to
``cogtable calibrate``, and start the table once the calibration is there.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cogtable.board_setup import board_geometry
from cogtable.commands.status import format_status
from cogtable.service.waiting import WAITING, WaitingLeds, waiting_frame
from hardware.leds import Frame
from hardware.profile import load_profile
from tests.service.conftest import camera_less_profile
from vision.peg_disk.calibration import Calibration

ROOT = Path(__file__).resolve().parents[2]
GIVE_UP_S = 90.0


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    """The mock table with no camera attached and a calibration file that is not there yet."""
    return camera_less_profile(tmp_path, tmp_path / "cal.json")


def status_of(state_dir: Path) -> dict[str, object]:
    try:
        return json.loads((state_dir / "status.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except (FileNotFoundError, ValueError):
        return {}


def wait_for(condition: object, what: str) -> None:
    deadline = time.monotonic() + GIVE_UP_S
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"no {what} within {GIVE_UP_S} s"
        time.sleep(0.1)


def test_the_service_waits_says_so_and_starts_the_table_once_calibrated(
    profile: Path, notify: tuple[socket.socket, str], tmp_path: Path
) -> None:
    sock, notify_path = notify
    state_dir = tmp_path / "state"
    env = {**os.environ, "NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": "2000000"}
    argv = [sys.executable, "-m", "cogtable", "service", "run", "--profile", str(profile)]
    process = subprocess.Popen(
        [*argv, "--state-dir", str(state_dir)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        ready = sock.recv(4096).decode()
        assert ready.startswith("READY=1") and f"STATUS={WAITING}" in ready, ready
        assert str(tmp_path / "cal.json") in ready, "the status names the missing file"
        waiting = status_of(state_dir)
        assert waiting["state"] == WAITING
        lines = format_status(waiting, float(waiting["updated"]))  # type: ignore[arg-type]
        assert lines[0].startswith(f"state:      {WAITING}")
        assert f"cogtable calibrate --profile {profile}" in "\n".join(lines)
        assert "WATCHDOG=1" in sock.recv(4096).decode(), "the watchdog is pinged while waiting"
        assert process.poll() is None, "waiting, not exited"
        Calibration.reference(board_geometry(load_profile(profile))).save(tmp_path / "cal.json")
        wait_for(lambda: status_of(state_dir).get("ply") == 0, "table after the calibration")
        assert status_of(state_dir)["game"] == "kogworks"
        process.send_signal(signal.SIGTERM)
        output = process.communicate(timeout=30)[0]
        assert process.returncode == 0, output[-2000:]
    finally:
        process.kill()


def test_waiting_looks_like_waiting_on_the_leds() -> None:
    frame = waiting_frame(Frame.for_profile(load_profile()))
    status = frame.look("status", 0)
    assert (status.animation.kind, status.colour[0] > 200, status.colour[2]) == ("blink", True, 0)
    seats = [frame.look("seats", seat) for seat in range(frame.size("seats"))]
    assert {(look.animation.kind, look.colour) for look in seats} == {("pulse", (255, 255, 255))}


def test_the_simulated_picos_status_led_blinks_while_waiting() -> None:
    profile = load_profile()
    leds = WaitingLeds(profile)
    status_led = next(s.leds[0] for s in profile.leds.segments if s.name == "status")
    try:
        leds.show()
        assert leds.link is not None and leds.simulator is not None
        leds.link.wait_connected(30.0)
        seen: set[tuple[int, int, int]] = set()
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and not any(c[0] > 100 for c in seen):
            seen.add(tuple(leds.simulator.leds()[status_led]))  # type: ignore[arg-type]
            time.sleep(0.05)
        assert any(colour[0] > 100 and colour[2] < 50 for colour in seen), seen
    finally:
        leds.close()
