"""What both variants share: coins, rounds, the first player, checks, fast copies."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any, TypeVar

from games.core import CHANCE, Action, Event, IllegalAction, Outcome, State

from .actions import seat_name
from .position import CookiePosition

A = TypeVar("A", bound=Action)


def _copy(value: Any) -> Any:
    """A deep copy of nested lists and dicts (for views that callers may change)."""
    if isinstance(value, list):
        return [_copy(item) for item in value]
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    return value


def _copy_field(value: Any) -> Any:
    """A copy of one state field for :meth:`CookieState.clone`.

    State fields are lists nested at most two deep, or values never changed in
    place (strings, numbers, the Reference, the options and round summaries,
    which are replaced whole); so two levels of list copying suffice.
    """
    if type(value) is list and value and type(value[0]) is list:
        return [list(item) for item in value]
    if type(value) is list:
        return list(value)
    return value


def is_int(value: object) -> bool:
    """True for a whole number that is not a bool (JSON may hand us either)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_field_types(action: Action) -> None:
    """Refuse an action whose fields are not the whole numbers and names it declares.

    Decoded JSON can hold anything (``true`` for a seat, a list for a card);
    such an action is refused before any rule looks at it.
    """
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if field.type == "int" and not is_int(value):
            raise IllegalAction(f"{type(action).__name__}: {field.name} must be a whole number")
        if field.type == "str" and not isinstance(value, str):
            raise IllegalAction(f"{type(action).__name__}: {field.name} must be a name")


def expect(action: Action, kind: type[A], doing: str) -> A:
    """``action`` as the kind the phase asks for; any other kind is refused."""
    if not isinstance(action, kind):
        raise IllegalAction(f"{action.notation()} does not fit now: {doing}")
    return action


def _masks(allowed: Sequence[Collection[str]], characters: Sequence[str]) -> list[int]:
    index = {character: bit for bit, character in enumerate(characters)}
    return [sum(1 << index[c] for c in options if c in index) for options in allowed]


def count_assignments(allowed: Sequence[Collection[str]], characters: Sequence[str]) -> int:
    """How many ways give each seat a different character from its allowed set.

    Used when roles are face down: it weighs each character a Role card may
    turn out to be by how many dealings of the other unseen cards still fit.
    """
    masks = _masks(allowed, characters)
    memo: dict[tuple[int, int], int] = {}

    def count(seat: int, used: int) -> int:
        if seat == len(masks):
            return 1
        key = (seat, used)
        if key not in memo:
            free, total = masks[seat] & ~used, 0
            while free:
                bit = free & -free
                total += count(seat + 1, used | bit)
                free ^= bit
            memo[key] = total
        return memo[key]

    return count(0, 0)


def can_assign(allowed: Sequence[Collection[str]], characters: Sequence[str]) -> bool:
    """Whether each seat can get a different character from its allowed set at all."""
    masks = _masks(allowed, characters)
    dead: set[tuple[int, int]] = set()

    def fits(seat: int, used: int) -> bool:
        if seat == len(masks):
            return True
        if (seat, used) in dead:
            return False
        free = masks[seat] & ~used
        while free:
            bit = free & -free
            if fits(seat + 1, used | bit):
                return True
            free ^= bit
        dead.add((seat, used))
        return False

    return fits(0, 0)


def character_of(action: Action) -> str:
    """A dealt or turned-up card's label: the character on it (every chance action has one)."""
    character = getattr(action, "character", None)
    assert isinstance(character, str), action
    return character


class CookieState(State):
    """Coins, rounds and the First Player token; the variants add the rest."""

    game = "cookie"
    variant = ""

    def __init__(self, options: Mapping[str, Any], seed: int, num_players: int, rounds: int):
        super().__init__(options, seed, num_players)
        self.rounds = rounds
        self.round = 0
        self.first = options["first_player"]
        self.coins = [0] * num_players
        self.last_round: dict[str, Any] | None = None
        self.phase = ""
        self._memo: dict[Any, Any] = {}
        self._memo_ply = 0

    def position(self) -> CookiePosition:
        """The round, the First Player and the coins, as data."""
        return CookiePosition(self.round, self.first, tuple(self.coins))

    def set_position(self, position: CookiePosition) -> None:
        """Set the round, the First Player and the coins (the cards stay); no history after."""
        if len(position.coins) != self.num_players:
            raise ValueError(f"a {self.num_players}-seat game needs {self.num_players} coin counts")
        self.round, self.first, self.coins = position.round, position.first, list(position.coins)
        self.history, self._memo, self._memo_ply = [], {}, 0

    def memo(self, key: Any, compute: Any, *args: Any) -> Any:
        """``compute(*args)`` once per position: legal actions are asked for many times a ply."""
        if self._memo_ply != len(self.history):
            self._memo, self._memo_ply = {}, len(self.history)
        if key not in self._memo:
            self._memo[key] = compute(*args)
        return self._memo[key]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Chance outcomes at a chance node; else each acting seat's choices (memoised)."""
        acting = self.to_act()
        if acting == (CHANCE,):
            return [a for a, _ in self.chance_outcomes()] if player in (None, CHANCE) else []
        seats = acting if player is None else [p for p in acting if p == player]
        return [action for seat in seats for action in self.memo(seat, self._choices_of, seat)]

    def _choices_of(self, seat: int) -> list[Action]:
        """What ``seat`` may do now; each variant says."""
        raise NotImplementedError

    def apply(self, action: Action) -> list[Event]:
        """Check the action's field types, then apply it as :meth:`State.apply` does."""
        if isinstance(action, Action):
            check_field_types(action)
        return super().apply(action)

    def seat_order(self) -> list[int]:
        """Every seat clockwise from this round's first player."""
        count = self.num_players
        return [(self.first + offset) % count for offset in range(count)]

    def player_name(self, player: int) -> str:
        return "chance" if player == CHANCE else seat_name(player)

    def check_seat(self, seat: object, what: str) -> int:
        """``seat`` as a seat number, or an IllegalAction saying what was wrong."""
        if not is_int(seat) or not 0 <= seat < self.num_players:  # type: ignore[operator]
            raise IllegalAction(f"{what} must be a seat from P1 to P{self.num_players}")
        return seat  # type: ignore[return-value]

    def finish_round(self, summary: dict[str, Any], gains: Sequence[int]) -> None:
        """Pay the round's coins, pass the First Player token, start the next round."""
        for seat, gain in enumerate(gains):
            self.coins[seat] += gain
        self.last_round = summary | {"gains": list(gains), "coins": list(self.coins)}
        self.round += 1
        self.first = (self.first + 1) % self.num_players
        if self.round < self.rounds:
            self.start_round()
        else:
            self.phase = "over"

    def start_round(self) -> None:
        """Deal out a new round (the variant's setup)."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        best = max(self.coins)
        winners = tuple(seat for seat, coins in enumerate(self.coins) if coins == best)
        reason = "most coins" if len(winners) == 1 else "tie on most coins"
        return Outcome(winners, tuple(float(c) for c in self.coins), reason)

    def table_view(self, copy: bool = True) -> dict[str, Any]:
        """What both variants show everybody (``copy=False``: share the last round's summary)."""
        return {
            "game": self.game,
            "variant": self.variant,
            "players": self.num_players,
            "round": self.round,
            "rounds": self.rounds,
            "first_player": self.first,
            "phase": self.phase,
            "coins": list(self.coins),
            "to_act": list(self.to_act()),
            "last_round": _copy(self.last_round) if copy else self.last_round,
        }

    def clone(self) -> CookieState:
        twin = object.__new__(type(self))
        twin.__dict__ = {key: _copy_field(value) for key, value in self.__dict__.items()}
        twin._memo = {}
        return twin
