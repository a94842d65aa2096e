"""The pieces of a Cogs and Commissars position: seats and stack entries (tasks: ``tasks.py``)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import KINDS, POINTS


@dataclass
class Seat:
    """One player's cards and Citizens."""

    faction: str
    leader: str
    hand: Counter[str] = field(default_factory=Counter)
    deck: Counter[str] = field(default_factory=Counter)
    discard: list[str] = field(default_factory=list)
    citizens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    packet: Counter[str] = field(default_factory=Counter)

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
        }

    def public(self) -> dict[str, Any]:
        """What the whole table sees of this seat."""
        return {
            "faction": self.faction,
            "leader": self.leader,
            "citizens": dict(self.citizens),
            "points": self.points(),
            "hand_size": self.hand.total(),
            "deck_size": self.deck.total(),
            "discard": list(self.discard),
        }


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
