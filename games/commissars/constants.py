"""The fixed numbers and modes of Cogs and Commissars: hand size, supply, deck modes, requests."""

from __future__ import annotations

from games.core import RequestKind

from .tasks import ChanceTask, Deal, DealLeader, DealPacket, Draw, Flip

HAND_SIZE = 7
START_PROLETARIAT = 2
SUPPLY = {"P": 51, "B": 18, "C": 15}
RANDOM_CARDS, DRAFT_RANDOM, PACKET = 18, 8, 10
DECK_MODES = ("preconstructed", "random", "draft")
HAND_MODES = ("known", "unknown")
"""``known``: every card drawn is named (``cogtable play``, simulation); ``unknown``:
table mode, where nobody reports which card a player draws (see :mod:`.table_mode`)."""
MAIN_PHASES = ("discard", "propaganda", "action")
CHANCE_REQUESTS: dict[type[ChanceTask], tuple[RequestKind, str]] = {
    Draw: ("draw", "deck, draw"),
    Flip: ("draw", "deck, produce"),
    Deal: ("deal", "deck, dealt from the pool"),
    DealPacket: ("deal", "draft packet"),
    DealLeader: ("deal", "leader"),
}
"""Each chance task as a request: its kind and, after the player's name, what it is for."""
UNCONDITIONAL_TARGETS = ("none", "kind", "other_player")
"""Target kinds that always offer a choice (there are always two players or more)."""

Target = tuple[int, str, int]
"""What a play chooses: (target player, Citizen kind, stack entry id); -1/'' unused."""
