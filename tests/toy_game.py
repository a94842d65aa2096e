"""A tiny game that uses every kind of turn, to test the contract and its checker.

Three rounds: chance rolls a die (1-3), then both players secretly and
simultaneously pick 1 or 2; a player whose pick plus the die is even scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import (
    CHANCE,
    Action,
    Event,
    IllegalAction,
    Outcome,
    Record,
    State,
    merge_options,
)

DEFAULTS = {"rounds": 3}


@dataclass(frozen=True)
class Roll(Action):
    value: int


@dataclass(frozen=True)
class Pick(Action):
    number: int


@dataclass(frozen=True)
class Scored(Event):
    player: int


ACTIONS = (Roll, Pick)


class ToyState(State):
    game = "toy"

    def __init__(self, options: Mapping[str, Any], seed: int) -> None:
        super().__init__(options, seed, num_players=2)
        self.die: int | None = None
        self.picks: dict[int, int] = {}
        self.scores = [0, 0]
        self.round = 0

    def to_act(self) -> tuple[int, ...]:
        if self.round >= self.options["rounds"]:
            return ()
        if self.die is None:
            return (CHANCE,)
        return tuple(p for p in (0, 1) if p not in self.picks)

    def legal_actions(self, player: int | None = None) -> Sequence[Action]:
        acting = self.to_act()
        if acting == (CHANCE,):
            return (
                [Roll(value, player=CHANCE) for value in (1, 2, 3)]
                if player in (None, CHANCE)
                else []
            )
        players = acting if player is None else [p for p in acting if p == player]
        return [Pick(n, player=p) for p in players for n in (1, 2)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return (
            [(a, 1 / 3) for a in self.legal_actions(CHANCE)] if self.to_act() == (CHANCE,) else []
        )

    def _apply(self, action: Action) -> list[Event]:
        if isinstance(action, Roll) and action.value in (1, 2, 3):
            self.die = action.value
            return []
        if not isinstance(action, Pick) or action.number not in (1, 2):
            raise IllegalAction(f"{action.notation()} is not a pick of 1 or 2")
        self.picks[action.player] = action.number
        return self._score() if len(self.picks) == 2 else []

    def _score(self) -> list[Event]:
        events: list[Event] = []
        for player, number in self.picks.items():
            if (number + (self.die or 0)) % 2 == 0:
                self.scores[player] += 1
                events.append(Scored(player))
        self.die, self.picks, self.round = None, {}, self.round + 1
        return events

    def outcome(self) -> Outcome | None:
        if self.to_act():
            return None
        best = max(self.scores)
        winners = tuple(p for p in (0, 1) if self.scores[p] == best)
        return Outcome(winners, tuple(float(s) for s in self.scores), "points")

    def view(self, player: int | None = None) -> dict[str, Any]:
        picked = {str(p): (n if p == player else "hidden") for p, n in self.picks.items()}
        return {"round": self.round, "die": self.die, "picked": picked}

    def snapshot(self) -> dict[str, Any]:
        return {"round": self.round, "die": self.die, "picks": self.picks, "scores": self.scores}


def new_game(options: Mapping[str, Any] | None = None, seed: int = 0) -> ToyState:
    return ToyState(merge_options(options, DEFAULTS), seed)


def replay_toy(record: Record) -> ToyState:
    state = new_game(record.options, record.seed)
    for action in record.actions:
        state.apply(action)
    return state
