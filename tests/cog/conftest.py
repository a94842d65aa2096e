"""Fixtures for the C.O.G. tests."""

from __future__ import annotations

import pytest

from games.cog.state import CogState
from tests.cog.helpers import set_mat, set_table, start, to_phase


def clean_mat(state: CogState, player: int) -> None:
    """Give ``player`` an empty mat (grid, reserve, stars, cards) to build a case on."""
    set_mat(
        state, player, reserve="", stars=0, cards=(), items=(), wild="", rows=(), words=(),
        cubes={}, goals_done=(), bonus_claimed=(),
    )  # fmt: skip


@pytest.fixture
def construct() -> CogState:
    """A 2-player game in Phase IV with goal card 6 removed and Red's mat empty."""
    state = to_phase(start(2, seed=3, goal_roll=6), "construct")
    clean_mat(state, 0)
    set_table(state, supply_stars=10)
    return state
