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

A move for a seat that plays at the other table is refused here. A take-back
here may take back only a move of a seat that plays here (one made at the
other table is taken back there): the record then says what was taken back
(:class:`~cogtable.inputs.RemoteTakeBack`), and the other table takes it back
too, its LEDs guiding the board back (or, at once, a move its board never
showed). If a move was made at the other table after the one taken back
before it heard of the take-back, it refuses: its record still holds the
move, and the table that took it back journals it again and guides it back
onto its board, with the reason. The core knows no game: actions are
compared as the journal's JSON and decoded by the game's module.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from cogtable.inputs import RemotePartner, RemoteRecord, RemoteStopped, RemoteTakeBack
from cogtable.journal import REMOTE
from cogtable.tables.base import TableAdapter, Verdict
from games.core import CHANCE, Action, BadRecord, State, decode, load_game, replay

log = logging.getLogger(__name__)
SHARED_GAMES: Final = frozenset({"kogworks"})
"""Games whose whole record may go to the other table: every move public, no draw or roll."""
NOT_SHARED: Final = {
    "cog": "its letters are drawn from a bag at one table and its VPs are secret, and its"
    " record would carry both to the other table",
    "commissars": "its hands are secret, and its record would show them to the other table",
    "cookie": "its roles and hands are secret, and its record would show them to the other table",
}
"""Why each other game cannot be played across two tables (a game not named here cannot
either: its record was not checked)."""
REMOTE_SOURCE = REMOTE
"""The journal's source of a move made at the other table (the journal keeps its table's id)."""


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
    taking_back: str = ""
    """The other table whose take-back this table carries out now (not refused as one made here)."""
    refused: str = ""
    """Why a move taken back here is to be put back (the other table refused the take-back),
    said with each move to carry out until the board shows them all."""


class RemotePlay:
    """How a :class:`~cogtable.table.GameTable` plays with another table (see the module doc)."""

    remote: RemoteGame
    view: Any
    """The table's :class:`~cogtable.table.TableView` (what it shows)."""
    seen: Any
    state: Any
    adapter: TableAdapter
    game_name: str
    game: Any
    """The table's :class:`~cogtable.journal.JournaledGame`."""
    _apply: Callable[..., None]
    _resync: Callable[[Any], None]
    _undo: Callable[[bool], None]

    def remote_input(self, item: RemotePartner | RemoteRecord | RemoteStopped, now: float) -> None:
        """Handle one of the other table's inputs."""
        if isinstance(item, RemotePartner):
            self.remote.table, self.remote.seats = item.table, tuple(item.seats)
            refusal = shared_refusal(self.game_name)
            if refusal:
                self.stop_shared(refusal)
                return
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
        """A take-back refused (True) in a game played with another table: the last move was
        made there (it alone may take it back) or was the table's own (a draw). The board,
        which may show the move taken back, must be put as the game stands."""
        if not self.remote.seats or self.remote.taking_back:
            return False
        why = self._take_back_refusal()
        if not why:
            return False
        self.view.message = why
        self.view.synced = False
        if self.seen is not None:
            self._resync(self.seen)
        return True

    def _take_back_refusal(self) -> str:
        """Why the last move may not be taken back here ("": it may, or there is none)."""
        history = self.state.history
        if not history:
            return ""
        last = history[-1]
        if last.player == CHANCE:
            table = self.remote.table
            return f"no take-back of the table's move in a game played with table {table}"
        if last.player in self.remote.seats:
            who = self.state.player_name(last.player)
            return f"{who}'s move was made at table {self.remote.table}: only it can take it back"
        return ""

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
            self.remote.refused = ""
            self.view.synced = True
            self.view.verdict = Verdict("in-sync", reason=self.view.last)
            return
        step = carry[0]
        who = step.before.player_name(step.action.player)
        words = f"{who} played {step.action.notation()} at table {self.remote.table}"
        if self.remote.refused:
            words = f"{self.remote.refused}: {words}"
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
        sources = self.game.journal.sources(self.game.id)
        first = len(history)
        while first > 0 and (
            sources[first - 1].remote or history[first - 1].player in self.remote.seats
        ):
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
        back = item.taken_back
        if back is not None and self._their_take_back(item.table, back, ours, theirs):
            return
        same = next(
            (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
            min(len(ours), len(theirs)),
        )
        if same < len(ours) and same < len(theirs):
            self.stop_shared(self._disagreement(item.table, same, ours[same], theirs[same]))
            return
        beyond = theirs[len(ours) :]
        if len(beyond) == 1 and self._taken_back_here(beyond[0]):
            return  # it has not heard of the take-back yet: it takes the move back when it does
        restored = self._restored_words(item.table, beyond)
        for data in theirs[len(ours) :]:
            if not self._journal_remote(item.table, data, now):
                return
        if restored:
            self.view.message = self.remote.refused = restored
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
        if action.player not in self.remote.seats and not self._taken_back_here(data):
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

    def _their_take_back(
        self, table: str, back: RemoteTakeBack, ours: list[Any], theirs: list[Any]
    ) -> bool:
        """The other table took back its move ``back``: take it back here too (True), or refuse
        (True: a move came here after it; its record still holds the move); False when the
        take-back is not about the move this table holds last (done already, or another)."""
        ply = back.ply
        holds = len(theirs) == ply - 1 and len(ours) >= ply and ours[: ply - 1] == theirs
        if not holds or ours[ply - 1] != back.action:
            return False
        taken = self.state.history[ply - 1]
        if taken.player not in self.remote.seats:
            return False  # a move of a seat played here is taken back here only
        if len(ours) > ply:
            made = self.state.history[ply]
            self.view.message = (
                f"table {table} took back move {ply} ({taken.notation()}), but"
                f" {made.notation()} was made since: refused, the move stays"
            )
            return True
        self._undo_theirs(table)
        return True

    def _undo_theirs(self, table: str) -> None:
        """Take back here the other table's last move, as it did: at once if this board never
        showed it (still to carry out), else the LEDs guide the board back."""
        carry = self.remote.carry
        unseen = bool(carry) and carry[-1].action == self.state.history[-1]
        if unseen:
            carry.pop()
        self.remote.taking_back = table
        try:
            self._undo(unseen)
        finally:
            self.remote.taking_back = ""
        self.view.last = f"at table {table}: {self.view.last}"
        if carry:
            self.view.synced = False
            if self.seen is not None:
                self._resync(self.seen)

    def _taken_back_here(self, data: Any) -> bool:
        """``data`` (a move of a seat played here) is the move last taken back here: the other
        table refused the take-back (a move was made there since) and still holds it."""
        taken = self.game.taken_back()
        return taken is not None and json.loads(json.dumps(taken.to_json())) == data

    def _restored_words(self, table: str, beyond: list[Any]) -> str:
        """What to say when the other table's moves beyond ours put back a move taken back here
        ("" when they do not)."""
        if not beyond or not self._taken_back_here(beyond[0]):
            return ""
        return f"table {table} refused the take-back (a move was made there since)"

    def _disagreement(self, table: str, index: int, ours: Any, theirs: Any) -> str:
        """The first move the two records differ at, in words."""
        module = load_game(self.game_name)
        try:
            here = decode(ours, module.ACTIONS).notation()
            there = decode(theirs, module.ACTIONS).notation()
        except (BadRecord, TypeError, ValueError, KeyError):
            here, there = "one move", "another"
        return f"the tables disagree at move {index + 1}: {here} here, {there} at table {table}"


def shared_refusal(game: str) -> str:
    """Why ``game`` cannot be played across two tables, in one line ("": it can)."""
    if game in SHARED_GAMES:
        return ""
    why = NOT_SHARED.get(game, "its record was not checked for secrets")
    return f"{game} cannot be played across two tables: {why}"
