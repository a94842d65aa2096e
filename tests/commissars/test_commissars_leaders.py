"""Faction Leaders dealt at random: a chance deal per seat, decks built after the deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtable.cli import main
from games import commissars
from games.commissars import TopCard
from games.commissars.tasks import Draw
from games.core import CHANCE, BadOptions, IllegalAction, replay
from tests.commissars.test_commissars_setup import all_cards, deal_out

LEADER_NAMES = sorted(leader.name for leader in commissars.card_set().leaders.values())
RANDOM_DEAL = {"leaders": True, "leader_deal": "random"}


def dealt(name: str) -> TopCard:
    return TopCard(name, player=CHANCE)


def test_each_leader_is_a_chance_outcome_with_uniform_odds_over_the_undealt() -> None:
    state = commissars.new_game({"players": 3, **RANDOM_DEAL}, seed=0)
    assert state.to_act() == (CHANCE,)
    assert "Faction Leader dealt to player 1" in state.waiting_for()
    assert state.chance_outcomes() == [(dealt(name), 1 / 6) for name in LEADER_NAMES]
    state.apply(dealt("Computin"))
    assert state.seats[0].leader == state.seats[0].faction == "computin"
    rest = [name for name in LEADER_NAMES if name != "Computin"]
    assert state.chance_outcomes() == [(dealt(name), 1 / 5) for name in rest]
    with pytest.raises(IllegalAction):
        state.apply(dealt("Computin"))  # already in front of player 1
    state.apply(dealt("Artificial Stalintelligence"))
    assert len(state.chance_outcomes()) == 4 and state.seats[1].leader == "stalintelligence"


@pytest.mark.parametrize("players", [2, 6])
def test_every_seat_gets_a_different_leader_and_the_matching_faction_deck(players: int) -> None:
    for seed in range(4):
        state = commissars.new_game({"players": players, **RANDOM_DEAL}, seed)
        deal_out(state)
        leaders = [seat.leader for seat in state.seats]
        assert len(set(leaders)) == players and "" not in leaders
        for seat in state.seats:
            assert seat.faction == seat.leader
            assert all_cards(seat) == commissars.card_set().faction_deck(seat.leader)


def test_the_deal_is_drawn_from_the_seed_and_varies() -> None:
    first = set()
    for seed in range(30):
        state = commissars.new_game({"players": 2, **RANDOM_DEAL}, seed)
        deal_out(state)
        first.add(state.seats[0].leader)
    assert len(first) >= 4  # not always the data file's order


def test_a_table_typed_deal_replays_exactly() -> None:
    state = commissars.new_game({"players": 4, "decks": "random", **RANDOM_DEAL}, seed=5)
    for name in ("Simulenin", "Gorobotchev", "Automarx", "Androidopov"):
        state.apply(dealt(name))
    assert [seat.leader for seat in state.seats] == [
        "simulenin",
        "gorobotchev",
        "automarx",
        "androidopov",
    ]
    deal_out(state)
    assert all(all_cards(seat).total() == 30 for seat in state.seats)
    assert replay(state.record()) == state


def test_chosen_leaders_stay_the_default() -> None:
    state = commissars.new_game({"players": 2, "leaders": True}, seed=0)
    assert [seat.leader for seat in state.seats] == list(commissars.card_set().factions[:2])
    assert state.history == [] and isinstance(state.tasks[0], Draw)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"leaders": True, "leader_deal": "dice"}, "leader_deal"),
        ({"leader_deal": "random"}, "needs 'leaders'"),
        ({**RANDOM_DEAL, "factions": "computin,automarx"}, "cannot be given"),
    ],
)
def test_bad_leader_deal_options_are_refused(options: dict[str, object], words: str) -> None:
    with pytest.raises(BadOptions, match=words):
        commissars.new_game(options, seed=0)


def test_the_terminal_deals_leaders_at_random(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    argv = ["play", "commissars", "--seats", "random,greedy", "--leaders", "random"]
    assert main([*argv, "--seed", "4", "--max-turns", "6", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert out.count(" is dealt ") == 2
    assert "player 1 is dealt" in out and "player 2 is dealt" in out
    assert '"leader_deal": "random"' in record.read_text(encoding="utf-8")
