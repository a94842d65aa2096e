"""What each Cogs and Commissars action does, checked before anything changes.

A play goes on the stack, a pass moves the response window on, a chance outcome
answers the waiting task; refusals say why in a player's words.
"""

from __future__ import annotations

from collections import Counter

from games.core import CHANCE, Action, Event, IllegalAction

from .actions import Choose, Discard, EndPhase, Pass, Pick, Play, Retarget, TopCard, UnseenDraw
from .effects import SIMULENIN
from .holding import deck_refusal
from .model import Entry
from .position import Positions
from .tasks import (
    BeginTurn,
    ChanceTask,
    Deal,
    DealLeader,
    DealPacket,
    DiscardCards,
    Draw,
    Fill,
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


class Moves(Positions):
    """Applying actions: plays, passes, choices, picks and chance outcomes."""

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
