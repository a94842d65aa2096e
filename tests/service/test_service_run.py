"""`cogtable service run` under a stand-in systemd: READY, watchdog, SIGTERM, resume."""

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

from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.service.notify import Notifier
from cogtable.service.runner import Service, StatusWriter
from games.kogworks import Place, peg_at
from tests.service.conftest import camera_less_profile

HERE = Path(__file__).resolve().parent
SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
ROOT = HERE.parents[1]


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    """The mock table with no camera attached (the service must run on regardless)."""
    return camera_less_profile(tmp_path)


def start(script: list[str], profile: Path, state_dir: Path, notify_path: str) -> subprocess.Popen:
    env = {**os.environ, "NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": "1000000"}
    argv = [sys.executable, *script, "service", "run"]
    argv += ["--profile", str(profile), "--state-dir", str(state_dir)]
    return subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def messages(sock: socket.socket, seconds: float) -> list[str]:
    """Every message that arrives within ``seconds``."""
    got, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            break
    return got


def wait_ready(sock: socket.socket, process: subprocess.Popen, state_dir: Path) -> str:
    """The READY message; it must come first, after the status and journal exist."""
    sock.settimeout(90)
    try:
        first = sock.recv(4096).decode()
    except TimeoutError:
        process.kill()
        pytest.fail(f"no READY=1 within 90 s: {process.communicate()[0][-2000:]}")
    assert first.startswith("READY=1"), first
    assert (state_dir / JOURNAL_NAME).is_file()
    assert (state_dir / "status.json").is_file()
    return first


def stop(process: subprocess.Popen) -> tuple[float, str]:
    """SIGTERM; the seconds until the process exited with status 0, and its output."""
    began = time.monotonic()
    process.send_signal(signal.SIGTERM)
    output = process.communicate(timeout=30)[0]
    took = time.monotonic() - began
    assert process.returncode == 0, output[-2000:]
    return took, output


def test_ready_then_watchdog_pings_that_stop_while_the_controller_hangs(
    profile: Path, notify: tuple[socket.socket, str], tmp_path: Path
) -> None:
    sock, path = notify
    state_dir = tmp_path / "state"
    process = start([str(HERE / "hanging_service.py")], profile, state_dir, path)
    try:
        assert "kogworks game 1" in wait_ready(sock, process, state_dir)
        assert messages(sock, 3.0).count("WATCHDOG=1") >= 3
        (state_dir / "hang").touch()
        messages(sock, 1.0)  # a beat already under way may still arrive
        assert "WATCHDOG=1" not in messages(sock, 3.0), "pings went on while hung"
        assert process.poll() is None, "the process must stay alive: only the loop hangs"
        (state_dir / "hang").unlink()
        assert "WATCHDOG=1" in messages(sock, 3.0)
        assert stop(process)[0] < 2.0
        assert "STOPPING=1" in messages(sock, 1.0)
    finally:
        process.kill()


def test_sigterm_mid_game_then_the_game_resumes(
    profile: Path, notify: tuple[socket.socket, str], tmp_path: Path
) -> None:
    sock, path = notify
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    moves = [Place(peg_at(8, 0), player=0), Place(peg_at(5, 2), player=1)]
    with Journal(state_dir / JOURNAL_NAME) as journal:
        game = journal.new_game("kogworks", seed=3)
        for move in moves:
            game.apply(move, "camera")
    for _ in range(2):
        process = start(["-m", "cogtable"], profile, state_dir, path)
        try:
            wait_ready(sock, process, state_dir)
            status = json.loads((state_dir / "status.json").read_text())
            assert (status["game_id"], status["ply"], status["turn"]) == (1, 2, "Red")
            assert stop(process)[0] < 2.0
        finally:
            process.kill()
        messages(sock, 0.5)
        with Journal(state_dir / JOURNAL_NAME) as journal:
            resumed = journal.resume()
            assert resumed is not None and resumed.id == 1
            assert list(resumed.state.history) == moves


BROKEN = {
    "a bad value": ("peg_pitch_mm = 25.0", "peg_pitch_mm = -3", "board.peg_pitch_mm = -3"),
    "a missing calibration file": (
        "resolution = [1280, 720]",
        'resolution = [1280, 720]\ncalibration = "/nonexistent/colours.json"',
        "cannot read calibration file",
    ),
}


@pytest.mark.parametrize("breakage", list(BROKEN))
def test_sighup_reloads_the_profile_and_a_broken_one_is_kept_out(
    profile: Path, notify: tuple[socket.socket, str], tmp_path: Path, breakage: str
) -> None:
    old, new, message = BROKEN[breakage]
    sock, path = notify
    state_dir = tmp_path / "state"
    process = start(["-m", "cogtable"], profile, state_dir, path)
    try:
        wait_ready(sock, process, state_dir)
        profile.write_text(profile.read_text(encoding="utf-8").replace(old, new))
        process.send_signal(signal.SIGHUP)
        after = messages(sock, 15.0)
        assert "RELOADING=1" in after
        assert any(item.startswith("READY=1") for item in after), after
        assert "STOPPING=1" not in after, "a reload is not a stop (systemd would kill us)"
        assert process.poll() is None
        took, output = stop(process)
        assert took < 2.0
    finally:
        process.kill()
    assert "profile not reloaded, keeping the running one" in output
    assert message in output


def test_a_sigterm_during_start_up_is_not_lost(
    profile: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cogtable import runtime as runtime_module

    started = runtime_module.Runtime.start

    def start_then_sigterm(self: runtime_module.Runtime) -> None:
        started(self)
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(runtime_module.Runtime, "start", start_then_sigterm)
    saved = {number: signal.getsignal(number) for number in SIGNALS}
    try:
        service = Service(profile, tmp_path / "state", Notifier({}))
        assert service.run() == 0
        assert service.stop_requested == "SIGTERM"
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def test_a_status_file_that_cannot_be_written_does_not_stop_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    writer = StatusWriter(tmp_path, lambda: {"game": "kogworks"})
    (tmp_path / "status.tmp").mkdir()
    writer(force=True)
    writer(force=True)
    assert caplog.text.count("cannot write the status file") == 1
    (tmp_path / "status.tmp").rmdir()
    writer(force=True)
    assert json.loads((tmp_path / "status.json").read_text())["game"] == "kogworks"
