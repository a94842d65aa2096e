"""Built-in Kogworks players: ``random`` and ``strong`` (greedy).

A player is a function ``(state, rng) -> action`` for the player to move; the
``rng`` is the only source of randomness, so a seeded game repeats exactly.

``greedy`` takes a win when it has one; otherwise it ranks moves by how few
empty pegs still separate its base from the top wheel (and how many separate
the opponent's), and plays the best-ranked move that does not hand the
opponent a win on the next move. Only when every move hands a win does it give
one away.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.core import Action
from games.kogworks.board import BASES, BIT, TOP, VALID, dilate, flood
from games.kogworks.state import KogworksState, Move, Place

Player = Callable[[KogworksState, random.Random], Action]

UNREACHABLE = 99


def random_player(state: KogworksState, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(state.legal_actions().listed())


def greedy_player(state: KogworksState, rng: random.Random) -> Action:
    """Win now if possible; else the best-ranked move that hands no immediate win."""
    wins = state.winning_moves()
    if wins:
        return rng.choice(wins)
    ranked = sorted(state.legal_actions().listed(), key=lambda a: (score(state, a), rng.random()))
    for action in ranked:
        if not hands_a_win(state, action):
            return action
    return ranked[0]


def hands_a_win(state: KogworksState, action: Action) -> bool:
    """True if after ``action`` the opponent can turn the top wheel at once."""
    after = state.clone()
    after.apply(action)
    return not after.is_over() and after.move_masks().any_win()


def score(state: KogworksState, action: Action) -> int:
    """Lower is better: twice the mover's gap to the top minus the opponent's gap."""
    player = state.mover
    boards = list(state.boards)
    if isinstance(action, Move):
        boards[player] &= ~BIT[action.source]
    target = action.peg if isinstance(action, Place) else action.target  # type: ignore[attr-defined]
    boards[player] |= BIT[target]
    occupied = boards[0] | boards[1] | BIT[TOP]
    return 2 * gap(occupied, player) - gap(occupied, 1 - player)


def gap(occupied: int, player: int) -> int:
    """How many empty pegs at least a path from ``player``'s base to the top still needs.

    Wheels on the way cost nothing (any colour may be linked through); each
    empty peg costs one. Whether the wheels could turn is ignored: a heuristic.
    """
    reached = flood(BIT[BASES[player]], occupied)
    steps = 0
    while not reached & BIT[TOP]:
        grown = dilate(reached) | reached
        if grown == reached:
            return UNREACHABLE
        reached = flood(grown, occupied | grown) & VALID
        steps += 1
    return steps


PLAYERS: dict[str, Player] = {"random": random_player, "strong": greedy_player}
"""The built-in players by name: ``strong`` is the best, as in every game."""
