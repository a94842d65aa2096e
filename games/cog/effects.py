"""What waits in C.O.G.'s effect queue: one frozen dataclass per kind of effect.

Cards, track spaces, goal bonuses and the phases queue effects; they resolve
front first. Chance effects wait for a letter, a card or a die, choice effects
for one player, and the rest resolve at once (:mod:`games.cog.flow`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Effect:
    """An effect waiting in the queue; ``kind`` names it in views and snapshots."""

    kind: ClassVar[str]

    def to_json(self) -> list[Any]:
        """The effect as the list ``[kind, *fields]`` that views show.

        >>> SlotLetter(3, True).to_json()
        ['slot', 3, True]
        """
        return [self.kind, *(getattr(self, field.name) for field in fields(self))]


# -- chance: a letter from the bag ---------------------------------------------------


@dataclass(frozen=True)
class LetterFor(Effect):
    """``player`` draws a letter into their reserve."""

    kind: ClassVar[str] = "letter"
    player: int


@dataclass(frozen=True)
class SlotLetter(Effect):
    """A letter goes onto top slot ``slot`` (face down, so wild, on the 4-player slot)."""

    kind: ClassVar[str] = "slot"
    slot: int
    wild: bool


@dataclass(frozen=True)
class BonusLetter(Effect):
    """A letter goes onto the last turn-order position as its bonus."""

    kind: ClassVar[str] = "tobonus"


@dataclass(frozen=True)
class CentreLetter(Effect):
    """A letter fills centre square ``square``."""

    kind: ClassVar[str] = "centre_fill"
    square: int


# -- chance: a cabinet card from the deck --------------------------------------------


@dataclass(frozen=True)
class SlotCard(Effect):
    """A cabinet card fills cabinet slot ``slot``."""

    kind: ClassVar[str] = "card_slot"
    slot: int


@dataclass(frozen=True)
class CardFor(Effect):
    """``player`` draws a cabinet card (a cabinet icon, a swap)."""

    kind: ClassVar[str] = "card"
    player: int


# -- chance: a die ---------------------------------------------------------------------


@dataclass(frozen=True)
class GoalRoll(Effect):
    """The die that removes one goal card at setup."""

    kind: ClassVar[str] = "goal"


@dataclass(frozen=True)
class DieRoll(Effect):
    """Die number ``die`` is rolled in Phase I."""

    kind: ClassVar[str] = "roll"
    die: int


@dataclass(frozen=True)
class Reroll(Effect):
    """``player`` re-rolls the die they took (then their pawn moves)."""

    kind: ClassVar[str] = "reroll"
    player: int


@dataclass(frozen=True)
class NeutralRoll(Effect):
    """The die that moves the neutral pawns (2 players, Phase II)."""

    kind: ClassVar[str] = "neutral"


# -- a player's choice -----------------------------------------------------------------


@dataclass(frozen=True)
class PickCentre(Effect):
    """``player`` takes one letter of the centre squares (a plus icon)."""

    kind: ClassVar[str] = "pick_centre"
    player: int


@dataclass(frozen=True)
class Limits(Effect):
    """Task 6 of Phase V: ``player`` returns or converts until within 7 letters and 3 stars."""

    kind: ClassVar[str] = "limits"
    player: int


# -- automatic -------------------------------------------------------------------------


@dataclass(frozen=True)
class GainVp(Effect):
    """``player`` scores ``amount`` victory points."""

    kind: ClassVar[str] = "vp"
    player: int
    amount: int


@dataclass(frozen=True)
class GainStar(Effect):
    """``player`` takes a star token from the supply (if one is left)."""

    kind: ClassVar[str] = "star"
    player: int


@dataclass(frozen=True)
class Refill(Effect):
    """The empty centre squares are refilled from the bag."""

    kind: ClassVar[str] = "refill"


@dataclass(frozen=True)
class MovePawn(Effect):
    """``player``'s pawn moves by their die; an empty landing space pays its icons."""

    kind: ClassVar[str] = "move"
    player: int


LetterDraw = LetterFor | SlotLetter | BonusLetter | CentreLetter
CardDraw = SlotCard | CardFor
Roll = GoalRoll | DieRoll | Reroll | NeutralRoll
ChanceEffect = LetterDraw | CardDraw | Roll
Choice = PickCentre | Limits
"""The effects that wait for one player (the others wait for chance or for nobody)."""

PLAYER_ICONS: dict[str, type[LetterFor | GainStar | CardFor | PickCentre]] = {
    "letter": LetterFor,
    "star": GainStar,
    "cabinet": CardFor,
    "centre": PickCentre,
}
"""The effect of each icon other than ``vpN``, for the player it pays."""


def icon_effects(player: int, icons: Sequence[str]) -> list[Effect]:
    """The effects of a row of icons; centre letters are all taken before the refill.

    >>> [e.to_json() for e in icon_effects(1, ("vp2", "centre", "cabinet"))]
    [['vp', 1, 2], ['pick_centre', 1], ['card', 1], ['refill']]
    """
    effects: list[Effect] = [
        GainVp(player, int(icon[2:])) if icon.startswith("vp") else PLAYER_ICONS[icon](player)
        for icon in icons
    ]
    if "centre" in icons:
        effects.append(Refill())
    return effects
