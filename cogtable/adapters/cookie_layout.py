"""What the card mat must show for a Cookie game, and where a reading differs from it.

The layout of a state (:func:`expected_layout`), per seat zone:

- Every Man for Himself: the seat's Role card face down (until it is turned
  up for scoring, then face up), the cards it played this round face up,
  except a Sword or Shield aimed at another seat, which lies face up in that
  seat's zone; the card laid this turn may be one more back;
- The Big Hunt: the seat's Role card(s) face down (a challenged one face up),
  its claims face up, its Phase 3 card face up once turned up (one more back
  before); the centre holds the open exclusion card face up (3 players).

Reference cards are never looked for (they may lie anywhere), and backs in
the centre (the target, the exclusion cards) are not counted.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from cogtable.adapters.cookie_cards import Card, CookieCards, role, set_card
from games.cookie.bighunt import BigHuntState
from games.cookie.common import CookieState
from games.cookie.hunt import SHIELD, SWORD, HuntState


@dataclass(frozen=True)
class ZoneExpected:
    """One seat's zone as the game holds it."""

    face_up: frozenset[Card]
    backs: int
    """Role cards lying face down."""
    may_place: bool = False
    """One more back is allowed: the seat may lay its card face down now."""


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
    role_up = not state.known and known is not None
    if role_up:
        own.add(role(known))  # type: ignore[arg-type]
    may_place = state.phase == "play" and face_down is None
    return ZoneExpected(frozenset(own | aimed_here), 0 if role_up else 1, may_place)


def _big_hunt_layout(state: BigHuntState) -> CookieLayout:
    zones = []
    for seat in range(state.num_players):
        own = {set_card(card, seat) for card in state.claims[seat]}
        if state.hunts[seat] is not None:
            own.add(set_card(state.hunts[seat], seat))  # type: ignore[arg-type]
        shown = [slot for slot in range(state.slots) if state.revealed[seat][slot]]
        own |= {role(state.roles[seat][slot]) for slot in shown}  # type: ignore[arg-type]
        may_place = state.phase == "hunt" and state.hunts[seat] is None
        zones.append(ZoneExpected(frozenset(own), state.slots - len(shown), may_place))
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
    missing = sorted(layout.centre_roles - seen.centre.roles(), key=_order)
    if extra:
        found.append((None, f"centre: turn {_names(state, extra)} face down"))
    if missing:
        found.append((None, f"centre: {_names(state, missing)} should lie face up"))
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
    missing = sorted(expected.face_up - got.face_up - layout.movable, key=_order)
    zone = f"{state.player_name(seat)}'s zone"
    words = [f"{zone}: take away {_names(state, extra)}"] if extra else []
    words += [f"{zone}: {_names(state, missing)} should lie here face up"] if missing else []
    fewest = expected.backs - (len(got.roles() - expected.face_up) if turning else 0)
    most = expected.backs + (1 if expected.may_place else 0)
    if not fewest <= got.backs <= most:
        want = str(most) if fewest == most else f"{fewest} to {most}"
        words.append(f"{zone}: {got.backs} cards face down, expected {want}")
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
