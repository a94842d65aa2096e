"""The terminal front end: built-in games finish, bad input re-prompts, EOF ends cleanly."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.tables.cookie import terminal as front_end
from cogtable.tables.terminal import INPUT_ENDED
from games.cookie.reference import REFERENCES
from games.core import Record, replay


def play(argv: list[str], typed: str = "") -> tuple[int, str]:
    """Run ``cogtable play cookie ARGV`` with ``typed`` as the keyboard."""
    parser = front_end.argparse.ArgumentParser()
    front_end.add_arguments(parser)
    args = parser.parse_args(argv)
    out = io.StringIO()
    status = front_end.run(args, stdin=io.StringIO(typed), out=out)
    return status, out.getvalue()


@pytest.mark.parametrize(
    ("variant", "players"), [("hunt", 4), ("hunt", 6), ("big-hunt", 2), ("big-hunt", 3)]
)
def test_a_game_of_built_in_players_finishes(variant: str, players: int, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    seats = ["--seat", "1=random", "--seat", f"{players}=reasoner"]
    argv = ["--variant", variant, "--players", str(players), "--seed", "4", *seats]
    status, out = play([*argv, "--record", str(record)])
    assert status == 0
    assert "Game over:" in out
    state = replay(Record.loads(record.read_text(encoding="utf-8")))
    assert state.is_over()
    assert f"P{state.outcome().winners[0] + 1}" in out.splitlines()[-1]  # type: ignore[union-attr]


def test_the_cli_runs_a_built_in_game_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "cookie", "--variant", "big-hunt", "--players", "4", "--seat", "1=random"]
    assert main(argv) == 0
    assert "Game over:" in capsys.readouterr().out


def test_secrets_stay_hidden_between_turns() -> None:
    status, out = play(["--seat", "1=random", "--seed", "2"])
    assert status == 0
    assert " plays " not in out, "a card laid face down must not be named before the reveal"
    assert "deal P" not in out, "dealt roles must not be printed"


def test_bad_input_reprompts_and_eof_ends_cleanly() -> None:
    status, out = play(["--variant", "big-hunt", "--players", "2"], typed="banana\n0\n42\n")
    assert status == 0
    assert out.count("Not understood") == 3
    assert out.count("your choice") == 4
    assert out.endswith("\n" + INPUT_ENDED + "\n") and "Game left unfinished." not in out


def test_a_typed_number_or_card_name_is_taken() -> None:
    typed = "Cookie\n" + "1\n" * 400
    status, out = play(["--variant", "big-hunt", "--players", "2"], typed=typed)
    assert status == 0
    assert "P1 claims Cookie" in out
    assert "Game over:" in out


def test_pass_and_play_hands_the_screen_over() -> None:
    typed = "\n1\n\n" * 2
    argv = ["--variant", "big-hunt", "--players", "2", "--seat", "2=human", "--seed", "1"]
    status, out = play(argv, typed=typed)
    assert status == 0
    first, second = out.index("Hand the screen to P1"), out.index("Hand the screen to P2")
    private = out.index("-- P1 only --")
    assert first < private < out.index(front_end.CLEAR) < second
    assert out.count("-- P2 only --") == 1


def test_quit_ends_the_game(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    status, out = play(["--record", str(record)], typed="quit\n")
    assert status == 0 and "Game left unfinished." in out
    assert json.loads(record.read_text(encoding="utf-8"))["game"] == "cookie"


@pytest.mark.parametrize(
    "argv",
    [
        ["--seat", "9=human"],
        ["--seat", "1=wizard"],
        ["--players", "7"],
        ["--variant", "big-hunt", "--players", "5"],
        ["--first-player", "0"],
    ],
)
def test_bad_arguments_get_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "cookie", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cogtable play: ") and err.count("\n") == 1


def test_render_shows_only_public_things() -> None:
    from games import cookie

    state = cookie.new_game({"players": 4}, 3)
    for _ in range(4):
        state.apply(state.sample_chance())
    text = front_end.render(state)
    assert "Every Man for Himself" in text
    assert "role" not in text.lower()


@pytest.mark.parametrize(
    ("players", "cycle"),
    [
        (4, "Cookie hunts Blue hunts Strontium hunts 37 hunts Cookie"),
        (6, "Cookie hunts Blue hunts Strontium hunts 37 hunts Persians hunts Cosine hunts Cookie"),
    ],
)
def test_the_reference_card_shows_who_hunts_whom(players: int, cycle: str) -> None:
    status, out = play(["--players", str(players), "--seat", "1=strong", "--seed", "3"])
    assert status == 0
    assert f"Reference card: {cycle} (each hunts the next)" in out.splitlines()[1]


def test_a_human_is_told_whom_they_hunt_and_who_hunts_them() -> None:
    status, out = play(["--seed", "3"], typed="quit\n")
    assert status == 0
    role = out.split("Your role: ")[1].split("\n")[0]
    prey, hunter = REFERENCES[4].prey[role], REFERENCES[4].hunter[role]
    assert f"You hunt {prey} (Sword: 3 coins); {hunter} hunts you (Shield: 2 coins)" in out


@pytest.mark.parametrize(("variant", "players"), [("hunt", 4), ("hunt", 5), ("big-hunt", 3)])
def test_each_scoring_line_explains_the_coins_and_adds_up(variant: str, players: int) -> None:
    argv = ["--variant", variant, "--players", str(players), "--seat", "1=strong"]
    explained = 0
    for seed in range(3):
        status, out = play([*argv, "--seed", str(seed)])
        assert status == 0
        for line in out.splitlines():
            if not line.startswith("  P") or ": " not in line:
                continue
            head, reasons = line.split(": ", 1)
            total = int(head.rsplit("+", 1)[1])
            parts = [int(word[1:]) for word in reasons.replace(";", " ").split() if word[0] == "+"]
            assert sum(parts) == total, line
            explained += 1
    assert explained >= 3 * players * 2  # every seat, every round of three games at least
