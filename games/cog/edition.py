"""The C.O.G. edition data: loading ``cog.toml`` and checking it against the rulebook.

The rulebook does not print the letter distribution, the goal-card words, the
cabinet cards, the pawn track, the slot icons, the grid or two of the dice
colours. Those live in a TOML data file (``cog.toml`` beside this module) whose
made-up values are marked as placeholders. A table owner may load their own
copy; :func:`load_edition` checks it against every count the rulebook prints
and raises :class:`EditionError` naming the entry that is wrong.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from games.cog.layout import Layout, LayoutError, parse_layout
from games.core import BadOptions

LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
TILE_COUNT = 120
SPARE_COUNT = 16
CABINET_COUNT = 42
GOAL_COUNT = 6
GRID_BONUS_COUNT = 8
ITEM_CUBES = 12
PRINTED_DICE = ("black", "aqua")
ALWAYS_WILD = frozenset({"HPK", "TWY", "BCG"})
EDITION_LIMIT = 1024 * 1024
"""Bytes an edition file may hold (the shipped cog.toml is 13 KiB)."""
ICON = re.compile(r"^(letter|centre|star|cabinet|vp([1-9][0-9]?))$")

SUMMARY: dict[str, frozenset[tuple[str, ...]]] = {
    "immediate": frozenset(
        {
            ("star", "star", "star"),
            ("letter", "star", "vp3"),
            ("vp7",),
            ("letter", "letter", "vp2"),
        }
    ),
    "colour": frozenset({("vp3",), ("letter",), ("star", "vp1")}),
    "pips": frozenset({("letter", "vp1"), ("vp3",), ("star", "star")}),
}
"""The rulebook's power card summary: each group's power sets (sorted icons)."""


class EditionError(BadOptions):
    """An edition data file that is unreadable or disagrees with the rulebook."""


@dataclass(frozen=True)
class CabinetCard:
    """One cabinet card: a power card or an item card."""

    id: int
    name: str
    kind: str
    cost: str = "none"
    pips: tuple[int, ...] = ()
    timing: str = ""
    powers: tuple[str, ...] = ()
    wild: str = ""
    word: str = ""
    missing: tuple[str, ...] = ()
    bonus: tuple[str, ...] = ()

    def label(self) -> str:
        """A short text a player recognises, e.g. ``#12 Odd funnel (pips 1/3: letter vp1)``."""
        if self.kind == "item":
            return f"#{self.id} {self.name} (item {self.word}, needs {''.join(self.missing)})"
        if self.timing == "always":
            return f"#{self.id} {self.name} ({'/'.join(self.wild)} wild)"
        cost = "/".join(map(str, self.pips)) if self.cost == "pips" else self.cost
        return f"#{self.id} {self.name} ({self.timing}, {cost}: {' '.join(self.powers)})"


ICON_WORDS = {
    "letter": ("a letter from the bag", "letters from the bag"),
    "centre": ("a centre letter", "centre letters"),
    "star": ("a star", "stars"),
    "cabinet": ("a cabinet card", "cabinet cards"),
}


def describe_icons(icons: tuple[str, ...] | list[str]) -> str:
    """Icons in words, so a player need not know the icon names.

    >>> describe_icons(("letter", "star", "star", "vp3"))
    'a letter from the bag, 2 stars and 3 VP'
    """
    counts = Counter(icon for icon in icons if not icon.startswith("vp"))
    parts = [_icon_words(icon, count) for icon, count in counts.items()]
    vp = sum(int(icon[2:]) for icon in icons if icon.startswith("vp"))
    if vp:
        parts.append(f"{vp} VP")
    return _listed(parts) if parts else "nothing"


def _icon_words(icon: str, count: int) -> str:
    one, many = ICON_WORDS[icon]
    return one if count == 1 else f"{count} {many}"


def describe_card(card: CabinetCard) -> str:
    """What a player reads on a cabinet card, in words (the engine's rules, not its fields).

    >>> describe_card(CabinetCard(30, "Clamp", "item", word="CLAMP", missing=("A", "M"),
    ...                           bonus=("vp5",)))
    'Clamp: item CLAMP (missing A M; bonus 5 VP)'
    >>> describe_card(CabinetCard(12, "Odd funnel", "power", "pips", (1, 3), "round",
    ...                           ("letter", "vp1")))
    'Odd funnel: once a round with a die showing 1 or 3, a letter from the bag and 1 VP'
    """
    if card.kind == "item":
        missing = " ".join(card.missing)
        return (
            f"{card.name}: item {card.word} (missing {missing}; bonus {describe_icons(card.bonus)})"
        )
    if card.timing == "always":
        return f"{card.name}: {_listed(list(card.wild))} are always wild"
    powers = describe_icons(card.powers)
    if card.timing == "immediate":
        return f"{card.name}: when taken, {powers}"
    if card.cost == "pips":
        pips = " or ".join(map(str, card.pips))
        return f"{card.name}: once a round with a die showing {pips}, {powers}"
    return f"{card.name}: once a round with the {card.cost} die, {powers}"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


@dataclass(frozen=True)
class GoalCard:
    """One goal card: its Roman number (1-6), its words and its bonus icons."""

    number: int
    words: tuple[str, ...]
    bonus: tuple[str, ...]


@dataclass(frozen=True)
class Edition:
    """Everything the engine needs that the rulebook does not print."""

    tiles: dict[str, int]
    spares: dict[str, int]
    centre_squares: int
    dice: tuple[str, ...]
    top_slots: tuple[tuple[int, int], ...]
    track: tuple[tuple[str, ...], ...]
    grid_rows: int
    grid_cols: int
    grid_bonus: dict[tuple[int, int], tuple[str, ...]]
    goals: tuple[GoalCard, ...]
    cabinet: tuple[CabinetCard, ...]
    layout: Layout | None = None
    """Where the camera reads the board and the mats (``[layout]``); None: not given."""

    def goal(self, number: int) -> GoalCard:
        """The goal card with this Roman number."""
        return next(card for card in self.goals if card.number == number)

    def goal_of_word(self, word: str) -> int:
        """The number of the goal card that lists ``word`` (0 if none)."""
        return next((card.number for card in self.goals if word in card.words), 0)


def load_edition(path: str | Path | None = None) -> Edition:
    """The edition in ``path`` (the built-in ``cog.toml`` if empty), checked.

    Files are read once per path; the result is shared and immutable in use.
    """
    return _load_cached(str(path or ""))


@cache
def _load_cached(path: str) -> Edition:
    return parse_edition(_read_text(path), path or "cog.toml")


def _read_text(path: str) -> str:
    try:
        if not path:
            return resources.files(__package__).joinpath("cog.toml").read_text("utf-8")
        return _read_at_most(Path(path), EDITION_LIMIT)
    except (OSError, UnicodeDecodeError) as error:
        raise EditionError(f"cannot read the C.O.G. edition file {path}: {error}") from error


def _read_at_most(path: Path, limit: int) -> str:
    """The file's UTF-8 text; OSError if it holds more than ``limit`` bytes.

    At most that + 1 bytes are read, so that a device or a huge file
    (``/dev/zero``) named by mistake is refused at once, not read into memory.
    """
    with path.open("rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"it holds over {limit // 1024 // 1024} MiB: too big to be an edition")
    return data.decode("utf-8")


def parse_edition(text: str, source: str = "edition") -> Edition:
    """Parse and check edition TOML text; :class:`EditionError` names a bad entry."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise EditionError(f"{source}: not valid TOML: {error}") from error
    try:
        return _build(data)
    except EditionError as error:
        raise EditionError(f"{source}: {error}") from error
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise EditionError(
            f"{source}: malformed entry ({type(error).__name__}: {error})"
        ) from error


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise EditionError(message)


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    section = data.get(name)
    _need(isinstance(section, dict), f"the [{name}] table is missing")
    return section  # type: ignore[return-value]


def _build(data: dict[str, Any]) -> Edition:
    letters, board = _section(data, "letters"), _section(data, "board")
    grid, track = _section(data, "grid"), _section(data, "track")
    rows, cols = _grid_size(grid)
    goals = _goals(data.get("goals"))
    edition = Edition(
        tiles=_letter_counts(letters.get("tiles"), "letters.tiles", TILE_COUNT),
        spares=_letter_counts(letters.get("spares"), "letters.spares", SPARE_COUNT),
        centre_squares=_positive_int(board.get("centre_squares"), "board.centre_squares"),
        dice=_dice(board.get("dice")),
        top_slots=_top_slots(board.get("top_slots")),
        track=_track(track.get("spaces")),
        grid_rows=rows,
        grid_cols=cols,
        grid_bonus=_grid_bonus(grid.get("bonus"), rows, cols),
        goals=goals,
        cabinet=(),
    )
    cards = _cabinet(_section(data, "cabinet").get("cards"), edition)
    return Edition(**{**edition.__dict__, "cabinet": cards, "layout": _layout(data, edition)})


def _layout(data: dict[str, Any], edition: Edition) -> Layout | None:
    """The ``[layout]`` table, checked against the edition's counts (None if absent)."""
    if "layout" not in data:
        return None
    try:
        return parse_layout(
            data["layout"],
            top_slots=edition.top_slots,
            centre=edition.centre_squares,
            track=len(edition.track),
            rows=edition.grid_rows,
            cols=edition.grid_cols,
        )
    except LayoutError as error:
        raise EditionError(str(error)) from error


def _positive_int(value: Any, name: str) -> int:
    ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
    _need(ok, f"{name} must be a positive whole number, not {value!r}")
    return value  # type: ignore[no-any-return]


def _letter_counts(value: Any, name: str, total: int) -> dict[str, int]:
    _need(isinstance(value, dict), f"{name} must be a table of letter = count")
    for letter, count in value.items():
        _need(letter in LETTERS, f"{name}: {letter!r} is not a capital letter A-Z")
        _positive_int(count, f"{name}.{letter}")
    found = sum(value.values())
    _need(found == total, f"{name} holds {found} tiles; the rulebook says {total}")
    return dict(sorted(value.items()))


def _icons(value: Any, name: str) -> tuple[str, ...]:
    _need(isinstance(value, list), f"{name} must be a list of icons")
    for icon in value:
        _need(
            isinstance(icon, str) and ICON.match(icon) is not None,
            f"{name}: unknown icon {icon!r} (use letter, centre, star, cabinet or vpN)",
        )
    return tuple(sorted(value))


def _dice(value: Any) -> tuple[str, ...]:
    _need(isinstance(value, list) and len(value) == 4, "board.dice must list the 4 die colours")
    _need(all(isinstance(c, str) and c for c in value), "board.dice: colours must be names")
    _need(len(set(value)) == 4, f"board.dice: colours repeat in {value}")
    for colour in PRINTED_DICE:
        _need(colour in value, f"board.dice lacks the {colour} die the rulebook names")
    return tuple(value)


def _top_slots(value: Any) -> tuple[tuple[int, int], ...]:
    _need(isinstance(value, list) and len(value) == 4, "board.top_slots must list 4 slots")
    slots = []
    for number, slot in enumerate(value):
        name = f"board.top_slots[{number}]"
        _need(isinstance(slot, dict), f"{name} must be a table")
        letters, stars = slot.get("letters", 0), slot.get("stars", 0)
        for key, count in (("letters", letters), ("stars", stars)):
            ok = isinstance(count, int) and not isinstance(count, bool) and count >= 0
            _need(ok, f"{name}.{key} must be a whole number >= 0, not {count!r}")
        _need(letters + stars > 0, f"{name} gives nothing")
        slots.append((letters, stars))
    _need(slots[3][0] > 0, "board.top_slots[3] needs a letter (4 players flip it wild)")
    return tuple(slots)


def _track(value: Any) -> tuple[tuple[str, ...], ...]:
    _need(isinstance(value, list) and len(value) >= 4, "track.spaces must list the spaces")
    return tuple(_icons(space, f"track.spaces[{n}]") for n, space in enumerate(value))


def _grid_size(grid: dict[str, Any]) -> tuple[int, int]:
    rows = _positive_int(grid.get("rows"), "grid.rows")
    cols = _positive_int(grid.get("cols"), "grid.cols")
    for name, size in (("rows", rows), ("cols", cols)):
        _need(size % 2 == 0 and size >= 4, f"grid.{name} must be even and >= 4 (4 centre squares)")
    return rows, cols


def _grid_bonus(value: Any, rows: int, cols: int) -> dict[tuple[int, int], tuple[str, ...]]:
    _need(isinstance(value, list), "grid.bonus must list the bonus squares")
    found = len(value)
    _need(found == GRID_BONUS_COUNT, f"grid.bonus has {found} squares; the rulebook says 8")
    squares: dict[tuple[int, int], tuple[str, ...]] = {}
    for number, entry in enumerate(value):
        name = f"grid.bonus[{number}]"
        row, col = entry.get("row"), entry.get("col")
        inside = isinstance(row, int) and isinstance(col, int)
        _need(inside and 0 <= row < rows and 0 <= col < cols, f"{name} lies outside the grid")
        _need((row, col) not in squares, f"{name} repeats square ({row}, {col})")
        squares[(row, col)] = _icons(entry.get("icons"), f"{name}.icons")
    return squares


def _goals(value: Any) -> tuple[GoalCard, ...]:
    _need(isinstance(value, list), "the [[goals]] cards are missing")
    _need(len(value) == GOAL_COUNT, f"there are {len(value)} goal cards; the rulebook says 6")
    cards = tuple(_goal(entry, n) for n, entry in enumerate(value))
    numbers = sorted(card.number for card in cards)
    _need(numbers == list(range(1, 7)), f"goal numbers are {numbers}; expected 1 to 6")
    words = [word for card in cards for word in card.words]
    repeated = sorted(word for word, count in Counter(words).items() if count > 1)
    _need(not repeated, f"goal words appear on two cards: {repeated}")
    _check_cubes(cards)
    return tuple(sorted(cards, key=lambda card: card.number))


def _goal(entry: Any, index: int) -> GoalCard:
    name = f"goals[{index}]"
    _need(isinstance(entry, dict), f"{name} must be a table")
    number = entry.get("number")
    _need(isinstance(number, int), f"{name}.number must be 1 to 6")
    name = f"goal card {number}"
    words = entry.get("words")
    _need(isinstance(words, list) and words, f"{name}: words must be a non-empty list")
    for word in words:
        _need(_is_word(word), f"{name}: {word!r} is not a word of capital letters")
    return GoalCard(number, tuple(words), _icons(entry.get("bonus"), f"{name}.bonus"))


def _is_word(word: Any) -> bool:
    return isinstance(word, str) and len(word) >= 2 and set(word) <= LETTERS


def _check_cubes(cards: tuple[GoalCard, ...]) -> None:
    """Each player has 12 item cubes; five incomplete cards must never need more."""
    held = sorted((len(card.words) - 1 for card in cards), reverse=True)[:5]
    _need(sum(held) <= ITEM_CUBES, f"five goal cards could hold {sum(held)} cubes; players have 12")


def _cabinet(value: Any, edition: Edition) -> tuple[CabinetCard, ...]:
    _need(isinstance(value, list), "cabinet.cards must list the cabinet cards")
    found = len(value)
    _need(found == CABINET_COUNT, f"cabinet.cards has {found} cards; the rulebook says 42")
    cards = tuple(_card(entry, n, edition) for n, entry in enumerate(value))
    _check_summary(cards, edition)
    return cards


def _card(entry: Any, index: int, edition: Edition) -> CabinetCard:
    name = f"cabinet card {index}"
    _need(isinstance(entry, dict), f"{name} must be a table")
    name = f"cabinet card {index} ({entry.get('name', 'unnamed')})"
    kind = entry.get("kind")
    _need(kind in ("power", "item"), f"{name}: kind must be 'power' or 'item', not {kind!r}")
    try:
        if kind == "item":
            return _item_card(entry, index, edition)
        return _power_card(entry, index, edition)
    except EditionError as error:
        raise EditionError(f"{name}: {error}") from error


def _item_card(entry: dict[str, Any], index: int, edition: Edition) -> CabinetCard:
    word, missing = entry.get("word"), entry.get("missing")
    every_word = {w for card in edition.goals for w in card.words}
    _need(word in every_word, f"item word {word!r} is on no goal card")
    _need(isinstance(missing, list) and len(missing) in (1, 2), "needs 1 or 2 missing letters")
    _need(not Counter(missing) - Counter(word), f"missing letters {missing} are not in {word}")
    bonus = _icons(entry.get("bonus"), "bonus")
    return CabinetCard(
        index, str(entry.get("name", "")), "item", word=word, missing=tuple(missing), bonus=bonus
    )


def _power_card(entry: dict[str, Any], index: int, edition: Edition) -> CabinetCard:
    cost, timing = entry.get("cost"), entry.get("timing")
    allowed = ("none", "pips", *edition.dice)
    _need(cost in allowed, f"cost {cost!r} is not one of {allowed}")
    _need(timing in ("immediate", "round", "always"), f"timing {timing!r} is unknown")
    pips = entry.get("pips", [])
    if cost == "pips":
        ok = len(pips) == 2 and len(set(pips)) == 2 and all(p in range(1, 7) for p in pips)
        _need(ok, f"pips must be two different numbers 1-6, not {pips!r}")
    wild = entry.get("wild", "")
    powers = _icons(entry.get("powers", []), "powers")
    return CabinetCard(
        index, str(entry.get("name", "")), "power", cost, tuple(sorted(pips)), timing, powers, wild
    )


def _summary_group(card: CabinetCard) -> str:
    if card.timing == "always":
        return "always" if card.cost == "none" else "bad"
    if card.timing == "immediate":
        return "immediate" if card.cost == "none" else "bad"
    return {"none": "bad", "pips": "pips"}.get(card.cost, "colour")


def _check_summary(cards: tuple[CabinetCard, ...], edition: Edition) -> None:
    """Every power card is one the rulebook's summary describes, and each kind exists."""
    seen: dict[str, set[tuple[str, ...]]] = {group: set() for group in SUMMARY}
    wilds = []
    for card in (card for card in cards if card.kind == "power"):
        group = _summary_group(card)
        where = f"cabinet card {card.id} ({card.name})"
        _need(
            group != "bad",
            f"{where}: a {card.timing} card with cost {card.cost} is not in the summary",
        )
        if group == "always":
            _need(not card.powers, f"{where}: an always-wild card has no other powers")
            wilds.append(card.wild)
            continue
        _need(
            card.powers in SUMMARY[group],
            f"{where}: powers {list(card.powers)} are not in the summary",
        )
        seen[group].add(card.powers)
    found = sorted("".join(sorted(wild)) for wild in wilds)
    expected = sorted("".join(sorted(wild)) for wild in ALWAYS_WILD)
    _need(found == expected, f"always-wild cards are {wilds}; expected HPK, TWY, BCG")
    for group, powers in SUMMARY.items():
        lacking = sorted(powers - seen[group])
        _need(not lacking, f"no {group} card has the summary's powers {lacking}")
    for colour in PRINTED_DICE:
        count = sum(1 for card in cards if card.cost == colour)
        _need(count == 3, f"{count} cabinet cards need the {colour} die; the rulebook says 3")
