"""The end of input at a terminal game is the person leaving: one line, exit 0, in every game.

Like the quit word, it is no error: the game says where it stopped (and where
the record of the game so far went) and nothing else, with exit status 0.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.tables import front_ends
from cogtable.tables.terminal import INPUT_ENDED, input_ended_line
from games.core import Record

HUMAN_FIRST = {
    "cog": ["--players", "2", "--seats", "human,random"],
    "commissars": ["--seats", "human,greedy", "--seed", "2"],
    "cookie": ["--seat", "1=human"],
    "kogworks": ["--red", "human"],
}
"""Arguments that seat a human first, so each game asks at once."""


def test_every_game_has_a_human_first_seating_here() -> None:
    assert set(HUMAN_FIRST) == set(front_ends())


@pytest.mark.parametrize("game", sorted(HUMAN_FIRST))
def test_end_of_input_is_one_line_and_exit_0_with_the_game_so_far_kept(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "so-far.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", game, *HUMAN_FIRST[game], "--record", str(record)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.endswith("\n" + input_ended_line(record) + "\n")
    assert captured.out.count(INPUT_ENDED.removesuffix(".")) == 1
    assert Record.loads(record.read_text(encoding="utf-8")).game == game


@pytest.mark.parametrize("game", sorted(HUMAN_FIRST))
def test_end_of_input_without_a_record_says_only_that(
    game: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", game, *HUMAN_FIRST[game]]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out.endswith("\n" + INPUT_ENDED + "\n")
