"""The test broker is a real Mosquitto: it keeps a retained message, and it can be restarted."""

from __future__ import annotations

import queue

import paho.mqtt.client as mqtt

from tests.fleet.mosquitto import Mosquitto

WAIT_S = 5.0


def _retained(broker: Mosquitto, topic: str) -> bytes:
    """The retained message on ``topic``, as a fresh subscriber gets it."""
    got: queue.Queue[bytes] = queue.Queue()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
    client.on_message = lambda c, u, message: got.put(message.payload)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        return got.get(timeout=WAIT_S)
    finally:
        client.disconnect()
        client.loop_stop()


def test_the_broker_keeps_a_retained_message_and_comes_back_on_its_port(broker: Mosquitto) -> None:
    """Publish retained, read it from a new client; a restart without persistence forgets it."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish("t/x", b"kept", qos=1, retain=True).wait_for_publish(WAIT_S)
    client.disconnect()
    client.loop_stop()
    assert _retained(broker, "t/x") == b"kept"
    port = broker.port
    broker.restart()
    assert broker.port == port
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish("t/x", b"again", qos=1, retain=True).wait_for_publish(WAIT_S)
    client.disconnect()
    client.loop_stop()
    assert _retained(broker, "t/x") == b"again"
