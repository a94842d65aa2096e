"""The built-in players pick legal actions; greedy spells the longest word it can."""

from __future__ import annotations

import random

from games.cog.actions import PlaceWord
from games.cog.players import greedy_player, random_player
from games.cog.state import CogState
from tests.cog.helpers import give


def test_greedy_spells_the_longest_word(construct: CogState) -> None:
    give(construct, 0, "CLAMPOGROD")
    action = greedy_player(construct, 0, random.Random(0))
    assert isinstance(action, PlaceWord) and action.word == "CLAMP"
    construct.apply(action)


def test_greedy_keeps_its_wild_tiles_when_plain_ones_do(construct: CogState) -> None:
    give(construct, 0, "CLAMPx")
    action = greedy_player(construct, 0, random.Random(0))
    assert isinstance(action, PlaceWord) and action.word == "CLAMP"
    assert action.chosen_wild() is None
    construct.apply(action)
    assert construct.mats[0].reserve == ["x"]


def test_random_player_only_picks_listed_actions(construct: CogState) -> None:
    give(construct, 0, "CLAMPOG")
    rng = random.Random(1)
    for _ in range(20):
        action = random_player(construct, 0, rng)
        assert action in construct.legal_actions(0)


def test_grid_doctests() -> None:
    import doctest

    from games.cog import grid

    assert doctest.testmod(grid).failed == 0
