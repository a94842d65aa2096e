"""The Cogs and Commissars card list: read ``cards.toml`` and check it.

The rulebook prints only some cards in full, so the card list is data (see the
header of ``cards.toml``). :func:`load_cards` refuses a broken file with a
:class:`CardDataError` that names the bad entry and what is wrong with it, so a
table owner who edits the file learns exactly which line to fix.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any

KINDS = ("P", "B", "C")
"""Citizen kinds: Proletariat, Bourgeoisie, Commissar."""
POINTS = {"P": 1, "B": 2, "C": 3}
KIND_NAMES = {"P": "Proletariat", "B": "Bourgeoisie", "C": "Commissar"}
TYPES = ("Action", "Propaganda", "Counter Propaganda", "Blitz", "Revolution")
TARGETS = ("none", "other_player", "citizen", "other_citizen", "entry", "retype", "kind")
SOURCES = ("rulebook", "interpretation")
ON_PLAY = ("disarm",)
DECK_SIZE = 30
CORE_SET = {"Revolution": 1, "Propaganda": 7, "Counter Propaganda": 4}

OPS: dict[str, dict[str, type]] = {
    "revolution": {"points": int},
    "take": {"kind": str},
    "counter": {"types": list},
    "send_target": {},
    "gain": {"kind": str},
    "produce": {"count": int},
    "produce_per_played": {},
    "draw": {"count": int},
    "others_send_or_discard": {"kind": str, "count": int},
    "others_send": {"kind": str},
    "others_discard": {"count": int},
    "send_above": {},
    "extra_action": {"count": int},
    "duplicate": {},
    "retype": {},
    "retrieve": {},
    "search_deck": {"types": list, "count": int},
    "intercept": {},
}
"""Effect primitives and the parameters each takes (all required; ``types = []`` means any)."""

REQUIRED = {
    "name": str,
    "type": str,
    "production": list,
    "factions": list,
    "copies": int,
    "target": str,
    "effect": list,
    "source": str,
    "text": str,
}
OPTIONAL = {
    "core": bool,
    "blitz_cost": str,
    "requires_points": int,
    "uncounterable_at": int,
    "mentions_counter": bool,
    "on_play": list,
    "reading": str,
    "placeholders": list,
}
LEADER_KEYS = {"name": str, "faction": str, "power": str, "source": str}


class CardDataError(ValueError):
    """The card file is broken; the message names the entry and the problem."""


@dataclass(frozen=True)
class Step:
    """One effect primitive with its parameters."""

    op: str
    params: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str) -> Any:
        """The parameter ``name``."""
        return dict(self.params)[name]


@dataclass(frozen=True)
class Card:
    """One card as the data file describes it."""

    name: str
    type: str
    production: tuple[str, ...]
    factions: tuple[str, ...]
    copies: int
    target: str
    effect: tuple[Step, ...]
    source: str
    text: str
    core: bool = False
    blitz_cost: str = ""
    requires_points: int = 0
    uncounterable_at: int = 0
    mentions_counter: bool = False
    on_play: tuple[str, ...] = ()
    reading: str = ""
    placeholders: tuple[str, ...] = ()

    def counters(self) -> bool:
        """True if the card counters another card."""
        return any(step.op == "counter" for step in self.effect)

    def duplicates(self) -> bool:
        """True if the card duplicates another card (Doublespeak)."""
        return any(step.op == "duplicate" for step in self.effect)

    def counter_types(self) -> tuple[str, ...]:
        """The card types this counter may target (empty: any)."""
        for step in self.effect:
            if step.op == "counter":
                return tuple(step.get("types"))
        return ()


@dataclass(frozen=True)
class Leader:
    """A Faction Leader card."""

    name: str
    faction: str
    power: str
    source: str
    reading: str = ""


@dataclass(frozen=True)
class CardSet:
    """Every card and leader, and the decks they make."""

    cards: dict[str, Card]
    leaders: dict[str, Leader] = field(default_factory=dict)

    @property
    def factions(self) -> tuple[str, ...]:
        """The faction keys, in the data file's order."""
        return tuple(self.leaders)

    @cached_property
    def blitz_names(self) -> frozenset[str]:
        """Cards playable outside your own turn with the stack empty.

        Blitz types and paid Blitzes (Hire Assassin), except those whose target
        is a card on the stack (counters, Doublespeak, Define the Truth). A
        quick filter: a hand without any of these cannot interject.
        """
        return frozenset(
            card.name
            for card in self.cards.values()
            if (card.type in ("Blitz", "Counter Propaganda") or card.blitz_cost)
            and card.target not in ("entry", "retype")
        )

    def leader_faction(self, name: str) -> str:
        """The faction key of the leader card called ``name`` ('' if there is none)."""
        return next((key for key, leader in self.leaders.items() if leader.name == name), "")

    def faction_deck(self, faction: str) -> Counter[str]:
        """The preconstructed 30-card deck of ``faction``."""
        return Counter(
            {card.name: card.copies for card in self.cards.values() if faction in card.factions}
        )

    def core_set(self) -> Counter[str]:
        """One core set: the 12 cards every random or drafted deck holds."""
        return Counter({card.name: card.copies for card in self.cards.values() if card.core})

    def regular_pool(self) -> Counter[str]:
        """Every regular (non-core) play card, for random decks and drafts."""
        pool: Counter[str] = Counter()
        for card in self.cards.values():
            if not card.core:
                pool[card.name] += card.copies * len(card.factions)
        return pool


def load_cards(text: str | None = None) -> CardSet:
    """Read and check the card list (the shipped ``cards.toml`` unless ``text`` is given)."""
    if text is None:
        text = resources.files(__package__).joinpath("cards.toml").read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CardDataError(f"cards.toml is not valid TOML: {error}") from error
    unknown = set(data) - {"card", "leader"}
    if unknown:
        raise CardDataError(f"cards.toml: unknown top-level keys {sorted(unknown)}")
    leaders = _read_leaders(data.get("leader", []))
    cards = _read_cards(data.get("card", []), tuple(leaders))
    card_set = CardSet(cards, leaders)
    _check_decks(card_set)
    return card_set


def _read_leaders(entries: Any) -> dict[str, Leader]:
    if not isinstance(entries, list) or not entries:
        raise CardDataError("cards.toml: no [[leader]] entries")
    leaders: dict[str, Leader] = {}
    for number, entry in enumerate(entries, start=1):
        where = f"leader {number} ({entry.get('name', '?')!r})"
        _check_keys(entry, LEADER_KEYS, {"reading": str}, where)
        if entry["faction"] in leaders:
            raise CardDataError(f"cards.toml: {where}: faction {entry['faction']!r} twice")
        _check_source(entry, where)
        leaders[entry["faction"]] = Leader(**entry)
    return leaders


def _read_cards(entries: Any, factions: tuple[str, ...]) -> dict[str, Card]:
    if not isinstance(entries, list) or not entries:
        raise CardDataError("cards.toml: no [[card]] entries")
    cards: dict[str, Card] = {}
    for number, entry in enumerate(entries, start=1):
        where = f"card {number} ({entry.get('name', '?')!r})"
        card = _read_card(entry, factions, where)
        if card.name in cards:
            raise CardDataError(f"cards.toml: {where}: the name is used twice")
        cards[card.name] = card
    return cards


def _read_card(entry: dict[str, Any], factions: tuple[str, ...], where: str) -> Card:
    _check_keys(entry, REQUIRED, OPTIONAL, where)
    _check_choice(entry["type"], TYPES, "type", where)
    _check_choice(entry["target"], TARGETS, "target", where)
    _check_source(entry, where)
    production = _check_list(entry["production"], KINDS, "production", where)
    if not 1 <= len(production) <= 2:
        raise CardDataError(f"cards.toml: {where}: production needs one or two icons")
    _check_list(entry["factions"], factions, "factions", where)
    _check_list(entry.get("on_play", []), ON_PLAY, "on_play", where)
    if entry["copies"] < 1:
        raise CardDataError(f"cards.toml: {where}: copies must be at least 1")
    if entry.get("blitz_cost", "") not in ("", *KINDS):
        raise CardDataError(f"cards.toml: {where}: blitz_cost must be one of {KINDS}")
    steps = tuple(_read_step(step, where) for step in entry["effect"])
    fields = {**entry, "effect": steps}
    for name in ("production", "factions", "on_play", "placeholders"):
        if name in fields:
            fields[name] = tuple(fields[name])
    return Card(**fields)


def _read_step(step: Any, where: str) -> Step:
    if not isinstance(step, dict) or step.get("op") not in OPS:
        raise CardDataError(
            f"cards.toml: {where}: effect step {step!r} needs op = one of {sorted(OPS)}"
        )
    params = {key: value for key, value in step.items() if key != "op"}
    _check_keys(params, OPS[step["op"]], {}, f"{where}, effect {step['op']!r}")
    for key in ("kind",):
        if key in params:
            _check_choice(params[key], KINDS, key, where)
    if "types" in params:
        _check_list(params["types"], TYPES, "types", where)
        params["types"] = tuple(params["types"])
    return Step(step["op"], tuple(sorted(params.items())))


def _check_keys(
    entry: Any, required: dict[str, type], optional: dict[str, type], where: str
) -> None:
    if not isinstance(entry, dict):
        raise CardDataError(f"cards.toml: {where}: expected a table, got {entry!r}")
    missing = sorted(set(required) - set(entry))
    unknown = sorted(set(entry) - set(required) - set(optional))
    if missing or unknown:
        raise CardDataError(f"cards.toml: {where}: missing keys {missing}, unknown keys {unknown}")
    for key, value in entry.items():
        expected = {**required, **optional}[key]
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise CardDataError(
                f"cards.toml: {where}: {key} = {value!r} should be a {expected.__name__}"
            )


def _check_choice(value: str, allowed: tuple[str, ...], key: str, where: str) -> None:
    if value not in allowed:
        raise CardDataError(f"cards.toml: {where}: {key} {value!r} is not one of {list(allowed)}")


def _check_list(values: list[Any], allowed: tuple[str, ...], key: str, where: str) -> list[Any]:
    for value in values:
        _check_choice(value, allowed, key, where)
    return values


def _check_source(entry: dict[str, Any], where: str) -> None:
    _check_choice(entry["source"], SOURCES, "source", where)
    if entry["source"] == "interpretation" and not entry.get("reading"):
        raise CardDataError(f"cards.toml: {where}: an interpretation needs a reading")


def _check_decks(card_set: CardSet) -> None:
    """Every faction deck is 30 cards holding one core set; the core set is 1/7/4."""
    core = card_set.core_set()
    if core != Counter(CORE_SET):
        raise CardDataError(f"cards.toml: the core set is {dict(core)}, expected {CORE_SET}")
    for faction in card_set.factions:
        deck = card_set.faction_deck(faction)
        size = sum(deck.values())
        if size != DECK_SIZE:
            raise CardDataError(
                f"cards.toml: faction {faction!r}: its deck has {size} cards, expected {DECK_SIZE}"
            )
        if any(deck[name] != count for name, count in core.items()):
            raise CardDataError(f"cards.toml: faction {faction!r}: its deck lacks a core set")
