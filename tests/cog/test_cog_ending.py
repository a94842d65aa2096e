"""Conversions, deconstruction, Phase V, running out of letters, game end, scoring, secrecy."""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from typing import Any

import pytest

from games import cog
from games.cog.actions import (
    Deconstruct,
    Finish,
    LettersForStar,
    PlaceWord,
    ReturnLetter,
    ReturnStar,
    StarsForLetter,
)
from games.cog.state import CogState
from games.core import CHANCE, IllegalAction
from tests.cog.helpers import give, letter, set_mat, set_table
from tests.random_simulation import pick_random_action

RED, BLUE = 0, 1


def spell(state: CogState, word: str, row: int, col: int, down: bool) -> None:
    state.apply(PlaceWord(word, row, col, down, player=RED))


def test_two_stars_for_a_letter(construct: CogState) -> None:
    set_mat(construct, RED, stars=2)
    construct.apply(StarsForLetter(player=RED))
    assert construct.to_act() == (CHANCE,) and construct.mats[RED].stars == 0
    construct.apply(letter("Q"))
    assert construct.mats[RED].reserve == ["Q"]
    set_mat(construct, RED, stars=1)
    with pytest.raises(IllegalAction, match="2 star"):
        construct.apply(StarsForLetter(player=RED))


def test_two_letters_for_a_star(construct: CogState) -> None:
    give(construct, RED, "ABC")
    bag_b = construct.bag.get("B", 0)
    construct.apply(LettersForStar(("A", "B"), player=RED))
    assert construct.mats[RED].reserve == ["C"] and construct.mats[RED].stars == 1
    assert construct.bag["B"] == bag_b + 1
    with pytest.raises(IllegalAction, match="does not hold"):
        construct.apply(LettersForStar(("C", "Z"), player=RED))


def test_deconstruction_returns_letters_and_the_cube(construct: CogState) -> None:
    give(construct, RED, "CLAMPOG")
    spell(construct, "CLAMP", 3, 2, False)
    spell(construct, "COG", 3, 2, True)
    bag_o = construct.bag.get("O", 0)
    construct.apply(Deconstruct("COG", player=RED))
    grid = construct.mats[RED].grid
    assert grid.spelled() == {"CLAMP"} and grid.tiles[(3, 2)] == "C"  # the shared C stays
    assert construct.bag["O"] == bag_o + 1 and "COG" not in construct.mats[RED].cubes


def test_deconstruction_may_not_split_the_crossword(construct: CogState) -> None:
    give(construct, RED, "CLAMPOGGEAR")
    spell(construct, "CLAMP", 3, 2, False)
    spell(construct, "COG", 3, 2, True)
    spell(construct, "GEAR", 5, 2, False)
    with pytest.raises(IllegalAction, match="split"):
        construct.apply(Deconstruct("COG", player=RED))
    construct.apply(Deconstruct("GEAR", player=RED))


def test_deconstruction_refused_on_a_corner_or_a_completed_goal(construct: CogState) -> None:
    give(construct, RED, "AXLEPIP")
    spell(construct, "AXLE", 3, 4, False)  # its E on (3, 7)
    spell(construct, "PIPE", 0, 7, True)  # down from the corner (0, 7) to that E
    with pytest.raises(IllegalAction, match="corner"):
        construct.apply(Deconstruct("PIPE", player=RED))
    set_mat(construct, RED, goals_done=[1])  # AXLE's goal card is complete
    with pytest.raises(IllegalAction, match="completed goal card"):
        construct.apply(Deconstruct("AXLE", player=RED))
    assert Deconstruct("AXLE", player=RED) not in construct.legal_actions(RED)
    set_mat(construct, RED, goals_done=[])
    construct.apply(Deconstruct("AXLE", player=RED))
    assert construct.mats[RED].grid.spelled() == {"PIPE"}


def test_conclude_turn_order_letters_and_limits(construct: CogState) -> None:
    round_before, order = construct.round, list(construct.turn_cogs)
    give(construct, RED, "ABCDEFGHI")
    give(construct, BLUE, "XY")
    set_mat(construct, RED, stars=5)
    construct.apply(Finish(player=RED))
    construct.apply(Finish(player=BLUE))
    assert construct.phase == "conclude" and construct.order == order
    assert construct.round == round_before  # the round advances when the next one starts
    assert construct.to_act() == (CHANCE,)  # Blue has 3 or fewer letters: one from the bag
    construct.apply(letter("Z"))
    assert construct.mats[BLUE].reserve == ["X", "Y", "Z"]
    assert construct.to_act() == (RED,)  # Red returns letters of her choice down to 7
    returns = {a.letter for a in construct.legal_actions(RED) if isinstance(a, ReturnLetter)}
    assert returns == set("ABCDEFGHI")
    construct.apply(ReturnLetter("A", player=RED))
    construct.apply(ReturnLetter("I", player=RED))
    assert construct.mats[RED].reserve == list("BCDEFGH")
    construct.apply(ReturnStar(player=RED))
    construct.apply(ReturnStar(player=RED))
    assert construct.mats[RED].stars == 3 and construct.phase in ("prepare", "collect")
    assert construct.round == round_before + 1
    assert all(c is None for c in construct.turn_cogs) and construct.mats[RED].die is None


def test_out_of_letters_spares_turn_order_construct_then_two_vp_and_game_end(
    construct: CogState,
) -> None:
    set_table(construct, bag={})
    set_mat(construct, RED, stars=4)
    construct.apply(StarsForLetter(player=RED))
    assert construct.spares_added and construct.ran_out
    assert sum(p for _, p in construct.chance_outcomes()) == pytest.approx(1)
    assert len(construct.chance_outcomes()) == len(construct.ed.spares)
    construct.apply(letter("A"))
    first = construct.order[0]
    assert construct.to_act() == (first,)  # Construct now goes in turn order
    set_table(construct, bag={})
    vp = construct.mats[RED].vp
    if first != RED:
        construct.apply(Finish(player=first))
    construct.apply(StarsForLetter(player=RED))
    assert construct.mats[RED].vp == vp + 2  # the bag ran out again: 2 VP instead
    for player in list(construct.order):
        if player in construct.to_act():
            construct.apply(Finish(player=player))
    assert construct.is_over()  # the game ends with the round


@functools.cache
def _finished(players: int) -> CogState:
    state = cog.new_game({"players": players}, 5)
    rng = random.Random(5)
    while not state.is_over():
        state.apply(pick_random_action(state, rng))
    return state


def finished(players: int) -> CogState:
    """A random game played to its end (a copy: tests change it)."""
    return _finished(players).clone()


@pytest.mark.parametrize(("players", "rounds"), [(2, 7), (4, 6)])
def test_game_ends_after_six_or_seven_rounds(players: int, rounds: int) -> None:
    state = finished(players)
    assert state.round == rounds and state.outcome() is not None


def rescore(state: CogState, cogs: list[int], mats: list[dict[str, Any]]) -> None:
    """Score the end again with each player's mat changed as given and these final cogs."""
    position = state.position()
    changed = tuple(replace(mat, **change) for mat, change in zip(position.mats, mats, strict=True))
    state.set_position(replace(position, phase="over", turn_cogs=tuple(cogs), mats=changed))


def plain(vp: int, **changes: Any) -> dict[str, Any]:
    """A mat with ``vp``, no cubes, items or letters, changed by ``changes``."""
    return {"vp": vp, "cubes": {}, "items": (), "reserve": "", **changes}


def test_final_scoring_by_hand_three_players() -> None:
    state = finished(3)
    red = plain(10, cubes={"COG": "grid", "ROD": "item"}, reserve="ABCDE")
    # Red: incomplete cards (1+3) + (1+3) = 8, 5 letters: 2 VP
    blue = plain(10, items=(30, 31))  # most item cards: 3 + 3*2 = 9
    green = plain(10, items=(32,))  # second: 2 + 2*1 = 4
    rescore(state, [2, 0, 1], [red, blue, green])
    assert [e["total"] for e in state.final] == [20, 19, 14]
    assert state.final[0] == {"vp": 10, "goals": 8, "items": 0, "letters": 2, "total": 20}
    assert state.outcome().winners == (0,)


def test_item_majority_tie_goes_to_the_earlier_turn_order_and_two_players_change() -> None:
    state = finished(3)
    rescore(state, [1, 2, 0], [plain(0, items=(30,)), plain(0, items=(31,)), plain(0, items=(32,))])
    assert [e["items"] for e in state.final] == [1, 6, 4]
    two = finished(2)
    rescore(two, [1, 0], [plain(0, items=(30, 31, 32)), plain(0, items=(33,))])
    assert [e["items"] for e in two.final] == [12, 2]  # the fewer: just 2 per card


def test_overall_tie_goes_to_the_earlier_turn_order() -> None:
    state = finished(3)
    rescore(state, [2, 1, 0], [plain(12)] * 3)
    outcome = state.outcome()
    assert outcome.winners == (2,) and "tie" in outcome.reason


def test_vps_are_secret_during_play(construct: CogState) -> None:
    set_mat(construct, RED, vp=5)
    set_mat(construct, BLUE, vp=9)
    assert construct.view(RED)["mats"][RED]["vp"] == 5
    assert construct.view(RED)["mats"][BLUE]["vp"] is None
    assert construct.view(BLUE)["mats"][RED]["vp"] is None
    assert all(m["vp"] is None for m in construct.view(None)["mats"])
    assert "bag" not in construct.view(RED) and "deck" not in construct.view(RED)
    end = finished(2)
    assert all(m["vp"] is not None for m in end.view(None)["mats"])
