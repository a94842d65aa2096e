"""What a C.O.G. table must sense, as requests: dice, letters from the bag, cabinet cards."""

from __future__ import annotations

from games import cog
from games.cog.actions import Finish, TakeDie
from games.cog.effects import CardFor
from games.cog.state import CogState
from games.core import CHANCE, Request
from tests.cog.helpers import card, letter, roll, set_mat, set_table, start, to_phase

FACES = ["1", "2", "3", "4", "5", "6"]


def only_request(state: CogState) -> Request:
    requests = state.requests()
    assert len(requests) == 1
    return requests[0]


def setup_requests(state: CogState) -> list[Request]:
    """Every chance request of the setup and Phase I, feeding each the sampled outcome."""
    seen = []
    while state.to_act() == (CHANCE,):
        seen.append(only_request(state))
        state.apply(state.sample_chance())
    return seen


def test_the_first_request_is_the_goal_die_of_the_table() -> None:
    request = only_request(cog.new_game({"players": 3}, seed=1))
    assert (request.kind, request.player, request.purpose) == ("die", None, "goal card to remove")
    assert request.labels() == FACES
    assert [option.probability for option in request.options] == [1 / 6] * 6
    assert request.option(" 4 ") == roll(4)
    assert request.option("7") is None
    assert request.default is None


def test_letters_come_from_the_bag_labelled_by_tile_with_their_odds() -> None:
    state = start(players=4, seed=2, goal_roll=3)
    request = only_request(state)
    assert (request.kind, request.player, request.purpose) == ("draw", None, "centre square 1")
    bag = {tile: count for tile, count in state.bag.items() if count}
    assert request.labels() == list(bag)
    total = sum(bag.values())
    assert [option.probability for option in request.options] == [n / total for n in bag.values()]
    assert request.option("q") == letter("Q")


def test_the_setup_and_prepare_phase_name_every_slot_they_fill() -> None:
    purposes = [request.purpose for request in setup_requests(start(players=4, seed=5))]
    assert purposes[:6] == [
        "centre square 1",
        "centre square 2",
        "centre square 3",
        "centre square 4",
        "letter for Red",
        "letter for Blue",
    ]
    assert "letter for Yellow" in purposes  # the turn-order #4 bonus letter at setup
    for expected in (
        "top slot 1",
        "top slot 3",
        "top slot 4 (face down: wild)",
        "cabinet slot 1",
        "cabinet slot 4",
        "die slot 1 (black die)",
        "die slot 4 (yellow die)",
        "turn-order #4 bonus",
    ):
        assert expected in purposes, expected
    assert "top slot 3 (face down: wild)" not in purposes
    assert purposes.index("top slot 1") < purposes.index("cabinet slot 1")
    assert purposes.index("cabinet slot 4") < purposes.index("die slot 1 (black die)")


def test_dice_and_letters_and_cards_have_their_kinds() -> None:
    requests = setup_requests(start(players=3, seed=4))
    kinds = {request.purpose: (request.kind, request.player) for request in requests}
    assert kinds["top slot 2"] == ("draw", None)
    assert kinds["cabinet slot 2"] == ("draw", None)
    assert kinds["die slot 2 (red die)"] == ("die", None)  # 3 players: no black die
    dice = [request for request in requests if request.kind == "die"]
    assert [request.labels() for request in dice] == [FACES] * 3


def test_cabinet_cards_are_named_and_a_second_copy_is_numbered() -> None:
    state = start(players=4, seed=0)
    while only_request(state).purpose != "cabinet slot 1":
        state.apply(state.sample_chance())
    request = only_request(state)
    names = [state.card(card_id).name for card_id in state.deck]
    assert request.labels()[:3] == ["Black gauge", "Black hopper", "Black lamp"]
    assert request.labels().count("Lucky find") == 1
    assert request.option("Lucky find") == card(19)
    assert request.option("lucky find #2") == card(20)
    assert request.option("Supply crate #2") == card(23)
    assert len(request.labels()) == len(names) == len(state.deck)
    assert [option.probability for option in request.options] == [1 / len(state.deck)] * len(
        state.deck
    )
    state.apply(card(19))
    following = only_request(state)
    assert following.purpose == "cabinet slot 2"
    assert following.option("Lucky find") == card(20)
    assert following.option("Lucky find #2") is None


def test_two_players_roll_for_the_neutral_pawns() -> None:
    state = start(players=2, seed=1)
    purposes = [request.purpose for request in setup_requests(state)]
    assert purposes[-1] == "neutral pawns"
    assert "die slot 1 (red die)" in purposes  # 2 players: red and yellow dice only


def test_a_reroll_is_the_die_of_the_player_who_re_rolls() -> None:
    state = to_phase(start(players=2, seed=3), "collect")
    player = state.to_act()[0]
    set_mat(state, player, stars=1)
    state.apply(TakeDie(1, True, player=player))
    request = only_request(state)
    name = state.player_name(player)
    assert (request.kind, request.player) == ("die", player)
    assert request.purpose == f"re-roll for {name} (yellow die)"
    assert request.labels() == FACES


def test_a_drawn_card_for_a_player_names_them() -> None:
    state = start(players=2, seed=0)
    set_table(state, queue=(CardFor(1), *state.queue))  # as a cabinet icon or a swap queues it
    request = only_request(state)
    assert (request.kind, request.player, request.purpose) == (
        "draw",
        None,
        "cabinet card for Blue",
    )


def test_done_is_the_default_in_construct_but_not_in_collect() -> None:
    state = to_phase(start(players=2, seed=3), "collect")
    for request in state.requests():
        assert request.kind == "choice" and request.default is None
    state = to_phase(state, "construct")
    requests = state.requests()
    assert [request.player for request in requests] == list(state.to_act())
    for request in requests:
        assert request.default == Finish(player=request.player)
        assert request.option("done") == Finish(player=request.player)
        assert [option.action for option in request.options] == list(
            state.legal_actions(request.player)
        )
