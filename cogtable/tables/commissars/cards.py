"""Cogs and Commissars cards as the camera sees them on the card mat, and which it has counted.

The mat (:mod:`vision.cards.mat`): each seat's zone holds that seat's draw
deck (face down) and discard pile (face up, only its top card seen); the
centre zone is the stack, cards laid face up, the newest on top. Whose card a
tag is comes from the shipped tag data (``games/commissars/card_tags.toml``):
each physical card belongs to one faction deck, and the seat playing that
faction owns it (so the camera reads preconstructed decks only). Faction
Leader cards may lie anywhere and are never looked for.

A pile shows only its top card and the names repeat (seven Propaganda), so
the camera cannot tell from names alone that a second Propaganda landed on
the first. :class:`TagBook` remembers which physical cards (tag ids) the
engine already knows face up; a tag it has not counted is a card just laid.
The book follows the engine: each reading, per (owner, card name), it keeps
at most as many tags as the engine has copies face up (stack, card resolving,
discard pile), the longest known first, and counts a seen tag it lacks when
the engine has more copies than tags. The table keeps no book between
readings: each reading builds one from the last reading the table committed
to (:class:`Committed`: a reading in sync with the game, or the zone a card
just taken was laid in) and what the engine holds, so a table rebuilt from
the journal and given that reading judges the next one alike. With none (a
restart) every card seen that the game already holds is counted.

>>> card_of(1, ("gorobotchev", "androidopov"))
CardSeen(tag=1, name='Propaganda', owner=0)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from cogtable.card_decks import CardTag, load_deck
from cogtable.tables.card_zones import ZoneSeen, zones_of
from games.commissars.state import CommissarsState
from games.core import Action
from vision.cards.mat import CardMatLayout

CardKey = tuple[int, str]
"""A card as the engine counts it: (owner seat, card name)."""


@dataclass(frozen=True)
class CardSeen:
    """One physical card seen face up: its tag, its name and the seat whose deck it belongs to."""

    tag: int
    name: str
    owner: int

    @property
    def key(self) -> CardKey:
        """The card as the engine counts it."""
        return (self.owner, self.name)


@dataclass(frozen=True)
class CommissarsMat:
    """A settled card-mat reading: per seat its pile's face-up cards and backs, the stack."""

    piles: tuple[tuple[CardSeen, ...], ...]
    decks: tuple[int, ...]
    """The backs counted in each seat's zone (its draw deck: one back while it holds cards)."""
    stack: tuple[CardSeen, ...] = ()
    unknown_tags: tuple[int, ...] = ()
    """Tag ids no card of this game (or no seat playing) carries: another game's card."""
    astray: tuple[CardSeen, ...] = ()
    """Cards outside every zone the game reads (a seat nobody plays, a stray zone)."""

    def cards(self) -> list[tuple[int | None, CardSeen]]:
        """Every card seen, with its zone: a seat (its pile), or None (the stack)."""
        found: list[tuple[int | None, CardSeen]] = [(None, card) for card in self.stack]
        for seat, pile in enumerate(self.piles):
            found += [(seat, card) for card in pile]
        return found


@cache
def _tags() -> dict[int, CardTag]:
    return {tag.tag_id: tag for tag in load_deck("commissars").tags}


def card_of(tag_id: int, factions: Sequence[str]) -> CardSeen | None:
    """The card carrying ``tag_id`` at a table whose seats play ``factions``; None if none."""
    tag = _tags().get(tag_id)
    if tag is None or tag.deck not in factions:
        return None
    return CardSeen(tag_id, tag.name, list(factions).index(tag.deck))


def is_leader(tag_id: int) -> bool:
    """Whether ``tag_id`` is a Faction Leader card (never looked for)."""
    tag = _tags().get(tag_id)
    return tag is not None and tag.deck == "leaders"


def tags_for(faction: str, name: str) -> tuple[int, ...]:
    """The tag ids of ``faction``'s copies of ``name``, in the data file's order."""
    return tuple(tag.tag_id for tag in _tags().values() if tag.deck == faction and tag.name == name)


def read_mat(
    observation: object, mat: CardMatLayout, state: CommissarsState
) -> CommissarsMat | None:
    """The settled reading as Commissars cards; None when it holds no reading of the mat."""
    zones = zones_of(observation)
    if zones is None:
        return None
    factions = [seat.faction for seat in state.seats]
    seats = {zone.name: zone.seat for zone in mat.zones}
    piles: list[list[CardSeen]] = [[] for _ in factions]
    decks = [0] * len(factions)
    stack: list[CardSeen] = []
    unknown: list[int] = []
    astray: list[CardSeen] = []
    for name, seen in zones.items():
        cards = _cards(seen, factions, unknown)
        seat = seats.get(name, -1)
        if seat is None:
            stack += cards
        elif seat is not None and 1 <= seat <= len(factions):
            piles[seat - 1] += cards
            decks[seat - 1] += seen.backs
        else:
            astray += cards
    return CommissarsMat(
        tuple(tuple(pile) for pile in piles),
        tuple(decks),
        tuple(stack),
        tuple(sorted(unknown)),
        tuple(astray),
    )


def _cards(seen: ZoneSeen, factions: Sequence[str], unknown: list[int]) -> list[CardSeen]:
    cards = []
    for tag_id in seen.face_up:
        card = card_of(tag_id, factions)
        if card is not None:
            cards.append(card)
        elif not is_leader(tag_id):
            unknown.append(tag_id)
    return cards


# -- what the engine holds face up -------------------------------------------------------


@dataclass(frozen=True)
class FaceUp:
    """Where the engine holds a card face up: copies on the stack (or resolving), in the pile."""

    stack: int = 0
    pile: int = 0

    @property
    def total(self) -> int:
        return self.stack + self.pile


def face_up(state: CommissarsState) -> dict[CardKey, FaceUp]:
    """Per (owner, name): the copies the engine holds face up, on the stack and in the pile.

    A Doublespeak duplicate is no physical card; a card's owner is its
    ``home`` (whose discard pile it goes to, the deck it came from).
    """
    on_stack: Counter[CardKey] = Counter()
    for entry in state.stack + ([state.resolving] if state.resolving else []):
        if not entry.copy:
            on_stack[(entry.home, entry.card)] += 1
    in_pile: Counter[CardKey] = Counter()
    for seat, player in enumerate(state.seats):
        for name in player.discard:
            in_pile[(seat, name)] += 1
    return {
        key: FaceUp(on_stack[key], in_pile[key]) for key in sorted(on_stack.keys() | in_pile.keys())
    }


def pile_top(state: CommissarsState, seat: int) -> str | None:
    """The name of the card on top of ``seat``'s discard pile (None: the pile is empty)."""
    discard = state.seats[seat].discard
    return discard[-1] if discard else None


@dataclass(frozen=True)
class Holding:
    """What the engine holds face up at one moment (the book compares readings with it)."""

    cards: Mapping[CardKey, FaceUp]
    """Per (owner, name): its copies on the stack (or resolving) and in the pile."""
    tops: tuple[str | None, ...]
    """Each seat's pile top (None: an empty pile)."""
    piles: tuple[int, ...]
    """How many cards each seat's pile holds."""
    plies: int
    """How many actions the game had taken."""
    stack: tuple[CardKey, ...] | None = None
    """The physical cards on the stack (and resolving), oldest first (None: not known). A
    full stack shows its newest: a card set aside lies below every card in view."""

    @classmethod
    def of(cls, state: CommissarsState) -> Holding:
        """What ``state`` holds face up."""
        seats = range(len(state.seats))
        entries = [*state.stack, *([state.resolving] if state.resolving else [])]
        return cls(
            face_up(state),
            tuple(pile_top(state, seat) for seat in seats),
            tuple(len(state.seats[seat].discard) for seat in seats),
            len(state.history),
            tuple((e.home, e.card) for e in sorted(entries, key=lambda e: e.id) if not e.copy),
        )


@dataclass(frozen=True)
class Committed:
    """The last reading the table committed to, and what the game held face up then.

    It is the table's only memory of the mat (the adapter's :meth:`memory`): a reading
    the game matched (in sync), or the reading a card just taken was laid in (its zone).
    """

    seen: CommissarsMat
    holding: Holding

    def taking(self, seen: CommissarsMat, zone: int | None, holding: Holding) -> Committed:
        """This reading with ``zone`` as ``seen`` shows it (a card laid there was taken)."""
        if zone is None:
            mat = dataclasses.replace(self.seen, stack=seen.stack)
        else:
            piles = list(self.seen.piles)
            piles[zone] = seen.piles[zone]
            mat = dataclasses.replace(self.seen, piles=tuple(piles))
        return Committed(mat, holding)


@dataclass(frozen=True)
class Reported:
    """A card the book reported as just laid: counted once the engine took one of ``actions``."""

    tag: int
    zone: int | None
    ply: int
    actions: tuple[Action, ...]


class TagBook:
    """The physical cards (tag ids) the engine holds face up: see the module docstring.

    A book is built afresh for every reading from the last committed reading
    (:meth:`committed_to`): the tags that reading shows and the engine then held
    face up are counted, those it showed at all are *settled* where it showed them.
    Following a new reading (:meth:`follow`):

    - a tag counted stays counted while the engine holds as many copies face up
      (those seen on the stack first, up to the engine's copies there): an undo, a
      reshuffle, a card retrieved make it forget;
    - a tag not counted is counted on the stack (all of it is seen) while the
      engine has more copies there than the book counts; on a pile when it is the
      top the engine has there and the top the book saw is no longer held there
      (retrieved, reshuffled, the pile shorter than at the committed reading) or
      is seen elsewhere (an undo put it back on the stack), or when the committed
      reading showed it on the stack or the game moved a copy of it from the stack
      to that pile since (it resolved, or was countered). A different card on a
      top still held is a card laid;
    - a tag neither counted nor settled where it lies is a card just laid; a settled
      tag the engine no longer holds there is a difference, never laid twice (a flip
      that emptied the deck reshuffles the pile under the very card flipped).

    A play taken back forgets the tag laid (:meth:`_back_in_hand`), even while a copy
    of that name still lies in the pile; so does a card taken back off a pile's top
    (:meth:`_off_the_top`), even on a card of its own name.
    """

    def __init__(self) -> None:
        self.known: dict[int, CardKey] = {}
        """Tag -> card, in the order the tags were counted (the longest known first)."""
        self.tops: dict[int, int] = {}
        """Seat -> the tag last seen counted on top of its pile."""
        self.reported: Reported | None = None
        self.zones: dict[int, int | None] = {}
        """Tag -> where it was last seen counted: a seat's pile, or None (the stack)."""
        self.held: Mapping[CardKey, FaceUp] = {}
        """What the engine held face up at the last reading (to tell a resolve from an undo)."""
        self.plies = 0
        """How many actions the engine had taken at the last reading (fewer now: an undo)."""
        self.settled: dict[int, int | None] = {}
        """Tag -> where the committed reading showed it (never a card just laid there)."""
        self.piles: tuple[int, ...] = ()
        """Each seat's pile size at the committed reading (shorter now: its top went)."""
        self.taken_back: set[int] = set()
        """Tags an undo since the committed reading took back: never counted again on a pile."""

    @classmethod
    def committed_to(cls, committed: Committed | None) -> TagBook:
        """The book of a table whose last committed reading is ``committed`` (None: none yet)."""
        book = cls()
        if committed is not None:
            book.follow(committed.holding, committed.seen)
            book.settled = {card.tag: zone for zone, card in committed.seen.cards()}
            book.piles = committed.holding.piles
        return book

    def report(
        self, tag: int, zone: int | None, state: CommissarsState, actions: Sequence[Action]
    ) -> None:
        """The judge reports ``tag`` (in ``zone``) as just laid, which one of ``actions`` takes."""
        self.reported = Reported(tag, zone, len(state.history), tuple(actions))

    def follow(self, holding: Holding, seen: CommissarsMat) -> list[tuple[int | None, CardSeen]]:
        """Bring the book up to the engine; the cards just laid (not counted, not settled there)."""
        held, before = holding.cards, self.held
        if holding.plies < self.plies:
            back = self._back_in_hand(held, seen)
            self.taken_back = {*back, *self._off_the_top(holding)}
            self.known = {tag: key for tag, key in self.known.items() if tag not in self.taken_back}
        self.held, self.plies = held, holding.plies
        kept: dict[int, CardKey] = {}
        on_stack = {card.tag for card in seen.stack}
        for key, copies in held.items():
            tags = [tag for tag, known in self.known.items() if known == key]
            stacked = [tag for tag in tags if tag in on_stack][: copies.stack]
            tags = stacked + [tag for tag in tags if tag not in stacked]  # then the longest known
            kept.update(dict.fromkeys(tags[: copies.total], key))
        self.known = {tag: key for tag, key in self.known.items() if tag in kept}
        self._off_a_pile(seen, held)
        self._learn_stack(seen, held, holding.stack)
        self._learn_tops(holding, seen, before)
        for zone, card in seen.cards():
            if card.tag in self.known:
                self.zones[card.tag] = zone
        return [
            (zone, card)
            for zone, card in seen.cards()
            if card.tag not in self.known and not self.is_settled(card.tag, zone)
        ]

    def is_settled(self, tag: int, zone: int | None) -> bool:
        """Whether the committed reading showed ``tag`` in ``zone`` (so it was not just laid)."""
        return tag in self.settled and self.settled[tag] == zone

    def _back_in_hand(self, held: Mapping[CardKey, FaceUp], seen: CommissarsMat) -> list[int]:
        """Counted tags last seen on the stack whose copy left it for the hand (a play undone).

        Asked after an undo: a card leaving the stack goes to its owner's pile (it
        resolved) unless a play is taken back. Kept by count alone, the tag taken back
        would stand for a copy of that name deeper in the pile the book never saw, and
        laid again it would be a card that "has resolved", not a play. Those no longer
        on the stack go first (the camera sees no order), then the newest counted.
        """
        on_stack = {card.tag for card in seen.stack}
        gone: list[int] = []
        for key, before in self.held.items():
            now = held.get(key, FaceUp())
            back = before.stack - now.stack - max(now.pile - before.pile, 0)
            if back <= 0:
                continue
            stacked = [tag for tag, known in self.known.items() if known == key]
            stacked = [tag for tag in stacked if self.zones.get(tag, -1) is None]
            stacked.sort(key=lambda tag: tag not in on_stack)  # stable: gone ones last
            gone += stacked[-back:]
        return gone

    def _off_the_top(self, holding: Holding) -> list[int]:
        """Counted tops of piles an undo made shorter: the card taken back is a pile's newest.

        Kept, a card discarded on a card of its own name and taken back would stand for
        the one under it (the game's top has the same name): the table would be in sync
        with it still there, and once it is taken off, the card under it would be laid.
        """
        return [
            tag
            for seat, tag in self.tops.items()
            if seat < len(self.piles) and holding.piles[seat] < self.piles[seat]
        ]

    def _off_a_pile(self, seen: CommissarsMat, held: Mapping[CardKey, FaceUp]) -> None:
        """A counted card last seen on a pile, now on the stack beyond the engine's copies there.

        Cards go from the stack to a pile, never back, unless an undo puts one back on
        the stack (then the engine has room for it there). The pile hides which copy of
        a name lies where, so after a card was retrieved from under the top the book may
        count the copy the player holds: laid on the stack, it is a card played.
        """
        on_stack: Counter[CardKey] = Counter()
        for card in seen.stack:
            if card.tag in self.known:
                on_stack[card.key] += 1
        for card in seen.stack:
            from_pile = isinstance(self.zones.get(card.tag), int)
            room = held.get(card.key, FaceUp()).stack
            if card.tag in self.known and from_pile and on_stack[card.key] > room:
                del self.known[card.tag]
                on_stack[card.key] -= 1

    def _learn_stack(
        self,
        seen: CommissarsMat,
        held: Mapping[CardKey, FaceUp],
        order: tuple[CardKey, ...] | None,
    ) -> None:
        """Count a stack card not yet counted as a copy the game holds there, if it may be one.

        A full stack shows its newest cards; one set aside comes back into view when a newer
        one leaves (and an undo puts one back): it is then a copy the game holds among its
        newest. A card whose only uncounted copies lie deeper than the cards in view is a
        card just laid (a new Doublethink laid while an older one of that seat lies set aside).
        """
        below = _may_show_below(seen, order, self.known)
        for card in seen.stack:
            if card.tag in self.known or card.key not in held:
                continue  # a top taken back may go back on the stack (a resolve undone)
            counted = sum(1 for other in seen.stack if self.known.get(other.tag) == card.key)
            anywhere = sum(1 for key in self.known.values() if key == card.key)
            showable = below is None or card.key in below
            if counted < held[card.key].stack and anywhere < held[card.key].total and showable:
                self.known[card.tag] = card.key  # a card set aside under a full stack counts

    def _learn_tops(
        self, holding: Holding, seen: CommissarsMat, before: Mapping[CardKey, FaceUp]
    ) -> None:
        zones = {card.tag: zone for zone, card in seen.cards()}
        for seat, pile in enumerate(seen.piles):
            if len(pile) != 1:
                continue
            card = pile[0]
            last = self.tops.get(seat)
            shorter = seat < len(self.piles) and holding.piles[seat] < self.piles[seat]
            covered = last in self.known and zones.get(last, seat) == seat and not shorter
            resolved = self.settled.get(card.tag, -1) is None or _off_the_stack(
                card.key, before, holding.cards
            )
            fresh = card.tag not in self.known and (resolved or not covered)
            fresh = fresh and card.tag not in self.taken_back
            if fresh and card.owner == seat and holding.tops[seat] == card.name:
                self.known[card.tag] = card.key
            if card.tag in self.known:
                self.tops[seat] = card.tag

    def counted(self, tag: int) -> bool:
        """Whether the book holds ``tag``."""
        return tag in self.known


def _may_show_below(
    seen: CommissarsMat, order: tuple[CardKey, ...] | None, known: Mapping[int, CardKey]
) -> set[CardKey] | None:
    """The cards an uncounted card in view may be: of the game's newest cards, as many as are
    in view, those no counted card in view stands for (None: the order is unknown)."""
    if order is None:
        return None
    in_view = Counter(order[max(0, len(order) - len(seen.stack)) :])
    in_view.subtract(known[card.tag] for card in seen.stack if card.tag in known)
    return {key for key, left in in_view.items() if left > 0}


def _off_the_stack(
    key: CardKey, before: Mapping[CardKey, FaceUp], now: Mapping[CardKey, FaceUp]
) -> bool:
    """Whether the game moved a copy of ``key`` from the stack to its pile since ``before``
    (it resolved, or was countered: from under a full stack the camera did not see it)."""
    then, held = before.get(key, FaceUp()), now.get(key, FaceUp())
    return held.stack < then.stack and held.pile > then.pile


def counted_position(
    mat: CardMatLayout,
    piles: Mapping[int, Sequence[int]],
    stack: Sequence[int],
    decks: Mapping[int, int],
) -> dict[str, tuple[tuple[int, ...], int]]:
    """The position a camera reports for these face-up tags per seat pile, stack and backs."""
    position: dict[str, tuple[tuple[int, ...], int]] = {}
    for zone in mat.zones:
        if zone.seat is None:
            position[zone.name] = (tuple(sorted(stack)), 0)
        else:
            seat = zone.seat - 1
            position[zone.name] = (tuple(sorted(piles.get(seat, ()))), decks.get(seat, 0))
    return position
