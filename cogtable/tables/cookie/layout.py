"""What the card mat may show for a Cookie game, and where a reading differs from it.

The standard mat's seat zone holds two cards side by side, so the mat shows
only what the camera must read now; everything else lies off the mat, in
front of its owner (:func:`expected_layout`):

- Role cards lie face down in front of their owners, off the mat, until one
  is turned up: face up in its owner's zone (for scoring, a Phase 2
  challenge); the target and the exclusion cards lie in the centre zone
  (face down: never counted; face up: the open exclusion card, the target);
- a card laid face down this turn is a back in its owner's zone;
- a card the engine has taken (turned up and played, a claim, an aimed
  Sword in its target's zone, a Role card turned up) may stay where it lay
  or leave the mat; a card lying anywhere else is out of place.

Reference cards are never looked for (they may lie anywhere).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from cogtable.tables.cookie.cards import Card, CookieCards, role, set_card
from games.cookie.bighunt import BigHuntState
from games.cookie.common import CookieState
from games.cookie.hunt import SHIELD, SWORD, HuntState


@dataclass(frozen=True)
class ZoneExpected:
    """One seat's zone as the game holds it."""

    face_up: frozenset[Card]
    """The cards the engine has taken that may lie here face up (or have left the mat)."""
    may_place: bool = False
    """One back is allowed: the seat may lay its card face down now."""


@dataclass(frozen=True)
class CookieLayout:
    """The mat as the game holds it, and what may be on its way there.

    ``movable`` are cards the engine will ask for next that may already have
    been moved (a Sword or Shield still to be aimed, in any zone);
    ``turning`` the seats whose face-down Role card may already lie face up
    (the engine asks for them one by one).
    """

    seats: tuple[ZoneExpected, ...]
    centre_roles: frozenset[Card] = frozenset()
    movable: frozenset[Card] = frozenset()
    turning: frozenset[int] = frozenset()
    marked: frozenset[int] = frozenset()
    """Seats whose confirm said their card is down where the camera cannot see its back."""


def expected_layout(state: CookieState) -> CookieLayout:
    """The layout the mat must show for ``state``."""
    if isinstance(state, HuntState):
        return _hunt_layout(state)
    assert isinstance(state, BigHuntState)
    return _big_hunt_layout(state)


def _hunt_layout(state: HuntState) -> CookieLayout:
    aimed: defaultdict[int, set[Card]] = defaultdict(set)
    for seat in range(state.num_players):
        for card, target in ((SWORD, state.sword_at[seat]), (SHIELD, state.shield_at[seat])):
            if target is not None:
                aimed[target].add(set_card(card, seat))
    zones = [_hunt_zone(state, seat, aimed[seat]) for seat in range(state.num_players)]
    movable = frozenset(set_card(state.played[seat][-1], seat) for seat in state.aiming)
    turning = frozenset(
        seat for seat, known in enumerate(state.roles) if state.phase == "reveal" and known is None
    )
    return CookieLayout(tuple(zones), movable=movable, turning=turning)


def _hunt_zone(state: HuntState, seat: int, aimed_here: set[Card]) -> ZoneExpected:
    aimed_away = {SWORD: state.sword_at[seat], SHIELD: state.shield_at[seat]}
    own = {set_card(card, seat) for card in state.played[seat] if aimed_away.get(card) is None}
    face_down = state.choices[seat]
    if face_down is not None:  # taken when it was seen face up
        own.add(set_card(face_down, seat))
    known = state.roles[seat]
    if not state.known and known is not None:
        own.add(role(known))  # turned up for scoring
    may_place = state.phase == "play" and face_down is None
    return ZoneExpected(frozenset(own | aimed_here), may_place)


def _big_hunt_layout(state: BigHuntState) -> CookieLayout:
    zones = []
    for seat in range(state.num_players):
        own = {set_card(card, seat) for card in state.claims[seat]}
        if state.hunts[seat] is not None:
            own.add(set_card(state.hunts[seat], seat))  # type: ignore[arg-type]
        shown = [slot for slot in range(state.slots) if state.revealed[seat][slot]]
        own |= {role(state.roles[seat][slot]) for slot in shown}  # type: ignore[arg-type]
        may_place = state.phase == "hunt" and state.hunts[seat] is None
        zones.append(ZoneExpected(frozenset(own), may_place))
    centre = frozenset({role(state.open_exclusion)} if state.open_exclusion else ())
    challenged = state.challenge[1] if state.challenge else None
    turning = frozenset({challenged} if challenged is not None else ())
    return CookieLayout(tuple(zones), centre_roles=centre, turning=turning)


def new_cards(seen: CookieCards, layout: CookieLayout, seat: int) -> list[Card]:
    """Cards face up in ``seat``'s zone that the game does not put there (references aside)."""
    expected = layout.seats[seat].face_up
    return sorted(
        (card for card in seen.seats[seat].face_up if card not in expected and _counted(card)),
        key=_order,
    )


def new_centre_roles(seen: CookieCards, layout: CookieLayout) -> list[Card]:
    """Role cards face up in the centre that the game does not put there."""
    return sorted(seen.centre.roles() - layout.centre_roles, key=_order)


def differences(state: CookieState, seen: CookieCards) -> list[tuple[int | None, str]]:
    """Where the mat differs from the game, in words, by seat (None: the centre, the margin)."""
    layout = expected_layout(state)
    found: list[tuple[int | None, str]] = []
    if seen.unknown_tags:
        ids = ", ".join(str(tag) for tag in seen.unknown_tags)
        found.append((None, f"tag {ids} is on no Cookie card: take it off the mat"))
    astray = [card for card in seen.astray if _counted(card)]
    if astray:
        found.append((None, f"{_names(state, astray)} lie outside the zones of the players"))
    for seat in range(state.num_players):
        found += [(seat, words) for words in _zone_differences(state, seen, layout, seat)]
    extra = new_centre_roles(seen, layout)
    if extra:
        found.append((None, f"centre: turn {_names(state, extra)} face down"))
    return found


def _zone_differences(
    state: CookieState, seen: CookieCards, layout: CookieLayout, seat: int
) -> list[str]:
    expected, got = layout.seats[seat], seen.seats[seat]
    turning = seat in layout.turning
    extra = [
        card
        for card in new_cards(seen, layout, seat)
        if card not in layout.movable and not (turning and card.kind == "role")
    ]
    zone = f"{state.player_name(seat)}'s zone"
    words = [f"{zone}: take away {_names(state, extra)}"] if extra else []
    most = 1 if expected.may_place else 0
    if got.backs > most:
        words.append(f"{zone}: {got.backs} cards face down, expected at most {most}")
    return words


def differing_seats(state: CookieState, seen: CookieCards) -> tuple[int, ...]:
    """The seats whose zone differs from the game, in seat order."""
    return tuple(sorted({seat for seat, _ in differences(state, seen) if seat is not None}))


def fresh_round(state: CookieState) -> bool:
    """Nothing a player laid this round is in the game yet (the mat must be clear of the last)."""
    if isinstance(state, HuntState):
        return state.turn == 0 and all(card is None for card in state.choices)
    assert isinstance(state, BigHuntState)
    return not any(state.claims)


def card_words(state: CookieState, card: Card) -> str:
    """``Sword (P1's)``, ``Role card Cookie``, ``Reference card``."""
    if card.kind == "role":
        return f"Role card {card.name}"
    if card.owner is None:
        return card.name
    return f"{card.name} ({state.player_name(card.owner)}'s)"


def _names(state: CookieState, cards: list[Card]) -> str:
    return ", ".join(card_words(state, card) for card in cards)


def _counted(card: Card) -> bool:
    """Reference cards may lie anywhere: the table never looks for them."""
    return card.kind != "reference"


def _order(card: Card) -> tuple[int, str, str]:
    return (-1 if card.owner is None else card.owner, card.kind, card.name)
