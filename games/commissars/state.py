"""The Cogs and Commissars game state: setup, turn phases, the stack and its windows.

Who acts, in order, is told at :meth:`CommissarsState.to_act`; the cards' effects and
leader powers are in :mod:`games.commissars.effects`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from games.core import (
    CHANCE,
    Action,
    BadOptions,
    Event,
    IllegalAction,
    Outcome,
    Request,
    RequestKind,
    State,
    chance_options,
)

from .actions import (
    Choose,
    Discard,
    EndPhase,
    Happened,
    Pass,
    Pick,
    Play,
    Retarget,
    TopCard,
    UnseenDraw,
)
from .cards import KINDS, Card, CardSet
from .effects import ANDROIDOPOV, SIMULENIN
from .holding import deck_refusal, hold_refusal
from .model import Entry, Seat, Window
from .position import Positions
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
    DecisionTask,
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


class CommissarsState(Positions, State):
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

    def legal_actions(self, player: int | None = None) -> Sequence[Action]:
        acting = self.to_act()
        if acting == (CHANCE,):
            if player not in (None, CHANCE):
                return []
            return [action for action, _ in self.chance_outcomes()] + self._seen_draws()
        players = acting if player is None else [p for p in acting if p == player]
        return [action for p in players for action in self._legal_for(p)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.to_act() != (CHANCE,):
            return []
        task = self._chance_task()
        if self.unknown_hands and isinstance(task, Draw):
            return [(UnseenDraw(player=CHANCE), 1.0)]
        source = self._chance_source(task)
        total = source.total()
        return [
            (TopCard(name, player=CHANCE), count / total) for name, count in sorted(source.items())
        ]

    def chance_request(self) -> Request:
        """The card the table turns up now: whose deck (or deal) and what for, by card name.

        Draws and Produce flips come off a player's deck (kind ``draw``); the
        random and draft decks, packets and Faction Leaders are dealt (``deal``)
        to the player named. Cards of one name are one outcome, so names are unique.
        """
        task = self._chance_task()
        kind, what = CHANCE_REQUESTS[type(task)]
        purpose = f"{self.player_name(task.player)}'s {what}"
        return Request(
            kind, task.player, purpose, chance_options(self.chance_outcomes(), _card_name)
        )

    def default_action(self, player: int) -> Action | None:
        """Pass, for the player whose turn it is to respond in an open response window."""
        responding = not self.tasks and self.window is not None and self.window.next == player
        return Pass(player=player) if responding and self.to_act() == (player,) else None

    def _seen_draws(self) -> list[Action]:
        """In table mode, a draw the table did see: any card the deck could hold.

        Not a chance outcome of its own (the draw is :class:`UnseenDraw`, odds 1):
        it is the same draw, reported in more detail, so a game recorded with
        known hands replays with unknown ones.
        """
        task = self._chance_task()
        if not (self.unknown_hands and isinstance(task, Draw)):
            return []
        return [TopCard(name, player=CHANCE) for name in sorted(self.seats[task.player].deck)]

    def pending_draw(self) -> int | None:
        """The player whose draw (into their hand) chance must answer now; None if no draw is due.

        In table mode that is the request answered by :class:`UnseenDraw` (label "unseen card").
        """
        if self.to_act() != (CHANCE,):
            return None
        task = self._chance_task()
        return task.player if isinstance(task, Draw) else None

    def _chance_task(self) -> ChanceTask:
        """The chance task at the front (the caller knows chance acts now)."""
        task = self.tasks[0]
        assert isinstance(task, CHANCE_TASKS)
        return task

    def _chance_source(self, task: ChanceTask) -> Counter[str]:
        match task:
            case DealLeader():
                return self._undealt_leaders()
            case Deal() | DealPacket():
                return self.pool
            case Draw(player) | Flip(player):
                return self.seats[player].deck

    def _undealt_leaders(self) -> Counter[str]:
        """The Faction Leader cards (by name) not dealt to a seat yet, one of each."""
        dealt = {seat.leader for seat in self.seats}
        return Counter(
            leader.name for key, leader in self.cards.leaders.items() if key not in dealt
        )

    def _legal_for(self, player: int) -> list[Action]:
        if self.tasks:
            task = self.tasks[0]
            assert isinstance(task, DECISION_TASKS)
            return self._decision_options(task)
        if self.window is not None:
            return [*self._plays(player, in_window=True), Pass(player=player)]
        if self.phase == "draft":
            return [Pick(name, player=player) for name in sorted(self.seats[player].packet)]
        if player != self.active:
            return list(self._plays(player, in_window=True))  # Blitz plays only
        if self.phase == "discard":
            return self._discard_phase_options(player)
        return [*self._plays(player, in_window=False), EndPhase(player=player)]

    def _discard_phase_options(self, player: int) -> list[Action]:
        """Discards, Blitz plays, and ending the phase once the hand fits the limit."""
        seat = self.seats[player]
        options: list[Action] = [Discard(name, player=player) for name in sorted(seat.holdable())]
        options.extend(self._plays(player, in_window=True))
        if seat.hand_size() <= self.hand_limit:
            options.append(EndPhase(player=player))
        return options

    # -- plays and their targets -----------------------------------------------------

    def _plays(self, player: int, in_window: bool) -> Iterator[Play]:
        """Every card ``player`` may play from hand (or could, if unseen) now, with every target."""
        for name in sorted(self.seats[player].holdable()):
            yield from self._card_plays(name, player, in_window)

    def _card_plays(self, name: str, player: int, in_window: bool) -> Iterator[Play]:
        """Every way ``player`` may play the card ``name`` now, with every target."""
        card = self.card(name)
        for blitz in self._play_modes(card, player, in_window):
            for target, kind, entry in self.targets(card, player):
                if not blitz or self._survives_sacrifice(card, player, target, kind):
                    yield Play(name, target, kind, entry, blitz, player=player)

    def _survives_sacrifice(self, card: Card, player: int, target: int, kind: str) -> bool:
        """A paid Blitz may not aim at the very Citizen it sacrifices.

        The sacrificed Proletariat "goes to the Gulag before the card is played"
        (FAQ), so one's own Citizen of that kind is a target only if another is left.
        """
        if target != player or kind != card.blitz_cost:
            return True
        return self.seats[player].citizens[kind] >= 2

    def _play_modes(self, card: Card, player: int, in_window: bool) -> list[bool]:
        """How ``card`` may be played now: ``[]`` not at all; True means as a paid Blitz."""
        if card.type in ("Blitz", "Counter Propaganda"):
            return [False]
        modes = []
        enough = self.seats[player].points() >= card.requires_points
        if card.type in ("Action", "Revolution") and self._may_take_action(player) and enough:
            modes.append(False)
        if card.type == "Propaganda" and not in_window and self._may_play_propaganda(player):
            modes.append(False)
        if card.blitz_cost and self.seats[player].citizens[card.blitz_cost]:
            modes.append(True)
        return modes

    def _may_take_action(self, player: int) -> bool:
        return player == self.active and self.phase == "action" and self.actions_left > 0

    def _may_play_propaganda(self, player: int) -> bool:
        return player == self.active and self.phase == "propaganda" and not self.stack

    def targets(self, card: Card, player: int, exclude: int = -1) -> list[tuple[int, str, int]]:
        """Every legal choice of target for ``card`` played by ``player`` now."""
        spec, everyone = card.target, range(self.num_players)
        if spec == "none":
            return [(-1, "", -1)]
        if spec == "other_player":
            return [(p, "", -1) for p in everyone if p != player]
        if spec in ("citizen", "other_citizen"):
            return [
                (p, kind, -1)
                for p in everyone
                if spec == "citizen" or p != player
                for kind in KINDS
                if self.seats[p].citizens[kind]
            ]
        if spec == "kind":
            return [(-1, kind, -1) for kind in KINDS]
        if spec == "retype":
            return [
                (-1, kind, entry.id)
                for entry in self.stack
                if entry.kind and entry.id != exclude
                for kind in KINDS
                if kind != entry.kind
            ]
        return [
            (-1, "", entry.id)
            for entry in self.stack
            if entry.id != exclude and self._may_target_entry(card, entry)
        ]

    def _may_target_entry(self, card: Card, entry: Entry) -> bool:
        if card.duplicates():
            return not self.card(entry.card).duplicates()  # else duplicates could loop forever
        if not card.counters():
            return True
        if entry.uncounterable:
            return False
        types = card.counter_types()
        if types:
            return self.card(entry.card).type in types
        return not entry.protected

    # -- decisions ------------------------------------------------------------------

    def _decision_options(self, task: DecisionTask) -> list[Action]:
        match task:
            case DiscardCards(player):
                holdable = self.seats[player].holdable()
                return [Discard(name, player=player) for name in sorted(holdable)]
            case RetargetCopy(player, entry_id):
                return self._retarget_options(player, entry_id)
            case Intercept(player, victim):
                return [*self._intercept_plays(player, victim), Choose("none", player=player)]
            case _:
                return [Choose(name, player=task.player) for name in self._choice_names(task)]

    def _retarget_options(self, player: int, entry_id: int) -> list[Action]:
        entry = self.find_entry(entry_id)
        if entry is None:
            return []
        found = self.targets(self.card(entry.card), player, exclude=entry_id)
        return [Retarget(t, k, e, player=player) for t, k, e in found]

    def _choice_names(self, task: LeaderPower | Retrieve | Search) -> list[str]:
        """The options of a :class:`Choose` answer to ``task``."""
        seat = self.seats[task.player]
        match task:
            case LeaderPower():
                return list(task.options())
            case Retrieve(_, resolving):
                return sorted(name for name in set(seat.discard) if name != resolving)
            case Search(_, _, card):
                wanted = self._search_types(card)
                in_deck = seat.deck if seat.deck_size() else ()
                names = sorted(n for n in in_deck if self.card(n).type in wanted)
                return [*names, "done"] if names else []

    def _search_types(self, name: str) -> tuple[str, ...]:
        step = next(step for step in self.card(name).effect if step.op == "search_deck")
        return tuple(step.get("types"))

    def _intercept_plays(self, player: int, victim: int) -> Iterator[Play]:
        for name in sorted(self.seats[victim].holdable()):
            card = self.card(name)
            if self.seats[player].points() < card.requires_points:
                continue
            for target, kind, entry in self.targets(card, player):
                yield Play(name, target, kind, entry, False, victim, player=player)

    def _skip_task(self, task: ChanceTask | DecisionTask) -> bool:
        """A draw from an empty deck, or a decision with nothing to choose, is skipped."""
        if isinstance(task, Draw | Flip):
            return self.seats[task.player].deck_size() == 0
        if isinstance(task, CHANCE_TASKS):
            return self._chance_source(task).total() == 0
        return not self._decision_options(task)

    # -- applying ---------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        legal = self.legal_actions(action.player)
        if action not in legal:
            raise IllegalAction(self._why_illegal(action))
        self._events = []
        if self.tasks:
            self._answer_task(self.tasks.pop(0), action)
        else:
            self._act(action)
        self._advance()
        return list(self._events)

    def _why_illegal(self, action: Action) -> str:
        refusal = self._card_refusal(action)
        if refusal is not None:
            return refusal
        if isinstance(action, Play) and action.source < 0:
            return f"{action.notation()} is not allowed now ({self.waiting_for()})"
        if isinstance(action, UnseenDraw) and not self.unknown_hands:
            return "with known hands (hands = 'known') the table names every card drawn"
        if isinstance(action, UnseenDraw):
            return f"only a draw into a hand goes unseen; waiting for {self.waiting_for()}"
        if action.player in self.may_blitz():
            return (
                f"{self.player_name(action.player)} may only play a Blitz now "
                f"(it is {self.player_name(self.active)}'s {self.phase} phase)"
            )
        return f"{action.notation()} is not possible now ({self.waiting_for()})"

    def _card_refusal(self, action: Action) -> str | None:
        """Why the card an action names cannot be where it says: in a hand, atop a deck."""
        if isinstance(action, Play | Discard):
            from_hand = action.source if isinstance(action, Play) and action.source >= 0 else -1
            holder = action.player if from_hand < 0 else from_hand
            if 0 <= holder < self.num_players:
                return self.cannot_hold_reason(holder, action.card)
        if self.unknown_hands and isinstance(action, TopCard) and self.to_act() == (CHANCE,):
            task = self._chance_task()
            if isinstance(task, Draw | Flip):
                seat, who = self.seats[task.player], self.player_name(task.player)
                return deck_refusal(seat, who, action.card, self._face_up(), task.player)
        return None

    def _answer_task(self, task: Task, action: Action) -> None:
        """Apply a chance outcome or a decision to the task at the front."""
        match task, action:
            case Draw(player), UnseenDraw():
                self.seats[player].unseen += 1
                self._note("draw", player, f"player {player + 1} draws a card")
            case ((DealLeader() | Deal() | DealPacket() | Draw() | Flip()), TopCard()):
                self._take_from_deck(task, action.card)
            case DiscardCards(player, count), Discard():
                self.discard_from_hand(action.player, action.card)
                if count > 1:
                    self._later(DiscardCards(player, count - 1))
            case RetargetCopy(_, entry_id), Retarget():
                self._retarget(entry_id, action)
            case Intercept(), Play():
                self._play(action)
            case ((LeaderPower() | Retrieve() | Search() | Intercept()), Choose()):
                self._choose(action, task)
            case _:  # pragma: no cover - legal_actions lists nothing else for tasks
                raise IllegalAction(f"{action.notation()} does not answer {task}")

    def _act(self, action: Action) -> None:
        if isinstance(action, Pass):
            self._pass()
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, EndPhase):
            self._end_phase()
        elif isinstance(action, Discard):
            self.discard_from_hand(action.player, action.card)
        elif isinstance(action, Pick):
            self._pick(action)

    def _take_from_deck(self, task: ChanceTask, name: str) -> None:
        player = task.player
        if isinstance(task, DealLeader):
            self._deal_leader(player, name)
            return
        source = self._chance_source(task)
        source[name] -= 1
        source += Counter()
        seat = self.seats[player]
        match task:
            case Deal():
                seat.deck[name] += 1
            case DealPacket():
                seat.packet[name] += 1
            case Draw():
                seat.hand[name] += 1
                self._note("draw", player, f"player {player + 1} draws a card")
            case Flip():
                seat.discard.append(name)
                self._note("produce", player, f"player {player + 1} flips {name}")
                for kind in self.card(name).production:
                    self.gain(player, kind)

    def _play(self, action: Play) -> None:
        """Put a card on the stack: pay its Blitz cost, count it, fire play triggers."""
        player, card = action.player, self.card(action.card)
        home = action.source if action.source >= 0 else player
        self.seats[home].take_from_hand(action.card)
        if action.blitz:
            self.send(player, card.blitz_cost, counted=False)
        elif card.type in ("Action", "Revolution") and action.source < 0:
            self.actions_left -= 1
        shield_before = self.disarmed
        if "disarm" in card.on_play:
            self.disarmed = player
        points = self.seats[player].points()
        entry = Entry(
            self.next_id, action.card, player, home, action.target, action.kind, action.entry,
            protected=self.disarmed == player,
            uncounterable=bool(card.uncounterable_at) and points >= card.uncounterable_at,
            played_before=self.played[player],
            shield_before=shield_before,
        )  # fmt: skip
        self.next_id += 1
        self.played[player] += 1
        self.stack.append(entry)
        self._note("play", player, f"player {player + 1}: {action.notation()} (#{entry.id})")
        if card.mentions_counter and self.leader_of(player) == SIMULENIN:
            self._later(LeaderPower(player, "simulenin"))
        self._later(OpenWindow(player))

    def _deal_leader(self, player: int, name: str) -> None:
        """The leader dealt to ``player`` fixes their faction (and preconstructed deck)."""
        seat = self.seats[player]
        seat.faction = seat.leader = self.cards.leader_faction(name)
        self._note("leader", player, f"player {player + 1} is dealt {name}")

    def _retarget(self, entry_id: int, action: Retarget) -> None:
        entry = self.find_entry(entry_id)
        if entry is not None:
            entry.target, entry.kind, entry.entry = action.target, action.kind, action.entry

    def _choose(self, action: Choose, task: LeaderPower | Retrieve | Search | Intercept) -> None:
        player, option = action.player, action.option
        if option in ("none", "done"):
            return
        match task:
            case LeaderPower(_, power):
                draws = 2 if power == "computin" else 1
                tasks = [Flip(player)] if option == "produce" else [Draw(player)] * draws
                for follow_up in tasks:
                    self._later(follow_up)
            case Retrieve():
                self.seats[player].discard.remove(option)
                self.seats[player].hand[option] += 1
                self._note("retrieve", player, f"player {player + 1} takes {option} back")
            case Search():
                self._search_take(task, option)

    def _search_take(self, task: Search, name: str) -> None:
        player = task.player
        seat = self.seats[player]
        seat.deck[name] -= 1
        seat.deck += Counter()
        seat.hand[name] += 1
        self._note("show", player, f"player {player + 1} takes {name} from their deck")
        if task.count > 1:
            self._later(Search(player, task.count - 1, task.card))

    def _pass(self) -> None:
        assert self.window is not None
        self.window.next = (self.window.next + 1) % self.num_players
        self.window.passes += 1
        if self.window.passes >= self.num_players:
            self.window = None
            self._later(Resolve())

    def _end_phase(self) -> None:
        player = self.active
        if self.phase == "discard":
            self.phase = "propaganda"
            self._later(Fill(player))
        elif self.phase == "propaganda":
            self.phase = "action"
        else:
            self.active = (self.active + 1) % self.num_players
            self._later(BeginTurn())
        self._note("phase", player, f"player {player + 1}: {self.phase} phase")

    def _pick(self, action: Pick) -> None:
        seat = self.seats[action.player]
        seat.packet[action.card] -= 1
        seat.packet += Counter()
        seat.deck[action.card] += 1
        self.picked[action.player] = True
        if all(self.picked):
            self._pass_packets()

    def _pass_packets(self) -> None:
        """Every packet goes to the player on the left; an empty draft ends."""
        packets = [seat.packet for seat in self.seats]
        for number, seat in enumerate(self.seats):
            seat.packet = packets[number - 1]
        self.picked = [False] * self.num_players
        if not any(packets):
            self.phase = "setup"
            self._later(StartHands())

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


UNSEEN_LABEL = "unseen card"
"""The label of the one outcome of a table-mode draw (:class:`UnseenDraw`)."""


def _card_name(action: Action) -> str:
    """A chance outcome's label: the name of the card turned up (or that it was unseen)."""
    if isinstance(action, UnseenDraw):
        return UNSEEN_LABEL
    assert isinstance(action, TopCard)
    return action.card
