"""Blitz "at any time": interjecting with an empty stack, in any phase of any turn."""

from __future__ import annotations

import pytest

from games.commissars import Discard, EndPhase, Pass, Play
from games.core import IllegalAction
from tests.commissars.commissars_table import (
    give,
    pass_round,
    play,
    reveal,
    set_table,
    stack_cards,
    table,
)


def test_an_opponent_blitzes_in_the_discard_phase_and_the_phase_goes_on() -> None:
    state = table(players=3, phase="discard")
    give(state, 0, hand=["Propaganda"] * 3, deck=["Propaganda"] * 6)
    give(state, 2, hand=["Doublethink"], deck=["Seize the Gears", "Propaganda"])
    assert state.to_act() == (0, 2)
    assert state.legal_actions(2) == [Play("Doublethink", player=2)]  # no Pass: never obliged
    assert state.view(2)["may_blitz"] and not state.view(1)["may_blitz"]
    state.apply(Discard("Propaganda", player=0))
    play(state, "Doublethink", 2)
    assert state.view(None)["window"]["next"] == 0  # the window starts after its player
    pass_round(state, 3)
    reveal(state, "Seize the Gears", "Propaganda")
    assert state.seats[2].hand == {"Seize the Gears": 1, "Propaganda": 1}
    assert state.to_act() == (0,) and state.stack == []
    assert (state.phase, state.active, state.actions_left) == ("discard", 0, 1)
    state.apply(EndPhase(player=0))  # draws back up to seven, then Propaganda
    reveal(state, *["Propaganda"] * 5)
    assert state.phase == "propaganda" and state.seats[0].hand.total() == 7


def test_hire_assassin_as_a_blitz_in_an_opponents_discard_phase() -> None:
    state = table(phase="discard")
    give(state, 0, hand=["Propaganda"], citizens="C")
    give(state, 1, hand=["Hire Assassin"], citizens="P")
    assert state.to_act() == (0, 1)
    offered = {(a.target, a.kind, a.blitz) for a in state.legal_actions(1)}
    assert offered == {(0, "C", True)}  # not the Proletariat it sacrifices
    play(state, "Hire Assassin", 1, target=0, kind="C", blitz=True)
    assert state.seats[1].citizens["P"] == 0  # the sacrifice, paid at once
    pass_round(state)
    assert state.seats[0].citizens["C"] == 0 and state.gulag["C"] == 15
    assert state.seats[1].discard == ["Hire Assassin"]
    assert state.to_act() == (0,) and state.phase == "discard" and state.actions_left == 1


def test_hire_assassin_without_a_proletariat_to_sacrifice_cannot_interject() -> None:
    state = table(phase="discard")
    give(state, 0, hand=["Propaganda"], citizens="C")
    give(state, 1, hand=["Hire Assassin", "Assassinate"], citizens="B")
    assert state.to_act() == (0,) and state.legal_actions(1) == []


def test_the_active_player_blitzes_in_their_own_discard_phase() -> None:
    state = table(phase="discard")
    give(state, 0, hand=["Military Action", "Propaganda"])
    options = state.legal_actions(0)
    assert Play("Military Action", player=0) in options and options[-1] == EndPhase(player=0)
    play(state, "Military Action", 0)
    assert stack_cards(state) == ["Military Action"] and state.to_act() == (1,)
    pass_round(state)
    assert (state.phase, state.active, state.actions_left) == ("discard", 0, 2)
    assert state.to_act() == (0,) and state.seats[0].hand == {"Propaganda": 1}


@pytest.mark.parametrize(
    "hand",
    [["Stifle Free Speech"], ["Counter Propaganda"], ["Doublespeak"], ["Define the Truth"]],
)
@pytest.mark.parametrize("phase", ["discard", "propaganda", "action"])
def test_a_counter_with_an_empty_stack_is_offered_nothing(hand: list[str], phase: str) -> None:
    state = table(phase=phase)
    give(state, 0, hand=["Propaganda"])
    give(state, 1, hand=[*hand, "Seize the Gears", "Revolution"], citizens="P")
    assert state.to_act() == (0,)
    assert state.legal_actions(1) == [] and not state.view(1)["may_blitz"]


def test_an_interjecting_player_may_only_play_a_blitz() -> None:
    state = table(phase="propaganda")
    give(state, 0, hand=["Propaganda"])
    give(state, 1, hand=["Doublethink", "Propaganda"], citizens="P")
    assert state.to_act() == (0, 1)
    for action in (EndPhase(player=1), Discard("Propaganda", player=1), Pass(player=1)):
        with pytest.raises(IllegalAction, match="player 2 may only play a Blitz"):
            state.apply(action)
    with pytest.raises(IllegalAction):
        play(state, "Propaganda", 1, target=0)
    assert state.waiting_for() == "player 1 (propaganda phase)"  # the hand stays secret


def test_after_an_interjection_the_active_player_still_plays_propaganda() -> None:
    state = table(players=3, phase="propaganda")
    give(state, 0, hand=["Propaganda"], deck=["Propaganda"] * 2)
    give(state, 1, hand=["Military Action"], citizens="P")
    play(state, "Military Action", 1)
    pass_round(state, 3)
    assert state.actions_left == 1  # Military Action in another player's turn does nothing
    assert state.to_act() == (0,) and state.phase == "propaganda"
    play(state, "Propaganda", 0, target=1)
    pass_round(state, 3)
    assert state.seats[0].citizens["P"] == 1 and state.phase == "propaganda"


def test_every_player_with_a_playable_blitz_may_interject_in_turn_order() -> None:
    state = table(players=4, phase="action")
    set_table(state, active=2)
    for player in (0, 1, 3):
        give(state, player, hand=["Doublethink"])
    give(state, 1, hand=["Stifle Free Speech"])
    assert state.to_act() == (2, 3, 0, 1)
    seats = state.position().seats
    del seats[1].hand["Doublethink"]  # only the Stifle is left: no target
    set_table(state, seats=seats)
    assert state.to_act() == (2, 3, 0)


def test_nobody_may_blitz_once_the_revolution_has_won() -> None:
    state = table(phase="action")
    give(state, 0, hand=["Revolution"], citizens="CCCCCP")
    give(state, 1, hand=["Doublethink"])
    assert state.to_act() == (0, 1)
    play(state, "Revolution", 0)
    pass_round(state)
    assert state.winner == 0 and state.to_act() == ()
    assert state.may_blitz() == [] and not state.view(1)["may_blitz"]


def test_no_view_tells_who_holds_a_playable_blitz() -> None:
    """Whether an opponent could interject is a secret of their hand."""
    views = []
    for hand in (["Doublethink"], ["Propaganda"]):
        state = table(players=3)
        give(state, 0, hand=["Propaganda"])
        give(state, 2, hand=hand)
        views.append([state.view(p) for p in (None, 0, 1)])
    assert views[0] == views[1]
    assert views[0][0]["to_act"] == [0]
