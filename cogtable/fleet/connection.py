"""One connection out to the broker (paho-mqtt 2): connect, publish and wait for the ack, close.

The table never listens: paho opens one TCP (or TLS) connection to the
broker, nothing else. A connection is used until it fails and then thrown
away; the next one is a new client. So a message that was not acknowledged
is never sent again by paho from its own memory: the publisher republishes
from the journal instead, which is why nothing is queued while the broker is
away. Every failure is a :class:`BrokerUnavailable` whose text is one line
for the log ("connection refused", "not authorised", "certificate verify
failed").
"""

from __future__ import annotations

import contextlib
import ssl
import threading
from collections.abc import Callable
from typing import Any, Final

from cogtable.errors import UserError
from cogtable.fleet.settings import FleetSettings

CONNECT_TIMEOUT_S: Final = 5.0
"""A broker that does not answer the connection in this long counts as away."""
ACK_TIMEOUT_S: Final = 5.0
"""A QoS 1 message not acknowledged in this long: the connection is taken for lost."""
KEEPALIVE_S: Final = 10
"""The broker sends the last will at most 1.5 times this long after a table vanishes."""


class BrokerUnavailable(Exception):
    """The broker cannot be reached or refused us; the text says why in one line."""


def paho() -> Any:
    """The paho-mqtt client module; UserError naming the extra when it is not installed."""
    try:
        import paho.mqtt.client as mqtt
    except ImportError as error:
        raise UserError(
            f"publishing to a broker needs the 'fleet' extra ({error.name} is missing): "
            "pip install 'cogtable[fleet]'"
        ) from None
    return mqtt


Will = tuple[str, bytes]
"""A last will: the topic and payload the broker publishes (retained) when we vanish."""


class BrokerConnection:
    """A live connection as ``client_id``; :meth:`close` ends it, a failure ends it for good."""

    def __init__(
        self,
        settings: FleetSettings,
        client_id: str,
        will: Will | None = None,
        on_message: Callable[[str, bytes, bool], None] | None = None,
    ) -> None:
        mqtt = paho()
        self.settings = settings
        self.connected = threading.Event()
        self.lost = threading.Event()
        self.refusal = ""
        self.on_message = on_message
        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311
        )
        client.connect_timeout = CONNECT_TIMEOUT_S
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=True)
        if settings.credentials is not None:
            client.username_pw_set(settings.credentials.username, settings.credentials.password)
        if settings.broker.tls and settings.ca_file is not None:
            try:
                client.tls_set(ca_certs=str(settings.ca_file))
            except (OSError, ssl.SSLError, ValueError) as error:
                raise BrokerUnavailable(
                    f"cannot use the CA file {settings.ca_file}: {error}"
                ) from None
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_message = self._message
        self.client = client
        self._open()

    def _open(self) -> None:
        broker = self.settings.broker
        try:
            self.client.connect(broker.host, broker.port, keepalive=KEEPALIVE_S)
        except (OSError, ValueError) as error:
            raise BrokerUnavailable(_reason(error)) from None
        self.client.loop_start()
        if not self.connected.wait(CONNECT_TIMEOUT_S) or self.lost.is_set():
            self.close()
            raise BrokerUnavailable(self.refusal or "no answer to the connection")

    def _connected(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        if code.is_failure:
            self.refusal = f"the broker refused the connection: {code}"
            self.lost.set()
        self.connected.set()

    def _disconnected(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        self.lost.set()
        self.connected.set()

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        if self.on_message is not None:
            self.on_message(message.topic, bytes(message.payload), bool(message.retain))

    @property
    def alive(self) -> bool:
        """Connected and not lost since."""
        return self.connected.is_set() and not self.lost.is_set()

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """Publish with QoS 1 and wait for the broker's ack; BrokerUnavailable if none comes."""
        self.settle(self.send(topic, payload, retain))

    def send(self, topic: str, payload: bytes, retain: bool = False) -> Any:
        """Publish with QoS 1 without waiting: :meth:`settle` the returned message later.

        Messages sent one after another on the connection are delivered and
        acknowledged in that order, so several can be in flight for one round
        trip (each waited for in turn under load costs a round trip of its own).
        """
        if not self.alive:
            raise BrokerUnavailable("the connection was lost")
        return self.client.publish(topic, payload, qos=1, retain=retain)

    def settle(self, sent: Any) -> None:
        """Wait for the broker's ack of a message :meth:`send` returned; BrokerUnavailable (the
        connection taken for lost) if none comes in :data:`ACK_TIMEOUT_S`."""
        try:
            sent.wait_for_publish(ACK_TIMEOUT_S)
        except (RuntimeError, ValueError) as error:
            self.lost.set()
            raise BrokerUnavailable(f"the connection was lost: {error}") from None
        if not sent.is_published():
            self.lost.set()
            raise BrokerUnavailable("the broker did not acknowledge a message")

    def subscribe(self, topic_filter: str) -> None:
        """Subscribe with QoS 1 (messages go to ``on_message``)."""
        result, _ = self.client.subscribe(topic_filter, qos=1)
        if result != 0:
            self.lost.set()
            raise BrokerUnavailable("the connection was lost while subscribing")

    def close(self) -> None:
        """Disconnect cleanly (no last will) and stop paho's thread."""
        with contextlib.suppress(Exception):  # paho on a dead socket: nothing left to close
            self.client.disconnect()
        self.client.loop_stop()


def _reason(error: BaseException) -> str:
    """A connection error in words: its strerror when it has one."""
    if isinstance(error, ssl.SSLError):
        return f"TLS failed: {getattr(error, 'verify_message', None) or error.reason or error}"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__
