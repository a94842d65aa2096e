"""Built-in C.O.G. players: ``random`` and ``strong`` (greedy).

A player is a function ``(state, player, rng) -> action`` that picks one of
``state.legal_actions(player)``. The random player first picks a kind of
action uniformly and then an action of that kind, so the many conversion
pairs do not crowd out the moves that make the game go. The greedy player
spells the longest permitted word it can (letting the reserve choose the
tiles, which keeps wild tiles for later), completes item cards, and
otherwise plays like the random player without spending on conversions.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.cog.actions import (
    CompleteItem,
    Deconstruct,
    LettersForStar,
    MakeCellWild,
    MakeWild,
    PlaceWord,
    StarsForLetter,
)
from games.cog.state import CogState
from games.core import Action

Player = Callable[[CogState, int, random.Random], Action]
SPENDING = (StarsForLetter, LettersForStar, Deconstruct, MakeWild, MakeCellWild)


def random_player(state: CogState, player: int, rng: random.Random) -> Action:
    """A uniformly random kind of legal action, then a random action of that kind."""
    legal = list(state.legal_actions(player))
    kinds = sorted({type(action).__name__ for action in legal})
    kind = rng.choice(kinds)
    return rng.choice([action for action in legal if type(action).__name__ == kind])


def greedy_player(state: CogState, player: int, rng: random.Random) -> Action:
    """The longest word it can spell, else an item card, else a random non-spending action."""
    legal = list(state.legal_actions(player))
    words = [action for action in legal if isinstance(action, PlaceWord)]
    if words:
        return max(words, key=_word_preference)
    items = [action for action in legal if isinstance(action, CompleteItem)]
    if items:
        return max(items, key=lambda action: action.cube)
    calm = [action for action in legal if not isinstance(action, SPENDING)]
    return rng.choice(calm or legal)


def _word_preference(action: PlaceWord) -> tuple[int, bool, str]:
    """Longer words first; then the reserve choosing the tiles (saving wild ones)."""
    return len(action.word), action.chosen_wild() is None, action.notation()


PLAYERS: dict[str, Player] = {"random": random_player, "strong": greedy_player}
"""The built-in players by name: ``strong`` is the best, as in every game."""
