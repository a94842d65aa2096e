"""What cards and leader powers do: the effect primitives of ``cards.toml``.

:class:`Effects` is mixed into the game state. Effects that need nobody's input
happen at once; draws, flips and choices are queued as tasks (``self._later``)
that run before anything already queued, so a card's consequences finish
before play moves on.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Happened, happened
from .cards import KIND_NAMES, Card, CardSet, Step
from .model import Entry, Seat
from .tasks import (
    DiscardCards,
    Draw,
    Finish,
    Flip,
    Intercept,
    LeaderPower,
    OpenWindow,
    RetargetCopy,
    Retrieve,
    Search,
    Task,
)

AUTOMARX = "automarx"
GOROBOTCHEV = "gorobotchev"
STALINTELLIGENCE = "stalintelligence"
SIMULENIN = "simulenin"
COMPUTIN = "computin"
ANDROIDOPOV = "androidopov"


class Effects:
    """Card effects, Citizen moves and leader triggers."""

    cards: CardSet
    seats: list[Seat]
    gulag: dict[str, int]
    stack: list[Entry]
    next_id: int
    active: int
    actions_left: int
    disarmed: int
    winner: int
    resolving: Entry | None
    resolving_sent: int
    num_players: int
    _new_tasks: list[Task]
    _events: list[Happened]

    # -- helpers -----------------------------------------------------------

    def _later(self, task: Task) -> None:
        """Queue a task to run before everything already queued (in call order)."""
        self._new_tasks.append(task)

    def _note(self, what: str, player: int, text: str) -> None:
        self._events.append(happened(what, player, text))

    def card(self, name: str) -> Card:
        """The data of the card called ``name``."""
        return self.cards.cards[name]

    def leader_of(self, player: int) -> str:
        """The faction key of ``player``'s leader ('' without leaders)."""
        return self.seats[player].leader

    def others(self, player: int) -> list[int]:
        """The other players in turn order, starting after ``player``."""
        return [(player + step) % self.num_players for step in range(1, self.num_players)]

    def find_entry(self, entry_id: int) -> Entry | None:
        """The stack entry with this id, if it is still on the stack."""
        return next((entry for entry in self.stack if entry.id == entry_id), None)

    # -- Citizens ------------------------------------------------------------

    def gain(self, player: int, kind: str) -> None:
        """``player`` takes one Citizen of ``kind`` from the Gulag, if it has one."""
        if self.gulag[kind] == 0:
            self._note("gulag_empty", player, f"the Gulag has no {KIND_NAMES[kind]} left")
            return
        self.gulag[kind] -= 1
        self.seats[player].citizens[kind] += 1
        self._note("gain", player, f"player {player + 1} gains a {KIND_NAMES[kind]}")

    def send(self, player: int, kind: str, counted: bool = True) -> None:
        """Send one of ``player``'s Citizens of ``kind`` to the Gulag (if they have one).

        ``counted``: it is the resolving card's effect (Computin counts these),
        not a cost.
        """
        if self.seats[player].citizens[kind] == 0:
            return
        self.seats[player].citizens[kind] -= 1
        self.gulag[kind] += 1
        if counted and self.resolving is not None:
            self.resolving_sent += 1
        self._note("send", player, f"a {KIND_NAMES[kind]} of player {player + 1} goes to the Gulag")
        if kind == "B":
            for seat in range(self.num_players):
                if self.leader_of(seat) == STALINTELLIGENCE:
                    self.gain(seat, "P")
                    self._later(Draw(seat))

    def take(self, player: int, victim: int, kind: str) -> None:
        """``player`` takes one Citizen of ``kind`` from ``victim`` (Gorobotchev draws)."""
        if self.seats[victim].citizens[kind] == 0:
            return
        self.seats[victim].citizens[kind] -= 1
        self.seats[player].citizens[kind] += 1
        self._note(
            "take", player, f"player {player + 1} takes a {KIND_NAMES[kind]} from {victim + 1}"
        )
        if self.leader_of(victim) == GOROBOTCHEV:
            self._later(Draw(victim))

    # -- cards moving ----------------------------------------------------------

    def discard_from_hand(self, player: int, name: str) -> None:
        """Discard a card from hand; Gorobotchev produces for a Counter Propaganda."""
        seat = self.seats[player]
        seat.take_from_hand(name)
        seat.discard.append(name)
        self._note("discard", player, f"player {player + 1} discards {name}")
        if self.leader_of(player) == GOROBOTCHEV and self.card(name).type == "Counter Propaganda":
            self._later(Flip(player))

    def to_discard(self, entry: Entry) -> None:
        """A played card leaves the stack for its home discard pile (duplicates vanish)."""
        if not entry.copy:
            self.seats[entry.home].discard.append(entry.card)

    # -- resolving -----------------------------------------------------------

    def resolve_top(self) -> None:
        """The top card of the stack resolves: run its effect, then finish it."""
        entry = self.stack.pop()
        self.resolving, self.resolving_sent = entry, 0
        self._note("resolve", entry.player, f"{entry.card} (player {entry.player + 1}) resolves")
        for step in self.card(entry.card).effect:
            self._step_handler(step.op)(entry, step)
            if self.winner >= 0:
                return
        self._later(Finish())

    def finish_resolving(self) -> None:
        """The resolved card goes to its discard pile; Computin may trigger."""
        entry = self.resolving
        if entry is None:
            return
        self.to_discard(entry)
        if self.resolving_sent and not entry.copy and self.leader_of(entry.player) == COMPUTIN:
            self._later(LeaderPower(entry.player, "computin"))
        self.resolving, self.resolving_sent = None, 0

    def _step_handler(self, op: str) -> Callable[[Entry, Step], None]:
        return getattr(self, f"_do_{op}")  # type: ignore[no-any-return]

    def _do_revolution(self, entry: Entry, step: Step) -> None:
        if self.seats[entry.player].points() >= step.get("points"):
            self.winner = entry.player
            self._note("win", entry.player, f"player {entry.player + 1}'s Revolution succeeds")
        else:
            self._note("fizzle", entry.player, "the Revolution fails: too few Citizens")

    def _do_take(self, entry: Entry, step: Step) -> None:
        self.take(entry.player, entry.target, step.get("kind"))

    def _do_counter(self, entry: Entry, step: Step) -> None:
        target = self.find_entry(entry.entry)
        if target is None:
            self._note("fizzle", entry.player, f"{entry.card} has nothing left to counter")
            return
        self.stack.remove(target)
        self.to_discard(target)
        self._note(
            "countered", target.player, f"{target.card} (player {target.player + 1}) is countered"
        )
        if not target.copy and "disarm" in self.card(target.card).on_play:
            self._lift_disarm(target)
        if not target.copy and self.leader_of(target.player) == AUTOMARX:
            self._later(LeaderPower(target.player, "automarx"))

    def _lift_disarm(self, disarm: Entry) -> None:
        """A countered Disarm the Citizens has no effect: the shield is what it was before it.

        An earlier Disarm of the same player this turn still shields what follows.
        """
        if disarm.shield_before == disarm.player:
            return
        if self.disarmed == disarm.player:
            self.disarmed = disarm.shield_before
        for entry in self.stack:
            if entry.player == disarm.player and entry.id > disarm.id:
                entry.protected = False

    def _do_send_target(self, entry: Entry, step: Step) -> None:
        self.send(entry.target, entry.kind)

    def _do_gain(self, entry: Entry, step: Step) -> None:
        self.gain(entry.player, step.get("kind"))

    def _do_produce(self, entry: Entry, step: Step) -> None:
        for _ in range(step.get("count")):
            self._later(Flip(entry.player))

    def _do_produce_per_played(self, entry: Entry, step: Step) -> None:
        for _ in range(entry.played_before):
            self._later(Flip(entry.player))

    def _do_draw(self, entry: Entry, step: Step) -> None:
        for _ in range(step.get("count")):
            self._later(Draw(entry.player))

    def _do_others_send_or_discard(self, entry: Entry, step: Step) -> None:
        kind = step.get("kind")
        for other in self.others(entry.player):
            if self.seats[other].citizens[kind]:
                self.send(other, kind)
            else:
                self._later(DiscardCards(other, step.get("count")))

    def _do_others_send(self, entry: Entry, step: Step) -> None:
        for other in self.others(entry.player):
            self.send(other, step.get("kind"))

    def _do_others_discard(self, entry: Entry, step: Step) -> None:
        for other in self.others(entry.player):
            self._later(DiscardCards(other, step.get("count")))

    def _do_send_above(self, entry: Entry, step: Step) -> None:
        mine = self.seats[entry.player].citizens[entry.kind]
        for other in self.others(entry.player):
            if self.seats[other].citizens[entry.kind] > mine:
                self.send(other, entry.kind)

    def _do_extra_action(self, entry: Entry, step: Step) -> None:
        if entry.player == self.active:
            self.actions_left += step.get("count")

    def _do_duplicate(self, entry: Entry, step: Step) -> None:
        target = self.find_entry(entry.entry)
        if target is None:
            self._note("fizzle", entry.player, f"{entry.card} has nothing left to duplicate")
            return
        duplicate = target.clone()
        duplicate.id, duplicate.copy = self.next_id, True
        self.next_id += 1
        self.stack.append(duplicate)
        self._note("duplicate", target.player, f"{target.card} is duplicated (#{duplicate.id})")
        if self.card(target.card).target != "none":
            self._later(RetargetCopy(duplicate.player, duplicate.id))
        self._later(OpenWindow(duplicate.player))

    def _do_retype(self, entry: Entry, step: Step) -> None:
        target = self.find_entry(entry.entry)
        if target is not None and target.kind:
            target.kind = entry.kind
            self._note("retype", entry.player, f"{target.card} now names {KIND_NAMES[entry.kind]}")

    def _do_retrieve(self, entry: Entry, step: Step) -> None:
        self._later(Retrieve(entry.player, entry.card))

    def _do_search_deck(self, entry: Entry, step: Step) -> None:
        self._later(Search(entry.player, step.get("count"), entry.card))

    def _do_intercept(self, entry: Entry, step: Step) -> None:
        self._later(Intercept(entry.player, entry.target))
