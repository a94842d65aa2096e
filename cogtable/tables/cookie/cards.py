"""The Cookie's cards as the camera sees them: a settled card-mat reading, by seat.

The card reader (:mod:`vision.cards.reader`) reports, per zone of the card mat, the
tag ids lying face up and how many card backs lie face down (read as typed
zones by :mod:`cogtable.tables.card_zones`, shared with every card-mat
game). This module turns that into what the Cookie adapter reasons about: per seat, the
:class:`Card` objects face up in the seat's zone and the backs there, and the
same for the centre zone.

Whose card a tag is comes from the shipped tag data (``games/cookie/card_tags.toml``):
the six colour sets are handed to the seats in the data file's order (seat 1
plays the first set, "red set"), so a Sword lying in P3's zone whose tag
belongs to P1's set is P1's Sword aimed at P3. Role cards and Reference
cards belong to nobody.

Which zone is whose: the mat's :class:`vision.cards.mat.CardZone` says it
(``seat``, from 1); zones without a seat (the centre stack) are the table's.

>>> from vision.cards.mat import standard_mat
>>> seen = read_cards({"seat1": ((206,), 1), "centre": ((), 1)}, standard_mat(4), 4)
>>> seen.seats[0].face_up, seen.seats[0].backs, seen.centre.backs
(frozenset({Card(name='Sword', owner=0, kind='set')}), 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from cogtable.card_decks import CardTag, load_deck
from cogtable.tables.card_zones import zones_of
from vision.cards.mat import CardMatLayout

CardKind = Literal["set", "role", "reference"]
ROLE_PREFIX = "Role: "


@dataclass(frozen=True)
class Card:
    """One physical Cookie card: its name, whose set it is (seat from 0) and its kind.

    A set card (a character, Sword, Shield, Hill) has an ``owner``; a Role card
    is named by its character (kind ``role``, no owner); a Reference card is
    kind ``reference``.
    """

    name: str
    owner: int | None
    kind: CardKind = "set"


def role(character: str) -> Card:
    """The Role card of ``character``."""
    return Card(character, None, "role")


def set_card(name: str, owner: int) -> Card:
    """Seat ``owner``'s card called ``name`` (from their colour set)."""
    return Card(name, owner, "set")


@dataclass(frozen=True)
class ZoneCards:
    """One zone as the camera settled it: the cards face up and the backs counted."""

    face_up: frozenset[Card] = frozenset()
    backs: int = 0

    def roles(self) -> frozenset[Card]:
        """The Role cards lying face up here."""
        return frozenset(card for card in self.face_up if card.kind == "role")


@dataclass(frozen=True)
class CookieCards:
    """A settled reading of the card mat, by seat (index from 0), the centre, and oddities."""

    seats: tuple[ZoneCards, ...]
    centre: ZoneCards = field(default_factory=ZoneCards)
    unknown_tags: tuple[int, ...] = ()
    """Tag ids the Cookie's cards do not carry (another game's card, a misread)."""
    astray: tuple[Card, ...] = ()
    """Cards lying outside every zone, or in the zone of a seat nobody plays."""

    def where(self, card: Card) -> int | None:
        """The seat whose zone holds ``card`` (None: not in a seat zone)."""
        for seat, zone in enumerate(self.seats):
            if card in zone.face_up:
                return seat
        return None


@cache
def _tags() -> dict[int, CardTag]:
    return {tag.tag_id: tag for tag in load_deck("cookie").tags}


@cache
def colour_sets() -> tuple[str, ...]:
    """The colour sets in the tag data's order: seat 1 plays the first."""
    decks = (tag.deck for tag in load_deck("cookie").tags if tag.deck.endswith(" set"))
    return tuple(dict.fromkeys(decks))


def card_of(tag_id: int) -> Card | None:
    """The card carrying ``tag_id``, or None when no Cookie card does."""
    tag = _tags().get(tag_id)
    if tag is None:
        return None
    if tag.name.startswith(ROLE_PREFIX):
        return role(tag.name.removeprefix(ROLE_PREFIX))
    if tag.deck in colour_sets():
        return set_card(tag.name, colour_sets().index(tag.deck))
    return Card(tag.name, None, "reference")


def set_tags(seat: int) -> tuple[int, ...]:
    """The tag ids of seat ``seat``'s colour set (seat from 0)."""
    deck = colour_sets()[seat]
    return tuple(tag.tag_id for tag in _tags().values() if tag.deck == deck)


def role_tags() -> tuple[int, ...]:
    """The tag ids of every Role card."""
    return tuple(tag for tag in _tags() if _tags()[tag].name.startswith(ROLE_PREFIX))


def tags_of(cards: Iterable[Card]) -> set[int]:
    """The tag ids carrying any of ``cards``."""
    wanted = set(cards)
    return {tag for tag in _tags() if card_of(tag) in wanted}


def tag_of(card: Card) -> int:
    """The tag id ``card`` carries (the first, where a card has several copies)."""
    for tag_id in _tags():
        if card_of(tag_id) == card:
            return tag_id
    raise KeyError(f"no Cookie card {card}")


def zone_seats(mat: CardMatLayout) -> dict[str, int | None]:
    """Zone name -> the seat (from 0) it belongs to, None for shared zones."""
    return {zone.name: None if zone.seat is None else zone.seat - 1 for zone in mat.zones}


def read_cards(observation: Any, mat: CardMatLayout, players: int) -> CookieCards | None:
    """The settled reading as Cookie cards; None when it holds no reading of the mat.

    ``observation`` is the card mat's settled position (zone name -> (face-up
    tag ids, face-down count), as :meth:`vision.cards.reader.CardMatReading.position`
    gives it), possibly under the region's name (``{"cards": {...}}``): read
    by :func:`cogtable.tables.card_zones.zones_of`, as every card-mat game reads it.
    """
    zones = zones_of(observation)
    if zones is None:
        return None
    seats = zone_seats(mat)
    unknown: list[int] = []
    astray: list[Card] = []
    by_seat: dict[int | None, tuple[set[Card], int]] = {}
    for name, seen in zones.items():
        cards = _cards(seen.face_up, unknown)
        seat = seats.get(name, -1)
        if seat == -1 or (seat is not None and seat >= players):
            astray.extend(cards)
            continue
        held, counted = by_seat.get(seat, (set(), 0))
        by_seat[seat] = (held | cards, counted + seen.backs)
    return CookieCards(
        seats=tuple(_zone(by_seat.get(seat)) for seat in range(players)),
        centre=_zone(by_seat.get(None)),
        unknown_tags=tuple(sorted(unknown)),
        astray=tuple(astray),
    )


def _zone(found: tuple[set[Card], int] | None) -> ZoneCards:
    if found is None:
        return ZoneCards()
    return ZoneCards(frozenset(found[0]), found[1])


def _cards(face_up: tuple[int, ...], unknown: list[int]) -> set[Card]:
    cards = set()
    for tag_id in face_up:
        card = card_of(tag_id)
        if card is None:
            unknown.append(tag_id)
        else:
            cards.add(card)
    return cards


def position_of(
    seats: Mapping[int, ZoneCards], mat: CardMatLayout, centre: ZoneCards | None = None
) -> dict[str, tuple[tuple[int, ...], int]]:
    """The settled position a camera would report of these zones (what tests and the mock lay)."""
    position: dict[str, tuple[tuple[int, ...], int]] = {}
    for zone in mat.zones:
        found = centre if zone.seat is None else seats.get(zone.seat - 1)
        found = found or ZoneCards()
        position[zone.name] = (tuple(sorted(tag_of(c) for c in found.face_up)), found.backs)
    return position
