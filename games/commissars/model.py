"""The pieces of a Cogs and Commissars position: seats and stack entries (tasks: ``tasks.py``)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from .cards import KINDS, POINTS


@dataclass
class Seat:
    """One player's cards and Citizens.

    With known hands (``hands = "known"``) ``hand`` and ``deck`` are exact and
    ``unseen`` is 0. In table mode (``hands = "unknown"``) a draw puts an unseen
    card in the hand: ``unseen`` counts them, ``hand`` holds the cards known to be
    there (retrieved, searched out, or deduced), and ``deck`` holds the cards
    that are in the deck *or* unseen in the hand, which the table cannot tell
    apart; the deck itself holds ``deck.total() - unseen`` of them (:meth:`deck_size`).
    """

    faction: str
    leader: str
    hand: Counter[str] = field(default_factory=Counter)
    deck: Counter[str] = field(default_factory=Counter)
    discard: list[str] = field(default_factory=list)
    citizens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    packet: Counter[str] = field(default_factory=Counter)
    unseen: int = 0

    def hand_size(self) -> int:
        """How many cards are in the hand, known or not."""
        return self.hand.total() + self.unseen

    def deck_size(self) -> int:
        """How many cards are in the deck."""
        return self.deck.total() - self.unseen

    def holdable(self) -> Collection[str]:
        """The names of the cards this hand may hold: known ones, and any unseen one could be."""
        if not self.unseen:
            return self.hand.keys()
        return self.hand.keys() | self.deck.keys()

    def could_hold(self, name: str) -> bool:
        """Whether the hand holds ``name`` (known) or an unseen card of the hand could be one."""
        return self.hand[name] > 0 or (self.unseen > 0 and self.deck[name] > 0)

    def take_from_hand(self, name: str) -> None:
        """``name`` leaves the hand: a known copy if there is one, else an unseen card is it.

        Taking the known copy first keeps every hand the table thinks possible:
        an unseen card that turned out to be ``name`` leaves fewer.
        """
        if self.hand[name] > 0:
            _take(self.hand, name)
        else:
            _take(self.deck, name)
            self.unseen -= 1

    def resolve_unseen(self) -> None:
        """The deck is empty, so the unseen cards are exactly the rest: they become known."""
        if self.unseen:
            self.hand += self.deck
            self.deck, self.unseen = Counter(), 0

    def points(self) -> int:
        """The value of this player's Citizens."""
        return sum(POINTS[kind] * count for kind, count in self.citizens.items())

    def copy(self) -> Seat:
        """An independent copy."""
        return Seat(
            self.faction,
            self.leader,
            _copy_counter(self.hand),
            _copy_counter(self.deck),
            list(self.discard),
            dict(self.citizens),
            _copy_counter(self.packet),
            self.unseen,
        )

    def snapshot(self) -> dict[str, Any]:
        """Everything, secrets included, JSON-ready."""
        return {
            "faction": self.faction,
            "leader": self.leader,
            "hand": dict(sorted(self.hand.items())),
            "deck": dict(sorted(self.deck.items())),
            "discard": list(self.discard),
            "citizens": dict(self.citizens),
            "packet": dict(sorted(self.packet.items())),
            "unseen": self.unseen,
        }

    def public(self) -> dict[str, Any]:
        """What the whole table sees of this seat."""
        return {
            "faction": self.faction,
            "leader": self.leader,
            "citizens": dict(self.citizens),
            "points": self.points(),
            "hand_size": self.hand_size(),
            "deck_size": self.deck_size(),
            "discard": list(self.discard),
        }


def _take(counter: Counter[str], name: str) -> None:
    """One ``name`` out of ``counter``, dropping the key at zero (listings read the keys)."""
    counter[name] -= 1
    if counter[name] <= 0:
        del counter[name]


def _copy_counter(counter: Counter[str]) -> Counter[str]:
    """A copy of ``counter``, made as a plain dict copy: Counter's own copy counts item by
    item, and a clone (made on every ply of a checked simulation) copies every pile."""
    twin: Counter[str] = Counter.__new__(Counter)
    dict.update(twin, counter)
    return twin


@dataclass
class Entry:
    """A card (or a Doublespeak duplicate) on the stack, waiting to resolve.

    ``player`` controls it (played it, or owns the duplicate); ``home`` is the
    player whose discard pile the card goes to (differs after Intercept
    Transmission). ``protected``: Stifle Free Speech may not target it (Disarm
    the Citizens); ``uncounterable``: nothing may counter it (Revolution at 20+).
    ``shield_before``: whose cards a Disarm shielded before this card was played
    (-1: nobody), so a countered Disarm can put back exactly what stood before it.
    """

    id: int
    card: str
    player: int
    home: int
    target: int = -1
    kind: str = ""
    entry: int = -1
    copy: bool = False
    protected: bool = False
    uncounterable: bool = False
    played_before: int = 0
    shield_before: int = -1

    def to_json(self) -> dict[str, Any]:
        """This entry, JSON-ready (stack entries are public)."""
        return {field.name: getattr(self, field.name) for field in FIELDS}

    def clone(self) -> Entry:
        """An independent copy."""
        return dataclasses.replace(self)


FIELDS = dataclasses.fields(Entry)


@dataclass
class Window:
    """An open response window: who may respond next, and how many passed in a row.

    The top card of the stack resolves once every player passed in a row.
    """

    next: int
    passes: int = 0

    def to_json(self) -> dict[str, int]:
        """This window, JSON-ready."""
        return {"next": self.next, "passes": self.passes}
