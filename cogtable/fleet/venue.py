"""The venue: every table of a venue as its messages tell it, tables needing staff first.

:class:`Venue` takes each message a subscriber hears (:meth:`Venue.take`) and
keeps per table its last status, its last state and its plies
(:class:`~cogtable.fleet.messages.PlyLog`, repeats dropped by ``seq``). A
message that is not what its topic carries is refused in one line, kept as
the table's problem, and changes nothing else. :meth:`Venue.rows` lists the
tables, those needing staff first: offline, stuck (the table says so, or has
not said a word for :data:`SILENT_S`), out of sync (the board does not match
the game, or a ply is missing), or sending garbage.

:class:`VenueWatcher` is the subscriber: one connection out to the broker
(paho reconnects by itself), a persistent session so that a broker restart
loses nothing it keeps for us.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Final

from cogtable.fleet.connection import CONNECT_TIMEOUT_S, KEEPALIVE_S, BrokerUnavailable, paho
from cogtable.fleet.messages import (
    MessageError,
    PlyEvent,
    PlyLog,
    StateSnapshot,
    TableStatus,
    decode_json,
)
from cogtable.fleet.settings import FleetSettings
from cogtable.fleet.topics import ROOT, Kind, parse_topic, venue_filter

log = logging.getLogger("cogtable.venue")

SILENT_S: Final = 30.0
"""An online table that has not published for this long is taken for stuck (it beats every 10 s)."""


SAID_LIMIT: Final = 1000
"""Refusals said once each; past this many distinct ones, they may be said again."""


@dataclass
class TableView:
    """One table as the venue knows it."""

    venue: str
    table: str
    status: TableStatus | None = None
    state: StateSnapshot | None = None
    plies: PlyLog = field(default_factory=PlyLog)
    gap: int | None = None
    """A ply that never came while later ones did (None when none is missing)."""
    problem: str = ""
    """The last message refused, in words ("" when none)."""

    def needs(self, now: float) -> list[str]:
        """Why staff should look at this table (empty when it plays on fine)."""
        status, reasons = self.status, []
        if status is None:
            reasons.append("no status yet")
        elif not status.online:
            reasons.append("offline")
        else:
            if status.stuck:
                reasons.append(f"stuck: {status.stuck}")
            elif status.updated and now - status.updated > SILENT_S:
                reasons.append(f"stuck: no word for {now - status.updated:.0f} s")
            if status.in_sync is False:
                reasons.append("out of sync" + (f": {status.message}" if status.message else ""))
        if self.gap is not None:
            reasons.append(f"out of sync: ply {self.gap} never arrived")
        if self.problem:
            reasons.append(f"sends garbage: {self.problem}")
        return reasons

    def to_json(self, now: float) -> dict[str, Any]:
        """What the page and ``--once`` show of this table."""
        status = self.status or TableStatus(online=False)
        board = self.state.board if self.state is not None else {}
        last = self.plies.plies[-1] if self.plies.plies else None
        return {
            "venue": self.venue,
            "table": self.table,
            "online": status.online,
            "game": status.game or (self.state.game if self.state else None),
            "game_id": status.game_id,
            "ply": status.ply
            if status.ply is not None
            else (self.state.seq if self.state else None),
            "players": list(status.players) or list(board.get("players", [])),
            "seat_colours": list(status.colours) or _seat_colours(board),
            "turn": status.turn,
            "waiting": status.waiting,
            "outcome": status.outcome,
            "last": last.action if last else status.last,
            "lines": list(board.get("lines", [])),
            "needs": self.needs(now),
            "age": round(now - status.updated, 1) if status.updated else None,
        }


class Venue:
    """Every table heard on the broker (of one venue, or of all)."""

    def __init__(self, venue: str | None = None, clock: Any = time.time) -> None:
        self.venue = venue
        self.clock = clock
        self.tables: dict[tuple[str, str], TableView] = {}
        self.version = 0
        """Counts the messages taken in (the page sends the view again when it changes)."""
        self.lock = threading.Lock()

    def take(self, topic: str, payload: bytes) -> str:
        """Take one message in; "" if it was used, else why it was refused (one line)."""
        address = parse_topic(topic)
        if address is None or (self.venue is not None and address.venue != self.venue):
            return f"{topic}: not a table's topic"
        with self.lock:
            view = self.tables.setdefault(
                (address.venue, address.table), TableView(address.venue, address.table)
            )
            self.version += 1
            try:
                _apply(view, address.kind, decode_json(payload))
            except MessageError as error:
                view.problem = f"{address.kind.value}: {error}"
                return f"{address.venue}/{address.table} {view.problem}"
            view.problem = ""
            return ""

    def rows(self) -> list[dict[str, Any]]:
        """Every table, those needing staff first, then by venue and table id."""
        now = self.clock()
        with self.lock:
            rows = [view.to_json(now) for view in self.tables.values()]
        return sorted(rows, key=lambda row: (not row["needs"], row["venue"], row["table"]))


def _apply(view: TableView, kind: Kind, data: Any) -> None:
    if kind is Kind.STATUS:
        view.status = TableStatus.from_json(data)
    elif kind is Kind.STATE:
        view.state = StateSnapshot.from_json(data)
    else:
        outcome = view.plies.accept(PlyEvent.from_json(data))
        if outcome == "gap" and view.gap is None:
            view.gap = len(view.plies.plies) + 1
        elif outcome in ("new", "replaced", "taken back"):
            view.gap = None


def _seat_colours(board: dict[str, Any]) -> list[str]:
    """The seat LEDs' colours of the board picture (the web view draws them so)."""
    for segment in board.get("leds", []):
        if isinstance(segment, dict) and segment.get("name") == "seats":
            return [led.get("colour", "") for row in segment.get("rows", []) for led in row]
    return []


class VenueWatcher:
    """Subscribes to the venue's tables and feeds :class:`Venue`; reconnects by itself."""

    def __init__(self, settings: FleetSettings, venue: Venue) -> None:
        mqtt = paho()
        self.settings = settings
        self.venue = venue
        self.connected = threading.Event()
        self.said: set[str] = set()
        self.away = ""
        self.stopping = False
        client_id = f"cogtable-venue-{socket.gethostname()}-{os.getpid()}"
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311
        )
        self.client.connect_timeout = CONNECT_TIMEOUT_S
        if settings.credentials is not None:
            self.client.username_pw_set(
                settings.credentials.username, settings.credentials.password
            )
        if settings.broker.tls and settings.ca_file is not None:
            self.client.tls_set(ca_certs=str(settings.ca_file))
        self.client.reconnect_delay_set(0.5, 5)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_message = self._message
        self.topic_filter = venue_filter(venue.venue) if venue.venue else f"{ROOT}/+/+/+"

    def start(self, wait: bool = False) -> None:
        """Connect (BrokerUnavailable when ``wait`` and it cannot be reached) and listen."""
        broker = self.settings.broker
        try:
            self.client.connect(broker.host, broker.port, keepalive=KEEPALIVE_S)
        except (OSError, ValueError) as error:
            if wait:
                raise BrokerUnavailable(getattr(error, "strerror", None) or str(error)) from None
            self._say(f"broker {broker} is away ({error}); trying again")
            self.client.connect_async(broker.host, broker.port, keepalive=KEEPALIVE_S)
        self.client.loop_start()
        if wait and not self.connected.wait(CONNECT_TIMEOUT_S):
            self.stop()
            raise BrokerUnavailable(self.away or "no answer to the connection")

    def stop(self) -> None:
        """Disconnect."""
        self.stopping = True
        self.client.disconnect()
        self.client.loop_stop()

    def _connected(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        if code.is_failure:
            self._say(f"the broker refused the connection: {code}")
            return
        client.subscribe(self.topic_filter, qos=1)
        self.away = ""
        self.connected.set()

    def _disconnected(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        self.connected.clear()
        if not self.stopping:
            self._say(f"broker {self.settings.broker} is away; trying again")

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        refused = self.venue.take(message.topic, bytes(message.payload))
        if refused and refused not in self.said:
            if len(self.said) > SAID_LIMIT:
                self.said.clear()
            self.said.add(refused)
            log.warning("venue: refused %s", refused)

    def _say(self, line: str) -> None:
        if line != self.away:
            log.warning("venue: %s", line)
            self.away = line
