"""What the table must sense: each open request gets a stable key and a route."""

from __future__ import annotations

import random

import pytest

from cogtable.card_mat_setup import card_mat
from cogtable.sensing import open_requests, route
from cogtable.sensors import Sensors
from cogtable.tables import adapter_for
from games.cog.effects import DieRoll
from games.core import CHANCE, Action, Request, RequestOption, new_game
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import find_state, hidden_blitz, play_until, random_step

COG = adapter_for("cog")


def test_the_mock_profile_declares_dice_and_a_card_mat() -> None:
    profile = load_profile()
    assert Sensors.of(profile) == Sensors(dice=True, card_mat=card_mat(profile))


def test_a_cog_die_goes_to_the_dice_when_the_table_has_them_else_to_the_console() -> None:
    state = new_game("cog", {"players": 2}, seed=1)
    (with_dice,) = open_requests(state, 7, COG, Sensors(dice=True))
    assert with_dice.request.kind == "die"
    assert (with_dice.key, with_dice.route) == ("7/0/0/chance", "dice")
    (without,) = open_requests(state, 7, COG, Sensors())
    assert (without.key, without.route) == ("7/0/0/chance", "console")
    assert "roll the die" in with_dice.question(state)
    assert "console" in without.question(state)


def test_a_cog_letter_draw_is_read_by_the_camera_and_card_games_ask_the_console() -> None:
    state = new_game("cog", {"players": 2}, seed=1)
    state.apply(state.sample_chance())  # the goal die
    (draw,) = open_requests(state, 1, COG, Sensors(dice=True))
    assert (draw.request.kind, draw.route, draw.key) == ("draw", "camera", "1/1/0/chance")
    assert "on the board" in draw.question(state)
    found = play_until("commissars", {"players": 3}, 0, lambda s: s.to_act() not in ((CHANCE,), ()))
    assert found is not None
    asked = open_requests(found, 1, adapter_for("commissars"), Sensors(dice=True))
    assert asked and {ask.route for ask in asked} == {"console"}
    assert {ask.request.kind for ask in asked} == {"choice"}


def test_every_request_of_a_cog_game_goes_where_its_answer_is_seen() -> None:
    """Dice to the dice; letters and pieces to the camera; cards and activations to the console."""
    state, rng, kinds = new_game("cog", {"players": 2}, seed=4), random.Random(4), set()
    while not state.is_over():
        for ask in open_requests(state, 1, COG, Sensors(dice=True)):
            assert (ask.route == "dice") == (ask.request.kind == "die"), ask
            kinds.add((ask.request.kind, ask.route, state.phase))
        state.apply(random_step(state, rng))
    assert {("die", "dice", "prepare"), ("draw", "camera", "prepare")} <= kinds
    assert {("choice", "camera", "collect"), ("choice", "camera", "construct")} <= kinds
    assert ("draw", "console", "prepare") in kinds  # a cabinet card: the camera cannot see it
    assert ("choice", "console", "activate") in kinds


def test_camera_dice_read_the_die_slots_but_a_reroll_goes_to_the_pico() -> None:
    state = new_game("cog", {"players": 2}, seed=4)
    found = play_until(
        "cog",
        {"players": 2},
        4,
        lambda s: (
            s.to_act() == (CHANCE,)
            and s.chance_request().kind == "die"
            and isinstance(s.waiting(), DieRoll)
        ),
    )
    assert found is not None
    both = Sensors(dice=True, camera_dice=True)
    assert [ask.route for ask in open_requests(found, 1, COG, both)] == ["camera"]
    assert [ask.route for ask in open_requests(state, 1, COG, both)] == ["dice"]  # the goal die


def test_a_kogworks_move_is_read_by_the_camera() -> None:
    state = new_game("kogworks", {}, seed=0)
    for sensors in (Sensors(), Sensors(dice=True)):
        (move,) = open_requests(state, 3, adapter_for("kogworks"), sensors)
        assert (move.request.kind, move.request.player, move.route) == ("choice", 0, "camera")
        assert move.key == "3/0/0/0"
        assert "on the board" in move.question(state)


def test_route_by_kind_where_the_adapter_reads_by_kind() -> None:
    option = (RequestOption("1", Action(player=CHANCE)),)
    die, deal = Request("die", None, "a die", option), Request("deal", 0, "a hand", option)
    kogworks, state = adapter_for("kogworks"), new_game("kogworks", {}, seed=0)
    assert route(state, die, kogworks, Sensors(dice=True)) == "dice"
    assert route(state, die, kogworks, Sensors()) == "console"
    assert route(state, die, kogworks, Sensors(camera_dice=True)) == "console"  # no die slots
    assert route(state, deal, kogworks, Sensors(dice=True)) == "console"


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("cog", {"players": 2}),
        ("commissars", {"players": 2}),
        ("cookie", {"players": 4}),
        ("kogworks", {}),
    ],
)
def test_a_finished_game_asks_nothing(game: str, options: dict[str, object]) -> None:
    state = play_until(game, options, 2, lambda s: s.is_over())
    assert state is not None and state.is_over()
    assert open_requests(state, 1, adapter_for(game), Sensors(dice=True)) == []


@pytest.mark.parametrize(
    ("game", "options"),
    [("cog", {"players": 3}), ("commissars", {"players": 3}), ("cookie", {"players": 5})],
)
def test_keys_change_with_the_ply_and_name_the_game(game: str, options: dict[str, object]) -> None:
    state, rng = new_game(game, options, seed=6), random.Random(6)
    adapter, seen = adapter_for(game), set()
    for _ in range(150):
        if state.is_over():
            break
        asked = open_requests(state, 12, adapter, Sensors(dice=True))
        keys = [ask.key for ask in asked]
        assert len(set(keys)) == len(keys), "two open requests share a key"
        ply = len(state.history)
        for ask in asked:
            owner = "chance" if ask.request.kind != "choice" else str(ask.request.player)
            assert ask.key == f"12/{ply}/0/{owner}"
        assert not seen & set(keys), "a key was asked again at a later ply"
        seen |= set(keys)
        again = open_requests(state, 12, adapter, Sensors(dice=True))
        assert [ask.key for ask in again] == keys, "keys are stable while nothing changes"
        state.apply(random_step(state, rng))
    assert len(seen) >= 100


def test_commissars_asks_only_whom_the_game_waits_for() -> None:
    state = find_state("commissars", {"players": 4}, hidden_blitz)
    asked = open_requests(state, 1, adapter_for("commissars"), Sensors(dice=True))
    assert [ask.request.player for ask in asked] == list(state.view()["to_act"])
    for ask in asked:
        data = ask.to_json()
        assert data["options"] == [], "a hand's choices are only counted in the status"
        assert data["more_options"] == len(ask.request.options)


def test_public_answers_are_listed_and_long_lists_are_cut() -> None:
    state = new_game("cog", {"players": 2}, seed=1)
    (die,) = open_requests(state, 1, COG, Sensors(dice=True))
    assert die.to_json()["options"] == ["1", "2", "3", "4", "5", "6"]
    assert "more_options" not in die.to_json()
    state.apply(state.sample_chance())
    (draw,) = open_requests(state, 1, COG, Sensors(dice=True))
    assert draw.request.player is None
    assert draw.to_json()["options"] == draw.request.labels()[:40]
