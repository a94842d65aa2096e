"""What the web page shows, read from a table's state folder: only what the whole table may see.

Three sources, all read-only: the status file the running table writes (it
is public by construction: it is what ``cogtable status`` prints), the
journal (opened read-only; each game is rebuilt with :func:`games.core.replay`
and drawn by its adapter's :meth:`~cogtable.tables.base.TableAdapter.screen`
and LED :meth:`~cogtable.tables.base.TableAdapter.frame`, as the terminal
shows it), and the camera's latest overlay picture. A move is named by the
adapter's :meth:`~cogtable.tables.base.TableAdapter.describe`, which says a
secret by its purpose only; a player's own ``view(player)`` is never used.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cogtable.journal import JOURNAL_NAME, Journal, JournalError
from cogtable.sensing import open_requests
from cogtable.sensors import Sensors
from cogtable.service.runner import STATUS_FILE
from cogtable.tables import adapter_for
from cogtable.tables.base import Scene, Verdict
from games.core import CHANCE, BadRecord, IllegalAction, Record, State, load_game
from hardware.leds import Frame, Look
from hardware.profile import Profile

CAMERA_PICTURE = "camera.png"
"""The camera's latest overlay picture, which the running table writes into its state folder."""
STALE_SECONDS = 30.0
"""A status older than this is from a table that stopped or hangs (as ``cogtable status`` says)."""
PUBLIC_STATUS_KEYS = (
    "state",
    "game",
    "game_id",
    "options",
    "ply",
    "turn",
    "in_sync",
    "waiting",
    "waiting_for",
    "asking",
    "wait",
    "camera",
    "last",
    "message",
    "verdict",
    "outcome",
    "parts",
    "last_error",
    "calibrate",
    "updated",
)
"""The status keys the page gets (the seed stays out: in a simulation it would tell the deck)."""
VERDICTS = ("in-sync", "lifted", "illegal", "out-of-sync", "choose")


@dataclass(frozen=True)
class LedLook:
    """One LED as the page draws it: a ``#rrggbb`` colour and its animation (solid, pulse...)."""

    colour: str
    animation: str

    def to_json(self) -> dict[str, str]:
        """JSON-ready."""
        return {"colour": self.colour, "animation": self.animation}


@dataclass(frozen=True)
class LedSegment:
    """One LED segment as the page draws it: rows of LEDs, laid out as the terminal lays them."""

    name: str
    rows: tuple[tuple[LedLook, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: ``{"name", "rows": [[{"colour", "animation"}, ...], ...]}``."""
        return {"name": self.name, "rows": [[led.to_json() for led in row] for row in self.rows]}


@dataclass(frozen=True)
class BoardPicture:
    """A game as the table knows it: the adapter's screen lines and the LEDs the game uses."""

    lines: tuple[str, ...]
    leds: tuple[LedSegment, ...]
    players: tuple[str, ...]
    """The players' names, by seat."""
    public: dict[str, Any]
    """The state's ``view(None)``: what the whole table may see, as data."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "lines": list(self.lines),
            "leds": [segment.to_json() for segment in self.leds],
            "players": list(self.players),
            "public": self.public,
        }


@dataclass(frozen=True)
class Move:
    """One journal action in words the whole table may hear."""

    ply: int
    player: str
    words: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"ply": self.ply, "player": self.player, "words": self.words}


class TableFolder:
    """A table's state folder, read only, turned into what the page shows."""

    def __init__(self, state_dir: Path, profile: Profile) -> None:
        self.state_dir = state_dir
        self.profile = profile
        self.sensors = Sensors.of(profile)
        self.seat_colours = tuple(seat.colour for seat in profile.seats)

    @property
    def camera_path(self) -> Path:
        """Where the running table leaves the camera's overlay picture."""
        return self.state_dir / CAMERA_PICTURE

    def version(self) -> tuple[int, ...]:
        """A token that changes whenever the status, the journal or the camera picture does."""
        journal = self.state_dir / JOURNAL_NAME
        paths = (self.state_dir / STATUS_FILE, journal, journal.with_name(JOURNAL_NAME + "-wal"))
        return tuple(_changed_at(path) for path in (*paths, self.camera_path))

    def status(self) -> dict[str, Any]:
        """The status file's public keys; ``{"problem": why}`` when it is missing or garbage."""
        path = self.state_dir / STATUS_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {"problem": f"no table has run here yet (no {path})"}
        except (OSError, UnicodeDecodeError, ValueError) as error:
            return {"problem": f"cannot read the status file {path}: {error}"}
        if not isinstance(data, dict):
            return {"problem": f"the status file {path} is not a status"}
        return {key: data[key] for key in PUBLIC_STATUS_KEYS if key in data}

    def live(self, now: float | None = None) -> dict[str, Any]:
        """Everything the live page shows: status, board, camera picture, staleness."""
        now = time.time() if now is None else now
        status = self.status()
        age = now - float(status.get("updated") or 0)
        board, problem = self._live_board(status)
        return {
            "status": status,
            "stale": "problem" not in status and age > STALE_SECONDS,
            "age": round(age, 1),
            "board": board.to_json() if board is not None else None,
            "board_problem": problem,
            "camera": {
                "present": self.camera_path.is_file(),
                "version": _changed_at(self.camera_path),
            },
            "version": list(self.version()),
        }

    def games(self) -> list[dict[str, Any]]:
        """The journal's games, newest first (no seeds); UserError-free: [] without a journal."""
        try:
            with self._journal() as journal:
                summaries = journal.games()
        except JournalError:
            return []
        return [
            {
                "id": game.id,
                "game": game.game,
                "options": game.options,
                "started": game.started,
                "finished": game.finished,
                "outcome": game.outcome,
                "players": _player_names(game.game, game.options, game.seed),
                "actions": game.actions,
                "status": game.status,
            }
            for game in reversed(summaries)
        ]

    def moves(self, game_id: int) -> list[Move]:
        """Every action of game ``game_id`` in public words (JournalError, BadRecord if bad)."""
        record = self._record(game_id)
        adapter = adapter_for(record.game)
        state = load_game(record.game).new_game(record.options, record.seed)
        moves = []
        for ply, action in enumerate(record.actions, start=1):
            chance = state.chance_request() if action.player == CHANCE else None
            events = _apply(state, action, ply)
            who = "the table" if action.player == CHANCE else state.player_name(action.player)
            moves.append(Move(ply, who, adapter.describe(state, action, events, chance)))
        return moves

    def board_at(
        self, game_id: int, ply: int, status: dict[str, Any] | None = None
    ) -> BoardPicture:
        """Game ``game_id`` after its first ``ply`` actions, drawn as the table draws it."""
        record = self._record(game_id)
        if not 0 <= ply <= len(record.actions):
            raise BadRecord(f"game {game_id} has {len(record.actions)} actions, not {ply}")
        state = load_game(record.game).new_game(record.options, record.seed)
        for number, action in enumerate(record.actions[:ply], start=1):
            _apply(state, action, number)
        return self.picture(state, game_id, status or {})

    def picture(self, state: State, game_id: int, status: dict[str, Any]) -> BoardPicture:
        """``state`` as its adapter draws it, with the verdict and words the status gives."""
        adapter = adapter_for(state.game)
        asked = open_requests(state, game_id, adapter, self.sensors)
        verdict = status.get("verdict") if status.get("verdict") in VERDICTS else "in-sync"
        scene = Scene(
            verdict=Verdict(verdict, reason=str(status.get("message") or "")),  # type: ignore[arg-type]
            seat_colours=self.seat_colours,
            requests=tuple(ask.request for ask in asked),
            routes=tuple(ask.route for ask in asked),
            message=str(status.get("message") or ""),
            last=str(status.get("last") or ""),
        )
        frame = adapter.frame(state, scene, Frame.for_profile(self.profile))
        drawn = ("seats", "status", *adapter.segments_drawn())
        layout = adapter.arrangement()
        leds = tuple(_segment(frame, name, layout.get(name)) for name in drawn if frame.size(name))
        players = tuple(state.player_name(seat) for seat in range(state.num_players))
        return BoardPicture(tuple(adapter.screen(state, scene)), leds, players, state.view(None))

    def _live_board(self, status: dict[str, Any]) -> tuple[BoardPicture | None, str]:
        """The running game at the ply the status names, or why it cannot be drawn."""
        game_id, ply = status.get("game_id"), status.get("ply")
        if not isinstance(game_id, int) or not isinstance(ply, int):
            return None, "no game is running"
        try:
            return self.board_at(game_id, ply, status), ""
        except (JournalError, BadRecord, IllegalAction) as error:
            return None, f"cannot draw game {game_id}: {error}"

    def _record(self, game_id: int) -> Record:
        with self._journal() as journal:
            return journal.record(game_id)

    def _journal(self) -> Journal:
        return Journal(self.state_dir / JOURNAL_NAME, read_only=True)


@functools.lru_cache(maxsize=64)
def _names(game: str, options: str, seed: int) -> tuple[str, ...]:
    state = load_game(game).new_game(json.loads(options), seed)
    return tuple(state.player_name(seat) for seat in range(state.num_players))


def _player_names(game: str, options: dict[str, Any], seed: int) -> list[str]:
    """The players' names in a journal game (a game that cannot start has none listed)."""
    try:
        return list(_names(game, json.dumps(options, sort_keys=True), seed))
    except (BadRecord, ValueError):
        return []


def _apply(state: State, action: Any, ply: int) -> list[Any]:
    try:
        return list(state.apply(action))
    except IllegalAction as error:
        notation = action.safe_notation()
        raise BadRecord(f"action {ply} ({notation}) does not apply: {error}") from error


def _segment(frame: Frame, name: str, rows: Any) -> LedSegment:
    """Segment ``name`` of ``frame`` laid out in ``rows`` of indices (one row when None)."""
    looks = frame.looks[name]
    layout = rows or [range(len(looks))]
    return LedSegment(name, tuple(tuple(_look(looks[i]) for i in row) for row in layout))


def _look(look: Look) -> LedLook:
    red, green, blue = look.colour
    return LedLook(f"#{red:02x}{green:02x}{blue:02x}", look.animation.kind)


def _changed_at(path: Path) -> int:
    """``path``'s modification time in nanoseconds (and size), 0 when it is not there."""
    try:
        stat = path.stat()
    except OSError:
        return 0
    return stat.st_mtime_ns ^ stat.st_size
