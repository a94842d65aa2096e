"""The pending steps of a Cogs and Commissars position: one small dataclass per kind.

A card's consequences (draws, flips, choices, the response window that opens
after a play) and the game's own bookkeeping (deals, the start of a turn) wait
in ``CommissarsState.tasks`` and run front first. Three families:

- :data:`ChanceTask`: a card comes off a deck, the deal pool or the leaders;
  chance supplies it (the table reports what it saw);
- :data:`DecisionTask`: one player must choose (a discard, a leader power's
  option, a card to retrieve or to search out, an intercepted play, a target);
- :data:`AutoTask`: runs by itself as soon as it reaches the front.

Tasks are never part of a game record (records hold actions only); they appear
in :meth:`CommissarsState.snapshot` through :meth:`JsonDataclass.to_json`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.core import JsonDataclass

LeaderPowerName = Literal["automarx", "computin", "simulenin"]
"""The leaders whose power asks their player to choose: produce, draw or neither."""


# -- chance: a card comes off a deck, the pool or the leaders ---------------------------


@dataclass(frozen=True)
class DealLeader(JsonDataclass):
    """A Faction Leader is dealt to ``player`` (``leader_deal = "random"``)."""

    player: int


@dataclass(frozen=True)
class Deal(JsonDataclass):
    """A card of the deal pool joins ``player``'s deck (random and draft decks)."""

    player: int


@dataclass(frozen=True)
class DealPacket(JsonDataclass):
    """A card of the deal pool joins ``player``'s draft packet."""

    player: int


@dataclass(frozen=True)
class Draw(JsonDataclass):
    """``player`` draws the top card of their deck into their hand."""

    player: int


@dataclass(frozen=True)
class Flip(JsonDataclass):
    """``player`` flips the top card of their deck face up to produce (it goes to discard)."""

    player: int


# -- decisions: one player must choose --------------------------------------------------


@dataclass(frozen=True)
class DiscardCards(JsonDataclass):
    """``player`` must discard ``count`` cards of their choice, one at a time."""

    player: int
    count: int


@dataclass(frozen=True)
class LeaderPower(JsonDataclass):
    """``player``'s leader power offers produce, draw or neither (see :meth:`options`)."""

    player: int
    power: LeaderPowerName

    def options(self) -> tuple[str, ...]:
        """What the power lets its player choose."""
        return {
            "automarx": ("produce", "draw", "none"),
            "computin": ("produce", "draw"),
            "simulenin": ("draw", "none"),
        }[self.power]


@dataclass(frozen=True)
class Retrieve(JsonDataclass):
    """``player`` takes a card of their discard pile back, any but ``card`` (the one resolving)."""

    player: int
    card: str


@dataclass(frozen=True)
class Search(JsonDataclass):
    """``player`` takes up to ``count`` more cards of the types ``card`` names from their deck."""

    player: int
    count: int
    card: str


@dataclass(frozen=True)
class Intercept(JsonDataclass):
    """``player`` may play a card of ``victim``'s hand (Intercept Transmission)."""

    player: int
    victim: int


@dataclass(frozen=True)
class RetargetCopy(JsonDataclass):
    """``player`` chooses the target of the Doublespeak duplicate ``entry`` (a stack id)."""

    player: int
    entry: int


# -- steps that need nobody ---------------------------------------------------------------


@dataclass(frozen=True)
class BuildDecks(JsonDataclass):
    """Faction decks, or the deals (and draft) that build random and drafted decks."""


@dataclass(frozen=True)
class Draft(JsonDataclass):
    """The pick-and-pass draft begins (its packets are dealt)."""


@dataclass(frozen=True)
class StartHands(JsonDataclass):
    """Every player draws seven, then the first turn begins."""


@dataclass(frozen=True)
class BeginTurn(JsonDataclass):
    """The active player's turn begins (or the turn cap ends the game)."""


@dataclass(frozen=True)
class BeginDiscard(JsonDataclass):
    """``player``'s Discard/Draw phase begins: their hand limit is fixed now."""

    player: int


@dataclass(frozen=True)
class Fill(JsonDataclass):
    """``player`` draws up to their hand limit, one card at a time."""

    player: int


@dataclass(frozen=True)
class OpenWindow(JsonDataclass):
    """The response window opens after ``player``'s card, with the next player."""

    player: int


@dataclass(frozen=True)
class Resolve(JsonDataclass):
    """The top card of the stack resolves."""


@dataclass(frozen=True)
class Finish(JsonDataclass):
    """The card that resolved goes to its discard pile (Computin may trigger)."""


ChanceTask = DealLeader | Deal | DealPacket | Draw | Flip
DecisionTask = DiscardCards | LeaderPower | Retrieve | Search | Intercept | RetargetCopy
SetupTask = BuildDecks | Draft | StartHands
TurnTask = BeginTurn | BeginDiscard | Fill | OpenWindow | Resolve | Finish
AutoTask = SetupTask | TurnTask
Task = ChanceTask | DecisionTask | AutoTask

CHANCE_TASKS: tuple[type[ChanceTask], ...] = (DealLeader, Deal, DealPacket, Draw, Flip)
DECISION_TASKS: tuple[type[DecisionTask], ...] = (
    DiscardCards,
    LeaderPower,
    Retrieve,
    Search,
    Intercept,
    RetargetCopy,
)
