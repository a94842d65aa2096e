"""Cogs and Commissars: the rules engine (deck building, turns, the response stack).

The card list is data (``cards.toml``, checked by :mod:`games.commissars.cards`);
:func:`new_game` lists the options.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from games.core import BadOptions, merge_options

from .actions import (
    ACTIONS,
    Choose,
    Discard,
    EndPhase,
    Pass,
    Pick,
    Play,
    Retarget,
    TopCard,
    UnseenDraw,
)
from .cards import CardSet, load_cards
from .constants import DECK_MODES, HAND_MODES
from .position import CommissarsPosition
from .state import CommissarsState

NAME = "commissars"
LEADER_DEALS = ("choose", "random")
DEFAULTS: dict[str, Any] = {
    "players": 2,
    "decks": "preconstructed",
    "leaders": False,
    "leader_deal": "choose",
    "factions": "",
    "first_player": 0,
    "max_turns": 0,
    "hands": "known",
}

__all__ = [
    "ACTIONS",
    "DEFAULTS",
    "LEADER_DEALS",
    "NAME",
    "Choose",
    "CommissarsPosition",
    "CommissarsState",
    "Discard",
    "EndPhase",
    "Pass",
    "Pick",
    "Play",
    "Retarget",
    "TopCard",
    "UnseenDraw",
    "card_set",
    "new_game",
]


@cache
def card_set() -> CardSet:
    """The shipped card list, read and checked once."""
    return load_cards()


def new_game(options: Mapping[str, Any] | None = None, seed: int = 0) -> CommissarsState:
    """A new game, set up to its first chance node (the first card dealt or drawn).

    The card list is data (``cards.toml``, checked by :mod:`games.commissars.cards`).
    Options:

    - ``players``: 2 to 6;
    - ``decks``: ``preconstructed`` (faction decks), ``random`` (18 random + 12 core)
      or ``draft`` (8 random + 10-card pick-and-pass rounds + 12 core);
    - ``leaders``: play with Faction Leaders (each seat's leader matches its faction);
    - ``leader_deal``: with leaders, ``choose`` (each seat's leader is its faction
      from ``factions``) or ``random`` (the rulebook's "randomly deal out": each
      seat is dealt one leader as a chance outcome, named by the leader card, and
      with preconstructed decks plays the faction deck of the leader it was dealt);
    - ``factions``: comma-separated faction per seat (empty: the data file's order;
      not with ``leader_deal = "random"``, where the deal decides);
    - ``first_player``: the seat that starts (0-based);
    - ``hands``: ``known`` (the default: every card drawn is named, as ``cogtable
      play`` and simulations need) or ``unknown`` (table mode: a draw adds an unseen
      card to the hand, and a card played must be one the hand could hold; see
      :mod:`games.commissars.table_mode`);
    - ``max_turns``: end the game without a winner after this many turns (0, the
      default: never, as the rulebook has it: "turns continue around the table until
      someone wins"). Simulations and benchmarks set a cap, since random players
      could in principle stall (nobody reaching 15 points for good).
    """
    merged = merge_options(options, DEFAULTS)
    _check(merged)
    state = CommissarsState(merged, seed, card_set())
    state.setup()
    return state


def _check(options: Mapping[str, Any]) -> None:
    if not 2 <= options["players"] <= 6:
        raise BadOptions(f"option 'players' = {options['players']}: expected 2 to 6")
    if options["decks"] not in DECK_MODES:
        raise BadOptions(f"option 'decks' = {options['decks']!r}: expected one of {DECK_MODES}")
    _check_leader_deal(options)
    if not 0 <= options["first_player"] < options["players"]:
        raise BadOptions(f"option 'first_player' = {options['first_player']}: not a seat")
    if options["hands"] not in HAND_MODES:
        raise BadOptions(f"option 'hands' = {options['hands']!r}: expected one of {HAND_MODES}")
    if options["max_turns"] < 0:
        raise BadOptions("option 'max_turns' must be 0 (no cap) or more")


def _check_leader_deal(options: Mapping[str, Any]) -> None:
    deal = options["leader_deal"]
    if deal not in LEADER_DEALS:
        raise BadOptions(f"option 'leader_deal' = {deal!r}: expected one of {LEADER_DEALS}")
    if deal == "random" and not options["leaders"]:
        raise BadOptions("option 'leader_deal' = 'random' needs 'leaders' = true")
    if deal == "random" and options["factions"]:
        raise BadOptions("option 'factions' cannot be given with 'leader_deal' = 'random'")
