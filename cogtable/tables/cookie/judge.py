"""What a settled card mat means for a Cookie game: the next action, a refusal, or waiting.

One reading may hold several actions (every card turned up at the reveal,
every Role card turned up at a round's end): the table judges it again after
each action applied (:class:`cogtable.table.GameTable`), so each call here
gives the *next* action the engine asks for, in the engine's order: cards
turned up in seat order from the first player, aims clockwise from the first
player, roles seat by seat. A change the engine cannot take yet (a later
seat's Sword already moved) waits for its turn; one it refuses is an
``illegal`` verdict naming the seat to blink red.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from cogtable.tables.base import Verdict
from cogtable.tables.cookie.cards import Card, CookieCards, set_card
from cogtable.tables.cookie.layout import (
    CookieLayout,
    card_words,
    differences,
    expected_layout,
    new_cards,
    new_centre_roles,
)
from games.cookie.actions import (
    Aim,
    Challenge,
    Claim,
    Hunt,
    OpenExclusion,
    Play,
    RevealRole,
    RevealTarget,
)
from games.cookie.bighunt import BigHuntState
from games.cookie.common import CookieState
from games.cookie.hunt import HuntState
from games.core import CHANCE, Action, IllegalAction, Request

Judged = Verdict | None
"""A phase's verdict, or None: nothing the phase asks for is on the mat (compare it)."""


def simultaneous(state: CookieState) -> bool:
    """Whether every seat lays a card face down now (a turn; The Big Hunt's Phase 3)."""
    return (isinstance(state, HuntState) and state.phase == "play") or (
        isinstance(state, BigHuntState) and state.phase == "hunt"
    )


def judge_cards(
    state: CookieState,
    seen: CookieCards,
    requests: Sequence[Request] = (),
    marked: frozenset[int] = frozenset(),
) -> Verdict:
    """The next action the mat shows, a refusal, out of sync, or what the table waits for.

    ``marked`` are seats whose confirm said their card is down (a back the camera cannot see).
    """
    layout = replace(expected_layout(state), marked=marked)
    if not state.is_over() and not seen.unknown_tags:
        verdict = _phase(state)(state, seen, layout)
        if verdict is not None:
            return verdict
    found = differences(state, seen)
    if found:
        places = tuple(sorted({seat for seat, _ in found if seat is not None}))
        return Verdict("out-of-sync", places=places, reason="; ".join(w for _, w in found))
    if simultaneous(state):
        return _laying(state, seen, layout)
    return Verdict("in-sync", reason=asked_for(state))


def asked_for(state: CookieState) -> str:
    """What the table waits for now, in words for the whole table."""
    acting = [seat for seat in state.to_act() if seat != CHANCE]
    who = state.player_name(acting[0]) if acting else ""
    words = {
        "aim": f"{who}: lay your card in the zone of the player you aim it at",
        "reveal": "turn up your Role cards in your zones",
        "claim": f"{who}: lay the character you claim face up in your zone",
        "check": f"{who}: turn up another player's Role card in their zone, "
        "or press confirm: I looked",
        "turn-up": "turn up the Role card in its owner's zone",
        "target": "turn up the target card in the centre",
        "deal": "turn up one exclusion card in the centre",
    }
    return words.get(state.phase, "the card mat matches the game")


def _phase(state: CookieState) -> Callable[[CookieState, CookieCards, CookieLayout], Judged]:
    if simultaneous(state):
        return _turned_up
    if isinstance(state, HuntState):
        return {"aim": _aim, "reveal": _role_turned_up}.get(state.phase, _nothing)  # type: ignore[return-value]
    phases = {
        "deal": _open_exclusion,
        "claim": _claim,
        "check": _challenge,
        "turn-up": _challenged_role,
        "target": _target,
    }
    return phases.get(state.phase, _nothing)  # type: ignore[return-value]


def _nothing(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Judged:
    return None


# -- cards laid face down, then turned up ----------------------------------------------


def placed_seats(state: CookieState, seen: CookieCards, layout: CookieLayout) -> list[int]:
    """Seats still to act whose card lies face down in their zone (or who pressed confirm)."""
    acting = state.to_act()
    return [
        seat
        for seat in state.seat_order()
        if seat in acting and (seen.seats[seat].backs or seat in layout.marked)
    ]


def _own_new(state: CookieState, seen: CookieCards, layout: CookieLayout, seat: int) -> list[Card]:
    return [c for c in new_cards(seen, layout, seat) if c.kind == "set" and c.owner == seat]


def _turned_up(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Judged:
    """A card turned up in its seat's zone: its Play (or Hunt) once every seat has placed."""
    waiting = [seat for seat in state.seat_order() if seat in state.to_act()]
    flipped = {
        seat: cards[0] for seat in waiting if len(cards := _own_new(state, seen, layout, seat)) == 1
    }
    placed = set(placed_seats(state, seen, layout))
    ready = all(seat in placed or seat in flipped for seat in waiting)
    for seat, card in flipped.items():
        if not ready:
            return Verdict(
                "illegal",
                places=(seat,),
                reason=f"{state.player_name(seat)} turned up a card before everyone had "
                "placed: lay it face down again",
            )
        make = Play if isinstance(state, HuntState) else Hunt
        return _if_legal(state, make(card.name, player=seat), seat)
    return None


def _laying(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Verdict:
    """Who has placed (``places``) and who the table still waits for."""
    placed = placed_seats(state, seen, layout)
    waiting = [seat for seat in state.seat_order() if seat in state.to_act()]
    if waiting and set(placed) == set(waiting):
        reason = "everyone has placed: turn your cards up"
        return Verdict("nothing", places=tuple(placed), reason=reason)
    names = ", ".join(state.player_name(seat) for seat in waiting if seat not in placed)
    shown = ", ".join(state.player_name(seat) for seat in placed) or "nobody"
    return Verdict("nothing", places=tuple(placed), reason=f"placed: {shown}; waiting for {names}")


# -- Every Man for Himself ------------------------------------------------------------


def _aim(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Judged:
    """The aiming seat's Sword or Shield seen in another seat's zone: its aim."""
    assert isinstance(state, HuntState)
    seat = state.aiming[0]
    card = set_card(state.played[seat][-1], seat)
    target = seen.where(card)
    if target is None or target == seat:
        return None
    return _if_legal(state, Aim(target, player=seat), seat)


def _role_turned_up(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Judged:
    """The next Role card the engine asks for, if it lies face up in its seat's zone."""
    assert isinstance(state, HuntState)
    seat = state.roles.index(None)
    roles = [card for card in new_cards(seen, layout, seat) if card.kind == "role"]
    if len(roles) != 1:
        return None
    return _if_legal(state, RevealRole(seat, roles[0].name, player=CHANCE), seat)


# -- The Big Hunt -----------------------------------------------------------------------


def _claim(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Judged:
    """Phase 1: the claimer's character laid face up; anyone else laying one is out of turn."""
    claimer = state.to_act()[0]
    laid = _own_new(state, seen, layout, claimer)
    if len(laid) == 1:
        return _if_legal(state, Claim(laid[0].name, player=claimer), claimer)
    if len(laid) > 1:
        return Verdict(
            "illegal",
            places=(claimer,),
            reason=f"{state.player_name(claimer)}: one claim at a time (take one back)",
        )
    for seat in state.seat_order():
        if seat != claimer and _own_new(state, seen, layout, seat):
            return Verdict(
                "illegal",
                places=(seat,),
                reason=f"not {state.player_name(seat)}'s turn: {state.player_name(claimer)} "
                "claims first (take the card back)",
            )
    return None


def _challenge(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Judged:
    """Phase 2: a Role card turned up in another seat's zone is the checker's challenge."""
    assert isinstance(state, BigHuntState)
    checker = state.to_act()[0]
    for seat in range(state.num_players):
        roles = [card for card in new_cards(seen, layout, seat) if card.kind == "role"]
        if not roles:
            continue
        if seat == checker:
            return Verdict(
                "illegal",
                places=(seat,),
                reason=f"{state.player_name(seat)} cannot turn up their own Role card",
            )
        slots = slots_turned_up(state, seat, roles[0].name)
        if len(slots) == 1:
            return _if_legal(state, Challenge(seat, slots[0], player=checker), checker)
        options = tuple(Challenge(seat, slot, player=checker) for slot in slots)
        claims = [state.claims[seat][slot] for slot in slots]
        return Verdict(
            "choose",
            places=(checker,),
            options=options,
            reason=f"{state.player_name(checker)}: which of {state.player_name(seat)}'s Role "
            f"cards was it? confirm: the one under the claim {claims[0]}; or type "
            f"'{options[1].notation()}' (under {claims[1]})",
        )
    return None


def slots_turned_up(state: BigHuntState, seat: int, character: str) -> list[int]:
    """Which of the seat's face-down Role cards may have been turned up, the likelier first.

    With one Role card each it is the only one. With two (2 players) the
    camera cannot tell which lay under which claim: the one under the claim
    the card matches comes first (a truthful claim), and the seat says which.
    """
    hidden = [slot for slot in range(state.slots) if not state.revealed[seat][slot]]
    matching = [slot for slot in hidden if state.claims[seat][slot] == character]
    return matching + [slot for slot in hidden if slot not in matching]


def _challenged_role(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Judged:
    """The challenged Role card, face up: it is supplied to the engine."""
    assert isinstance(state, BigHuntState) and state.challenge is not None
    _, seat, slot = state.challenge
    roles = [card for card in new_cards(seen, layout, seat) if card.kind == "role"]
    if len(roles) != 1:
        return None
    return _if_legal(state, RevealRole(seat, roles[0].name, slot, player=CHANCE), seat)


def _open_exclusion(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Judged:
    """3 players: the exclusion card turned face up in the centre."""
    assert isinstance(state, BigHuntState)
    offered = state.legal_actions()
    roles = new_centre_roles(seen, layout)
    if len(roles) != 1 or not offered or not isinstance(offered[0], OpenExclusion):
        return None
    return _if_legal(state, OpenExclusion(roles[0].name, player=CHANCE), None)


def _target(state: CookieState, seen: CookieCards, layout: CookieLayout) -> Judged:
    """After Phase 3: the target card turned up in the centre."""
    roles = new_centre_roles(seen, layout)
    if len(roles) != 1:
        return None
    return _if_legal(state, RevealTarget(roles[0].name, player=CHANCE), None)


# -- shared -------------------------------------------------------------------------------


def _if_legal(state: CookieState, action: Action, seat: int | None) -> Verdict:
    """A move if the engine takes ``action`` now; else illegal, with its reason, on ``seat``."""
    if action in state.legal_actions(None if action.player == CHANCE else action.player):
        return Verdict("move", action=action)
    places = () if seat is None else (seat,)
    return Verdict("illegal", places=places, reason=_refusal(state, action))


def _refusal(state: CookieState, action: Action) -> str:
    """Why the engine refuses ``action``, in its own words (a card laid: naming no hand)."""
    if isinstance(action, Play | Hunt):
        card = action.card if isinstance(action, Play) else action.character
        return (
            f"{state.player_name(action.player)} cannot lay the {card} now: "
            "take it back and lay another card"
        )
    try:
        state.clone().apply(action)
    except IllegalAction as error:
        return str(error)
    return f"{action.safe_notation()} does not fit now"


__all__ = ["card_words", "judge_cards", "placed_seats", "simultaneous"]
