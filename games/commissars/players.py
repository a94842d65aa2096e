"""Built-in Cogs and Commissars players: ``random`` and ``strong`` (greedy).

A player is a function ``(state, player, rng) -> Action`` that picks one of
``state.legal_actions(player)``; it never sees more than the rules let it use.

A player who is in ``to_act`` only because they could play a Blitz during
someone else's phase (``state.may_blitz()``) is never obliged to: a front end
asks :func:`wants_to_interject` instead, which may return ``None``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.core import Action

from .actions import Choose, Discard, EndPhase, Pass, Play, Retarget
from .cards import POINTS
from .state import CommissarsState

Player = Callable[[CommissarsState, int, random.Random], Action]

GAINS = {"Our Glorious Leader": 3, "Seize the Gears": 3, "Increase Production": 2}


def random_player(state: CommissarsState, player: int, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(list(state.legal_actions(player)))


def greedy_player(state: CommissarsState, player: int, rng: random.Random) -> Action:
    """The action with the best one-step score: win, stop others winning, gain Citizens."""
    actions = list(state.legal_actions(player))
    rng.shuffle(actions)
    return max(actions, key=lambda action: _score(state, player, action))


def _score(state: CommissarsState, player: int, action: Action) -> float:
    if isinstance(action, Play):
        return _play_score(state, player, action)
    if isinstance(action, Choose):
        return {"produce": 2.0, "draw": 1.5, "none": 0.0, "done": 0.0}.get(action.option, 1.0)
    if isinstance(action, Discard):
        return -float(action.card in ("Revolution", "Stifle Free Speech"))
    if isinstance(action, Retarget):
        return _target_score(state, player, action.target, action.kind, action.entry)
    return 0.5 if isinstance(action, Pass | EndPhase) else 0.0


def _play_score(state: CommissarsState, player: int, action: Play) -> float:
    if action.card == "Revolution":
        return 100.0
    card = state.card(action.card)
    score = GAINS.get(action.card, 1.0) - (1.5 if action.blitz else 0.0)
    if action.blitz and not state.stack:
        score -= 1.0  # nothing to answer yet: no hurry to pay a Blitz cost
    score += _target_score(state, player, action.target, action.kind, action.entry)
    if card.type == "Counter Propaganda" or action.card == "Stifle Free Speech":
        score -= 0.8  # keep counters for what matters
    return score


def _target_score(state: CommissarsState, player: int, target: int, kind: str, entry: int) -> float:
    score = 0.0
    if target >= 0 and target != player:
        score += state.seats[target].points() / 5 + POINTS.get(kind, 0)
    elif target == player and kind:
        score -= 10.0
    stacked = state.find_entry(entry) if entry >= 0 else None
    if stacked is not None and stacked.player != player:
        score += 50.0 if stacked.card == "Revolution" else 1.0
    elif stacked is not None:
        score -= 20.0
    return score


INTERJECT_CHANCE = 0.05
"""How often the random player plays a Blitz when it may interject."""
INTERJECT_SCORE = 3.0
"""The greedy player interjects only with a Blitz scoring at least this."""


def wants_to_interject(
    state: CommissarsState, player: int, rng: random.Random, kind: str = "strong"
) -> Action | None:
    """A Blitz ``player`` plays now in another player's phase, or ``None`` to let play go on.

    ``random`` interjects now and then with any of its Blitz plays; ``strong``
    only with one that clearly pays (such as Hire Assassin on a leader's
    Commissar), never with a Military Action that would do nothing.
    """
    if player not in state.may_blitz():
        return None
    plays = list(state.legal_actions(player))
    if kind == "random":
        return rng.choice(plays) if rng.random() < INTERJECT_CHANCE else None
    rng.shuffle(plays)
    best = max(plays, key=lambda action: _interject_score(state, player, action))
    return best if _interject_score(state, player, best) >= INTERJECT_SCORE else None


def _interject_score(state: CommissarsState, player: int, action: Action) -> float:
    effect = state.card(action.card).effect if isinstance(action, Play) else ()
    if any(step.op == "extra_action" for step in effect):
        return -1.0  # an extra Action outside your own turn is wasted
    return _score(state, player, action)


PLAYERS: dict[str, Player] = {"random": random_player, "strong": greedy_player}
"""The built-in players by name: ``strong`` is the best, as in every game."""
