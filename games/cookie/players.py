"""Built-in players for The Cookie: ``random`` and ``strong`` (the reasoner).

A player sees only ``state.view(seat)`` and ``state.legal_actions(seat)``, so
it never peeks at secrets; how the reasoner infers roles: :class:`Reasoner`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from games.core import Action, State

from .actions import Aim, Challenge, Claim, Hunt, Look, Play
from .reference import CHARACTERS, REFERENCES


class Player(Protocol):
    """Something that picks a legal action for one seat."""

    def choose(self, state: State, seat: int) -> Action: ...


class RandomPlayer:
    """Any legal action, uniformly, from a seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Action:
        """A uniformly random legal action of ``seat``."""
        return self.rng.choice(list(state.legal_actions(seat)))


class Reasoner:
    """Infers roles from the cards turned up and plays on the likeliest reading.

    - Every Man for Himself: every dealing of the roles that fits the characters
      each player has shown is equally likely; it aims the Sword at the likeliest
      prey and the Shield at the likeliest hunter, lays them once it is sure (or
      the round runs out of turns), shows characters meanwhile and keeps the Hill.
    - The Big Hunt: it claims its true role, turns up a claim it knows is a bluff
      (a card it holds or has seen), otherwise looks at the exclusion card, and in
      Phase 3 hunts with the card whose prey is the likeliest target, weighed by
      the chance of being eliminated itself.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Action:
        """The action the reasoning prefers among ``seat``'s legal actions."""
        legal = list(state.legal_actions(seat))
        view = state.view(seat)
        if view["variant"] == "hunt" and view.get("role"):
            return HuntReasoning(view, self.rng).choose(legal)
        if view["variant"] == "big-hunt":
            return BigHuntReasoning(view, self.rng).choose(legal)
        return self.rng.choice(legal)


PLAYERS: dict[str, Callable[[int], Player]] = {"random": RandomPlayer, "strong": Reasoner}
"""The built-in players by name: ``strong`` is the best, as in every game."""


def make_player(kind: str, seed: int = 0) -> Player:
    """The built-in player called ``kind``; ``ValueError`` naming the known ones."""
    if kind not in PLAYERS:
        raise ValueError(f"unknown player {kind!r}; built-in players: {', '.join(PLAYERS)}")
    return PLAYERS[kind](seed)


def role_odds(
    role: str, seat: int, played: Sequence[Sequence[str]], characters: Sequence[str]
) -> list[dict[str, float]]:
    """Per seat, the chance of each role, over dealings that fit the shown characters."""
    others = [s for s in range(len(played)) if s != seat]
    free = [c for c in characters if c != role]
    counts = [dict.fromkeys(characters, 0) for _ in played]
    total = 0
    for dealing in itertools.permutations(free):
        if all(dealing[i] not in played[s] for i, s in enumerate(others)):
            total += 1
            for i, s in enumerate(others):
                counts[s][dealing[i]] += 1
    counts[seat][role] = total
    return [{c: n / total for c, n in row.items()} for row in counts]


class HuntReasoning:
    """One decision in Every Man for Himself, from one player's view."""

    def __init__(self, view: dict[str, Any], rng: random.Random) -> None:
        self.view, self.rng = view, rng
        self.seat, role = view["seat"], view["role"]
        reference = REFERENCES[view["players"]]
        self.prey, self.hunter = reference.prey[role], reference.hunter[role]
        self.odds = role_odds(role, self.seat, view["played"], reference.characters)

    def choose(self, legal: list[Action]) -> Action:
        """An aim if aiming, else the card to lay."""
        aims = [a for a in legal if isinstance(a, Aim)]
        if aims:
            wanted = self.prey if self._aiming() == "Sword" else self.hunter
            return max(aims, key=lambda a: self.odds[a.target][wanted])
        return self._lay([a for a in legal if isinstance(a, Play)])

    def _aiming(self) -> str:
        return self.view["played"][self.seat][-1]

    def _best(self, wanted: str, blocked: Sequence[int | None]) -> float:
        """The best chance of hitting ``wanted`` among players not blocking us."""
        seat = self.seat
        chances = [row[wanted] for s, row in enumerate(self.odds) if seat not in (s, blocked[s])]
        return max(chances, default=0.0)

    def _lay(self, plays: list[Play]) -> Action:
        cards = {play.card: play for play in plays}
        weapons = [c for c in ("Sword", "Shield") if c in cards]
        turns_left = self.view["players"] - self.view["turn"]
        value = {
            "Sword": 3 * self._best(self.prey, self.view["shields"]),
            "Shield": 2 * self._best(self.hunter, self.view["swords"]),
        }
        weapons.sort(key=lambda c: -value[c])
        for card in weapons:
            sure = value[card] >= (3 if card == "Sword" else 2) * 0.99
            if sure or turns_left <= len(weapons):
                return cards[card]
        characters = [c for c in cards if c in CHARACTERS]
        if characters:
            return cards[self.rng.choice(characters)]
        return cards[weapons[0]] if weapons else plays[0]


class BigHuntReasoning:
    """One decision in The Big Hunt, from one player's view."""

    def __init__(self, view: dict[str, Any], rng: random.Random) -> None:
        self.view, self.rng = view, rng
        self.seat = view["seat"]
        self.reference = REFERENCES[6]
        seen = [*view["roles"], view["open_exclusion"], view["exclusion"]]
        seen += [role for roles in view["revealed_roles"] for role in roles]
        self.not_target = {card for card in seen if card}

    def choose(self, legal: list[Action]) -> Action:
        """A claim, a Phase 2 check or a Phase 3 hunt."""
        first = legal[0]
        if isinstance(first, Claim):
            return self._claim(legal)
        if isinstance(first, Hunt):
            return max(legal, key=lambda a: self._hunt_value(a.character))  # type: ignore[attr-defined]
        return self._check(legal)

    def _claim(self, legal: list[Action]) -> Action:
        mine = self.view["roles"][len(self.view["claims"][self.seat])]
        honest = [a for a in legal if a.character == mine]  # type: ignore[attr-defined]
        return honest[0] if honest else self.rng.choice(legal)

    def _check(self, legal: list[Action]) -> Action:
        challenges = [a for a in legal if isinstance(a, Challenge)]
        coins = self.view["coins"]
        for action in challenges:
            claimed = self.view["claims"][action.seat][action.slot]
            if claimed in self.not_target and coins[action.seat] > 0:
                return action
        look = [a for a in legal if isinstance(a, Look)]
        if look and self.view["exclusion"] is None:
            return look[0]
        paying = [a for a in challenges if coins[a.seat] > 0]
        return self.rng.choice(paying or legal)

    def _target_odds(self) -> dict[str, float]:
        """Chance each character is the target: unseen cards, claimed ones less likely."""
        claimed = {c for claims in self.view["claims"] for c in claims}
        weights = {
            c: (0.5 if c in claimed else 1.0) for c in CHARACTERS if c not in self.not_target
        }
        total = sum(weights.values()) or 1.0
        return {c: weights.get(c, 0.0) / total for c in CHARACTERS}

    def _hunt_value(self, card: str) -> float:
        """Expected coins of hunting with ``card`` if rivals hunt the likeliest target."""
        odds, prey = self._target_odds(), self.reference.prey
        rivals = self.view["players"] - 1
        survive = (1 - odds[card]) ** rivals
        victims = rivals * odds[prey[prey[card]]]
        return 3 * odds[prey[card]] * survive + victims + self.rng.random() * 1e-6
