"""Built-in players: interjecting with a Blitz in another player's phase is a choice."""

from __future__ import annotations

import random

from games.commissars import EndPhase, Play
from games.commissars.players import greedy_player, wants_to_interject
from tests.commissars.commissars_table import give, table


def test_greedy_interjects_with_hire_assassin_on_a_leading_players_commissar() -> None:
    state = table(phase="action")
    give(state, 0, hand=["Propaganda"], citizens="CCCCB")
    give(state, 1, hand=["Hire Assassin", "Doublethink"], citizens="P")
    action = wants_to_interject(state, 1, random.Random(1), "strong")
    assert action == Play("Hire Assassin", 0, "C", blitz=True, player=1)


def test_greedy_lets_the_game_go_on_without_a_blitz_that_clearly_pays() -> None:
    state = table(phase="action")
    give(state, 0, hand=["Propaganda"], citizens="P")
    give(state, 1, hand=["Hire Assassin", "Military Action", "Doublethink"], citizens="P")
    assert state.to_act() == (0, 1)
    assert all(wants_to_interject(state, 1, random.Random(s), "strong") is None for s in range(20))


def test_random_interjects_only_now_and_then_and_only_with_its_blitz_plays() -> None:
    state = table(phase="discard")
    give(state, 0, hand=["Propaganda"])
    give(state, 1, hand=["Doublethink", "Military Action"])
    rng = random.Random(3)
    chosen = [wants_to_interject(state, 1, rng, "random") for _ in range(400)]
    plays = [action for action in chosen if action is not None]
    assert 4 <= len(plays) <= 50
    assert {action.card for action in plays if isinstance(action, Play)} <= {
        "Doublethink",
        "Military Action",
    }


def test_nobody_interjects_who_may_not() -> None:
    state = table(phase="discard")
    give(state, 1, hand=["Stifle Free Speech"])
    assert wants_to_interject(state, 1, random.Random(0), "random") is None
    assert wants_to_interject(state, 0, random.Random(0), "strong") is None  # the active player


def test_greedy_keeps_hire_assassin_for_its_action_rather_than_paying_in_discard() -> None:
    state = table(phase="discard")
    give(state, 0, hand=["Hire Assassin"], citizens="PP")
    give(state, 1, citizens="PP")
    assert Play("Hire Assassin", 1, "P", blitz=True, player=0) in state.legal_actions(0)
    assert all(greedy_player(state, 0, random.Random(s)) == EndPhase(player=0) for s in range(10))
