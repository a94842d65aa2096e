"""A subscriber for the fleet's tests: every message on a filter, in order, and a table's plies.

It keeps a persistent session (``clean_session`` false, a fixed client id), so
a broker that restarts with persistence holds what the table publishes while
this subscriber reconnects, as a venue's subscriber would.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from cogtable.fleet.messages import PlyEvent, PlyLog
from cogtable.fleet.topics import Kind, parse_topic

WAIT_S = 60.0


@dataclass(frozen=True)
class Heard:
    """One message: its topic, whether it came retained, its JSON."""

    topic: str
    retained: bool
    data: Any

    @property
    def kind(self) -> Kind | None:
        """status, state or event (None for another topic)."""
        address = parse_topic(self.topic)
        return address.kind if address else None


class Listener:
    """Subscribes to ``topic_filter`` on 127.0.0.1:``port`` and keeps everything it hears."""

    def __init__(self, port: int, topic_filter: str, client_id: str = "test-listener") -> None:
        self.heard: list[Heard] = []
        self.log = PlyLog()
        self.outcomes: list[str] = []
        self.changed = threading.Condition()
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False
        )
        self.client.on_connect = lambda c, *_: c.subscribe(topic_filter, qos=1)
        self.client.on_message = self._message
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.reconnect_delay_set(0.1, 0.5)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert subscribed.wait(WAIT_S), f"could not subscribe to {topic_filter}"

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        heard = Heard(message.topic, bool(message.retain), json.loads(message.payload))
        with self.changed:
            self.heard.append(heard)
            if heard.kind is Kind.EVENT:
                self.outcomes.append(self.log.accept(PlyEvent.from_json(heard.data)))
            self.changed.notify_all()

    def of(self, kind: Kind) -> list[Any]:
        """The JSON of every message heard on ``kind``'s topic, in order."""
        with self.changed:
            return [heard.data for heard in self.heard if heard.kind is kind]

    def latest(self, kind: Kind) -> Any:
        """The last message heard on ``kind``'s topic (None if none)."""
        found = self.of(kind)
        return found[-1] if found else None

    def said(self) -> str | None:
        """The last status's ``state``: online or offline (None before any)."""
        status = self.latest(Kind.STATUS)
        return status.get("state") if isinstance(status, dict) else None

    def wait_for(self, check: Callable[[Listener], bool], what: str) -> None:
        """Wait until ``check(self)`` holds; fail the test saying ``what`` if it never does."""
        deadline = time.monotonic() + WAIT_S
        with self.changed:
            while not check(self):
                left = deadline - time.monotonic()
                assert left > 0, f"never heard {what}; heard {len(self.heard)} messages"
                self.changed.wait(min(left, 0.1))

    def close(self) -> None:
        """Disconnect."""
        self.client.disconnect()
        self.client.loop_stop()
