"""The game journal: every game and every applied action, durable before the LEDs change.

The journal is an SQLite database (WAL mode, ``synchronous=FULL``, so a
committed action survives a crash or a power cut) with three tables:

- ``games``: id, game name, options (JSON), seed, table profile, started,
  finished and outcome (JSON). A game with no ``finished`` time is running; one
  finished without an outcome was abandoned (a new game was started instead).
- ``actions``: game id, ply (1, 2, ...), the action as JSON, its source
  (``camera``, ``button``, ``console`` or ``simulation``) and the time from the
  injected clock.
- ``taken_back``: per game, the action the last undo took back, until the next
  action: after a power cut right after an undo the table can still say what
  was taken back (:meth:`JournaledGame.taken_back`).

:meth:`JournaledGame.apply` is the one call the controller makes for a move:
the engine checks and applies it, the journal commits it, and only then are
the events returned for the LEDs. After a restart :meth:`Journal.resume`
rebuilds the unfinished game by replay; :meth:`JournaledGame.undo` deletes the
last action and replays the rest.

The journal stores action JSON and decodes it with the game module's
``ACTIONS``, so it works for every game; the game loader and the replay
function are parameters (defaults: :func:`games.core.load_game` and
:func:`games.core.replay`) so tests can use a game that is not installed.

One writer: the controller thread opens the journal and is the only one to use
it (sqlite3 refuses a connection used from another thread). Other processes may
read the file while it runs; WAL lets them.

Commands that only read (``games``, ``export``, ``replay``) open it with
``read_only=True``: never created, never changed, not even its header, and
readable by a user who may only read the state folder (see
:func:`read_only_uri` for how the WAL's ``-shm`` file is dealt with).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from cogtable.journal_file import (
    JournalError,
    read_only_uri,
    refuse_foreign_file,
    refuse_missing_or_empty,
)
from cogtable.journal_schema import (
    APPLICATION_ID,
    REMOTE,
    SCHEMA,
    SCHEMA_VERSION,
    SOURCES,
    migrate,
    remote_table_column,
)
from games.core import (
    Action,
    BadOptions,
    BadRecord,
    Event,
    GameModule,
    IllegalAction,
    Record,
    State,
    decode,
    load_game,
    replay,
)

JOURNAL_NAME: Final = "journal.sqlite3"
"""The journal's file name in a table's state folder."""
LARGEST_ID: Final = 2**63 - 1
"""SQLite's largest integer: no game id can be larger."""

Loader = Callable[[str], GameModule]
Replayer = Callable[[Record], State]


@dataclass(frozen=True)
class MoveSource:
    """Where a journaled move came from: how it was sensed, and for a move made at the other
    table of a shared game (``source`` ``remote``), that table's id."""

    source: str
    table: str | None = None
    """The other table's id (None: the move was made at this table)."""

    @property
    def remote(self) -> bool:
        """The move was made at the other table."""
        return self.table is not None


@dataclass(frozen=True)
class TakeBack:
    """The move the last undo of a game took back, while no move came after it."""

    ply: int
    action: Action


@dataclass(frozen=True)
class GameSummary:
    """One row of ``games`` with its number of actions, for listings."""

    id: int
    game: str
    options: dict[str, Any]
    seed: int
    profile: str | None
    started: float
    finished: float | None
    outcome: dict[str, Any] | None
    actions: int
    damage: str | None = None
    """Why the game cannot be read back or replayed (``Journal.games(check=True)`` only)."""

    @property
    def status(self) -> str:
        """``running``, ``finished``, ``abandoned``, or ``damaged`` when checked and found so."""
        if self.damage is not None:
            return "damaged"
        if self.finished is None:
            return "running"
        return "abandoned" if self.outcome is None else "finished"


class Journal:
    """The journal database at ``path``; created if absent, refused if it is anything else.

    A file that is not SQLite, an SQLite database of another program, a journal
    from a newer cogtable or a damaged file raises :class:`JournalError` and is
    left exactly as it was. With ``read_only`` a missing or empty file is
    refused too, and nothing is ever written (see the module's docstring).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        loader: Loader = load_game,
        replayer: Replayer = replay,
        read_only: bool = False,
    ) -> None:
        self.path = Path(path)
        self.clock = clock
        self.loader = loader
        self.replayer = replayer
        self.read_only = read_only
        self.writer_thread = threading.get_ident()
        self.schema = SCHEMA_VERSION
        """The schema of the file (a reader leaves an older one as it is and reads it)."""
        if read_only:
            refuse_missing_or_empty(self.path)
        refuse_foreign_file(self.path)
        self.connection = self._connect()

    # -- opening -------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        try:
            if self.read_only:
                uri = read_only_uri(self.path)
                connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=5.0)
            else:
                connection = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        except sqlite3.Error as error:
            raise JournalError(f"cannot open the journal {self.path}: {error}") from error
        try:
            self._check(connection)
            if not self.read_only:
                self._prepare(connection)
        except BaseException:
            connection.close()
            raise
        return connection

    def _check(self, connection: sqlite3.Connection) -> None:
        """Read-only checks: a journal of this cogtable (or, to write to, an empty database)."""
        with self._errors("open"):
            application_id = connection.execute("PRAGMA application_id").fetchone()[0]
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        self.schema = version if tables else SCHEMA_VERSION
        if tables and application_id != APPLICATION_ID:
            raise JournalError(
                f"{self.path} is an SQLite database of another program, not a journal"
            )
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"{self.path} is a journal of a newer cogtable (schema {version}); "
                f"this one reads schema {SCHEMA_VERSION}"
            )
        if self.read_only and not tables:
            raise JournalError(f"{self.path} is an empty database: not a journal")

    def _prepare(self, connection: sqlite3.Connection) -> None:
        """WAL, FULL sync and the schema; the header is written only when it must change."""
        with self._errors("prepare"):
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("PRAGMA foreign_keys=ON")
            migrate(connection, self.schema)
            connection.executescript(SCHEMA)
            for name, value in (
                ("application_id", APPLICATION_ID),
                ("user_version", SCHEMA_VERSION),
            ):
                if connection.execute(f"PRAGMA {name}").fetchone()[0] != value:
                    connection.execute(f"PRAGMA {name}={value}")
        self.schema = SCHEMA_VERSION

    def _errors(self, doing: str) -> contextlib.AbstractContextManager[None]:
        return _sqlite_errors(self.path, doing)

    def close(self) -> None:
        """Close the database; committed actions are already on disk."""
        self.connection.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def pragma(self, name: str) -> Any:
        """The value of ``PRAGMA name`` (to see that WAL and FULL are really set)."""
        if not name.replace("_", "").isalpha():
            raise ValueError(f"not a pragma name: {name!r}")
        return self.connection.execute(f"PRAGMA {name}").fetchone()[0]

    # -- games ---------------------------------------------------------------

    def new_game(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        profile: str | None = None,
    ) -> JournaledGame:
        """Start and record a new game; an unfinished one is marked abandoned.

        Bad options, an unknown game or a seed SQLite cannot hold raise before
        anything is written.
        """
        if not -LARGEST_ID - 1 <= seed <= LARGEST_ID:
            raise JournalError(f"seed {seed} cannot be journaled: use -2**63 to 2**63-1")
        state = self.loader(game).new_game(options, seed)
        self._check_thread()
        now = self.clock()
        with self._errors("start a game in"), self._transaction():
            self.connection.execute("UPDATE games SET finished = ? WHERE finished IS NULL", (now,))
            cursor = self.connection.execute(
                "INSERT INTO games (game, options, seed, profile, started) VALUES (?, ?, ?, ?, ?)",
                (game, json.dumps(state.options), seed, profile, now),
            )
        return JournaledGame(self, _row_id(cursor), state)

    def _check_thread(self) -> None:
        """Refuse, before anything changes, a write from any thread but the opener's."""
        if threading.get_ident() != self.writer_thread:
            raise RuntimeError(
                "the journal is written by one thread only (the controller's, which opened it)"
            )

    def resume(self) -> JournaledGame | None:
        """The unfinished game rebuilt by replay, or ``None`` if every game has ended."""
        with self._errors("read"):
            row = self.connection.execute(
                "SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else self.load(row[0])

    def load(self, game_id: int) -> JournaledGame:
        """Game ``game_id`` rebuilt by replay (finished or not)."""
        return JournaledGame(self, game_id, self._replay(self.record(game_id), game_id))

    def _replay(self, record: Record, game_id: int) -> State:
        try:
            return self.replayer(record)
        except (BadRecord, BadOptions, IllegalAction) as error:
            raise JournalError(f"game {game_id} in {self.path} does not replay: {error}") from error

    def record(self, game_id: int) -> Record:
        """Game ``game_id`` as a record: name, options, seed and its actions in order."""
        row = self._game_row(game_id)
        name, options_text, seed = row[1], row[2], row[3]
        with self._errors("read"):
            rows = self.connection.execute(
                "SELECT ply, action FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
        if [ply for ply, _ in rows] != list(range(1, len(rows) + 1)):
            raise JournalError(
                f"game {game_id} in {self.path} has missing actions (a gap in plies)"
            )
        options = self._json(options_text, game_id, "options")
        module = self._module(name, game_id)
        actions = tuple(self._action(module, text, game_id, ply) for ply, text in rows)
        return Record(name, options, seed, actions)

    def _game_row(self, game_id: int) -> tuple[Any, ...]:
        if not 1 <= game_id <= LARGEST_ID:
            raise JournalError(f"there is no game {game_id} in {self.path}")
        with self._errors("read"):
            row = self.connection.execute(
                "SELECT id, game, options, seed, profile, started, finished, outcome "
                "FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if row is None:
            raise JournalError(f"there is no game {game_id} in {self.path}")
        return tuple(row)

    def _module(self, name: str, game_id: int) -> GameModule:
        try:
            return self.loader(name)
        except BadRecord as error:
            raise JournalError(f"game {game_id} in {self.path}: {error}") from error

    def _json(self, text: str, game_id: int, what: str) -> Any:
        try:
            return json.loads(text)
        except (TypeError, json.JSONDecodeError) as error:
            raise JournalError(f"game {game_id} in {self.path}: its {what} are not JSON") from error

    def _action(self, module: GameModule, text: str, game_id: int, ply: int) -> Action:
        try:
            return decode(json.loads(text), module.ACTIONS)
        except (TypeError, json.JSONDecodeError, BadRecord) as error:
            raise JournalError(
                f"game {game_id} in {self.path}, action {ply} cannot be read: {error}"
            ) from error

    def sources(self, game_id: int) -> list[MoveSource]:
        """Where each move of game ``game_id`` came from, in ply order."""
        other = remote_table_column(self.schema)
        with self._errors("read"):
            rows = self.connection.execute(
                f"SELECT source, {other} FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
        return [MoveSource(str(source), table) for source, table in rows]

    def taken_back(self, game_id: int) -> TakeBack | None:
        """The move the last undo of game ``game_id`` took back, if none came after it."""
        with self._errors("read"):
            row = self.connection.execute(
                "SELECT ply, action FROM taken_back WHERE game_id = ?", (game_id,)
            ).fetchone()
            count = self.connection.execute(
                "SELECT count(*) FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
        if row is None or row[0] != count + 1:
            return None
        module = self._module(self._game_row(game_id)[1], game_id)
        return TakeBack(row[0], self._action(module, row[1], game_id, row[0]))

    def games(self, check: bool = False) -> list[GameSummary]:
        """Every game, oldest first, with its number of actions.

        With ``check`` every game is also read back and replayed, as export and
        replay would, and a game that cannot be is listed with its ``damage``.
        """
        with self._errors("read"):
            rows = self.connection.execute(
                "SELECT g.id, g.game, g.options, g.seed, g.profile, g.started, g.finished, "
                "g.outcome, (SELECT count(*) FROM actions a WHERE a.game_id = g.id) "
                "FROM games g ORDER BY g.id"
            ).fetchall()
        return [self._summary(row, check) for row in rows]

    def _summary(self, row: tuple[Any, ...], check: bool) -> GameSummary:
        game_id = row[0]
        try:
            outcome = None if row[7] is None else self._json(row[7], game_id, "outcome")
            options = self._json(row[2], game_id, "options")
        except JournalError as error:
            if not check:
                raise
            return GameSummary(game_id, row[1], {}, *row[3:7], None, row[8], str(error))
        summary = GameSummary(game_id, row[1], options, *row[3:7], outcome, row[8])
        return dataclasses.replace(summary, damage=self.damage(summary)) if check else summary

    def damage(self, summary: GameSummary) -> str | None:
        """Why a game cannot be read back or replayed, or a result its replay does not give.

        ``None`` when it is sound. The reasons are those for which export and
        replay refuse it (broken action JSON, a gap in the plies, an action
        that does not apply), and a recorded result that its actions do not
        reach (the last actions lost).
        """
        try:
            state = self.load(summary.id).state
        except JournalError as error:
            return str(error)
        if summary.outcome is None:
            return None
        replayed = state.outcome()
        if replayed is None:
            return (
                f"game {summary.id} in {self.path} is recorded as finished, but its "
                f"{summary.actions} actions do not end it (actions missing)"
            )
        if json.loads(json.dumps(replayed.to_json())) != summary.outcome:
            return f"game {summary.id} in {self.path}: its recorded result is not its replay's"
        return None

    # -- writing (the journaled game calls these) -----------------------------

    def _append(
        self, game_id: int, ply: int, action: Action, source: MoveSource, state: State
    ) -> None:
        """Commit one action (and the end of the game, if it ended) in one transaction."""
        outcome, now = state.outcome(), self.clock()
        text = json.dumps(action.to_json())
        with self._errors("write to"), self._transaction():
            self.connection.execute(
                "INSERT INTO actions (game_id, ply, action, source, time, remote_table) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, ply, text, source.source, now, source.table),
            )
            self.connection.execute("DELETE FROM taken_back WHERE game_id = ?", (game_id,))
            if outcome is not None:
                self.connection.execute(
                    "UPDATE games SET finished = ?, outcome = ? WHERE id = ?",
                    (now, json.dumps(outcome.to_json()), game_id),
                )

    def _delete_last(self, game_id: int, ply: int) -> None:
        """Remove action ``ply`` (the last), kept as taken back; the game runs again if it ended."""
        with self._errors("write to"), self._transaction():
            self.connection.execute(
                "INSERT OR REPLACE INTO taken_back (game_id, ply, action) "
                "SELECT game_id, ply, action FROM actions WHERE game_id = ? AND ply = ?",
                (game_id, ply),
            )
            self.connection.execute(
                "DELETE FROM actions WHERE game_id = ? AND ply = ?", (game_id, ply)
            )
            self.connection.execute(
                "UPDATE games SET finished = NULL, outcome = NULL "
                "WHERE id = ? AND outcome IS NOT NULL",
                (game_id,),
            )

    def _transaction(self) -> contextlib.AbstractContextManager[None]:
        return _transaction(self.connection)


class JournaledGame:
    """A game in progress whose every action is journaled before it is reported."""

    def __init__(self, journal: Journal, game_id: int, state: State) -> None:
        self.journal = journal
        self.id = game_id
        self.state = state

    def apply(self, action: Action, source: str, table: str | None = None) -> list[Event]:
        """Check and apply ``action``, commit it to the journal, then return its events.

        ``source`` is one of :data:`SOURCES`; ``remote`` (a move made at the
        other table of a shared game) names that table as ``table``, and only it does.

        The action is tried on a clone, so the live state changes only once the
        journal holds the action: an illegal action raises
        :class:`~games.core.IllegalAction`, a journal that cannot be written (a
        full disk) raises :class:`JournalError`, and in both cases nothing
        changes, neither the state nor the journal.
        """
        if source not in SOURCES:
            raise ValueError(f"unknown action source {source!r}; expected one of {SOURCES}")
        if (source == REMOTE) != bool(table):
            raise ValueError(f"a {source} move with other table {table!r}: only remote has one")
        self.journal._check_thread()
        trial = self.state.clone()
        events = trial.apply(action)
        origin = MoveSource(source, table or None)
        self.journal._append(self.id, len(trial.history), action, origin, trial)
        self.state = trial
        return events

    def undo(self) -> Action | None:
        """Take back the last action (delete it and replay); ``None`` if there is none."""
        history = self.state.history
        if not history:
            return None
        self.journal._check_thread()
        self.journal._delete_last(self.id, len(history))
        self.state = self.journal.load(self.id).state
        return history[-1]

    def record(self) -> Record:
        """This game as the journal holds it."""
        return self.journal.record(self.id)

    def taken_back(self) -> Action | None:
        """The action the last undo took back, if no action came after it (else None)."""
        found = self.journal.taken_back(self.id)
        return None if found is None else found.action


# -- helpers ----------------------------------------------------------------------


def _row_id(cursor: sqlite3.Cursor) -> int:
    if cursor.lastrowid is None:
        raise JournalError("the journal did not return the new game's id")
    return cursor.lastrowid


@contextlib.contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any error."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
        connection.execute("COMMIT")
    finally:
        if connection.in_transaction:
            connection.execute("ROLLBACK")


@contextlib.contextmanager
def _sqlite_errors(path: Path, doing: str) -> Iterator[None]:
    """Turns sqlite3 errors into :class:`JournalError` naming the file and what was done."""
    try:
        yield
    except sqlite3.ProgrammingError:
        raise
    except sqlite3.Error as error:
        raise JournalError(f"cannot {doing} the journal {path}: {error}") from error
