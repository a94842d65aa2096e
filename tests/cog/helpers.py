"""Shared helpers for the C.O.G. tests: reaching a phase, feeding chance, setting a position."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from games import cog
from games.cog.actions import DrawCard, DrawLetter, RollDie
from games.cog.state import CogState
from games.core import CHANCE, Action

PERMITTED_ALL = ("COG", "GEAR", "AXLE", "CLAMP", "BOLT", "NUT", "ROD", "PIPE", "VALVE")


def start(players: int = 2, seed: int = 0, goal_roll: int = 6) -> CogState:
    """A new game whose goal die removes ``goal_roll`` (6 keeps COG, CLAMP and ROD)."""
    state = cog.new_game({"players": players}, seed)
    state.apply(RollDie(goal_roll, player=CHANCE))
    return state


def resolve_chance(state: CogState, choose: Callable[[CogState], Action] | None = None) -> None:
    """Apply chance actions (sampled, or chosen by ``choose``) until a player must act."""
    while state.to_act() == (CHANCE,):
        state.apply(choose(state) if choose else state.sample_chance())


def to_phase(state: CogState, phase: str, rng_seed: int = 0) -> CogState:
    """Play random legal actions (chance sampled) until ``phase`` begins with a player to act."""
    rng = random.Random(rng_seed)
    while state.phase != phase or state.to_act() == (CHANCE,):
        assert not state.is_over(), f"the game ended before {phase}"
        acting = state.to_act()
        if acting == (CHANCE,):
            state.apply(state.sample_chance())
        else:
            state.apply(rng.choice(list(state.legal_actions(acting[0]))))
    return state


def letter(value: str) -> DrawLetter:
    return DrawLetter(value, player=CHANCE)


def card(value: int) -> DrawCard:
    return DrawCard(value, player=CHANCE)


def roll(value: int) -> RollDie:
    return RollDie(value, player=CHANCE)


def set_table(state: CogState, **changes: Any) -> None:
    """Change fields of the game's position (:class:`CogPosition`), then let it settle."""
    state.set_position(replace(state.position(), **changes))


def set_mat(state: CogState, player: int, **changes: Any) -> None:
    """Change fields of ``player``'s mat (:class:`MatPosition`), then let the game settle."""
    state.set_position(state.position().with_mat(player, **changes))


def give(state: CogState, player: int, tiles: str) -> None:
    """Set a player's reserve to exactly ``tiles`` (a test fixture; the bag is not touched)."""
    set_mat(state, player, reserve=tiles)
