"""``cogtable play cog --table``: a person types the rolls and draws; cards in words; cubes."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.tables.cog.terminal import ask_chance, ask_choice, render
from cogtable.tables.terminal import INPUT_ENDED, input_ended_line
from games import cog
from games.cog.actions import CompleteItem, DrawCard, DrawLetter, RollDie
from games.cog.edition import load_edition
from games.cog.state import CogState
from games.core import CHANCE, Action, Record, replay
from tests.cog.helpers import give, set_mat, set_table, start

SEATS = ["--players", "2", "--seats", "random,greedy", "--seed", "5"]


def _typed(action: Action) -> str:
    """What a person at the table types for a chance action (letters in lower case)."""
    if isinstance(action, RollDie):
        return str(action.value)
    if isinstance(action, DrawLetter):
        return action.letter.lower()
    assert isinstance(action, DrawCard)
    names = Counter(card.name for card in load_edition().cabinet)
    card = load_edition().cabinet[action.card]
    return card.name.upper() if names[card.name] == 1 else f"#{card.id}"


def _play(stdin: str, args: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(["play", "cog", *args])


def test_typed_rolls_and_draws_are_exactly_what_the_record_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seeded, table = tmp_path / "seeded.json", tmp_path / "table.json"
    assert _play("", [*SEATS, "--quiet", "--record", str(seeded)], monkeypatch) == 0
    chance = [a for a in Record.loads(seeded.read_text()).actions if a.player == CHANCE]
    typed = "".join(f"{_typed(action)}\n" for action in chance)
    capsys.readouterr()
    assert _play(typed, [*SEATS, "--table", "--record", str(table)], monkeypatch) == 0
    out = capsys.readouterr().out
    record = Record.loads(table.read_text())
    assert [a for a in record.actions if a.player == CHANCE] == chance
    final = replay(record)
    assert final.is_over() and render(final) in out
    assert final == replay(Record.loads(seeded.read_text()))
    for question in (
        "Roll a die to remove the goal card of that number (1 to 6, or quit):",
        "Draw a letter from the bag for centre square 1 (letters left: A:10 B:3",
        "X:1 Y:2 Z:1; or quit):",
        "Draw a letter from the bag for top slot 2",
        "Draw a cabinet card for cabinet slot 1 (name or number, or quit;",
        "Roll the red die for die slot 1 (1 to 6, or quit):",
        "Roll a die for the neutral pawns",
    ):
        assert question in out
    assert "not a die face" not in out and "not a card" not in out


def test_wrong_outcomes_are_refused_asked_again_and_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    typed = "7\nxyz\n0\n3\nQ\nq\n%\n\ne\n"
    assert _play(typed, [*SEATS, "--table", "--record", str(path)], monkeypatch) == 0
    captured = capsys.readouterr()
    for refusal in ("'7' is not a die face", "'xyz' is not a die face", "'0' is not a die face"):
        assert refusal in captured.out
    assert "there is no Q left in the bag: type one of A B C D E F G H I J K L M N O P R" in (
        captured.out
    )
    assert "'%' is not a letter" in captured.out and "'' is not a letter" in captured.out
    assert captured.out.endswith(input_ended_line(path) + "\n") and captured.err == ""
    actions = Record.loads(path.read_text()).actions
    assert [a.notation() for a in actions] == ["roll 3", "draw Q", "draw E"]


def _at_card_draw() -> CogState:
    state = start(2, seed=1)
    while state.view()["queue"][0][0] != "card_slot":
        state.apply(state.sample_chance())
    return state


def test_a_card_is_taken_by_name_or_number_only_from_the_deck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _at_card_draw()
    before, out = state.snapshot(), io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO("black gauge\n#99\nmagic\n\nclamp\n"))
    chosen = ask_chance(state, out)
    assert chosen == DrawCard(30, player=CHANCE)  # Clamp
    text = out.getvalue()
    assert text.startswith("Draw a cabinet card for cabinet slot 1 (name or number, or quit; ")
    assert "'black gauge' is not a card in the deck" in text  # black cards leave 2-player games
    assert text.count("is not a card in the deck: type its number or name, one of #") == 4
    assert state.snapshot() == before
    monkeypatch.setattr("sys.stdin", io.StringIO("#21\n"))
    assert ask_chance(state, io.StringIO()) == DrawCard(21, player=CHANCE)


def test_end_of_input_for_a_human_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _play("1\n", ["--players", "2", "--seats", "human,random"], monkeypatch) == 0
    captured = capsys.readouterr()
    assert captured.out.endswith("\n" + INPUT_ENDED + "\n") and captured.err == ""


def test_cards_on_the_board_and_mats_are_in_words_with_cubes_left() -> None:
    state = cog.new_game({"players": 2}, 0)
    card_slots, card_cogs = (30, *state.card_slots[1:]), (1, *state.card_cogs[1:])
    set_table(state, card_slots=card_slots, card_cogs=card_cogs)
    set_mat(state, 0, cards=(24, 12), used=(12,), cubes={"COG": "grid"})
    text = render(state, 0)
    assert "cabinet slot 1: Clamp: item CLAMP (missing A M; bonus 5 VP)  [Blue's cog]" in text
    assert "card: Hex key: H, P and K are always wild\n" in text
    assert "card: Odd funnel: once a round with a die showing 1 or 3, a letter" in text
    assert "(used this round)" in text and "#30" not in text and "#24" not in text
    assert "cubes beside COG  cubes left 11" in text and "cubes left 12" in text


def test_numbered_choices_name_cards_in_words_and_take_notation(
    construct: CogState, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_mat(construct, 0, cards=(30,))
    give(construct, 0, "AM")
    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO("item #30 bonus\n"))
    chosen = ask_choice(construct, 0, out)
    assert chosen == CompleteItem(30, False, player=0)
    assert ". item #30 bonus  = Clamp: item CLAMP (missing A M; bonus 5 VP)" in out.getvalue()
