"""C.O.G. actions (what players and chance do) and the one event kind.

Chance actions: :class:`DrawLetter` (a tile from the bag), :class:`DrawCard`
(the top cabinet card, any card left in the deck) and :class:`RollDie`.
Where a drawn letter or card goes is known from the state (the effect waiting
to be resolved), so the table only reports what it saw.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Action, Event


@dataclass(frozen=True)
class DrawLetter(Action):
    """Chance: the letter tile drawn from the bag."""

    letter: str

    def notation(self) -> str:
        return f"draw {self.letter}"


@dataclass(frozen=True)
class DrawCard(Action):
    """Chance: the cabinet card drawn from the deck (by its number in the edition)."""

    card: int

    def notation(self) -> str:
        return f"card #{self.card}"


@dataclass(frozen=True)
class RollDie(Action):
    """Chance: the number a die shows."""

    value: int

    def notation(self) -> str:
        return f"roll {self.value}"


@dataclass(frozen=True)
class TakeLetters(Action):
    """Phase II, top edge: put a cog on a top slot and take its letters and stars."""

    slot: int

    @property
    def pays_star(self) -> bool:
        """Whether this placement pays a star token for its power (a top slot has no star power)."""
        return False

    def notation(self) -> str:
        return f"top slot {self.slot + 1}"


@dataclass(frozen=True)
class TakeCard(Action):
    """Phase II, bottom edge: take a cabinet card (``swap``: pay a star for the deck's top).

    Phase II placements carry their star-token powers as fields: the card swap
    (``swap``), the die re-roll (``reroll``) and the turn-order protection
    (``protect``); the bump is implied by placing on an occupied turn-order space.
    """

    slot: int
    swap: bool = False

    @property
    def pays_star(self) -> bool:
        """Whether this placement pays a star token for its power (the swap)."""
        return self.swap

    def notation(self) -> str:
        return f"cabinet slot {self.slot + 1}" + (" swap" if self.swap else "")


@dataclass(frozen=True)
class TakeDie(Action):
    """Phase II, dice edge: take a die and move your pawn (``reroll``: pay a star first)."""

    slot: int
    reroll: bool = False

    @property
    def pays_star(self) -> bool:
        """Whether this placement pays a star token for its power (the re-roll)."""
        return self.reroll

    def notation(self) -> str:
        return f"die {self.slot + 1}" + (" reroll" if self.reroll else "")


@dataclass(frozen=True)
class TakeTurnOrder(Action):
    """Phase II, turn-order edge: take a position (bumping costs a star, so does ``protect``)."""

    position: int
    protect: bool = False

    @property
    def pays_star(self) -> bool:
        """Whether this placement pays a star token for its power (the protection)."""
        return self.protect

    def notation(self) -> str:
        return f"turn order #{self.position + 1}" + (" protect" if self.protect else "")


@dataclass(frozen=True)
class TakeCentre(Action):
    """A plus icon: take the letter on one of the board's centre squares."""

    square: int

    def notation(self) -> str:
        return f"centre {self.square + 1}"


@dataclass(frozen=True)
class Activate(Action):
    """Phase III: activate a once-per-round power card with your die."""

    card: int

    def notation(self) -> str:
        return f"activate #{self.card}"


@dataclass(frozen=True)
class PlaceWord(Action):
    """Phase IV: spell ``word`` on your grid from (row, col), 0-based, across or down."""

    word: str
    row: int
    col: int
    down: bool

    def notation(self) -> str:
        way = "down" if self.down else "across"
        return f"spell {self.word} r{self.row + 1}c{self.col + 1} {way}"

    def chosen_wild(self) -> tuple[int, ...] | None:
        """Positions in the word chosen for wild tiles (``None``: the reserve decides)."""
        return None


@dataclass(frozen=True)
class PlaceWordWild(PlaceWord):
    """Phase IV: spell ``word`` putting wild tiles exactly on the new cells ``wild_at``.

    ``wild_at`` holds 0-based positions in the word, in increasing order; every
    other new cell takes a plain tile. The player chooses which tiles go down
    (a wild tile on the grid may later read as another letter in a crossing
    word). A separate class, so records of :class:`PlaceWord` stay as they were.

        A grid word is :class:`PlaceWord` (the reserve picks the tiles: plain ones
        first, wild ones only where no plain tile is left) or :class:`PlaceWordWild`
        (the player names the new cells that take wild tiles, rulebook: "You may make
        any letters in your reserve ... wild"), notated ``spell ROD r3c5 down wild 2``.
    """

    wild_at: tuple[int, ...]

    def chosen_wild(self) -> tuple[int, ...] | None:
        return self.wild_at

    def notation(self) -> str:
        spots = ",".join(str(index + 1) for index in self.wild_at)
        return f"{super().notation()} wild {spots}"


@dataclass(frozen=True)
class CompleteItem(Action):
    """Phase IV: complete an item card; ``cube`` places a cube, else take its bonus."""

    card: int
    cube: bool

    def notation(self) -> str:
        return f"item #{self.card} " + ("cube" if self.cube else "bonus")


@dataclass(frozen=True)
class MakeWild(Action):
    """Phase IV: pay a star to turn a letter in your reserve face down (wild)."""

    letter: str

    def notation(self) -> str:
        return f"wild {self.letter}"


@dataclass(frozen=True)
class MakeCellWild(Action):
    """Phase IV: pay a star to turn a tile on your grid face down (wild)."""

    row: int
    col: int

    def notation(self) -> str:
        return f"wild r{self.row + 1}c{self.col + 1}"


@dataclass(frozen=True)
class StarsForLetter(Action):
    """Any time: return 2 star tokens to draw a letter."""

    def notation(self) -> str:
        return "2 stars for a letter"


@dataclass(frozen=True)
class LettersForStar(Action):
    """Any time: return 2 letters from your reserve to the bag for a star token."""

    letters: tuple[str, ...]

    def notation(self) -> str:
        return f"{''.join(self.letters)} for a star"


@dataclass(frozen=True)
class Deconstruct(Action):
    """Any time: take a word off your grid (its letters go back to the bag)."""

    word: str

    def notation(self) -> str:
        return f"deconstruct {self.word}"


@dataclass(frozen=True)
class ReturnLetter(Action):
    """Phase V: return a letter of your choice while you hold more than 7."""

    letter: str

    def notation(self) -> str:
        return f"return {self.letter}"


@dataclass(frozen=True)
class ReturnStar(Action):
    """Phase V: return a star token to the supply while you hold more than 3."""

    def notation(self) -> str:
        return "return a star"


@dataclass(frozen=True)
class Finish(Action):
    """End your part of the current phase (Activate or Construct)."""

    def notation(self) -> str:
        return "done"


ACTIONS: tuple[type[Action], ...] = (
    DrawLetter,
    DrawCard,
    RollDie,
    TakeLetters,
    TakeCard,
    TakeDie,
    TakeTurnOrder,
    TakeCentre,
    Activate,
    PlaceWord,
    PlaceWordWild,
    CompleteItem,
    MakeWild,
    MakeCellWild,
    StarsForLetter,
    LettersForStar,
    Deconstruct,
    ReturnLetter,
    ReturnStar,
    Finish,
)


@dataclass(frozen=True)
class Happened(Event):
    """Something that happened, for one player (-1: the table), in words."""

    player: int
    text: str

    def describe(self) -> str:
        return self.text
