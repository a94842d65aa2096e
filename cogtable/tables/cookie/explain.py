"""What the Cookie card mat may show next: the explanations the commit decision weighs.

Places are the mat's zones, labels what the camera reads there (the face-up tag
ids, sorted; the backs), as :mod:`cogtable.sights.card_evidence` names them. The
base is the mat as the table last judged it.

Cookie cards move in ways too many to list as whole positions: every seat lays
its card face down at once and turns it up at once, and a card the engine has
taken may stay where it lay or leave the mat (:mod:`cogtable.tables.cookie.layout`).
So the one explanation is the base (unchanged), and every seat zone and the
centre are free (:attr:`cogtable.commit_decision.Explanations.free`), each with the
labels the game allows there now:

- face up: the cards the zone shows, any one of them gone, or none (the mat
  cleared); with at most one card come: the seat's own card not in view (turned
  up, claimed), a Sword or Shield the game asks to aim next (in any zone), a Role
  card not in view where the game waits for one turned up (the centre: in The Big
  Hunt, the open exclusion card and the target);
- face down: the backs shown, or none; one where the seat may lay its card; in
  the centre, up to :data:`CENTRE_BACKS` (the target and exclusion cards).

Whatever else the mat shows (a card of a seat nobody plays, two cards at once in
one zone) is committed only as seen, when every zone it changes is clear; the
judge (:mod:`cogtable.tables.cookie.judge`) then says what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cogtable.commit_decision import IN_SYNC, Explanations
from cogtable.tables.card_zones import ZoneSeen
from cogtable.tables.cookie.cards import role_tags, set_tags, tags_of
from cogtable.tables.cookie.layout import CookieLayout, expected_layout
from games.cookie.bighunt import BigHuntState
from games.cookie.common import CookieState
from vision.cards.mat import CardMatLayout
from vision.cards.reader import OUTSIDE

Label = tuple[tuple[int, ...], int]
"""A zone as the camera reads it: (face-up tag ids, sorted; backs)."""
EMPTY: Label = ((), 0)
CENTRE_BACKS = 4
"""Face-down cards the centre zone may hold (The Big Hunt's target and exclusion cards)."""


def position_of_zones(mat: CardMatLayout, zones: Mapping[str, ZoneSeen]) -> dict[str, Label]:
    """Every zone of ``mat`` and :data:`OUTSIDE` as ``zones`` show them (not shown: empty)."""
    names = (*(zone.name for zone in mat.zones), OUTSIDE)
    return {
        name: (zones[name].face_up, zones[name].backs) if name in zones else EMPTY for name in names
    }


def explanations(
    state: CookieState, mat: CardMatLayout, position: Mapping[str, Label]
) -> Explanations:
    """The mat as it may show next, from ``position`` (see the module docstring)."""
    names = (*(zone.name for zone in mat.zones), OUTSIDE)
    base = {name: position.get(name, EMPTY) for name in names}
    in_view = {tag for ids, _backs in base.values() for tag in ids}
    layout = expected_layout(state)
    free: dict[str, tuple[Label, ...]] = {}
    for zone in mat.zones:
        if zone.seat is None:
            come = _centre_roles(state, in_view)
            backs = range(CENTRE_BACKS + 1)
        elif 1 <= zone.seat <= state.num_players:
            seat = zone.seat - 1
            come = _to_seat(state, layout, seat, in_view)
            most = max(base[zone.name][1], 1 if layout.seats[seat].may_place else 0)
            backs = range(most + 1)
        else:
            continue
        free[zone.name] = _labels(base[zone.name], come, backs)
    return Explanations(base, (IN_SYNC,), free)


def _labels(shown: Label, come: Iterable[int], backs: Iterable[int]) -> tuple[Label, ...]:
    """What a zone showing ``shown`` may show next: its cards, one gone, or none, with at most
    one of ``come`` besides; any count of ``backs``."""
    ids = shown[0]
    kept = {ids, (), *(tuple(other for other in ids if other != gone) for gone in ids)}
    faces = {
        tuple(sorted({*left, *extra})) for left in kept for extra in ((), *((t,) for t in come))
    }
    return tuple(sorted((face, count) for face in faces for count in backs))


def _to_seat(state: CookieState, layout: CookieLayout, seat: int, in_view: set[int]) -> set[int]:
    """Cards that may come to ``seat``'s zone: its own not in view, the Swords and Shields
    the game asks to aim next, a Role card where the seat's is to be turned up."""
    own = {tag for tag in set_tags(seat) if tag not in in_view}
    roles = _roles(in_view) if seat in layout.turning else set()
    return own | tags_of(layout.movable) | roles


def _centre_roles(state: CookieState, in_view: set[int]) -> set[int]:
    """Role cards that may be turned up in the centre (The Big Hunt)."""
    return _roles(in_view) if isinstance(state, BigHuntState) else set()


def _roles(in_view: set[int]) -> set[int]:
    """Every Role card not in view."""
    return {tag for tag in role_tags() if tag not in in_view}
