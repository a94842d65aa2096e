"""What a hand or a deck could hold, in a player's words (table mode's refusals).

See :mod:`games.commissars.table_mode` for what the table knows of a hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from .model import Entry, Seat


def hold_refusal(
    seat: Seat, who: str, card: str, face_up: Iterable[Entry], player: int
) -> str | None:
    """Why ``who``'s hand (seat ``player``) cannot hold ``card``; None if it could.

    ``face_up`` is the stack (and the card resolving): the entries whose home is
    ``player`` count as copies of their deck seen elsewhere.
    """
    if seat.could_hold(card):
        return None
    if seat.hand_size() == 0:
        return f"{who} cannot hold {card}: their hand is empty"
    if not seat.unseen:
        known = ", ".join(sorted(seat.hand.elements()))
        return f"{who} cannot hold {card}: every card in their hand is known ({known})"
    return f"{who} cannot hold {card}: {_where_seen(seat, card, face_up, player)}"


def deck_refusal(
    seat: Seat, who: str, card: str, face_up: Iterable[Entry], player: int
) -> str | None:
    """Why ``card`` cannot come off ``who``'s deck (seat ``player``) now; None if it could."""
    if seat.deck_size() == 0:
        return f"{who}'s deck is empty"
    if seat.deck[card] > 0:
        return None
    return f"{who}'s deck cannot hold {card}: {_where_seen(seat, card, face_up, player)}"


def _where_seen(seat: Seat, card: str, face_up: Iterable[Entry], player: int) -> str:
    """Where every copy of ``card`` in the seat's card list is seen (none in the deck or unseen)."""
    places = {
        "known in their hand": seat.hand[card],
        "in their discard pile": seat.discard.count(card),
        "on the stack": sum(
            1 for entry in face_up if entry.home == player and not entry.copy and entry.card == card
        ),
    }
    copies = sum(places.values())
    if not copies:
        return f"their deck has no {card}"
    where = ", ".join(f"{count} {place}" for place, count in places.items() if count)
    return f"{_all_copies(copies, card)} seen ({where})"


def _all_copies(copies: int, card: str) -> str:
    """``card``'s copies in a deck, counted in words: "both of their deck's Blitz cards are"."""
    if copies == 1:
        return f"their deck's only {card} is"
    if copies == 2:
        return f"both of their deck's {card} cards are"
    return f"all {copies} of their deck's {card} cards are"
