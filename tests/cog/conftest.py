"""Fixtures for the C.O.G. tests."""

from __future__ import annotations

import pytest

from games.cog.grid import Grid
from games.cog.state import CogState
from tests.cog.helpers import start, to_phase


def clean_mat(state: CogState, player: int) -> None:
    """Give ``player`` an empty mat (grid, reserve, stars, cards) to build a case on."""
    mat = state.mats[player]
    mat.reserve, mat.stars, mat.cards, mat.items, mat.wild = [], 0, [], [], ""
    mat.grid = Grid(mat.grid.rows, mat.grid.cols)
    mat.cubes, mat.goals_done, mat.bonus_claimed = {}, [], []


@pytest.fixture
def construct() -> CogState:
    """A 2-player game in Phase IV with goal card 6 removed and Red's mat empty."""
    state = to_phase(start(2, seed=3, goal_roll=6), "construct")
    clean_mat(state, 0)
    state.supply_stars = 10
    return state
