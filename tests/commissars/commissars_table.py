"""Hand-built Cogs and Commissars positions for rules tests.

A real game is started, then set to a position whose seats hold the cards and
Citizens a test names, so each test shows exactly the position a rule is about.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from games import commissars
from games.commissars import Pass, Play, TopCard
from games.commissars.model import Seat
from games.commissars.state import SUPPLY, CommissarsState
from games.core import CHANCE


def table(
    players: int = 2, leaders: Iterable[str] = (), phase: str = "action", hands: str = "known"
) -> CommissarsState:
    """A position in the active player's (seat 0's) ``phase`` with empty seats.

    ``hands = "unknown"`` is table mode, where :func:`give` may put unseen cards in a hand.
    """
    state = commissars.new_game({"players": players, "hands": hands}, seed=0)
    leader_list = list(leaders) + [""] * players
    seats = tuple(
        Seat(seat.faction, leader_list[number]) for number, seat in enumerate(state.seats)
    )
    set_table(
        state, seats=seats, gulag=dict(SUPPLY), phase=phase, turn=1, active=0, actions_left=1,
        played=(0,) * players, stack=(), tasks=(), window=None,
    )  # fmt: skip
    return state


def set_table(state: CommissarsState, **changes: Any) -> None:
    """Change fields of the game's position (:class:`CommissarsPosition`)."""
    state.set_position(replace(state.position(), **changes))


def give(
    state: CommissarsState,
    player: int,
    *,
    hand: Iterable[str] = (),
    deck: Iterable[str] = (),
    discard: Iterable[str] = (),
    citizens: str = "",
    unseen: int = 0,
) -> None:
    """Put cards in a seat; ``citizens`` like ``"CCB"`` come out of the Gulag.

    In table mode, ``unseen`` of the ``deck`` cards are in the hand, unseen
    (the table knows only that they are among those cards).
    """
    position = state.position()
    seat, gulag = position.seats[player], dict(position.gulag)
    changed = replace(
        seat,
        unseen=seat.unseen + unseen,
        hand=seat.hand + Counter(hand),
        deck=seat.deck + Counter(deck),
        discard=[*seat.discard, *discard],
        citizens={kind: seat.citizens[kind] + citizens.count(kind) for kind in seat.citizens},
    )
    for kind in citizens:
        gulag[kind] -= 1
    seats = (*position.seats[:player], changed, *position.seats[player + 1 :])
    set_table(state, seats=seats, gulag=gulag)


def play(state: CommissarsState, card: str, player: int, **fields: object) -> int:
    """Play a card; return its stack id."""
    state.apply(Play(card, player=player, **fields))  # type: ignore[arg-type]
    return state.next_id - 1


def pass_round(state: CommissarsState, times: int | None = None) -> None:
    """Everyone whose turn it is to respond passes (``times`` passes, default one round)."""
    for _ in range(times if times is not None else state.num_players):
        state.apply(Pass(player=state.to_act()[0]))


def reveal(state: CommissarsState, *names: str) -> None:
    """The table reports the cards that come off the deck."""
    for name in names:
        assert state.to_act() == (CHANCE,), state.waiting_for()
        state.apply(TopCard(name, player=CHANCE))


def stack_cards(state: CommissarsState) -> list[str]:
    """The names on the stack, bottom first."""
    return [entry.card for entry in state.stack]
