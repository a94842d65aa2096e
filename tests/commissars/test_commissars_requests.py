"""What a Cogs and Commissars table must sense, as requests: cards off a deck, deals, passes."""

from __future__ import annotations

from collections import Counter

from games import commissars
from games.commissars import Pass, Play, TopCard
from games.commissars.state import CommissarsState
from games.commissars.tasks import Draw
from games.core import CHANCE, Request
from tests.commissars.commissars_table import give, pass_round, play, set_table, table


def only_request(state: CommissarsState) -> Request:
    requests = state.requests()
    assert len(requests) == 1
    return requests[0]


def top(name: str) -> TopCard:
    return TopCard(name, player=CHANCE)


def test_the_starting_hands_are_drawn_from_each_players_deck_by_card_name() -> None:
    state = commissars.new_game({"players": 3}, seed=2)
    request = only_request(state)
    assert (request.kind, request.player, request.purpose) == ("draw", 0, "player 1's deck, draw")
    deck = state.seats[0].deck
    assert request.labels() == sorted(deck)
    assert [o.probability for o in request.options] == [
        deck[n] / deck.total() for n in sorted(deck)
    ]
    assert request.option("counter propaganda") == top("Counter Propaganda")
    for _ in range(7):
        state.apply(state.sample_chance())
    second = only_request(state)
    assert (second.player, second.purpose) == (1, "player 2's deck, draw")


def test_the_produce_flips_come_off_the_active_players_deck() -> None:
    state = table(players=3)
    give(state, 1, hand=["Seize the Gears"], deck=["Propaganda", "Propaganda", "Doublethink"])
    set_table(state, active=1, phase="action")
    play(state, "Seize the Gears", 1)
    pass_round(state)
    request = only_request(state)
    assert (request.kind, request.player) == ("draw", 1)
    assert request.purpose == "player 2's deck, produce"
    assert request.labels() == ["Doublethink", "Propaganda"]
    assert [o.probability for o in request.options] == [1 / 3, 2 / 3]


def test_one_option_per_card_name_however_many_copies() -> None:
    state = table(players=2)
    set_table(state, tasks=(*state.tasks, Draw(0)))
    give(state, 0, deck=["Propaganda"] * 5 + ["Counter Propaganda"])
    request = only_request(state)
    assert request.labels() == ["Counter Propaganda", "Propaganda"]
    assert request.option("Propaganda #2") is None


def test_random_leaders_are_dealt_to_each_player() -> None:
    state = commissars.new_game({"players": 3, "leaders": True, "leader_deal": "random"}, seed=1)
    request = only_request(state)
    assert (request.kind, request.player, request.purpose) == ("deal", 0, "player 1's leader")
    leaders = sorted(leader.name for leader in state.cards.leaders.values())
    assert sorted(request.labels()) == leaders
    state.apply(request.option(leaders[0]))  # type: ignore[arg-type]
    following = only_request(state)
    assert (following.kind, following.player, following.purpose) == (
        "deal",
        1,
        "player 2's leader",
    )
    assert leaders[0] not in following.labels()


def test_random_and_draft_decks_are_dealt_from_the_pool() -> None:
    state = commissars.new_game({"players": 2, "decks": "random"}, seed=1)
    request = only_request(state)
    assert (request.kind, request.player, request.purpose) == (
        "deal",
        0,
        "player 1's deck, dealt from the pool",
    )
    assert request.labels() == sorted(state.pool)
    state = commissars.new_game({"players": 2, "decks": "draft"}, seed=1)
    purposes = Counter()
    while state.to_act() == (CHANCE,):
        request = only_request(state)
        purposes[(request.kind, request.player, request.purpose)] += 1
        state.apply(state.sample_chance())
    assert purposes[("deal", 1, "player 2's deck, dealt from the pool")] == 8
    assert purposes[("deal", 0, "player 1's draft packet")] == 10
    assert state.phase == "draft"
    for request in state.requests():
        assert request.kind == "choice" and request.default is None


def test_pass_is_the_default_of_whoever_may_respond() -> None:
    state = table(players=3)
    give(state, 0, hand=["Seize the Gears"], deck=["Propaganda"] * 4)
    give(state, 2, hand=["Doublethink"])
    turn = state.requests()  # the active player, and player 3 who could Blitz
    assert [(r.kind, r.player, r.default) for r in turn] == [
        ("choice", 0, None),
        ("choice", 2, None),
    ]
    play(state, "Seize the Gears", 0)
    response = only_request(state)
    assert (response.kind, response.player, response.purpose) == ("choice", 1, "player 2's choice")
    assert response.default == Pass(player=1)
    state.apply(Pass(player=1))
    third = only_request(state)
    assert third.default == Pass(player=2)
    assert third.option("pass") == Pass(player=2)
    assert Play("Doublethink", player=2) in [option.action for option in third.options]
