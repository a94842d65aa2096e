"""``cogtable answer``: answers left in the state folder reach the table once, garbage never."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.console_inbox import FOLDER, Inbox
from cogtable.inputs import ConsoleCommand
from cogtable.service.runner import STATUS_FILE


def test_an_answer_posted_is_taken_once_in_order(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    inbox.post(ConsoleCommand("A", None, "1/3/chance"))
    inbox.post(ConsoleCommand("pass", 2, None))
    assert inbox.take() == [ConsoleCommand("A", None, "1/3/chance"), ConsoleCommand("pass", 2)]
    assert inbox.take() == []


@pytest.mark.parametrize(
    "content", [b"\xff\xfe binary", b"[1, 2]", b'{"text": 4}', b'{"text": "a", "seat": "x"}']
)
def test_a_file_that_is_not_an_answer_is_dropped(tmp_path: Path, content: bytes) -> None:
    folder = tmp_path / FOLDER
    folder.mkdir()
    (folder / "0001.json").write_bytes(content)
    assert Inbox(tmp_path).take() == []
    assert list(folder.iterdir()) == []


def _status(state_dir: Path, waiting_for: list[dict[str, object]]) -> None:
    status = {"updated": time.time(), "game": "cog", "waiting_for": waiting_for, "asking": "x"}
    (state_dir / STATUS_FILE).write_text(json.dumps(status), encoding="utf-8")


def test_the_answer_names_the_one_open_request(tmp_path: Path) -> None:
    _status(tmp_path, [{"key": "1/4/chance", "player": None, "kind": "draw"}])
    assert main(["answer", "Q", "--state-dir", str(tmp_path)]) == 0
    assert Inbox(tmp_path).take() == [ConsoleCommand("Q", None, "1/4/chance")]


def test_with_several_players_asked_the_seat_picks_the_request(tmp_path: Path) -> None:
    asked = [{"key": f"1/9/{seat}", "player": seat, "kind": "choice"} for seat in (0, 1, 2)]
    _status(tmp_path, asked)
    assert main(["answer", "Sword", "--seat", "2", "--state-dir", str(tmp_path)]) == 0
    assert Inbox(tmp_path).take() == [ConsoleCommand("Sword", 1, "1/9/1")]


@pytest.mark.parametrize("argv", [["--seat", "0"], ["--seat", "7"]])
def test_a_bad_seat_is_one_line_and_nothing_is_left(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    _status(tmp_path, [])
    assert main(["answer", "x", *argv, "--state-dir", str(tmp_path)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not (tmp_path / FOLDER).exists()


def test_no_running_table_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["answer", "x", "--state-dir", str(tmp_path)]) == 2
    assert "is the service running" in capsys.readouterr().err
    assert not (tmp_path / FOLDER).exists()
