"""Which printed tag each card of a game carries: the tag -> card data shipped with the game.

Each game read through cards ships ``games/<game>/card_tags.toml`` (data
only: the rules engines never read it, and ``games/`` stays free of I/O):
``[[card]]`` entries with the card's ``name``, its ``deck`` (a Commissars
faction, a Cookie colour set, ``leaders``, ``roles``) and ``ids``, one tag id
per physical copy. :func:`load_deck` reads and checks it against the game's
own card names, so a misspelt card or an id used twice is refused, naming
it. :func:`owner_deck` reads a table owner's deck list (``"Card name" =
copies`` under ``[cards]``) and picks the shipped tags to print for it.

The data sits beside each game's card list, not under ``cogtable/``, so that
whoever edits a game's cards sees its tags in the same folder; cogtable
alone reads it.

>>> deck = load_deck("commissars")
>>> len(deck.tags), deck.card(0).name
(186, 'Revolution')
>>> len(load_deck("cookie").tags)
63
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from cogtable.errors import UserError
from cogtable.files import read_text
from vision.cards.tags import check_card_id

DECK_GAMES = ("commissars", "cookie")
"""The games whose cards carry tags."""
DATA_FILE = "card_tags.toml"
DECK_LIMIT = 1024 * 1024
"""Bytes an owner's deck list may hold (a list of card names and copies)."""


@dataclass(frozen=True)
class CardTag:
    """One physical card: its tag id, the card's name and the deck it belongs to."""

    tag_id: int
    name: str
    deck: str


@dataclass(frozen=True)
class CardDeck:
    """Every tagged card of a game, in the data file's order."""

    game: str
    tags: tuple[CardTag, ...]

    def card(self, tag_id: int) -> CardTag:
        """The card carrying ``tag_id``; KeyError naming it when no card does."""
        for tag in self.tags:
            if tag.tag_id == tag_id:
                return tag
        raise KeyError(f"no {self.game} card carries tag {tag_id}")

    def names(self) -> tuple[str, ...]:
        """The card names, each once, in order."""
        return tuple(dict.fromkeys(tag.name for tag in self.tags))


def known_names(game: str) -> frozenset[str]:
    """Every card name the game's own data gives (what a tag may name)."""
    if game == "commissars":
        from games.commissars.cards import load_cards

        cards = load_cards()
        return frozenset(cards.cards) | {leader.name for leader in cards.leaders.values()}
    if game == "cookie":
        from games.cookie.reference import CHARACTERS

        roles = {f"Role: {name}" for name in CHARACTERS}
        references = {f"Reference ({count} players)" for count in (4, 5, 6)}
        return frozenset(CHARACTERS) | {"Sword", "Shield", "Hill"} | roles | references
    raise UserError(f"{game!r} has no tagged cards: choose {' or '.join(DECK_GAMES)}")


@cache
def load_deck(game: str) -> CardDeck:
    """The shipped tag data of ``game``, checked (UserError naming the entry if it is broken)."""
    if game not in DECK_GAMES:
        raise UserError(f"{game!r} has no tagged cards: choose {' or '.join(DECK_GAMES)}")
    source = f"games/{game}/{DATA_FILE}"
    text = resources.files(f"games.{game}").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return parse_deck(text, game, source)


def parse_deck(text: str, game: str, source: str) -> CardDeck:
    """Read tag data from ``text``; UserError (one line, naming ``source`` and the entry) if bad."""
    data = _toml(text, source)
    if data.get("game") != game:
        raise UserError(f"{source}: game = {data.get('game')!r}, expected {game!r}")
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise UserError(f"{source}: no [[card]] entries")
    names = known_names(game)
    tags: list[CardTag] = []
    seen: dict[int, str] = {}
    for number, entry in enumerate(entries, start=1):
        for tag in _entry(entry, f"{source}: card {number}", names):
            if tag.tag_id in seen:
                raise UserError(
                    f"{source}: card {number} ({tag.name}): tag {tag.tag_id} is already "
                    f"{seen[tag.tag_id]}'s"
                )
            seen[tag.tag_id] = tag.name
            tags.append(tag)
    return CardDeck(game, tuple(tags))


def _entry(entry: Any, where: str, names: frozenset[str]) -> list[CardTag]:
    """The tags of one ``[[card]]`` entry."""
    if not isinstance(entry, dict):
        raise UserError(f"{where}: expected a table with name, deck and ids")
    unknown = set(entry) - {"name", "deck", "ids"}
    if unknown:
        raise UserError(f"{where}: unknown key {sorted(unknown)[0]!r} (expected name, deck, ids)")
    name, deck, ids = entry.get("name"), entry.get("deck", ""), entry.get("ids")
    if not isinstance(name, str) or name not in names:
        raise UserError(f"{where}: name = {name!r} is not a card of this game")
    if not isinstance(deck, str):
        raise UserError(f"{where} ({name}): deck = {deck!r}, expected text")
    if not isinstance(ids, list) or not ids:
        raise UserError(f"{where} ({name}): ids = {ids!r}, expected a list of tag ids")
    try:
        return [CardTag(check_card_id(tag_id), name, deck) for tag_id in ids]
    except ValueError as error:
        raise UserError(f"{where} ({name}): {error}") from None


def owner_deck(game: str, path: Path) -> tuple[CardTag, ...]:
    """The shipped tags for a table owner's deck list: ``[cards]`` with ``"name" = copies``.

    Copies take the game's tags for that card in order; UserError (one line)
    for an unreadable file, an unknown card or more copies than tags.
    """
    source = str(path)
    try:
        text = read_text(path, DECK_LIMIT, "a deck list")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise UserError(f"--deck {path}: cannot read it: {reason}") from None
    data = _toml(text, source)
    wanted = data.get("cards")
    if set(data) != {"cards"} or not isinstance(wanted, dict) or not wanted:
        raise UserError(f'{source}: expected only a [cards] table of "card name" = copies')
    deck = load_deck(game)
    chosen: list[CardTag] = []
    for name, copies in wanted.items():
        tags = [tag for tag in deck.tags if tag.name == name]
        if not tags:
            raise UserError(f"{source}: {name!r} is not a {game} card")
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise UserError(f"{source}: {name} = {copies!r}, expected a whole number of copies")
        if copies > len(tags):
            raise UserError(
                f"{source}: {name} = {copies}, but the {game} tag data has {len(tags)} "
                f"tag{'s' if len(tags) > 1 else ''} for it (add ids to games/{game}/{DATA_FILE})"
            )
        chosen += tags[:copies]
    return tuple(chosen)


def _toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{source} is not valid TOML: {error}") from None
