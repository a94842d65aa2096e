"""Shared helpers for the Cookie tests: starting games and trying unlisted actions."""

from __future__ import annotations

import random
from typing import Any

from games import cookie
from games.cookie.actions import (
    Aim,
    Challenge,
    Claim,
    DealRole,
    DrawTarget,
    Hunt,
    Look,
    OpenExclusion,
    Play,
    RevealRole,
    RevealTarget,
)
from games.core import CHANCE, Action, State

CARDS = (*cookie.CHARACTERS, "Sword", "Shield", "Hill", "Joker")


def start(variant: str, players: int, **options: Any) -> State:
    """A new game with seed 0."""
    return cookie.new_game({"variant": variant, "players": players, **options}, 0)


def illegal_candidates(state: State, player: int, rng: random.Random) -> list[Action]:
    """A few actions of random kinds and fields, most of them illegal now.

    Fed to the random-simulation check, which keeps the unlisted ones and
    asserts they are refused without changing the state.
    """
    seat, slot = rng.randrange(-1, state.num_players + 1), rng.choice((0, 0, 1, 2))
    card = rng.choice(CARDS)
    chance = rng.choice((CHANCE, player))
    kinds = [
        lambda: Play(card, player=player),
        lambda: Aim(seat, player=player),
        lambda: Claim(card, player=player),
        lambda: Hunt(card, player=player),
        lambda: Challenge(seat, slot, player=player),
        lambda: Challenge(player, 0, player=player),
        lambda: Look(player=player),
        lambda: DealRole(seat, card, slot, player=chance),
        lambda: RevealRole(seat, card, slot, player=chance),
        lambda: DrawTarget(card, player=chance),
        lambda: RevealTarget(card, player=chance),
        lambda: OpenExclusion(card, player=chance),
    ]
    return [make() for make in rng.sample(kinds, 3)]
