"""Cogs and Commissars actions (what players and chance do) and events (what happened)."""

from __future__ import annotations

from dataclasses import dataclass

from games.core import CHANCE, Action, Event

from .cards import KIND_NAMES


@dataclass(frozen=True)
class TopCard(Action):
    """Chance: the card that comes off a deck (or the deal pool) now.

    Deck order is never stored: each draw, flip or deal is this chance action,
    naming the card the table saw.
    """

    card: str

    def notation(self) -> str:
        return f"top card: {self.card}"


@dataclass(frozen=True)
class UnseenDraw(Action):
    """Chance, in table mode (``hands = "unknown"``): a card is drawn that nobody saw.

    The drawing player's hand gains an unseen card; it becomes known when it is
    played or discarded (or when the deck runs out and leaves no doubt).
    """

    def notation(self) -> str:
        return "an unseen card is drawn"


@dataclass(frozen=True)
class Play(Action):
    """Play ``card`` from your hand (or, with ``source``, from a hand you intercepted).

    ``target`` is a player, ``kind`` a Citizen type (P, B, C), ``entry`` the id of
    a card on the stack; unused fields keep their defaults. ``blitz`` plays a card
    with a Blitz cost (Hire Assassin) as a Blitz, paying the cost first.
    """

    card: str
    target: int = -1
    kind: str = ""
    entry: int = -1
    blitz: bool = False
    source: int = -1

    def notation(self) -> str:
        parts = [f"play {self.card}"]
        if self.target >= 0:
            parts.append(f"at player {self.target + 1}")
        if self.kind:
            parts.append(KIND_NAMES.get(self.kind, self.kind))
        if self.entry >= 0:
            parts.append(f"on stack card #{self.entry}")
        if self.blitz:
            parts.append("as a Blitz")
        if self.source >= 0:
            parts.append(f"from player {self.source + 1}'s hand")
        return " ".join(parts)


@dataclass(frozen=True)
class Pass(Action):
    """Let the card on top of the stack stand (no response)."""

    def notation(self) -> str:
        return "pass"


@dataclass(frozen=True)
class EndPhase(Action):
    """The active player ends the current phase (discarding, Propaganda, Action = the turn)."""

    def notation(self) -> str:
        return "end phase"


@dataclass(frozen=True)
class Discard(Action):
    """Discard one card from your hand (by choice or because a card demands it)."""

    card: str

    def notation(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Choose(Action):
    """A choice made while a card or leader power resolves (produce, draw, a card name, none)."""

    option: str

    def notation(self) -> str:
        return f"choose {self.option}"


@dataclass(frozen=True)
class Retarget(Action):
    """The owner of a Doublespeak duplicate chooses its target (fields as in :class:`Play`)."""

    target: int = -1
    kind: str = ""
    entry: int = -1

    def notation(self) -> str:
        return f"retarget player={self.target + 1} kind={self.kind or '-'} entry={self.entry}"


@dataclass(frozen=True)
class Pick(Action):
    """Draft: keep one card of the packet in front of you and pass the rest on."""

    card: str

    def notation(self) -> str:
        return f"pick {self.card}"


ACTIONS: tuple[type[Action], ...] = (
    TopCard,
    UnseenDraw,
    Play,
    Pass,
    EndPhase,
    Discard,
    Choose,
    Retarget,
    Pick,
)


@dataclass(frozen=True)
class Happened(Event):
    """Something happened; ``what`` is a short machine tag, ``text`` the words for players."""

    what: str
    player: int
    text: str

    def describe(self) -> str:
        return self.text


def happened(what: str, player: int, text: str) -> Happened:
    """An event; ``player`` is CHANCE when no player is involved."""
    return Happened(what, player if player is not None else CHANCE, text)
