"""What a settled card mat means for a Cogs and Commissars game in table mode.

Each call gives the *next* thing the mat shows (the table judges the same
reading again after each action applied), in this order:

- a card laid face up on the stack (the centre zone) that the book has not
  counted is a play (:class:`~games.commissars.actions.Play`) by the seat whose
  deck it is, or, while an Intercept Transmission waits, the interceptor's play
  from the victim's hand. A card the hand could not hold is refused with the
  engine's reason ("player 2 cannot hold Doublethink: ..."); so is a play out
  of turn (a Blitz laid while another seat is asked to respond). The seat
  blinks red until the card is taken off the stack. A card with several
  legal targets is a ``choose`` verdict: the first target (the top of the
  stack; the next player clockwise) is what the seat's confirm button takes,
  any other is typed at the console;
- a card newly on a seat's discard pile is that seat's Produce flip
  (``TopCard``) while the table waits for one, its discard (``Discard``) in the
  Discard/Draw phase or when a card makes it discard; anywhere else it is
  refused (take it off the pile);
- otherwise the mat is compared with the game: a resolved card still on the
  stack (the words say which pile it goes to), a card on another seat's pile,
  a tag of no card here.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogtable.tables.base import Verdict
from cogtable.tables.commissars.cards import (
    CardSeen,
    CommissarsMat,
    FaceUp,
    Holding,
    TagBook,
    face_up,
    pile_top,
)
from games.commissars.actions import Discard, Play, TopCard
from games.commissars.state import CommissarsState
from games.commissars.tasks import DiscardCards, Flip, Intercept
from games.core import CHANCE, Action, IllegalAction

Zone = int | None
"""A seat's zone (its pile), or None: the stack."""


def judge_mat(state: CommissarsState, seen: CommissarsMat, book: TagBook) -> Verdict:
    """The next action the mat shows, a refusal, the differences, or in sync."""
    fresh = book.follow(Holding.of(state), seen)
    if not state.is_over() and not seen.unknown_tags:
        for zone, card in sorted(fresh, key=lambda found: found[0] is not None):
            verdict = _new_card(state, zone, card)
            if verdict.kind in ("move", "choose"):
                actions = verdict.options or (verdict.action,)
                book.report(card.tag, zone, state, actions)  # type: ignore[arg-type]
            return verdict
    found = differences(state, seen, book, fresh)
    if found:
        places = tuple(sorted({seat for seat, _ in found if seat is not None}))
        return Verdict("out-of-sync", places=places, reason="; ".join(words for _, words in found))
    return Verdict("in-sync", reason="the card mat matches the game")


# -- a card just laid -----------------------------------------------------------------------


def _new_card(state: CommissarsState, zone: Zone, card: CardSeen) -> Verdict:
    if zone is None:
        return _on_stack(state, card)
    if zone != card.owner:
        who, where = state.player_name(card.owner), state.player_name(zone)
        return Verdict(
            "illegal",
            places=(zone,),
            reason=f"{card.name} from {who}'s deck lies on {where}'s pile: take it off",
        )
    return _on_pile(state, card)


def _on_stack(state: CommissarsState, card: CardSeen) -> Verdict:
    """A card laid on the stack: its play, a choice of targets, or the refusal."""
    player, source = card.owner, -1
    task = state.tasks[0] if state.tasks else None
    if isinstance(task, Intercept) and card.owner == task.victim:
        player, source = task.player, task.victim
    plays = [
        action
        for action in state.legal_actions(player)
        if isinstance(action, Play) and action.card == card.name and action.source == source
    ]
    if len(plays) == 1:
        return Verdict("move", action=plays[0], reason=plays[0].safe_notation())
    if plays:
        ordered = _ordered(state, player, plays)
        listed = " or ".join(f"'{action.notation()}'" for action in ordered)
        return Verdict(
            "choose",
            options=tuple(ordered),
            reason=f"{state.player_name(player)}: confirm for '{ordered[0].notation()}', "
            f"or type one of {listed}",
        )
    reason = _play_refusal(state, player, card.name, source)
    return Verdict("illegal", places=(player,), reason=f"{reason}: take {card.name} off the stack")


def _ordered(state: CommissarsState, player: int, plays: Sequence[Play]) -> list[Play]:
    """Targets the plain way first: the top of the stack, then clockwise from the player."""
    top = state.stack[-1].id if state.stack else -1
    count = state.num_players

    def rank(play: Play) -> tuple[int, int, str]:
        after = (play.target - player) % count if play.target >= 0 else 0
        return (0 if play.entry in (-1, top) else 1, after, play.kind)

    return sorted(plays, key=rank)


def _play_refusal(state: CommissarsState, player: int, name: str, source: int) -> str:
    """Why the play of ``name`` by ``player`` (from ``source``'s hand, if any) is not allowed."""
    holder = source if source >= 0 else player
    reason = state.cannot_hold_reason(holder, name)
    if reason is not None:
        return reason
    if player not in state.to_act():
        return _out_of_turn(state, player)
    try:
        state.clone().apply(Play(name, source=source, player=player))
    except IllegalAction as error:
        return str(error)
    return f"{state.player_name(player)} cannot play {name} now"


def _out_of_turn(state: CommissarsState, player: int) -> str:
    """A seat acting while the game waits for someone else, in words that name no hand."""
    who = state.player_name(player)
    if state.window is not None:
        asked = state.player_name(state.window.next)
        return f"not {who}'s turn to respond: {asked} passes or responds first"
    return f"not {who}'s turn: the game waits for {state.waiting_for()}"


def _on_pile(state: CommissarsState, card: CardSeen) -> Verdict:
    """A card newly on its owner's pile: a Produce flip, a discard, or out of place."""
    seat = card.owner
    if state.to_act() == (CHANCE,):
        task = state.tasks[0]
        if isinstance(task, Flip) and task.player == seat:
            return _if_legal(state, TopCard(card.name, player=CHANCE), seat)
    elif _discarding(state) == seat:
        return _if_legal(state, Discard(card.name, player=seat), seat)
    return Verdict(
        "illegal",
        places=(seat,),
        reason=f"{state.player_name(seat)} may not put {card.name} on their pile now: "
        f"take it off ({state.waiting_for()})",
    )


def _discarding(state: CommissarsState) -> int | None:
    """The seat that may discard now: the active player's Discard/Draw phase, or a card's demand."""
    task = state.tasks[0] if state.tasks else None
    if isinstance(task, DiscardCards):
        return task.player
    if task is None and state.window is None and state.phase == "discard":
        return state.active
    return None


def _if_legal(state: CommissarsState, action: Action, seat: int) -> Verdict:
    """A move if the engine takes ``action`` now; else the engine's reason, on ``seat``."""
    if action in state.legal_actions(None if action.player == CHANCE else action.player):
        return Verdict("move", action=action, reason=action.safe_notation())
    reason = _refusal(state, action)
    return Verdict("illegal", places=(seat,), reason=f"{reason}: take it off the pile")


def _refusal(state: CommissarsState, action: Action) -> str:
    if isinstance(action, Discard):
        hold = state.cannot_hold_reason(action.player, action.card)
        if hold is not None:
            return hold
    try:
        state.clone().apply(action)
    except IllegalAction as error:
        return str(error)
    return f"{action.safe_notation()} does not fit now"


# -- comparing the mat with the game ----------------------------------------------------------


def differences(
    state: CommissarsState,
    seen: CommissarsMat,
    book: TagBook,
    fresh: Sequence[tuple[Zone, CardSeen]] = (),
) -> list[tuple[int | None, str]]:
    """Where the mat differs from the game, in words, by seat (None: the stack, the margin)."""
    found: list[tuple[int | None, str]] = []
    if seen.unknown_tags:
        ids = ", ".join(str(tag) for tag in seen.unknown_tags)
        found.append((None, f"tag {ids} is on no card of the decks in play: take it off the mat"))
    if seen.astray:
        names = ", ".join(card.name for card in seen.astray)
        found.append((None, f"{names} lie outside the zones of the players"))
    for zone, card in fresh:
        where = "the stack" if zone is None else f"{state.player_name(zone)}'s pile"
        found.append((zone, f"take {card.name} off {where} (the game does not have it there)"))
    held = face_up(state)
    for zone, card in seen.cards():
        if not book.counted(card.tag):
            if book.is_settled(card.tag, zone):  # no card laid, yet the game no longer has it
                found.append(_not_held(state, zone, card, held.get(card.key, FaceUp())))
            continue
        copies = held.get(card.key, FaceUp())
        owner = state.player_name(card.owner)
        if zone is None and not copies.stack:
            found.append((card.owner, f"{card.name} has resolved: move it to {owner}'s pile"))
        elif zone is not None and zone != card.owner:
            found.append((zone, f"put {card.name} back on {owner}'s pile"))
        elif zone is not None and _belongs_on_stack(state, seen, zone, card, copies):
            found.append((zone, f"put {card.name} back on the stack (it has not resolved)"))
    for seat in range(len(seen.piles)):
        if _top_missing(state, seen, book, seat):
            top = pile_top(state, seat)
            found.append((seat, f"{state.player_name(seat)}'s pile: {top} belongs on top"))
    return found


def _not_held(
    state: CommissarsState, zone: Zone, card: CardSeen, copies: FaceUp
) -> tuple[int | None, str]:
    """Words for a card that lay there before and the game no longer holds there.

    A card resolved while it still lies on the stack goes to its pile; a card on a
    pile the game shuffled into the deck (or took back) goes off the pile.
    """
    owner = state.player_name(card.owner)
    if zone is None:
        if copies.pile:
            return card.owner, f"{card.name} has resolved: move it to {owner}'s pile"
        return card.owner, f"take {card.name} off the stack (the game does not have it there)"
    if not state.seats[zone].discard:
        return zone, (
            f"{state.player_name(zone)}'s pile went back into the deck: shuffle {card.name} into it"
        )
    return (
        zone,
        f"take {card.name} off {state.player_name(zone)}'s pile (the game does not have it there)",
    )


def _belongs_on_stack(
    state: CommissarsState, seen: CommissarsMat, zone: int, card: CardSeen, copies: FaceUp
) -> bool:
    """Whether a card on top of its pile is one the game holds on the stack (an undo)."""
    if card.name == pile_top(state, zone):
        return False
    stacked = sum(1 for other in seen.stack if other.key == card.key)
    return copies.stack > stacked


def _top_missing(state: CommissarsState, seen: CommissarsMat, book: TagBook, seat: int) -> bool:
    """Whether the seat's pile lacks the top the game holds (an undo put it back there).

    An empty pile lacks it; so does one whose counted cards are all other cards,
    unless that top still lies on the stack (resolved: the stack's words say so).
    """
    top = pile_top(state, seat)
    if top is None:
        return False
    pile = seen.piles[seat]
    if not pile:
        return True
    counted = [card for card in pile if book.counted(card.tag)]
    on_stack = any(card.key == (seat, top) for card in seen.stack)
    return len(counted) == len(pile) and all(card.name != top for card in pile) and not on_stack


def differing_seats(state: CommissarsState, seen: CommissarsMat, book: TagBook) -> tuple[int, ...]:
    """The seats whose zone differs from the game (the book is brought up to the game first)."""
    fresh = book.follow(Holding.of(state), seen)
    found = differences(state, seen, book, fresh)
    return tuple(sorted({seat for seat, _ in found if seat is not None}))
