"""sd_notify over a real Unix datagram socket, journald log lines, the status command."""

from __future__ import annotations

import io
import json
import logging
import os
import socket
import time
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.commands.status import format_status
from cogtable.service import logs
from cogtable.service.notify import Notifier


@pytest.fixture
def listener(tmp_path: Path):  # type: ignore[no-untyped-def]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify.sock"
    sock.bind(str(path))
    sock.settimeout(2)
    yield sock, str(path)
    sock.close()


def test_messages_reach_the_notify_socket(listener) -> None:  # type: ignore[no-untyped-def]
    sock, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"})
    assert notifier.enabled and notifier.ping_interval() == 2.0
    assert notifier.ready("kogworks game 1")
    assert sock.recv(4096) == b"READY=1\nSTATUS=kogworks game 1"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"


def test_abstract_socket_names_are_understood() -> None:
    name = f"@cogtable-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name[1:].encode())
    sock.settimeout(2)
    try:
        assert Notifier({"NOTIFY_SOCKET": name}).stopping()
        assert sock.recv(100) == b"STOPPING=1"
    finally:
        sock.close()


def test_without_systemd_nothing_is_sent_and_nothing_fails() -> None:
    notifier = Notifier({})
    assert not notifier.enabled
    assert notifier.ready() is False and notifier.ping_interval() is None


def test_a_watchdog_meant_for_another_process_is_ignored() -> None:
    notifier = Notifier({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid() + 1)})
    assert notifier.watchdog_seconds is None


@pytest.fixture
def root_logger():  # type: ignore[no-untyped-def]
    """Give back the root logger's handlers and level (pytest's own) after the test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield root
    root.handlers[:] = handlers
    root.setLevel(level)


def test_journald_lines_carry_priorities_and_no_time(root_logger) -> None:  # type: ignore[no-untyped-def]
    stream = io.StringIO()
    logs.configure(stream=stream, journald=True)
    logging.getLogger("cogtable.test").error("the camera is gone\nsecond line")
    logging.getLogger("cogtable.test").info("ready")
    lines = stream.getvalue().splitlines()
    assert lines == [
        "<3>cogtable.test: the camera is gone",
        "<3>second line",
        "<6>cogtable.test: ready",
    ]


def test_status_command_reads_what_the_service_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = {
        "game": "kogworks",
        "game_id": 3,
        "ply": 7,
        "turn": "Blue",
        "in_sync": True,
        "parts": {"camera": "ok", "link": "reconnecting", "gpio": "ok"},
        "last_error": "",
        "updated": time.time(),
    }
    (tmp_path / "status.json").write_text(json.dumps(status))
    assert main(["status", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "kogworks #3, ply 7" in out and "Blue" in out and "reconnecting" in out


def test_status_without_a_service_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["status", "--state-dir", str(tmp_path)]) == 2
    assert "is the service running?" in capsys.readouterr().err


def test_a_stale_status_says_so() -> None:
    lines = format_status({"updated": 0.0, "parts": {}}, now=1000.0)
    assert "stale" in lines[-1]


@pytest.mark.parametrize("text", ['{"updated": "x"}', '{"parts": [1]}', "[]", "{not json"])
def test_a_malformed_status_file_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    (tmp_path / "status.json").write_text(text)
    assert main(["status", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "status" in err
