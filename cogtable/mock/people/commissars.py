"""Simulated Cogs and Commissars players at a table whose camera reads the card mat.

They hold real cards: each seat's deck is a shuffled list of its faction's
tagged cards, drawn from the top into a real hand. On the simulated mat
(:class:`~cogtable.mock.cards_world.CardsWorld`) each seat's zone holds its
deck face down and the top card of its discard pile face up (the cards
under it are set aside, as a pile hides them); the centre holds the stack,
fanned (at most five cards show; older ones are set aside). They play
through the routes a person has at that table:

- a draw: the drawing seat takes the top card into its hand and presses
  confirm (the table sees no card leave a pile of backs);
- a Produce flip: the top card of the deck laid face up on the pile;
- a discard: a card of the hand laid on the pile; a play (and a Blitz,
  now and then from a seat the table is not waiting for): a card of the
  hand laid on the stack, the target typed at the console when the table
  asks for one; an Intercept Transmission: the victim's card laid;
- a pass: the pass button; the end of a phase: the active seat's confirm;
- everything else the table asks at the console (a leader power, a card
  retrieved or searched out) is typed.

Which card they play is their seat's built-in player's choice among the
moves their real hand allows. They make a person's mistakes: a Blitz laid
while another seat is asked to respond (taken back into the hand when the
seat blinks red), and a pass forgotten for a while. After every change the
table accepted they take the table's game as the truth (an undo, a restart)
and put their cards to match it (:meth:`CommissarsTablePeople.match`): cards
keep their tags as they move, so the camera sees the same card on the pile
that left the stack. ``meant`` is every action they meant the table to take.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from cogtable.card_decks import load_deck
from cogtable.inputs import ConsoleCommand
from cogtable.mock.people.card_hands import CardMatPeople, Waiting, Zones
from games.commissars.actions import Choose, Discard, EndPhase, Pass, Play, TopCard, UnseenDraw
from games.commissars.state import CommissarsState
from games.commissars.tasks import Flip, Search
from games.core import CHANCE, Action, replay
from vision.cards.mat import CENTRE

FORGET_FRAMES = 10
"""How long someone who forgot to pass takes to remember."""
STACK_SHOWN = 5
"""The centre zone holds five cards side by side: older stack cards are set aside."""
BLITZ_RATE = 0.1
"""How often a seat the table is not waiting for lays a Blitz it may play."""


@cache
def tags_for(faction: str, name: str) -> tuple[int, ...]:
    """The tags printed on ``faction``'s copies of ``name`` (the shipped tag list's order)."""
    return tuple(
        tag.tag_id
        for tag in load_deck("commissars").tags
        if (tag.deck, tag.name) == (faction, name)
    )


@dataclass
class Cards:
    """Where every physical card of one seat's faction is: deck (top last), hand, pile, stack."""

    deck: list[int]
    hand: list[int] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)


@dataclass
class CommissarsTablePeople(CardMatPeople):
    """Everyone at a Commissars table read by the camera, acting once per frame of the world."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.cards: list[Cards] = []
        self.stack: list[int] = []
        self.names: dict[int, str] = {}
        self.owners: dict[int, int] = {}
        self.seen: set[int] = set()
        self.cards_of: int | None = None
        """The game id the cards were dealt for."""

    def _pick(self, asked: list[dict[str, Any]]) -> dict[str, Any]:
        """The first request the table waits for (one seat acts at a time)."""
        return asked[0]

    @property
    def state(self) -> CommissarsState:
        assert isinstance(self.memory, CommissarsState)
        return self.memory

    # -- keeping up with the table ----------------------------------------------------

    def _catch_up(self, status: dict[str, Any]) -> None:
        """Believe the table's game (an undo, a restart), then put the cards to match it."""
        record = self._table_record()
        if record is not None and list(record.actions) != self.memory.history:
            self.memory = replay(record)
        del self.meant[len(self.memory.history) :]  # what the table did not take (or took back)
        if self.cards_of != self.game_id:
            self._deal()
        self.match()

    def _deal(self) -> None:
        """Shuffle each seat's faction deck (the cards the camera sees on the mat stay there)."""
        rng = random.Random(f"{self.seed}/{self.game_id}")
        self.cards, self.names, self.owners = [], {}, {}
        for seat, player in enumerate(self.state.seats):
            deck = []
            for name, copies in sorted(self.state.cards.faction_deck(player.faction).items()):
                for tag in tags_for(player.faction, name)[:copies]:
                    deck.append(tag)
                    self.names[tag], self.owners[tag] = name, seat
            rng.shuffle(deck)
            self.cards.append(Cards(deck))
        self.stack = []
        self.cards_of = self.game_id
        assert self.world is not None
        self.seen = {tag for up, _ in self.world.contents().values() for tag in up}
        """Tags on the mat when the cards were dealt (after a restart): they keep their places."""

    def match(self) -> None:
        """Move the physical cards until they lie where the table's game says.

        Cards keep their tags as they move: the stack and the piles keep what
        still matches from the bottom; a card the game puts on a pile comes off
        the stack, else from the hand, else the deck; a card played comes from
        the hand; what is left goes back to the hand while the hand is short
        (an undo, a card retrieved), else on the deck (a flip undone; a
        reshuffle, shuffled). Hands then hold the cards the table knows are
        there (a card searched out) and as many cards as the table counts.
        """
        state = self.state
        entries = sorted(
            [*state.stack, *([state.resolving] if state.resolving else [])],
            key=lambda entry: entry.id,
        )
        want = [(entry.home, entry.card) for entry in entries if not entry.copy]
        kept = _prefix(self.stack, want, self._key)
        freed = self.stack[kept:]
        self.stack = self.stack[:kept]
        piles: list[list[tuple[int, str]]] = []
        for seat, player in enumerate(state.seats):
            cards = self.cards[seat]
            piles.append([(seat, name) for name in player.discard])
            kept = _prefix(cards.pile, piles[seat], self._key)
            freed += cards.pile[kept:]
            cards.pile = cards.pile[:kept]
        for key in want[len(self.stack) :]:
            self.stack.append(self._take(key, freed))
        for seat, pile in enumerate(piles):
            missing = pile[len(self.cards[seat].pile) :]
            laid = [self._take(key, freed) for key in reversed(missing)]
            self.cards[seat].pile += reversed(laid)
        self._put_away(freed)
        for seat, player in enumerate(state.seats):
            self._fit_hand(seat, player.hand, player.hand_size())

    def _key(self, tag: int) -> tuple[int, str]:
        return (self.owners[tag], self.names[tag])

    def _take(self, key: tuple[int, str], freed: list[int]) -> int:
        """A tag for the card ``key`` (owner, name): off the mat first, then hand, then deck.

        Off the mat, a card lying face up (the stack, a pile's top) is the one a hand
        moves; a card under a pile (now shuffled into the deck) is out of reach.
        """
        cards = self.cards[key[0]]
        assert self.world is not None
        face_up = {tag for up, _ in self.world.contents().values() for tag in up}
        for place in (freed, cards.hand, cards.deck):
            tags = [tag for tag in place if self._key(tag) == key]
            if tags:
                tag = next((t for t in tags if t in face_up or t in self.seen), tags[-1])
                place.remove(tag)
                return tag
        raise AssertionError(f"no {key[1]} of seat {key[0] + 1} left anywhere")

    def _put_away(self, freed: list[int]) -> None:
        """Cards the game took off the mat: back into the hand while it is short, else the deck.

        A deck that was empty and gets a whole pile back was reshuffled: it is shuffled.
        """
        empty = {seat for seat, cards in enumerate(self.cards) if not cards.deck}
        for tag in freed:
            seat = self.owners[tag]
            cards, player = self.cards[seat], self.state.seats[seat]
            if len(cards.hand) < player.hand_size():
                cards.hand.append(tag)
            else:
                cards.deck.append(tag)
        for seat in empty:
            self.rng.shuffle(self.cards[seat].deck)

    def _fit_hand(self, seat: int, known: Counter[str], size: int) -> None:
        """The hand holds the cards the table knows in it, and as many as it counts."""
        cards = self.cards[seat]
        held = Counter(self.names[tag] for tag in cards.hand)
        for name, count in known.items():
            for _ in range(count - held[name]):
                found = [tag for tag in cards.deck if self.names[tag] == name]
                if found:
                    cards.deck.remove(found[-1])
                    cards.hand.append(found[-1])
        while len(cards.hand) > size:
            spare = self._spare(cards.hand, known)
            cards.hand.remove(spare)
            cards.deck.append(spare)
        while len(cards.hand) < size and cards.deck:
            cards.hand.append(cards.deck.pop())

    def _spare(self, hand: list[int], known: Counter[str]) -> int:
        """The card of ``hand`` to give back: the newest of a name it holds more often than the
        table knows it holds, else the newest card."""
        held = Counter(self.names[tag] for tag in hand)
        beyond = [tag for tag in hand if held[self.names[tag]] > known[self.names[tag]]]
        return (beyond or hand)[-1]

    # -- answering ----------------------------------------------------------------------

    def _answer(self, asked: dict[str, Any], status: dict[str, Any]) -> None:
        """Do what the table asks (now and then a Blitz from another seat, or a slip)."""
        if asked["kind"] == "draw":
            self._chance(asked)
            return
        player = asked["player"]
        if self.memory.history and self.rng.random() < self.style.undo_rate:
            self._undo()
            return
        if self._blitz_from_elsewhere(player):
            return
        action = self._choice(player)
        if isinstance(action, Play):
            self._lay_play(action)
        elif isinstance(action, Discard):
            self._lay_on_pile(player, self._hand_tag(player, action.card), (action,))
        elif isinstance(action, Pass):
            self._pass(player, action)
        elif isinstance(action, EndPhase):
            self._press(player, "confirm", action)
        else:
            self._type(player, action, asked)

    def _chance(self, asked: dict[str, Any]) -> None:
        """A draw: the top card into the hand and confirm; a flip: the top card on the pile."""
        seat = asked["player"]
        cards = self.cards[seat]
        task = self.state.tasks[0]
        if isinstance(task, Flip) and cards.deck:
            tag = cards.deck[-1]
            self._lay_on_pile(seat, tag, (TopCard(self.names[tag], player=CHANCE),))
        else:
            self._press(seat, "confirm", UnseenDraw(player=CHANCE))

    def _choice(self, player: int) -> Action:
        """The seat's built-in player's choice among the moves the real cards allow."""
        allowed = [a for a in self.state.legal_actions(player) if self._really_can(player, a)]
        chosen = self.players[player](self.state.clone(), player, self.rng)
        if chosen in allowed or not allowed:
            return chosen
        return self.rng.choice(allowed)

    def _really_can(self, player: int, action: Action) -> bool:
        """Whether the real hand (or deck, for a search) holds the card ``action`` names."""
        if isinstance(action, Play):
            holder = action.source if action.source >= 0 else player
            return action.card in self._hand_names(holder)
        if isinstance(action, Discard):
            return action.card in self._hand_names(player)
        task = self.state.tasks[0] if self.state.tasks else None
        if isinstance(action, Choose) and isinstance(task, Search) and action.option != "done":
            return any(self.names[tag] == action.option for tag in self.cards[player].deck)
        return True

    def _hand_names(self, seat: int) -> set[str]:
        return {self.names[tag] for tag in self.cards[seat].hand}

    def _hand_tag(self, seat: int, name: str) -> int:
        return next(tag for tag in reversed(self.cards[seat].hand) if self.names[tag] == name)

    def _blitz_from_elsewhere(self, asked: int) -> bool:
        """Now and then a seat not asked lays a Blitz: allowed at a turn, a slip in a window."""
        if self.rng.random() >= BLITZ_RATE:
            return False
        state = self.state
        for seat in self.rng.sample(range(state.num_players), state.num_players):
            if seat == asked:
                continue
            if state.window is not None:
                blitz = [name for name in self._hand_names(seat) if name in state.cards.blitz_names]
                if blitz and self.rng.random() < self.style.mistake_rate * 4:
                    tag = self._hand_tag(seat, blitz[0])
                    self._lay_on_stack(seat, tag, (), mistake=True)
                    return True
                continue
            plays = [
                a
                for a in state.legal_actions(seat)
                if isinstance(a, Play) and self._really_can(seat, a)
            ]
            if plays:
                self._lay_play(self.rng.choice(plays))
                return True
        return False

    def _lay_play(self, action: Play) -> None:
        holder = action.source if action.source >= 0 else action.player
        tag = self._hand_tag(holder, action.card)
        self._lay_on_stack(action.player, tag, (action,))

    def _pass(self, player: int, action: Action) -> None:
        """The pass button; now and then forgotten a while (a mistake: the table waits for it)."""
        slip = f"{self.state.player_name(player)} forgot to pass"
        if not self._forgets(slip, FORGET_FRAMES, counted=True):
            self._press(player, "pass", action)

    def _press(self, seat: int, button: str, action: Action) -> None:
        if self.table.press(seat, button):
            self.meant.append(action)
            self._wait((action,))

    def _type(self, player: int, action: Action, asked: dict[str, Any]) -> None:
        line = ConsoleCommand(action.notation(), seat=player, answers=asked["key"])
        if self.table.console(line):
            self.meant.append(action)
            self._wait((action,))

    # -- hands on the mat --------------------------------------------------------------

    def _lay_on_stack(
        self, seat: int, tag: int, actions: tuple[Action, ...], mistake: bool = False
    ) -> None:
        """The card leaves its holder's hand for the stack (put back if the table refuses it)."""
        self.cards[self.owners[tag]].hand.remove(tag)
        self.stack.append(tag)
        self._lay(self.state.player_name(seat), self._target(), actions, mistake)

    def _lay_on_pile(self, seat: int, tag: int, actions: tuple[Action, ...]) -> None:
        """A card of the hand (a discard) or the deck's top (a flip) laid on the seat's pile."""
        cards = self.cards[seat]
        (cards.hand if tag in cards.hand else cards.deck).remove(tag)
        cards.pile.append(tag)
        self._lay(self.state.player_name(seat), self._target(), actions)

    def _move_cards(self, mat: Zones, target: Zones) -> None:
        """Cards taken away, then laid; backs to match."""
        assert self.world is not None
        for name in target:
            up, down = mat.get(name, (Counter(), 0))
            want_up, want_down = target[name]
            for tag in (+(up - want_up)).elements():
                self.world.take(name, tag)
            for _ in range(max(0, down - want_down)):
                self.world.take(name, None)
            for tag in (+(want_up - up)).elements():
                self.world.lay(name, tag)
            for _ in range(max(0, want_down - down)):
                self.world.lay(name, None)

    def _refused(self, waiting: Waiting, message: str) -> None:
        """What the table refused is no longer meant; the card goes back (the mat is matched)."""
        if not waiting.mistake and waiting.actions:
            self.meant = self.meant[: len(self.meant) - len(waiting.actions)]
        self.say(f"the table blinks red: {message}; taking it back")

    def _say_which(self, action: Action, status: dict[str, Any]) -> None:
        """The table asks which target a card laid has: typed at the console."""
        asked = [a for a in status.get("waiting_for", []) if a.get("player") == action.player]
        key = asked[0]["key"] if asked else None
        self.table.console(ConsoleCommand(action.notation(), seat=action.player, answers=key))

    def _undo(self) -> None:
        """The last player holds undo; the cards are then put as the game says."""
        if self._hold_undo():
            del self.meant[len(self.memory.history) :]

    # -- the mat as it should be -------------------------------------------------------

    def _target(self) -> Zones:
        """The mat as the cards lie: each pile's top and the deck's back, the newest stack cards."""
        assert self.world is not None
        zones: Zones = {zone.name: (Counter(), 0) for zone in self.world.mat.zones}
        for seat, cards in enumerate(self.cards):
            if seat in self.zones:
                top = Counter(cards.pile[-1:])
                zones[self.zones[seat]] = (top, 1 if cards.deck else 0)
        zones[CENTRE] = (Counter(self.stack[-STACK_SHOWN:]), 0)
        return zones


def _prefix(tags: list[int], want: list[tuple[int, str]], key: Any) -> int:
    """How many of ``tags`` (from the bottom) already are the cards ``want`` starts with."""
    kept = 0
    for tag, wanted in zip(tags, want, strict=False):
        if key(tag) != wanted:
            break
        kept += 1
    return kept


TablePeople = CommissarsTablePeople
"""The people :mod:`cogtable.commands.sim` seats at a Commissars table read by the camera."""

__all__ = ["CommissarsTablePeople", "TablePeople"]
