"""What the Commissars card mat may show next: the explanations the commit decision weighs.

Places are the mat's zones, labels what the camera reads there (the face-up tag
ids, sorted; the backs), as :mod:`cogtable.sights.card_evidence` names them. The
engine knows cards by name, the camera by tag, so the base is the mat as the table
last judged it (:func:`position_of_mat` of the adapter's committed reading after a
restart). Between two commits only a few positions are possible:

- unchanged (in sync);
- each card the players to act may lay now: a play onto the stack (the centre
  zone gains a tag of that card from its owner's deck, any copy not in view); a
  discard onto the seat's pile, or the Produce flip the game waits for (the pile
  then shows that card on top; a flip may empty the deck, or reshuffle the pile
  into it: its back may go or come);
- each card the game has resolved (or countered) that still lies on the stack,
  laid on its owner's pile; all of them at once, in either order, and all of them
  as a card is played (a table clears the stack and plays on in one go);
- the last move taken back: a play's card off the stack; a discard's or flip's
  card off the pile (the pile shows the card under it, any copy of that name, or
  nothing).

Faction Leader cards lie where they lie (a pile's change keeps them). Anything
else (a card of another deck, two cards at once) is left to the decision's "as
seen", which needs every zone it changes to be clear; the judge
(:mod:`cogtable.tables.commissars.judge`) then says what is wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from cogtable.commit_decision import IN_SYNC, Explanation, ExplanationKind, Explanations
from cogtable.tables.card_zones import ZoneSeen
from cogtable.tables.commissars.cards import (
    CardSeen,
    CommissarsMat,
    card_of,
    counted_position,
    face_up,
    is_leader,
    pile_top,
    tags_for,
)
from games.commissars.actions import Discard, Play, TopCard
from games.commissars.state import CommissarsState
from games.commissars.tasks import Flip
from vision.cards.mat import CardMatLayout
from vision.cards.reader import OUTSIDE

Label = tuple[tuple[int, ...], int]
"""A zone as the camera reads it: (face-up tag ids, sorted; backs)."""
EMPTY: Label = ((), 0)
Moved = tuple[str, CardSeen]
"""A card on a stack zone that goes to its owner's pile."""


def position_of_zones(mat: CardMatLayout, zones: Mapping[str, ZoneSeen]) -> dict[str, Label]:
    """Every zone of ``mat`` and :data:`OUTSIDE` as ``zones`` show them (not shown: empty)."""
    names = (*(zone.name for zone in mat.zones), OUTSIDE)
    return {
        name: (zones[name].face_up, zones[name].backs) if name in zones else EMPTY for name in names
    }


def position_of_mat(mat: CardMatLayout, seen: CommissarsMat) -> dict[str, Label]:
    """The zones of a reading the adapter remembers (its piles, decks and stack; nothing
    outside them: it keeps no such card)."""
    piles = {seat: [card.tag for card in pile] for seat, pile in enumerate(seen.piles)}
    decks = dict(enumerate(seen.decks))
    stack = [card.tag for card in seen.stack]
    return {**counted_position(mat, piles, stack, decks), OUTSIDE: EMPTY}


def explanations(
    state: CommissarsState,
    before: CommissarsState | None,
    mat: CardMatLayout,
    position: Mapping[str, Label],
) -> Explanations:
    """The positions the mat may show next, from ``position`` (see the module docstring)."""
    zones = _Zones(state, mat, position)
    options = [IN_SYNC]
    if before is not None and state.history:
        options += _taken_back(state, before, zones)
    if not state.is_over():
        laid = list(_laid(state, zones))
        moved, exact = _resolved(state, zones)
        options += laid
        options += _off_the_stack(zones, moved, exact, laid)
    return Explanations(zones.base, tuple(options))


class _Zones:
    """The base position and which zone is whose, for one game."""

    def __init__(
        self, state: CommissarsState, mat: CardMatLayout, position: Mapping[str, Label]
    ) -> None:
        names = (*(zone.name for zone in mat.zones), OUTSIDE)
        self.base = {name: position.get(name, EMPTY) for name in names}
        self.factions = [seat.faction for seat in state.seats]
        self.piles = {
            zone.seat - 1: zone.name
            for zone in mat.zones
            if zone.seat is not None and 1 <= zone.seat <= len(self.factions)
        }
        self.stacks = tuple(zone.name for zone in mat.zones if zone.seat is None)
        self.in_view = {tag for ids, _backs in self.base.values() for tag in ids}

    def unseen(self, owner: int, name: str) -> list[int]:
        """The tags of ``owner``'s copies of ``name`` not in view (any may be the one laid)."""
        if not 0 <= owner < len(self.factions):
            return []
        return [tag for tag in tags_for(self.factions[owner], name) if tag not in self.in_view]

    def on_stack(self, zone: str, tag: int) -> Label:
        """``zone`` (a stack) with ``tag`` laid on it."""
        ids, backs = self.base[zone]
        return tuple(sorted({*ids, tag})), backs

    def off(self, zone: str, tag: int) -> Label:
        """``zone`` with ``tag`` taken away."""
        ids, backs = self.base[zone]
        return tuple(other for other in ids if other != tag), backs

    def topped(self, seat: int, tag: int | None, backs: int | None = None) -> Label:
        """Seat ``seat``'s pile showing ``tag`` on top (None: nothing), leaders kept."""
        ids, held = self.base[self.piles[seat]]
        shown = [other for other in ids if is_leader(other)] + ([tag] if tag is not None else [])
        return tuple(sorted(shown)), held if backs is None else backs


def _laid(state: CommissarsState, zones: _Zones) -> Iterator[Explanation]:
    """Every card the players to act may lay now, each copy not in view."""
    task = state.tasks[0] if state.tasks else None
    done: set[tuple[str, int, str]] = set()
    for player in state.to_act():
        for action in state.legal_actions(player):
            if isinstance(action, Play):
                owner = action.source if action.source >= 0 else action.player
                where = ("stack", owner, action.card)
            elif isinstance(action, Discard) and action.player is not None:
                where = ("pile", action.player, action.card)
            elif isinstance(action, TopCard) and isinstance(task, Flip):
                where = ("flip", task.player, action.card)
            else:
                continue
            if where not in done:
                done.add(where)
                yield from _placements(zones, *where)


def _placements(zones: _Zones, kind: str, owner: int, name: str) -> Iterator[Explanation]:
    """``owner``'s card ``name`` laid on the stack, or on the owner's pile."""
    for tag in zones.unseen(owner, name):
        if kind == "stack":
            for zone in zones.stacks:
                yield _legal({zone: zones.on_stack(zone, tag)}, f"{name} played")
        elif owner in zones.piles:
            pile = zones.piles[owner]
            backs = {zones.base[pile][1]} | ({0, 1} if kind == "flip" else set())
            for count in sorted(backs):
                yield _legal({pile: zones.topped(owner, tag, count)}, f"{name} on the pile")


def _resolved(state: CommissarsState, zones: _Zones) -> tuple[list[Moved], bool]:
    """The cards on the stack beyond the engine's copies there (resolved or countered: each
    may go to its owner's pile), and whether all of them go (no copy is in doubt)."""
    held = face_up(state)
    found: list[Moved] = []
    exact = True
    for zone in zones.stacks:
        cards = [card_of(tag, zones.factions) for tag in zones.base[zone][0]]
        shown = Counter(card.key for card in cards if card is not None)
        for card in cards:
            if card is None or card.owner not in zones.piles:
                continue
            excess = shown[card.key] - (held[card.key].stack if card.key in held else 0)
            if excess > 0:
                found.append((zone, card))
                exact = exact and excess == shown[card.key]
    return found, exact


def _to_piles(zones: _Zones, moved: Sequence[Moved]) -> dict[str, Label]:
    """The changes of ``moved`` taken off the stack onto their owners' piles (the last on
    top of a pile)."""
    changes: dict[str, Label] = {}
    for zone, card in moved:
        ids, backs = changes.get(zone, zones.base[zone])
        changes[zone] = (tuple(tag for tag in ids if tag != card.tag), backs)
        changes[zones.piles[card.owner]] = zones.topped(card.owner, card.tag)
    return changes


def _off_the_stack(
    zones: _Zones, moved: list[Moved], exact: bool, laid: list[Explanation]
) -> Iterator[Explanation]:
    """Each resolved card to its pile; with no copy in doubt, all of them at once (in either
    order), and all of them as each card is played."""
    for one in moved:
        yield _legal(_to_piles(zones, [one]), f"{one[1].name} to its pile")
    if not exact or not moved:
        return
    if len(moved) > 1:
        yield _legal(_to_piles(zones, moved[::-1]), "the resolved cards to their piles")
    cleared = _to_piles(zones, moved)
    yield _legal(cleared, "the resolved cards to their piles")
    for option in laid:
        for zone, (ids, backs) in option.changes.items():
            if zone in cleared and zone in zones.stacks:
                new = set(ids) - set(zones.base[zone][0])
                changes = {**cleared, zone: (tuple(sorted({*cleared[zone][0], *new})), backs)}
                yield _legal(changes, f"{option.name}, the resolved cards to their piles")


def _taken_back(
    state: CommissarsState, before: CommissarsState, zones: _Zones
) -> Iterator[Explanation]:
    """The last move taken back: its card off the stack, or off the pile."""
    last = state.history[-1]
    kind = ExplanationKind.TAKE_BACK
    if isinstance(last, Play):
        owner = last.source if last.source >= 0 else last.player
        for zone in zones.stacks:
            for tag in zones.base[zone][0]:
                card = card_of(tag, zones.factions)
                if card is not None and card.key == (owner, last.card):
                    yield Explanation(kind, {zone: zones.off(zone, tag)}, f"{last.card} taken back")
        return
    seat = _pile_seat(before, last)
    if seat is None or seat not in zones.piles:
        return
    under = pile_top(before, seat)
    backs = max(zones.base[zones.piles[seat]][1], 1) if isinstance(last, TopCard) else None
    if under is None:
        yield Explanation(kind, {zones.piles[seat]: zones.topped(seat, None, backs)}, "taken back")
        return
    for tag in tags_for(zones.factions[seat], under):
        changes = {zones.piles[seat]: zones.topped(seat, tag, backs)}
        yield Explanation(kind, changes, f"taken back: {under} on top")


def _pile_seat(before: CommissarsState, last: object) -> int | None:
    """The seat whose pile the last action laid a card on (a discard, a Produce flip), or None."""
    if isinstance(last, Discard):
        return last.player
    task = before.tasks[0] if before.tasks else None
    if isinstance(last, TopCard) and isinstance(task, Flip):
        return task.player
    return None


def _legal(changes: dict[str, Label], name: str) -> Explanation:
    return Explanation(ExplanationKind.LEGAL, changes, name)
