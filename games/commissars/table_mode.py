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
  every hand still possible). A card it could not hold is refused with the
  reason (:mod:`games.commissars.holding`), such as "player 1 cannot hold
  Doublethink: all 3 of their deck's Doublethink cards are seen (3 in their
  discard pile)".
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

Records ("a game record replays in either"): a record made with known hands
(every draw a ``TopCard``) replays with ``hands = "unknown"``
(:func:`table_mode_record`: each draw then counts as seen), and also as a table
would have seen it, every draw unseen (:func:`unseen_draws_record`): table mode
accepts every action of a real game (plus a ``Choose("done")`` where known hands
skipped a search because the deck held none of its types: the table cannot know
that, so the player says so). A record made in table mode replays in
table mode. It does not replay with known hands: an ``UnseenDraw`` is refused
there ("with known hands ... the table names every card drawn"), since no
engine can say which card it was.

For the table adapter: the option is ``hands = "unknown"``; a draw waits on the
chance request of kind ``draw`` whose one option is ``UnseenDraw`` (label
``"unseen card"``; :meth:`CommissarsState.pending_draw` names the drawing
player); a card seen played is the player's ``Play`` (or ``Discard``, or an
interceptor's ``Play(card, source=victim)``); ``state.could_hold(player, card)``
and ``state.cannot_hold_reason(player, card)`` answer "could player p hold X";
``view(None)`` holds each seat's ``hand_size`` and ``deck_size`` (no names), and
``view(p)`` adds ``hand`` (the cards known in it), ``unseen_in_hand`` and
``could_hold``.
"""

from __future__ import annotations

import dataclasses

from games.core import Action, BadRecord, IllegalAction, Record, replay

from .actions import Choose, TopCard, UnseenDraw
from .state import CommissarsState
from .tasks import Search


def table_mode_record(record: Record) -> Record:
    """``record`` with ``hands = "unknown"``: the same game followed as the table sees it.

    Every draw the record names stays a draw the table saw.
    """
    return dataclasses.replace(record, options={**record.options, "hands": "unknown"})


def unseen_draws_record(record: Record) -> Record:
    """A known-hands ``record`` as a table sees the game: in table mode, every draw unseen.

    Each ``TopCard`` that answers a draw becomes an :class:`UnseenDraw`; flips and
    deals stay named. Where the known deck held nothing a search could take, the
    engine skipped the search, but the table cannot know the deck: there the
    player answers ``Choose("done")``, as at a real table. The record is replayed
    in both modes to find these places, so a record that does not replay raises
    :class:`~games.core.BadRecord`.
    """
    known = _started(record)
    seen = _started(table_mode_record(record))
    actions: list[Action] = []
    for number, action in enumerate(record.actions, start=1):
        while (search := _search_found_nothing(known, seen)) is not None:
            actions.append(_applied(seen, Choose("done", player=search.player), number))
        drawn = isinstance(action, TopCard) and known.pending_draw() is not None
        _applied(known, action, number)
        actions.append(
            _applied(seen, UnseenDraw(player=action.player) if drawn else action, number)
        )
    return dataclasses.replace(table_mode_record(record), actions=tuple(actions))


def _started(record: Record) -> CommissarsState:
    """The game ``record`` starts, before its first action."""
    state = replay(dataclasses.replace(record, actions=()))
    assert isinstance(state, CommissarsState)
    return state


def _search_found_nothing(known: CommissarsState, seen: CommissarsState) -> Search | None:
    """A search table mode asks for where known hands skipped it (the deck had none to take)."""
    task = seen.tasks[0] if seen.tasks else None
    if isinstance(task, Search) and not (known.tasks and known.tasks[0] == task):
        return task
    return None


def _applied(state: CommissarsState, action: Action, number: int) -> Action:
    """Apply the record's action ``number`` (or what it became); BadRecord if it does not apply."""
    try:
        state.apply(action)
    except IllegalAction as error:
        where = f"action {number} ({action.safe_notation()})"
        raise BadRecord(f"{where} does not apply: {error}") from error
    return action
