"""The publisher: a thread that tells the broker what the table's journal and status file say.

It looks at the state folder every :data:`POLL_S` (the journal's and the
status file's times and sizes: cheap) and, when something changed, publishes
under ``cogtable/v1/<venue>/<table>/``: an ``event`` (QoS 1) for each ply the
broker does not hold yet, or a take-back for each it holds that the journal no
longer has; then the retained ``state`` and ``status``. Each message waits for
the broker's ack before the next, and only an acknowledged one counts as held.

While the broker is away the table plays on and nothing is queued: the
publisher remembers only which plies the broker acknowledged (the actions'
JSON of one game, a few KiB), says once that the broker is away, and tries
again every few seconds. When it is back, the journal tells what the broker
missed: a take-back for each ply it holds that the journal no longer has, and
then the running game again from ply 1 (a broker that restarted may have lost
what it had not yet delivered to a subscriber: seen with Mosquitto 2.0 and
persistence on), the end of the game before it first if that one ended
meanwhile. Subscribers drop what they hold by ``seq``
(:class:`cogtable.fleet.messages.PlyLog`). A new table process starts with an
empty memory and so publishes its running game from ply 1 too.

The retained ``status`` says ``online``; the connection's last will replaces
it by ``offline`` if the table vanishes, and a clean stop says so itself.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cogtable.fleet.connection import (
    ACK_TIMEOUT_S,
    CONNECT_TIMEOUT_S,
    BrokerConnection,
    BrokerUnavailable,
)
from cogtable.fleet.follower import FollowedGame, FollowError, JournalPly, TableFollower
from cogtable.fleet.messages import (
    EventKind,
    PlyEvent,
    StateSnapshot,
    TableStatus,
    encode,
)
from cogtable.fleet.settings import FleetSettings
from cogtable.fleet.topics import Kind, TableTopics
from hardware.profile import Profile

log = logging.getLogger("cogtable.fleet")

POLL_S: Final = 0.02
"""How often the state folder is looked at: a journaled ply is published within this much."""
HEARTBEAT_S: Final = 10.0
"""An unchanged status is published again this often (its ``updated`` says the table lives)."""
RETRY_S: Final = (0.5, 1.0, 2.0, 5.0)
"""Waits between attempts to reach an absent broker (the last one repeats)."""
STOP_SYNC_S: Final = 5.0
"""At a clean stop, what is left is published for at most this long."""


@dataclass(frozen=True)
class PlyTiming:
    """When one newly journaled ply went through the publisher (epoch seconds, the table's
    clock): what a benchmark splits the journal-to-subscriber latency by."""

    game_id: int
    seq: int
    journaled: float
    """The journal's time of the ply (the table stamps it just before the commit)."""
    due: float
    """When the publisher meant to look at the folder again (its last look + :data:`POLL_S`)."""
    woke: float
    """When it did look (later than ``due``: the scheduler let it wait)."""
    read: float
    """When it read the journal's actions that held the ply."""
    acked: float
    """When the broker acknowledged the ply's event."""
    cpu: float
    """CPU seconds the publisher's process used from ``woke`` to ``acked`` (all its threads)."""

    def to_json(self) -> dict[str, float | int]:
        """The timing as a JSON object."""
        return {
            "game_id": self.game_id,
            "seq": self.seq,
            "journaled": self.journaled,
            "due": self.due,
            "woke": self.woke,
            "read": self.read,
            "acked": self.acked,
            "cpu": self.cpu,
        }


class Publisher:
    """Publishes one table's journal and status; :meth:`start` it, :meth:`stop` it."""

    def __init__(
        self,
        settings: FleetSettings,
        state_dir: Path,
        profile: Profile,
        *,
        clock: Callable[[], float] = time.time,
        connect: Callable[..., BrokerConnection] = BrokerConnection,
        first_game: int | None = None,
        timing: Callable[[PlyTiming], None] | None = None,
    ) -> None:
        self.settings = settings
        self.topics = TableTopics(settings.venue, settings.table)
        self.follower = TableFollower(state_dir, profile)
        self.clock = clock
        self.connect = connect
        self.connection: BrokerConnection | None = None
        self.held_game: int | None = first_game
        """The game the broker holds plies of (the first to publish: ``first_game``, else the
        newest when the publisher starts)."""
        self.held: list[str] = []
        """The actions (journal JSON) of ``held_game`` the broker acknowledged, from ply 1."""
        self.again = True
        """Publish every ply of the game again (after a connection: what a subscriber missed
        while the broker restarted, the broker may not have kept; subscribers drop repeats)."""
        self.sent: dict[Kind, int] = dict.fromkeys(Kind, 0)
        """Messages acknowledged by the broker, by topic (for tests and the benchmark)."""
        self.seen: tuple[int, ...] | None = None
        self.last_state: dict[str, Any] | None = None
        self.last_status: dict[str, Any] | None = None
        self.status_at = float("-inf")
        self.failures = 0
        self.away_said = ""
        self.timing = timing
        """Told how each new ply went through (benchmarks: where the latency goes)."""
        self.due = self.woke = self.read = self.cpu = 0.0
        self.pending: list[Pending] = []
        """Messages sent whose acks :meth:`_settle` waits for."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- running ---------------------------------------------------------------------

    def start(self) -> Publisher:
        """Start the publishing thread (it connects in the background)."""
        self._thread = threading.Thread(target=self._run, name="fleet-publisher", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Publish what is left (if the broker is there), say offline, disconnect."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=STOP_SYNC_S + CONNECT_TIMEOUT_S + ACK_TIMEOUT_S)

    def _run(self) -> None:
        """Publish until stopped; at least once, so a table stopped at once still publishes.

        The game running when the publisher starts is the first it publishes,
        even if the broker is away until a later one has begun.
        """
        try:
            if self.held_game is None:
                self.held_game = self.follower.newest_game_id()
        except FollowError as error:
            self._say(f"cannot read the table's journal: {error}")
        while True:
            self.woke, self.cpu = self.clock(), time.process_time()
            self._step()
            wait = POLL_S if self.connection is not None else self._retry_wait()
            self.due = self.clock() + wait
            if self._stop.wait(wait):
                break
        self._finish()
        self.follower.close()

    def _step(self) -> None:
        """Connect if needed, then publish what changed; a failure is said once."""
        try:
            if self.connection is None or not self.connection.alive:
                self._connect()
            self.sync()
        except BrokerUnavailable as error:
            self._drop(f"broker {self.settings.broker} is away ({error})")
        except FollowError as error:
            self._say(f"cannot read the table's journal: {error}")

    def _finish(self) -> None:
        """Publish what is left and say offline; a broker away gets :data:`STOP_SYNC_S` to return.

        What still does not reach it stays in the journal: the table's next
        start publishes its newest game again.
        """
        deadline = time.monotonic() + STOP_SYNC_S
        while True:
            try:
                if self.connection is None or not self.connection.alive:
                    self._connect()
                self.seen = None
                self.sync()
                fields = _status_fields(self.last_status or {})
                offline = TableStatus(online=False, updated=self.clock(), **fields)
                self._publish(Kind.STATUS, offline.to_json())
                self._settle()
                break
            except (BrokerUnavailable, FollowError) as error:
                if self.connection is not None:
                    self.connection.close()
                    self.connection = None
                if time.monotonic() > deadline:
                    if not self.away_said:  # else the table already said the broker is away
                        log.warning("fleet: at stop, not everything was published: %s", error)
                    return
                time.sleep(RETRY_S[0])
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def _connect(self) -> None:
        self.pending = []
        if self.connection is not None:
            self.connection.close()
            self.connection = None
        will = (self.topics.topic(Kind.STATUS), encode(TableStatus(online=False)))
        client_id = f"cogtable-{self.settings.venue}-{self.settings.table}"
        self.connection = self.connect(self.settings, client_id, will)
        self.seen, self.last_state, self.last_status = None, None, None
        self.again = True
        self.failures = 0
        if self.away_said:
            log.warning("fleet: broker %s is back: publishing what it missed", self.settings.broker)
        else:
            log.info("fleet: publishing to %s as %s", self.settings.broker, self.topics.everything)
        self.away_said = ""

    def _drop(self, why: str) -> None:
        self.pending = []
        if self.connection is not None:
            self.connection.close()
            self.connection = None
        self.failures += 1
        self._say(f"{why}; the table plays on and publishes what it missed when it is back")

    def _say(self, line: str) -> None:
        if line != self.away_said:
            log.warning("fleet: %s", line)
            self.away_said = line

    def _retry_wait(self) -> float:
        return RETRY_S[min(self.failures, len(RETRY_S)) - 1] if self.failures else POLL_S

    # -- publishing --------------------------------------------------------------------

    def sync(self) -> None:
        """Publish whatever the broker does not hold yet (the connection must be up).

        The messages of one look go out together and their acks are waited
        for at the end (one round trip, not one per message); what they change
        (the plies held, the state and status last published) changes as each
        ack arrives, in order, so only what the broker acknowledged counts.
        """
        self._settle()  # what a look cut short (a journal that could not be read) left in flight
        version = self.follower.version()
        now = self.clock()
        if version == self.seen and now - self.status_at < HEARTBEAT_S:
            return
        game_id = self.follower.newest_game_id()
        if game_id is None:
            self._status({"game": None}, now)
            self._settle()
            self.seen = version
            return
        if self.held_game is None or self.held_game > game_id:
            self.held_game, self.held = game_id, []
        while self.held_game < game_id:  # the end of the game held, and any played meanwhile
            self._plies(self.follower.game(self.held_game))
            self._settle()
            self.held_game = self.follower.games_after(self.held_game, game_id)[0]
            self.held = []
        followed = self.follower.game(game_id)
        self.read = self.clock()
        self._plies(followed)
        self._state(followed, now)
        self._status(self.follower.public_status(followed, now), now)
        self._settle()
        self.again = False
        self.seen = version

    def _plies(self, followed: FollowedGame) -> None:
        """Take-backs for plies held that the journal lost, then each ply not held, in order."""
        journal = [ply.text for ply in followed.plies]
        held = list(self.held)
        if journal[: len(held)] != held:
            for gone in followed.taken_back(held):
                event = PlyEvent(
                    seq=gone.ply,
                    game_id=followed.id,
                    game=followed.game,
                    ply=gone.ply,
                    kind=EventKind.TAKE_BACK,
                    action=gone.words,
                    player=gone.player,
                    source="journal",
                    time=self.clock(),
                )
                held.pop()
                self._publish(Kind.EVENT, event.to_json(), self._holding(list(held)))
        start = 0 if self.again else len(held)
        for ply in followed.plies[start:]:
            event = PlyEvent(
                seq=ply.ply,
                game_id=followed.id,
                game=followed.game,
                ply=ply.ply,
                kind=EventKind.ACTION,
                action=ply.words,
                player=ply.player,
                source=ply.source,
                time=ply.time,
            )
            new = ply.ply > len(held)
            if new:
                held.append(ply.text)
            self._publish(Kind.EVENT, event.to_json(), self._holding(list(held), ply, new))

    def _holding(
        self, held: list[str], ply: JournalPly | None = None, new: bool = False
    ) -> Callable[[], None]:
        """What an event's ack changes: the broker holds ``held``; a new ply's timing is told."""
        game_id, due, woke, read, cpu = self.held_game, self.due, self.woke, self.read, self.cpu

        def acked() -> None:
            self.held = held
            if new and ply is not None and self.timing is not None:
                at = (game_id or 0, ply.ply, ply.time, due, woke, read, self.clock())
                self.timing(PlyTiming(*at, time.process_time() - cpu))

        return acked

    def _state(self, followed: FollowedGame, now: float) -> None:
        snapshot = StateSnapshot(
            len(followed.plies), followed.id, followed.game, self.follower.picture(followed)
        ).to_json()
        if snapshot != self.last_state:
            self._publish(Kind.STATE, {**snapshot, "updated": now}, lambda: self._stated(snapshot))

    def _stated(self, snapshot: dict[str, Any]) -> None:
        self.last_state = snapshot

    def _status(self, fields: dict[str, Any], now: float) -> None:
        if fields == self.last_status and now - self.status_at < HEARTBEAT_S:
            return
        status = TableStatus(online=True, updated=now, **_status_fields(fields))
        self._publish(Kind.STATUS, status.to_json(), lambda: self._told(fields, now))

    def _told(self, fields: dict[str, Any], now: float) -> None:
        self.last_status, self.status_at = fields, now

    def _publish(
        self, kind: Kind, message: dict[str, Any], acked: Callable[[], None] | None = None
    ) -> None:
        """Send one message; :meth:`_settle` waits for its ack and then calls ``acked``."""
        if self.connection is None:
            raise BrokerUnavailable("not connected")
        payload = encode_json(message)
        sent = self.connection.send(self.topics.topic(kind), payload, kind is not Kind.EVENT)
        self.pending.append(Pending(kind, sent, acked))

    def _settle(self) -> None:
        """Wait for the acks of the messages sent, in order; each changes what it changes."""
        pending, self.pending = self.pending, []
        for message in pending:
            if self.connection is None:
                raise BrokerUnavailable("not connected")
            self.connection.settle(message.sent)
            self.sent[message.kind] += 1
            if message.acked is not None:
                message.acked()


@dataclass(frozen=True)
class Pending:
    """A message sent and not yet acknowledged, with what its ack changes."""

    kind: Kind
    sent: Any
    """paho's message info."""
    acked: Callable[[], None] | None


def encode_json(message: dict[str, Any]) -> bytes:
    """Compact JSON bytes of an already JSON-ready message."""
    return json.dumps(message, separators=(",", ":")).encode("utf-8")


def _status_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """The public status as :class:`TableStatus` keywords."""
    known = set(TableStatus.__dataclass_fields__) - {"online", "updated"}
    values = {key: value for key, value in fields.items() if key in known}
    for key in ("players", "colours"):
        if key in values:
            values[key] = tuple(values[key])
    return values
