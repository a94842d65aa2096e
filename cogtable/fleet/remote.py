"""The other table's events as inputs: one game played across two tables over the broker.

``cogtable service run --remote mqtt://host[:port]/<venue>/<other-table>``
(and ``cogtable sim kogworks --tables 2``) splits a game's seats between two
tables. Each table publishes its record of the game on
``cogtable/v1/<venue>/<table>/play`` (retained, QoS 1): the game, the seats it
plays, every journaled action of the game in progress as the journal's JSON
(a game whose actions are public: Kogworks), the move of a seat played there
that it took back last (while no move came after it), and why it stopped the
game, if it did. Each subscribes to the other's, and every message becomes a typed
input on the runtime's queue (:class:`~cogtable.inputs.RemoteRecord`,
:class:`~cogtable.inputs.RemoteStopped`): the controller thread compares the
records and journals, guides or stops (:mod:`cogtable.table_remote`).

What is published is read from what the table writes for others: its shown
status (any thread may read it) and its journal, opened read-only. The
record is retained, so a table that was offline, or restarted, catches up
from the broker as soon as it connects; it is published again after every
reconnection, so a broker restarted without persistence has it again. The
client only connects out; nothing is queued in memory while the broker is
away.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from cogtable.errors import UserError
from cogtable.fleet.connection import BrokerConnection, BrokerUnavailable
from cogtable.fleet.settings import FleetSettings
from cogtable.fleet.topics import ROOT
from cogtable.inputs import Input, RemotePartner, RemoteRecord, RemoteStopped, RemoteTakeBack
from cogtable.journal import JOURNAL_NAME, Journal, JournalError
from cogtable.table_remote import shared_refusal
from cogtable.table_status import TableStatus
from hardware.broker import ID_EXPECTED, BrokerUrl, parse_broker_url

log = logging.getLogger(__name__)

PLAY: Final = "play"
"""The topic level of a table's record of a game played across two tables."""
POLL_S: Final = 0.05
"""How often the table's shown status is looked at for a new move to publish."""
RETRY_S: Final = 1.0
"""How long to wait before connecting again after the broker was away."""


def play_topic(venue: str, table: str) -> str:
    """``cogtable/v1/<venue>/<table>/play``."""
    return f"{ROOT}/{venue}/{table}/{PLAY}"


@dataclass(frozen=True)
class RemoteTable:
    """The other table of the game: its broker, venue and id (``--remote``)."""

    broker: BrokerUrl
    venue: str
    table: str

    def __str__(self) -> str:
        return f"{BrokerUrl(self.broker.scheme, self.broker.host, self.broker.port)}" + (
            f"/{self.venue}/{self.table}"
        )


def remote_flag(text: str) -> RemoteTable:
    """``--remote mqtt://host[:port]/<venue>/<table>``; UserError naming the flag and value."""
    try:
        url = parse_broker_url(text)
    except ValueError as error:
        raise UserError(f"--remote {text!r}: {error}") from None
    if len(url.path) != 2:
        raise UserError(
            f"--remote {text!r}: expected mqtt://host[:port]/<venue>/<table> ({ID_EXPECTED})"
        )
    broker = BrokerUrl(url.scheme, url.host, url.port)
    return RemoteTable(broker, url.path[0], url.path[1])


class SharedTable(Protocol):
    """What the remote seats need of the local table (a :class:`~cogtable.runtime.Runtime`)."""

    state_dir: Path

    def put(self, item: Input) -> None:
        """Queue an input for the controller (any thread)."""

    def shown_status(self) -> TableStatus:
        """The status as the table last showed it (any thread)."""


@dataclass(frozen=True)
class Record:
    """This table's record as it publishes it."""

    game: str
    actions: tuple[Any, ...]
    finished: bool
    stopped: str
    taken_back: RemoteTakeBack | None = None
    """The move of a seat played here that was taken back last, while no move came after it."""

    def payload(self, table: str, seats: tuple[int, ...]) -> bytes:
        """The retained message."""
        data = {
            "table": table,
            "seats": list(seats),
            "game": self.game,
            "actions": list(self.actions),
            "finished": self.finished,
            "stopped": self.stopped,
            "taken_back": None
            if self.taken_back is None
            else {"ply": self.taken_back.ply, "action": self.taken_back.action},
        }
        return json.dumps(data, separators=(",", ":")).encode()


class RemoteSeats:
    """The input source "the other table's events", and the publisher of this table's record.

    ``settings`` name this table (broker, venue, its id, credentials); ``seats``
    are the seats played here (0-based), ``away`` those played at ``other``.
    """

    def __init__(
        self,
        settings: FleetSettings,
        other: str,
        seats: tuple[int, ...],
        away: tuple[int, ...],
        table: SharedTable,
    ) -> None:
        self.settings = settings
        self.other = other
        self.seats = seats
        self.away = away
        self.table = table
        self.stop_event = threading.Event()
        self.thread: threading.Thread | None = None
        self.connection: BrokerConnection | None = None
        self.read_at: tuple[Any, ...] = ()
        self.record: Record | None = None
        self.sent: bytes | None = None
        """The record the broker last acknowledged (None: none since this connection)."""
        self.published = 0
        """Records published (a test's measure)."""
        self.received = 0
        """The other table's records put on the queue."""

    def start(self) -> RemoteSeats:
        """Tell the controller which seats play away (first, before any record), then follow."""
        self.table.put(RemotePartner(self.other, self.away))
        self.thread = threading.Thread(target=self._run, name="remote-seats", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        """Publish the last record if connected (the table's last move), then disconnect."""
        self.stop_event.set()
        if self.thread is not None:
            self.thread.join(timeout=5.0)
        with contextlib.suppress(BrokerUnavailable):
            self._publish()
        self._close()

    # -- the thread -------------------------------------------------------------------------

    def _run(self) -> None:
        said = ""
        while not self.stop_event.is_set():
            try:
                if self.connection is None or not self.connection.alive:
                    self._close()
                    self.connection = self._connect()
                    self.sent, said = None, ""
                self._publish()
            except BrokerUnavailable as error:
                if str(error) != said:
                    log.warning("the broker for table %s: %s", self.other, error)
                    said = str(error)
                self._close()
                self.stop_event.wait(RETRY_S)
                continue
            self.stop_event.wait(POLL_S)

    def _publish(self) -> None:
        """Publish this table's record if it changed since it was last acknowledged."""
        connection = self.connection
        if connection is None or not connection.alive:
            return
        payload = self._payload()
        if payload is not None and payload != self.sent:
            connection.publish(self._topic(self.settings.table), payload, True)
            self.sent = payload
            self.published += 1

    def _connect(self) -> BrokerConnection:
        client = f"cogtable-play-{self.settings.venue}-{self.settings.table}"
        connection = BrokerConnection(self.settings, client, on_message=self._message)
        connection.subscribe(self._topic(self.other))
        return connection

    def _close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def _topic(self, table: str) -> str:
        return play_topic(self.settings.venue, table)

    def _payload(self) -> bytes | None:
        """This table's record as a message (read again from the journal when the status moved)."""
        status = self.table.shown_status()
        game_id = status.game_id
        if game_id is None:
            return None
        key = (game_id, status.ply, status.last, status.stopped)
        refusal = shared_refusal(status.game)
        if refusal:  # its record would carry secrets: only why it cannot be shared
            self.record = Record(status.game, (), False, refusal)
        elif key != self.read_at or self.record is None:
            read = self._actions(game_id)
            if read is None:
                return None
            actions, back = read
            finished = status.outcome is not None
            self.record = Record(status.game, actions, finished, status.stopped, back)
            self.read_at = key
        return self.record.payload(self.settings.table, self.seats)

    def _actions(self, game_id: int) -> tuple[tuple[Any, ...], RemoteTakeBack | None] | None:
        """The game's actions as JSON and the last take-back of a seat played here, if any."""
        try:
            with Journal(self.table.state_dir / JOURNAL_NAME, read_only=True) as journal:
                record = journal.record(game_id)
                taken = journal.taken_back(game_id)
        except JournalError as error:
            log.warning("the journal cannot be read for table %s: %s", self.other, error)
            return None
        back = None
        if taken is not None and taken.action.player in self.seats:
            back = RemoteTakeBack(taken.ply, _json(taken.action.to_json()))
        return tuple(_json(action.to_json()) for action in record.actions), back

    # -- paho's thread ------------------------------------------------------------------------

    def _message(self, topic: str, payload: bytes, retained: bool) -> None:
        if topic != self._topic(self.other) or not payload:
            return  # an empty retained message clears the topic
        item = remote_input(self.other, payload, self.seats)
        if item is not None:
            self.received += 1
            self.table.put(item)


def remote_input(
    other: str, payload: bytes, seats: tuple[int, ...]
) -> RemoteRecord | RemoteStopped | None:
    """The input one of the other table's messages stands for (None: not a record)."""
    try:
        data = json.loads(payload)
        stopped = str(data.get("stopped") or "")
        theirs = [int(seat) for seat in data.get("seats", [])]
        game, actions = str(data["game"]), tuple(data["actions"])
        finished = bool(data.get("finished"))
        back = data.get("taken_back")
        taken_back = None if back is None else RemoteTakeBack(int(back["ply"]), back["action"])
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        log.warning("table %s sent a record that cannot be read: %s", other, error)
        return None
    both = sorted(set(theirs) & set(seats))
    if both:
        return RemoteStopped(other, f"both tables play seat {both[0] + 1}")
    if stopped:
        return RemoteStopped(other, stopped)
    return RemoteRecord(other, game, actions, finished, taken_back)


def _json(data: Any) -> Any:
    """``data`` as JSON reads it back (lists, not tuples): compared with the other table's."""
    return json.loads(json.dumps(data))


@contextlib.contextmanager
def playing_remote(
    settings: FleetSettings | None,
    remote: RemoteTable | None,
    seats: tuple[int, ...],
    away: tuple[int, ...],
    table: SharedTable,
) -> Any:
    """The remote seats while the block runs (nothing without ``remote``)."""
    if remote is None or settings is None:
        yield None
        return
    source = RemoteSeats(settings, remote.table, seats, away, table).start()
    try:
        yield source
    finally:
        source.stop()


def remote_settings(
    remote: RemoteTable, table_id: str | None, fleet: FleetSettings | None
) -> FleetSettings:
    """This table's connection for ``--remote``: the remote's broker and venue, its own id
    (``--table-id`` or the profile's ``[fleet]``), the profile's credentials and CA file."""
    here = table_id or (fleet.table if fleet is not None else None)
    if not here:
        raise UserError(f"--remote {remote}: give --table-id too (this table's id in the venue)")
    if here == remote.table:
        raise UserError(f"--remote {remote}: that is this table ({here}); name the other one")
    if fleet is not None and fleet.venue != remote.venue:
        raise UserError(
            f"--remote {remote}: venue {remote.venue!r}, but this table is in {fleet.venue!r}"
        )
    ca_file = fleet.ca_file if fleet is not None else None
    if remote.broker.tls and ca_file is None:
        raise UserError(f"--remote {remote}: mqtts needs the broker's CA file ([fleet] ca_file)")
    credentials = fleet.credentials if fleet is not None else None
    return FleetSettings(remote.broker, remote.venue, here, ca_file, credentials)
