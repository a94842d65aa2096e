"""Which actions and chance outcomes Cogs and Commissars offers now, and to whom.

Plays with their targets and Blitz modes, the answers to a waiting decision, the
cards chance may turn up (table mode: an unseen draw) and the requests that name them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from games.core import CHANCE, Action, Request, chance_options

from .actions import Choose, Discard, EndPhase, Pass, Pick, Play, Retarget, TopCard, UnseenDraw
from .cards import KINDS, Card
from .constants import CHANCE_REQUESTS
from .model import Entry
from .position import Positions
from .tasks import (
    CHANCE_TASKS,
    DECISION_TASKS,
    ChanceTask,
    Deal,
    DealLeader,
    DealPacket,
    DecisionTask,
    DiscardCards,
    Draw,
    Flip,
    Intercept,
    LeaderPower,
    RetargetCopy,
    Retrieve,
    Search,
)

UNSEEN_LABEL = "unseen card"
"""The label of the one outcome of a table-mode draw (:class:`UnseenDraw`)."""


def _card_name(action: Action) -> str:
    """A chance outcome's label: the name of the card turned up (or that it was unseen)."""
    if isinstance(action, UnseenDraw):
        return UNSEEN_LABEL
    assert isinstance(action, TopCard)
    return action.card


class Legality(Positions):
    """The legal actions, chance outcomes and requests of a position."""

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
