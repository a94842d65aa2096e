"""The Cogs and Commissars game state: setup, turn phases, the stack and its windows.

Who acts, in order, is told at :meth:`CommissarsState.to_act`; the cards' effects and
leader powers are in :mod:`games.commissars.effects`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.core import CHANCE, BadOptions, Outcome, State

from .actions import Happened
from .cards import CardSet
from .constants import (
    DRAFT_RANDOM,
    HAND_SIZE,
    MAIN_PHASES,
    PACKET,
    RANDOM_CARDS,
    START_PROLETARIAT,
    SUPPLY,
    UNCONDITIONAL_TARGETS,
)
from .effects import ANDROIDOPOV
from .holding import hold_refusal
from .legality import Legality
from .model import Entry, Seat, Window
from .moves import Moves
from .tasks import (
    CHANCE_TASKS,
    DECISION_TASKS,
    BeginDiscard,
    BeginTurn,
    BuildDecks,
    ChanceTask,
    Deal,
    DealLeader,
    DealPacket,
    DiscardCards,
    Draft,
    Draw,
    Fill,
    Finish,
    Flip,
    Intercept,
    LeaderPower,
    OpenWindow,
    Resolve,
    RetargetCopy,
    Retrieve,
    Search,
    StartHands,
    Task,
)


class CommissarsState(Moves, Legality, State):
    """A game of Cogs and Commissars in progress."""

    game = "commissars"

    def __init__(self, options: Mapping[str, Any], seed: int, cards: CardSet) -> None:
        super().__init__(options, seed, options["players"])
        self.cards = cards
        self.unknown_hands = options["hands"] == "unknown"
        factions = _factions(options, cards)
        leaders = options["leaders"] and options["leader_deal"] == "choose"
        self.seats = [Seat(faction, faction if leaders else "") for faction in factions]
        self.gulag = dict(SUPPLY)
        self.pool: Counter[str] = Counter()
        self.stack: list[Entry] = []
        self.next_id = 1
        self.tasks: list[Task] = []
        self.window: Window | None = None
        self.picked: list[bool] = [False] * self.num_players
        self.phase, self.turn, self.active = "setup", 0, options["first_player"]
        self.actions_left, self.hand_limit, self.disarmed = 0, HAND_SIZE, -1
        self.played = [0] * self.num_players
        self.winner, self.ended = -1, ""
        self.resolving: Entry | None = None
        self.resolving_sent = 0
        self._new_tasks: list[Task] = []
        self._events: list[Happened] = []
        self._others_of = tuple(tuple(self.others(p)) for p in range(self.num_players))

    # -- setup -----------------------------------------------------------------

    def setup(self) -> None:
        """Rations, leaders dealt at random (if so), decks, starting hands, first turn."""
        for seat in self.seats:
            seat.citizens["P"] = START_PROLETARIAT
            self.gulag["P"] -= START_PROLETARIAT
        if self.options["leaders"] and self.options["leader_deal"] == "random":
            self.tasks.extend(DealLeader(p) for p in range(self.num_players))
        self.tasks.append(BuildDecks())  # after the deal: a faction deck follows its leader
        self._advance()

    def _build_decks(self) -> None:
        """Faction decks, or the deals (and draft) that build random and drafted decks."""
        mode = self.options["decks"]
        if mode == "preconstructed":
            for seat in self.seats:
                seat.deck = self.cards.faction_deck(seat.faction)
            tasks: list[Task] = []
        else:
            tasks = self._deal_tasks(mode)
        if mode != "draft":  # the draft deals starting hands when its last packet is empty
            tasks.append(StartHands())
        self.tasks[0:0] = tasks

    def _deal_tasks(self, mode: str) -> list[Task]:
        self.pool = self.cards.regular_pool()
        for seat in self.seats:
            seat.deck = self.cards.core_set()
        rounds = RANDOM_CARDS if mode == "random" else DRAFT_RANDOM
        players = range(self.num_players)
        tasks: list[Task] = [Deal(p) for _ in range(rounds) for p in players]
        if mode == "draft":
            tasks.extend(DealPacket(p) for _ in range(PACKET) for p in players)
            tasks.append(Draft())
        return tasks

    # -- who acts ----------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """Who may act now (``()`` at the end).

        Who acts is decided in this order:

        1. a queued task that needs input: chance for a draw, flip or deal (the card
           that comes off the deck), or the one player who must choose something;
        2. an open response window: the one player whose turn it is to respond; the
           window closes (and the top card resolves) after every player passed in a row;
        3. the draft: every player who has not picked from their packet yet;
        4. the active player in their Discard/Draw, Propaganda or Action phase, then
           every other player who holds a Blitz they could play right now (a Blitz
           card with a legal target, or a card playable as a Blitz by paying its cost,
           such as Hire Assassin). The rulebook lets anyone play Blitz cards "at any
           time"; such a player is never obliged to, so only their Blitz plays are
           listed (no Pass). A Blitz played this way goes on the stack and opens the
           response window as usual; when the stack is empty again the game is where
           it was (same phase, same active player, same actions left). Who holds a
           playable Blitz is a secret of their hand: ``to_act`` (the referee's
           knowledge) includes them, but views and messages do not; a player's own
           view says ``may_blitz`` for them alone.

        The Produce step's two flips are chance and happen at once, with nobody to
        wait for. A Blitz "between Produce and Discard/Draw" is therefore played at
        the start of Discard/Draw, the first waiting point after the flips, before the
        active player discards anything.
        """
        if self.winner >= 0 or self.ended:
            return ()
        if self.tasks:
            task = self.tasks[0]  # a chance or decision task: _advance ran the others
            if isinstance(task, CHANCE_TASKS):
                return (CHANCE,)
            assert isinstance(task, DECISION_TASKS)
            return (task.player,)
        if self.window is not None:
            return (self.window.next,)
        if self.phase == "draft":
            return tuple(p for p in range(self.num_players) if not self.picked[p])
        if self.phase in MAIN_PHASES:
            return (self.active, *self._interjectors())
        return (self.active,)

    def may_blitz(self) -> list[int]:
        """The other players who could play a Blitz now, while the active player is waited for.

        Called on every ``to_act``, so a hand is checked card by card only when
        it holds a Blitz-capable card at all (a cheap set test first). The stack
        is empty here (a window is open whenever it is not), so cards that
        target a stack entry are left out of that set.
        """
        return self._interjectors() if self.blitz_moment() else []

    def blitz_moment(self) -> bool:
        """Whether the game waits on the active player's phase with nothing on the stack.

        That is when anyone holding a Blitz may interject; a table asks (or lights)
        every player alike then, since only the hands say who really could.
        """
        waiting_on_turn = not self.tasks and self.window is None and self.phase in MAIN_PHASES
        return waiting_on_turn and self.winner < 0 and not self.ended

    def _interjectors(self) -> list[int]:
        """:meth:`may_blitz` without its checks (``to_act`` has made them already)."""
        blitz_names, seats = self.cards.blitz_names, self.seats
        return [
            p
            for p in self._others_of[self.active]
            if not blitz_names.isdisjoint(seats[p].holdable()) and self._holds_playable_blitz(p)
        ]

    def _holds_playable_blitz(self, player: int) -> bool:
        """True if some card the hand may hold has a Blitz play (cost payable, a target) now."""
        blitz_names = self.cards.blitz_names
        for name in self.seats[player].holdable():
            if name in blitz_names:
                card = self.card(name)
                if card.type == "Blitz" and card.target in UNCONDITIONAL_TARGETS:
                    return True  # Doublethink, Military Action: nothing to check
                if any(self._card_plays(name, player, in_window=True)):
                    return True
        return False

    # -- running queued tasks -----------------------------------------------------------

    def _flush(self) -> None:
        if self._new_tasks:
            self.tasks[0:0] = self._new_tasks
            self._new_tasks = []

    def _advance(self) -> None:
        """Run queued tasks that need nobody's input, until someone must act."""
        while self.winner < 0 and not self.ended:
            self._flush()
            if not self.tasks:
                if self.window is None and self.stack:
                    self.window = Window((self.stack[-1].player + 1) % self.num_players)
                return
            task = self.tasks[0]
            if isinstance(task, CHANCE_TASKS + DECISION_TASKS):
                if isinstance(task, Draw | Flip):
                    self._reshuffle_if_empty(task.player)
                if not self._skip_task(task):
                    return
                self.tasks.pop(0)
            else:
                self.tasks.pop(0)
                self._run(task)

    def _reshuffle_if_empty(self, player: int) -> None:
        seat = self.seats[player]
        if seat.deck_size() == 0 and seat.discard:
            seat.resolve_unseen()
            seat.deck = Counter(seat.discard)
            seat.discard = []
            self._note("reshuffle", player, f"player {player + 1} shuffles their discard pile")

    def _run(self, task: Task) -> None:
        """Run a task that needs no input."""
        match task:
            case OpenWindow(player):
                self.window = Window((player + 1) % self.num_players)
            case Resolve():
                self.resolve_top()
            case Finish():
                self.finish_resolving()
            case Fill(player):
                self._fill(player)
            case BuildDecks():
                self._build_decks()
            case BeginTurn():
                self._begin_turn()
            case BeginDiscard(player):
                self._begin_discard(player)
            case StartHands():
                draws = [Draw(p) for p in range(self.num_players) for _ in range(HAND_SIZE)]
                self.tasks[0:0] = [*draws, BeginTurn()]
            case Draft():
                self.phase = "draft"

    def _fill(self, player: int) -> None:
        seat = self.seats[player]
        if seat.hand_size() < self.hand_limit and (seat.deck_size() or seat.discard):
            self._later(Draw(player))
            self._later(Fill(player))

    def _begin_turn(self) -> None:
        cap = self.options["max_turns"]
        if cap and self.turn >= cap:
            self.ended = "turn limit"
            return
        self.turn += 1
        self.phase, self.actions_left, self.disarmed = "produce", 1, -1
        self.played = [0] * self.num_players
        self._note("turn", self.active, f"turn {self.turn}: player {self.active + 1}")
        self._later(Flip(self.active))
        self._later(Flip(self.active))
        self._later(BeginDiscard(self.active))

    def _begin_discard(self, player: int) -> None:
        """Androidopov's hand size is fixed here, when the phase begins (FAQ)."""
        self.phase, self.hand_limit = "discard", HAND_SIZE
        if self.leader_of(player) == ANDROIDOPOV:
            seat = self.seats[player]
            bonus = sum(1 for n in seat.discard if self.card(n).type == "Counter Propaganda")
            self.hand_limit += bonus

    # -- the end, views, copies ------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        scores = tuple(float(seat.points()) for seat in self.seats)
        if self.winner >= 0:
            return Outcome((self.winner,), scores, "revolution")
        if self.ended:
            return Outcome((), scores, self.ended)
        return None

    def waiting_for(self) -> str:
        """Who the game waits for and why, in words."""
        acting = self.to_act()
        if not acting:
            return "the game is over"
        if acting == (CHANCE,):
            return f"the table: {_chance_words(self._chance_task())}"
        names = ", ".join(self.player_name(p) for p in self._waited_for())
        if self.tasks:
            return f"{names} to decide ({_decision_words(self.tasks[0])})"
        if self.window is not None:
            return f"{names} to respond to {self.stack[-1].card} or pass"
        return f"{names} ({self.phase} phase)"

    def _waited_for(self) -> list[int]:
        """``to_act`` without the players who could interject with a Blitz.

        Who holds a playable Blitz is a secret of their hand, so views, prompts
        and refusal messages name only the players the game is waiting for.
        """
        blitzing = self.may_blitz()
        return [p for p in self.to_act() if p not in blitzing]

    # -- what a hand may hold ------------------------------------------------------------

    def could_hold(self, player: int, card: str) -> bool:
        """Whether ``player``'s hand holds ``card``, or (table mode) an unseen card could be it."""
        return self.seats[player].could_hold(card)

    def cannot_hold_reason(self, player: int, card: str) -> str | None:
        """Why ``player``'s hand cannot hold ``card``, in a player's words; None if it could."""
        seat, who = self.seats[player], self.player_name(player)
        if not self.unknown_hands:
            return None if seat.could_hold(card) else f"{card} is not in {who}'s hand"
        return hold_refusal(seat, who, card, self._face_up(), player)

    def _face_up(self) -> list[Entry]:
        """The cards played and not yet in a discard pile: the stack and the card resolving."""
        return [*self.stack, *([self.resolving] if self.resolving else [])]

    # -- views ----------------------------------------------------------------------------

    def view(self, player: int | None = None) -> dict[str, Any]:
        view = self._public_view()
        if player is not None and 0 <= player < self.num_players:
            view["you"] = player
            view["hand"] = sorted(self.seats[player].hand.elements())
            if self.unknown_hands:
                view["unseen_in_hand"] = self.seats[player].unseen
                view["could_hold"] = sorted(self.seats[player].holdable())
            view["packet"] = sorted(self.seats[player].packet.elements())
            view["may_blitz"] = player in self.may_blitz()
            view.update(self._revealed_to(player))
        return view

    def _public_view(self) -> dict[str, Any]:
        window = None
        if self.window is not None:
            passes_left = self.num_players - self.window.passes
            window = {**self.window.to_json(), "resolves_after_passes": passes_left}
        return {
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "actions_left": self.actions_left,
            "hand_limit": self.hand_limit,
            "gulag": dict(self.gulag),
            "players": [seat.public() for seat in self.seats],
            "stack": [entry.to_json() for entry in self.stack],
            "window": window,
            "to_act": self._waited_for(),
            "waiting_for": self.waiting_for(),
            "winner": self.winner,
        }

    def _revealed_to(self, player: int) -> dict[str, Any]:
        """Secrets a pending choice shows its chooser (their deck, an intercepted hand)."""
        task = self.tasks[0] if self.tasks else None
        match task:
            case Search(chooser) if chooser == player and self.unknown_hands:
                return {"deck_could_hold": sorted(self.seats[player].deck)}
            case Search(chooser) if chooser == player:
                return {"deck": sorted(self.seats[player].deck.elements())}
            case Intercept(chooser, victim) if chooser == player and self.unknown_hands:
                return {"intercepted_hand_could_hold": sorted(self.seats[victim].holdable())}
            case Intercept(chooser, victim) if chooser == player:
                return {"intercepted_hand": sorted(self.seats[victim].hand.elements())}
        return {}

    def snapshot(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "actions_left": self.actions_left,
            "hand_limit": self.hand_limit,
            "gulag": dict(self.gulag),
            "stack": [entry.to_json() for entry in self.stack],
            "winner": self.winner,
            "seats": [seat.snapshot() for seat in self.seats],
            "pool": dict(sorted(self.pool.items())),
            "tasks": [task.to_json() for task in self.tasks],
            "window_raw": None if self.window is None else self.window.to_json(),
            "picked": list(self.picked),
            "next_id": self.next_id,
            "disarmed": self.disarmed,
            "played": list(self.played),
            "ended": self.ended,
            "resolving": None if self.resolving is None else self.resolving.to_json(),
            "resolving_sent": self.resolving_sent,
        }

    def clone(self) -> CommissarsState:
        other = object.__new__(CommissarsState)
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.history = list(self.history)
        other.seats = [seat.copy() for seat in self.seats]
        other.gulag, other.pool = dict(self.gulag), Counter(self.pool)
        other.stack = [entry.clone() for entry in self.stack]
        other.tasks, other.picked, other.played = (
            list(self.tasks),
            list(self.picked),
            list(self.played),
        )
        other.window = None if self.window is None else dataclasses.replace(self.window)
        other.resolving = None if self.resolving is None else self.resolving.clone()
        other._new_tasks, other._events = [], []
        return other


def _factions(options: Mapping[str, Any], cards: CardSet) -> list[str]:
    """The faction (and leader) of each seat: the option's list, or the data file's order."""
    players = options["players"]
    if options["leaders"] and options["leader_deal"] == "random":
        return [""] * players  # each seat's faction is its dealt leader's
    if not options["factions"]:
        return list(cards.factions[:players])
    chosen = [name.strip() for name in options["factions"].split(",")]
    unknown = [name for name in chosen if name not in cards.factions]
    if unknown or len(chosen) != players or len(set(chosen)) != players:
        raise BadOptions(
            f"option 'factions' = {options['factions']!r}: name {players} different factions "
            f"out of {', '.join(cards.factions)}"
        )
    return chosen


def _chance_words(task: ChanceTask) -> str:
    """What chance supplies for ``task``, in words."""
    seat = f"player {task.player + 1}"
    match task:
        case DealLeader():
            return f"the Faction Leader dealt to {seat}"
        case Deal():
            return f"the top card of {seat}'s deck (deal)"
        case DealPacket():
            return f"the top card of {seat}'s deck (deal_packet)"
        case Draw():
            return f"the top card of {seat}'s deck (draw)"
        case Flip():
            return f"the top card of {seat}'s deck (flip)"


def _decision_words(task: Task) -> str:
    """What the player at the front of the queue decides, in words."""
    match task:
        case DiscardCards(_, count):
            return f"discard {count}"
        case LeaderPower(_, power):
            return f"choose {power}"
        case Retrieve(_, card):
            return f"choose retrieve {card}"
        case Search(_, count, card):
            return f"choose search {card}"
        case Intercept(_, victim):
            return f"choose intercept player {victim + 1}"
        case RetargetCopy(_, entry):
            return f"retarget #{entry}"
    return type(task).__name__
