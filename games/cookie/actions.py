"""The Cookie's actions and events, for both variants.

Chance actions (``player=CHANCE``) are what the table deals or turns up: a role
dealt, the target drawn, a face-down card revealed. Player actions are the
cards a player lays. Seats are numbered from 0; notation shows them from 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Action, Event


def seat_name(seat: object) -> str:
    """``P3`` for seat 2; anything odd is shown as given."""
    return f"P{seat + 1}" if isinstance(seat, int) and not isinstance(seat, bool) else str(seat)


def _slot_suffix(slot: object) -> str:
    return f"/{slot + 1}" if isinstance(slot, int) and slot else ""


# -- chance: what the table deals or turns up -----------------------------


@dataclass(frozen=True)
class DealRole(Action):
    """A Role card dealt face down to ``seat`` (its ``slot``-th with 2 players)."""

    seat: int
    character: str
    slot: int = 0

    def notation(self) -> str:
        return f"deal {seat_name(self.seat)}{_slot_suffix(self.slot)} {self.character}"


@dataclass(frozen=True)
class RevealRole(Action):
    """A face-down Role card the table could not see, supplied when it is turned up."""

    seat: int
    character: str
    slot: int = 0

    def notation(self) -> str:
        return f"role {seat_name(self.seat)}{_slot_suffix(self.slot)} is {self.character}"


@dataclass(frozen=True)
class DrawTarget(Action):
    """The Big Hunt: the target card drawn face down from the Role cards."""

    character: str

    def notation(self) -> str:
        return f"target {self.character}"


@dataclass(frozen=True)
class RevealTarget(Action):
    """The Big Hunt: the target card, supplied by the table when it is turned up."""

    character: str

    def notation(self) -> str:
        return f"target revealed {self.character}"


@dataclass(frozen=True)
class OpenExclusion(Action):
    """The Big Hunt, 3 players: the exclusion card turned face up."""

    character: str

    def notation(self) -> str:
        return f"open exclusion {self.character}"


# -- Every Man for Himself ------------------------------------------------


@dataclass(frozen=True)
class Play(Action):
    """Lay one card from the hand face down (a character, Sword, Shield or Hill)."""

    card: str

    def notation(self) -> str:
        return f"{seat_name(self.player)} plays {self.card}"


@dataclass(frozen=True)
class Aim(Action):
    """Place a revealed Sword or Shield in front of the player at ``target``."""

    target: int

    def notation(self) -> str:
        return f"{seat_name(self.player)} aims at {seat_name(self.target)}"


# -- The Big Hunt -----------------------------------------------------------


@dataclass(frozen=True)
class Claim(Action):
    """Phase 1: name a character and lay its card face up on one's Role card."""

    character: str

    def notation(self) -> str:
        return f"{seat_name(self.player)} claims {self.character}"


@dataclass(frozen=True)
class Challenge(Action):
    """Phase 2: turn up another player's Role card (its ``slot``-th with 2 players)."""

    seat: int
    slot: int = 0

    def notation(self) -> str:
        return f"{seat_name(self.player)} reveals {seat_name(self.seat)}{_slot_suffix(self.slot)}"


@dataclass(frozen=True)
class Look(Action):
    """Phase 2: look at the (secret) exclusion card instead of revealing a role."""

    def notation(self) -> str:
        return f"{seat_name(self.player)} looks at the exclusion card"


@dataclass(frozen=True)
class Hunt(Action):
    """Phase 3: lay one character card face down to hunt with."""

    character: str

    def notation(self) -> str:
        return f"{seat_name(self.player)} hunts with {self.character}"


ACTIONS: tuple[type[Action], ...] = (
    DealRole,
    RevealRole,
    DrawTarget,
    RevealTarget,
    OpenExclusion,
    Play,
    Aim,
    Claim,
    Challenge,
    Look,
    Hunt,
)


# -- events -----------------------------------------------------------------


@dataclass(frozen=True)
class Said(Event):
    """Something the whole table may know, in words."""

    text: str

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True)
class Revealed(Event):
    """The cards laid face down this turn, turned up together (one per seat)."""

    cards: tuple[str, ...]

    def describe(self) -> str:
        shown = ", ".join(f"{seat_name(s)} {card}" for s, card in enumerate(self.cards))
        return f"revealed: {shown}"


@dataclass(frozen=True)
class RoundScored(Event):
    """A round's coins, one number per seat."""

    round: int
    gains: tuple[int, ...]

    def describe(self) -> str:
        shown = ", ".join(f"{seat_name(s)} +{gain}" for s, gain in enumerate(self.gains))
        return f"round {self.round + 1} scored: {shown}"
