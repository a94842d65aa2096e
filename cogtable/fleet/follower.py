"""The table as others may see it, read from what it writes: its journal and its status file.

The publisher never touches the controller's engine (another thread's). It
opens the journal read-only (its own SQLite connection: WAL lets a reader run
beside the writer) and follows the newest game by replaying its actions in a
game state of its own, one new action at a time; an action taken back (the
journal's actions no longer start with the ones it replayed) rebuilds that
state. Each ply is named in the web view's words (the adapter's
``describe``), and the board is the web view's picture
(:meth:`cogtable.web.table_view.TableFolder.picture`), so nothing is
published that the web page would not show. The status file, when the table
writes one (the service does, a sim does not), adds whether the board is in
sync and what the table last said (its public keys only).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cogtable.journal import JOURNAL_NAME
from cogtable.sensing import open_requests
from cogtable.tables import adapter_for
from cogtable.tables.base import TableAdapter
from cogtable.web.table_view import STALE_SECONDS, TableFolder
from games.core import CHANCE, Action, BadRecord, IllegalAction, State, decode, load_game
from hardware.profile import Profile

SQLITE_TIMEOUT_S: Final = 2.0


class FollowError(Exception):
    """The journal cannot be read or replayed now; the text says why (one line)."""


@dataclass(frozen=True)
class JournalPly:
    """One action of the journal: its raw JSON (compared, never published) and public words."""

    ply: int
    text: str
    """The action's JSON as journaled: tells a ply apart from another at the same number."""
    words: str
    player: str
    source: str
    time: float


@dataclass(frozen=True)
class TakenBack:
    """An action no longer in the journal, in public words."""

    ply: int
    words: str
    player: str


class FollowedGame:
    """One journal game replayed in a state of the follower's own, ply by ply."""

    def __init__(self, game_id: int, game: str, options: dict[str, Any], seed: int) -> None:
        self.id = game_id
        self.game = game
        self.options = options
        self.seed = seed
        self.module = load_game(game)
        self.adapter: TableAdapter = adapter_for(game)
        self.plies: list[JournalPly] = []
        self.state: State = self.module.new_game(options, seed)

    def update(self, rows: list[tuple[int, str, str, float]]) -> None:
        """Follow the journal's rows of this game (ply, action JSON, source, time), in order."""
        same = 0
        for held, row in zip(self.plies, rows, strict=False):
            if held.text != row[1]:
                break
            same += 1
        if same < len(self.plies):
            self._rebuild(same)
        for ply, text, source, at in rows[same:]:
            self.plies.append(self._apply(ply, text, source, at))

    def taken_back(self, texts: list[str]) -> list[TakenBack]:
        """Public words for the plies ``texts`` (a list of action JSON, from ply 1) held beyond
        this game's: what a subscriber holds that the journal took back, last first."""
        state = self.module.new_game(self.options, self.seed)
        held = []
        for text in texts:
            action = self._decode(text, len(held) + 1)
            held.append((state.clone(), action))
            _apply(state, action, len(held))
        same = 0
        for ply, text in zip(self.plies, texts, strict=False):
            if ply.text != text:
                break
            same += 1
        gone = []
        for number in range(len(texts), same, -1):
            before, action = held[number - 1]
            who = "the table" if action.player == CHANCE else before.player_name(action.player)
            gone.append(TakenBack(number, self.adapter.describe_undo(before, action), who))
        return gone

    def _rebuild(self, keep: int) -> None:
        kept = self.plies[:keep]
        self.plies = []
        self.state = self.module.new_game(self.options, self.seed)
        for ply in kept:
            self.plies.append(self._apply(ply.ply, ply.text, ply.source, ply.time))

    def _apply(self, ply: int, text: str, source: str, at: float) -> JournalPly:
        action = self._decode(text, ply)
        state = self.state
        chance = state.chance_request() if action.player == CHANCE else None
        events = _apply(state, action, ply)
        who = "the table" if action.player == CHANCE else state.player_name(action.player)
        words = self.adapter.describe(state, action, events, chance)
        return JournalPly(ply, text, words, who, source, at)

    def _decode(self, text: str, ply: int) -> Action:
        try:
            return decode(json.loads(text), self.module.ACTIONS)
        except (TypeError, ValueError, BadRecord) as error:
            raise FollowError(f"game {self.id}, action {ply} cannot be read: {error}") from None


class TableFollower:
    """Reads a table's state folder: the newest journal game, its picture, the status file."""

    def __init__(self, state_dir: Path, profile: Profile) -> None:
        self.state_dir = state_dir
        self.folder = TableFolder(state_dir, profile)
        self.journal = state_dir / JOURNAL_NAME
        self.connection: sqlite3.Connection | None = None
        self.games: dict[int, FollowedGame] = {}

    def version(self) -> tuple[int, ...]:
        """Changes whenever the journal or the status file does: the files' times and sizes, and
        SQLite's ``data_version`` (it changes with each commit by the table).

        The files alone miss a commit now and then: the table writes the WAL
        file (its time changes) a moment before it publishes the commit in the
        WAL index; a reader in between reads the old snapshot, and the file
        does not change again until the next move (measured: a ply published
        one move late, 0.3 s at 0.3 s a move, about one ply in five at load 35).
        """
        return (*self.folder.version()[:3], self._data_version())

    def _data_version(self) -> int:
        """The journal connection's ``PRAGMA data_version`` (-1 before there is a journal)."""
        try:
            row = self._query("PRAGMA data_version", ())
        except FollowError:
            return -1
        return int(row[0][0]) if row else -1

    def newest_game_id(self) -> int | None:
        """The newest game's id (None before the first game)."""
        row = self._query("SELECT max(id) FROM games", ())
        return None if not row or row[0][0] is None else int(row[0][0])

    def games_after(self, game_id: int, until: int) -> list[int]:
        """The ids of the games after ``game_id`` up to ``until`` (included), oldest first."""
        rows = self._query(
            "SELECT id FROM games WHERE id > ? AND id <= ? ORDER BY id", (game_id, until)
        )
        return [int(row[0]) for row in rows]

    def game(self, game_id: int) -> FollowedGame:
        """Game ``game_id`` as the journal holds it now."""
        followed = self.games.get(game_id)
        if followed is None:
            rows = self._query("SELECT game, options, seed FROM games WHERE id = ?", (game_id,))
            if not rows:
                raise FollowError(f"there is no game {game_id} in {self.journal}")
            name, options, seed = rows[0]
            try:
                followed = FollowedGame(game_id, name, json.loads(options), seed)
            except (BadRecord, ValueError) as error:
                raise FollowError(f"game {game_id} cannot be followed: {error}") from None
            self.games = {game_id: followed, **dict(list(self.games.items())[-1:])}
        actions = self._query(
            "SELECT ply, action, source, time FROM actions WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        followed.update([(int(p), str(a), str(s), float(t)) for p, a, s, t in actions])
        return followed

    def picture(self, followed: FollowedGame) -> dict[str, Any]:
        """The web view's board picture of ``followed`` (with the status file's words, if fresh)."""
        status = self.table_status(followed)
        return self.folder.picture(followed.state, followed.id, status).to_json()

    def table_status(self, followed: FollowedGame) -> dict[str, Any]:
        """The status file's public keys when it speaks of this game and ply, else {}."""
        status = self.folder.status()
        if status.get("game_id") != followed.id or status.get("ply") != len(followed.plies):
            return {}
        return status

    def status_age(self, now: float | None = None) -> float | None:
        """Seconds since the table last wrote its status file; None when it writes none."""
        status = self.folder.status()
        if "problem" in status or not isinstance(status.get("updated"), int | float):
            return None
        return (time.time() if now is None else now) - float(status["updated"])

    def public_status(self, followed: FollowedGame, now: float) -> dict[str, Any]:
        """Game, players, whose turn, what the table waits for, sync, stuck: public only."""
        state = followed.state
        asked = open_requests(state, followed.id, followed.adapter, self.folder.sensors)
        written = self.table_status(followed)
        age = self.status_age(now)
        stale = age is not None and age > STALE_SECONDS
        outcome = state.outcome()
        last = followed.plies[-1] if followed.plies else None
        return {
            "game": followed.game,
            "game_id": followed.id,
            "ply": len(followed.plies),
            "players": [state.player_name(seat) for seat in range(state.num_players)],
            "colours": [_hex(colour) for colour in self.folder.seat_colours[: state.num_players]],
            "turn": _turn_words(state, followed.adapter.waited_for(state)),
            "waiting": "; ".join(ask.question(state) for ask in asked),
            "in_sync": written.get("in_sync") if isinstance(written.get("in_sync"), bool) else None,
            "message": str(written.get("message") or ""),
            "last": last.words if last else "",
            "outcome": outcome.to_json() if outcome else None,
            "stuck": f"the table has not said a word for {age:.0f} s" if stale else "",
        }

    def close(self) -> None:
        """Close the journal connection."""
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def _query(self, sql: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        try:
            if self.connection is None:
                self.connection = self._connect()
            return self.connection.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            self.close()
            raise FollowError(f"cannot read the journal {self.journal}: {error}") from None

    def _connect(self) -> sqlite3.Connection:
        if not self.journal.is_file():
            raise sqlite3.OperationalError("no journal yet")
        uri = f"file:{urllib.parse.quote(str(self.journal.absolute()))}?mode=ro"
        connection = sqlite3.connect(uri, uri=True, timeout=SQLITE_TIMEOUT_S)
        with contextlib.suppress(sqlite3.Error):
            connection.execute("PRAGMA query_only=ON")
        return connection


def _apply(state: State, action: Action, ply: int) -> list[Any]:
    try:
        return list(state.apply(action))
    except IllegalAction as error:
        raise FollowError(
            f"action {ply} ({action.safe_notation()}) does not apply: {error}"
        ) from None


def _hex(colour: tuple[int, int, int]) -> str:
    red, green, blue = colour
    return f"#{red:02x}{green:02x}{blue:02x}"


def _turn_words(state: State, acting: tuple[int, ...]) -> str | None:
    """Who acts, in words: a player, the table (a roll, a draw), or None at the end."""
    if acting:
        return state.player_name(acting[0])
    return "the table" if state.to_act() == (CHANCE,) else None
