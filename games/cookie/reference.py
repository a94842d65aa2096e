"""The Reference cards: who hunts whom, read from ``hunting.toml``.

The rulebook does not print the Reference cards, so the hunting relation is
data a table owner can correct. What the rulebook does print is checked here:
the six characters, which characters 5 and 4 players remove, and that every
character hunts exactly one other and is hunted by exactly one.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

CHARACTERS = ("Cookie", "Blue", "Strontium", "37", "Persians", "Cosine")
"""The six characters, in the order of the hunting cycle."""

REMOVED = {6: (), 5: ("Cosine",), 4: ("Cosine", "Persians")}
"""Characters the rulebook removes for each Reference card (players in Every Man for Himself)."""

DATA_FILE = "hunting.toml"


class BadReference(ValueError):
    """A hunting table that breaks what the rulebook prints; the message names the key."""


@dataclass(frozen=True)
class Reference:
    """One Reference card: the characters in play and who hunts whom."""

    characters: tuple[str, ...]
    prey: Mapping[str, str]
    hunter: Mapping[str, str]

    def hunts(self, hunter: str, prey: str) -> bool:
        """True if ``hunter`` hunts ``prey`` on this card."""
        return self.prey.get(hunter) == prey


def parse_references(data: Mapping[str, Any]) -> dict[int, Reference]:
    """Check the parsed TOML and build one :class:`Reference` per card (4, 5, 6)."""
    tables = data.get("reference")
    if not isinstance(tables, Mapping):
        raise BadReference("the hunting data needs a [reference.N] table for N = 4, 5 and 6")
    return {size: _parse_card(size, tables.get(str(size))) for size in sorted(REMOVED)}


def _parse_card(size: int, table: Any) -> Reference:
    key = f"reference.{size}"
    if not isinstance(table, Mapping):
        raise BadReference(f"[{key}] is missing; it lists who hunts whom with {size} characters")
    expected = tuple(c for c in CHARACTERS if c not in REMOVED[size])
    if set(table) != set(expected):
        raise BadReference(f"[{key}] names {sorted(table)}; expected exactly {sorted(expected)}")
    for hunter, prey in table.items():
        if prey not in expected or prey == hunter:
            raise BadReference(
                f"{key}.{hunter} = {prey!r}: expected another character of {list(expected)}"
            )
    hunted = list(table.values())
    if len(set(hunted)) != len(hunted):
        doubled = sorted({p for p in hunted if hunted.count(p) > 1})
        raise BadReference(f"[{key}] has {doubled} hunted twice; each must be hunted by one")
    ordered = {c: table[c] for c in expected}
    return Reference(expected, ordered, {prey: hunter for hunter, prey in ordered.items()})


def load_references(text: str | None = None) -> dict[int, Reference]:
    """The Reference cards from TOML ``text``, or from the shipped data file."""
    if text is None:
        text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise BadReference(f"{DATA_FILE} is not valid TOML: {error}") from error
    return parse_references(data)


REFERENCES = load_references()
"""The shipped Reference cards, by number of characters."""
