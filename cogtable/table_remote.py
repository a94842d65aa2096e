"""One game played across two tables: the other table's seats, its moves, a disagreement.

A mixin of :class:`cogtable.table.GameTable`, in the controller thread. The
other table's events (:mod:`cogtable.fleet.remote`) arrive as typed inputs:
:class:`~cogtable.inputs.RemotePartner` (which seats play there) and then
:class:`~cogtable.inputs.RemoteRecord` (its record of the game) whenever it
changes. The record is compared with this table's own:

- the same, or behind (it has not heard our last move yet): nothing to do;
- ahead: its new moves are journaled here (read by its camera), and the board
  must be made to match before anyone here may move: the adapter's LEDs show
  each move to carry out (verdict ``carry-out``), one after another; the same
  change made as a different legal move is refused as "not your opponent's
  move";
- different (neither record starts with the other), a move for a seat that
  plays here, another game, a move that does not apply: the game stops here
  with the reason, and the other table hears it (:class:`RemoteStopped`) and
  stops too, rather than letting the two diverge.

A move for a seat that plays at the other table is refused here, and so is a
take-back (the other table has the move already). The core knows no game:
actions are compared as the journal's JSON and decoded by the game's module.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cogtable.inputs import RemotePartner, RemoteRecord, RemoteStopped
from cogtable.tables.base import TableAdapter, Verdict
from games.core import Action, BadRecord, State, decode, load_game, replay

log = logging.getLogger(__name__)
REMOTE_SOURCE = "camera"
"""The journal's source of a move made at the other table: its camera read it (the journal's
schema knows no other table yet; a ``remote`` source needs schema 2)."""


@dataclass(frozen=True)
class CarryOut:
    """A move journaled from the other table, not yet seen on this board: the state before it."""

    before: State
    action: Action


@dataclass
class RemoteGame:
    """What this table knows of the other table of its game (nothing: it plays alone)."""

    table: str = ""
    seats: tuple[int, ...] = ()
    """The seats played at the other table (0-based)."""
    carry: list[CarryOut] = field(default_factory=list)
    """The other table's moves journaled here that the board does not show yet, oldest first."""
    stopped: str = ""
    """Why the shared game stopped ("": it did not)."""


class RemotePlay:
    """How a :class:`~cogtable.table.GameTable` plays with another table (see the module doc)."""

    remote: RemoteGame
    view: Any
    """The table's :class:`~cogtable.table.TableView` (what it shows)."""
    seen: Any
    state: Any
    adapter: TableAdapter
    game_name: str
    _apply: Callable[..., None]
    _resync: Callable[[Any], None]

    def remote_input(self, item: RemotePartner | RemoteRecord | RemoteStopped, now: float) -> None:
        """Handle one of the other table's inputs."""
        if isinstance(item, RemotePartner):
            self.remote.table, self.remote.seats = item.table, tuple(item.seats)
            self._recall_carry()
        elif isinstance(item, RemoteStopped):
            self.stop_shared(f"table {item.table} stopped the game: {item.reason}")
        elif not self.remote.stopped:
            self._remote_record(item, now)

    def remote_refusal(self, action: Action, from_table: str) -> str:
        """Why ``action`` may not be made at this table ("": it may); ``from_table`` names the
        other table when the move was made there."""
        if self.remote.stopped:
            return f"the game is stopped: {self.remote.stopped}"
        if from_table or action.player not in self.remote.seats:
            return ""
        who = self.state.player_name(action.player)
        return f"{who} plays at table {self.remote.table}: put it back"

    def refused_take_back(self) -> bool:
        """A take-back refused (True) in a game played with another table: it has the move.
        The board, which may show the move taken back, must be put as the game stands."""
        if not self.remote.seats:
            return False
        self.view.message = f"no take-back in a game played with table {self.remote.table}"
        self.view.synced = False
        if self.seen is not None:
            self._resync(self.seen)
        return True

    def stop_shared(self, reason: str) -> None:
        """Stop the shared game here (the LEDs paused, every input but the other table's
        ignored) and say why: the other table hears it from the published status."""
        if self.remote.stopped:
            return
        self.remote.stopped = reason
        self.view.paused = True
        self.view.message = f"stopped: {reason}"
        log.warning("the shared game stopped: %s", reason)

    def carry_out(self, seen: Any) -> None:
        """Not in sync while the other table's moves are not all on the board: guide them."""
        carry = self.remote.carry
        afters = [step.before for step in carry[1:]] + [self.state]
        done = [i for i, after in enumerate(afters) if self._shows(after, seen)]
        if done:
            del carry[: done[-1] + 1]
        if not carry:
            self.view.synced = True
            self.view.verdict = Verdict("in-sync", reason=self.view.last)
            return
        step = carry[0]
        who = step.before.player_name(step.action.player)
        words = f"{who} played {step.action.notation()} at table {self.remote.table}"
        made = self.adapter.judge(step.before, seen, None)
        places = self.adapter.places_of(step.action)
        if made.kind == "move" and made.action is not None and made.action != step.action:
            why = f"not your opponent's move: {made.action.notation()}; {words}"
            wrong = self.adapter.places_of(made.action)
            self.view.verdict = Verdict("illegal", action=made.action, places=wrong, reason=why)
            self.view.message = why
            return
        self.view.verdict = Verdict("carry-out", action=step.action, places=places, reason=words)

    def _recall_carry(self) -> None:
        """After a restart the board may not show the other table's last moves yet (the journal
        has them): they are to carry out again; those the board shows are dropped at its first
        reading (:meth:`carry_out`)."""
        history = list(self.state.history)
        first = len(history)
        while first > 0 and history[first - 1].player in self.remote.seats:
            first -= 1
        if self.view.synced or self.remote.carry or first == len(history):
            return
        record = self.state.record()
        for ply in range(first, len(history)):
            before = replay(dataclasses.replace(record, actions=record.actions[:ply]))
            self.remote.carry.append(CarryOut(before, history[ply]))
        if self.seen is not None:
            self._resync(self.seen)

    def _shows(self, state: State, seen: Any) -> bool:
        return self.adapter.resync(state, seen).kind == "in-sync"

    def _remote_record(self, item: RemoteRecord, now: float) -> None:
        """Compare the other table's record with ours; journal what it has beyond ours."""
        if item.game != self.game_name:
            self.stop_shared(f"table {item.table} plays {item.game}, this table {self.game_name}")
            return
        if item.finished and not self.state.history:
            return  # its last game, over; ours begins afresh (and so will its next)
        ours = [action.to_json() for action in self.state.history]
        theirs = list(item.actions)
        same = next(
            (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
            min(len(ours), len(theirs)),
        )
        if same < len(ours) and same < len(theirs):
            self.stop_shared(self._disagreement(item.table, same, ours[same], theirs[same]))
            return
        for data in theirs[len(ours) :]:
            if not self._journal_remote(item.table, data, now):
                return
        if len(theirs) > len(ours):
            self.view.synced = False
            if self.seen is not None:
                self._resync(self.seen)
            else:
                step = self.remote.carry[0]
                who = step.before.player_name(step.action.player)
                self.view.verdict = Verdict(
                    "carry-out",
                    action=step.action,
                    places=self.adapter.places_of(step.action),
                    reason=f"{who} played {step.action.notation()} at table {item.table}",
                )

    def _journal_remote(self, table: str, data: Any, now: float) -> bool:
        """Journal one of the other table's moves here; False (stopped) when it cannot be."""
        ply = len(self.state.history) + 1
        try:
            action = decode(data, load_game(self.game_name).ACTIONS)
        except (BadRecord, TypeError, ValueError, KeyError) as error:
            self.stop_shared(f"move {ply} from table {table} cannot be read: {error}")
            return False
        if action.player not in self.remote.seats:
            who = self.state.player_name(action.player)
            self.stop_shared(
                f"table {table} recorded move {ply} ({action.notation()}) for {who},"
                " who plays at this table"
            )
            return False
        before = self.state
        self._apply(action, REMOTE_SOURCE, now, from_table=table)
        if len(self.state.history) < ply:
            self.stop_shared(
                f"move {ply} from table {table} ({action.notation()}) does not apply here:"
                f" {self.view.message}"
            )
            return False
        self.view.accepted = None  # no green flash: the move is not on this board yet
        self.remote.carry.append(CarryOut(before, action))
        return True

    def _disagreement(self, table: str, index: int, ours: Any, theirs: Any) -> str:
        """The first move the two records differ at, in words."""
        module = load_game(self.game_name)
        try:
            here = decode(ours, module.ACTIONS).notation()
            there = decode(theirs, module.ACTIONS).notation()
        except (BadRecord, TypeError, ValueError, KeyError):
            here, there = "one move", "another"
        return f"the tables disagree at move {index + 1}: {here} here, {there} at table {table}"
