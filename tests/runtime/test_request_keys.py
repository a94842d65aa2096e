"""Request keys: open while a request is open, never given twice, retired by an undo."""

from __future__ import annotations

import random
from pathlib import Path

from cogtable.game_choice import GameChoice
from cogtable.inputs import ButtonPressed, ConsoleCommand
from cogtable.sensors import Sensors
from cogtable.table import GameTable
from games.core import CHANCE
from tests.runtime.neutral_helpers import make_table

BIG_HUNT = GameChoice("cookie", {"variant": "big-hunt", "players": 3})


def play_until_several_are_asked(table: GameTable, rng: random.Random) -> None:
    """Type seeded answers until several players are asked at once."""
    for _ in range(200):
        asked = table.asking()
        if len(asked) >= 2:
            return
        ask = asked[0]
        label = rng.choice(ask.request.labels())
        table.handle(ConsoleCommand(label, seat=ask.request.player, answers=ask.key), 1.0)


def test_one_players_answer_leaves_the_others_keys_standing(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3", BIG_HUNT, Sensors())
    rng = random.Random(3)
    play_until_several_are_asked(table, rng)
    asked = table.asking()
    assert len(asked) >= 2, "The Big Hunt asks several players at once"
    first, second = asked[0], asked[1]
    choice = first.request.options[0].label
    table.handle(ConsoleCommand(choice, seat=first.request.player, answers=first.key), 2.0)
    still = {ask.request.player: ask.key for ask in table.asking()}
    assert still.get(second.request.player) == second.key
    ply = len(table.state.history)
    label = second.request.options[0].label
    table.handle(ConsoleCommand(label, seat=second.request.player, answers=second.key), 3.0)
    assert len(table.state.history) == ply + 1, table.status().message


def test_an_answer_to_a_question_taken_back_is_refused(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3", GameChoice("cog", {"players": 2}))
    first = table.asking()[0]
    table.handle(ConsoleCommand("4", answers=first.key), 1.0)
    table.handle(ButtonPressed("undo", seat=0, held=True), 2.0)
    assert table.state.history == []
    again = table.asking()[0]
    assert again.key != first.key, "the same question after an undo is a new question"
    table.handle(ConsoleCommand("4", answers=first.key), 3.0)
    assert table.state.history == [], "an answer typed before the undo must not count"
    assert "no longer asked" in table.status().message


def test_two_draws_for_the_same_place_get_two_keys(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3", GameChoice("cog", {"players": 2}))
    seen: list[str] = []
    rng = random.Random(1)
    while table.state.to_act() == (CHANCE,) and len(seen) < 40:
        ask = table.asking()[0]
        assert ask.key not in seen
        seen.append(ask.key)
        table.handle(ConsoleCommand(rng.choice(ask.request.labels()), answers=ask.key), 1.0)
        table.handle(ConsoleCommand(ask.request.labels()[0], answers=ask.key), 1.0)  # twice
    assert len(table.state.history) == len(seen), "a key answered twice is applied once"
