"""Table mode (``hands = "unknown"``): the game as a camera and seat buttons see it.

At a real table nobody reports which card a player draws. With ``hands =
"unknown"`` the engine follows the game from what is face up and still
enforces the rules:

- **Draws.** A draw from a player's deck is a chance node (request kind
  ``draw``, purpose ``"player N's deck, draw"``) with one outcome,
  :class:`~games.commissars.actions.UnseenDraw` (label ``"unseen card"``,
  odds 1). The hand gains an unseen card (``Seat.unseen``). The table may also
  report the card when it did see it: ``TopCard(name)`` for any card the deck
  could hold is accepted too (listed by ``legal_actions(CHANCE)`` but not a
  separate chance outcome), so a record made with known hands replays here.
- **What a hand could hold.** The table knows each seat's whole card list (a
  faction deck, or the named deals and picks of random and draft decks) and
  sees everything face up, so the cards in the deck *or* unseen in the hand are
  known as a multiset (``Seat.deck`` in this mode), though not which is where.
  A hand could hold a card if it is known to be there, or if it has an unseen
  card and that multiset still holds one. Playing or discarding a card turns
  a known copy, else one unseen card, into it (the known copy first: that keeps
  every hand still possible). A card it could not hold is refused with
  :func:`hold_refusal`'s reason, such as "player 1 cannot hold Doublethink:
  all 3 of their deck's Doublethink cards are seen (3 in their discard pile)".
- **Produce flips** come face up off the deck: a chance outcome over what the
  deck could still hold, each name weighted by its copies (the shuffle makes
  every unseen card equally likely to be on top). The flipped card is known.
- **The deck runs out.** A reshuffle happens with the deck empty, when the
  unseen cards of the hand are exactly what is left: they become known.
- **Discard piles, the stack and Citizens** are face up and exact.

Every card effect or rule that looks at a hand, and what table mode does:

- *Discarding* (the Discard/Draw phase, Encourage Dissent and the other
  "discard" effects): the player chooses at the table; the choice is supplied
  as ``Discard(card)`` when the camera sees the card reach the discard pile.
  Any card the hand could hold is listed.
- *Hand size* (the hand limit, drawing up to it, Androidopov's limit from the
  Counter Propaganda in the discard pile): counts are known exactly.
- *Blitz at any time*: who *could* play a Blitz is every other player whose
  hand could hold one with a legal play; ``to_act`` lists them (as it lists
  the holders with known hands), the view's ``to_act`` still names only the
  player the game waits for.
- *Intercept Transmission* (play a card from another player's hand): the
  interceptor looks at the victim's hand at the table; the play is supplied
  as ``Play(card, source=victim)`` and may be any card the victim's hand could
  hold. The card becomes known and goes to the victim's discard pile.
- *Search the deck* (take cards of some types from one's deck): the player
  shows the card taken, supplied as ``Choose(card)``; any card of those types
  the deck could hold is offered (while the deck has a card), and it becomes
  a known card of the hand.
- *Retrieve from the discard pile*: the pile is face up; the card is known in
  the hand afterwards.
- *Leader powers* that draw (Stalintelligence, Gorobotchev, Automarx,
  Simulenin, Computin) draw unseen cards like any other draw.
- *Scoring*: points are Citizens only; nothing is scored from hands.

Deck building is not hidden: random and draft decks are still dealt as named
cards (``TopCard``), so the table must read each dealt card (face up, or each
player showing their deck before the shuffle); unknown deck lists are not
modelled.

Records: a record made with known hands (every draw a ``TopCard``) replays
with ``hands = "unknown"`` (each draw then counts as seen), and a record made
in table mode replays in table mode. A table-mode record does not replay with
known hands: an ``UnseenDraw`` is refused there ("with known hands ... the
table names every card drawn"), since no engine can say which card it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from games.core import Record

from .model import Entry, Seat


def table_mode_record(record: Record) -> Record:
    """``record`` with ``hands = "unknown"``: the same game followed as the table sees it."""
    return dataclasses.replace(record, options={**record.options, "hands": "unknown"})


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
