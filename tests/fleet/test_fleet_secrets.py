"""Nothing reaches the broker that the web page would not show: two tables differing in a secret.

The Cookie's roles dealt and a card laid face down, and a Commissars hand, as
in the web view's test (tests/web/test_web_secrets.py): two tables that differ
only there publish the very same messages, times left out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cogtable.fleet.publisher import Publisher
from cogtable.fleet.settings import FleetSettings
from cogtable.fleet.topics import Kind, TableTopics
from cogtable.game_choice import GameChoice
from cogtable.sensors import Sensors
from cogtable.service.runner import StatusWriter
from hardware.broker import parse_broker_url
from hardware.profile import load_profile
from tests.fleet.listener import Listener
from tests.fleet.mosquitto import Mosquitto
from tests.web.test_web_secrets import answer, table_in

TIMES = ("time", "updated")


def published(broker: Mosquitto, folder: Path, table: str, plies: int) -> list[Any]:
    """Every message one table publishes about ``folder`` until its state shows ``plies``."""
    topics = TableTopics("bar", table)
    listener = Listener(broker.port, topics.everything, client_id=f"listen-{table}")
    settings = FleetSettings(parse_broker_url(broker.url), "bar", table)
    publisher = Publisher(settings, folder, load_profile()).start()
    listener.wait_for(
        lambda heard: (heard.latest(Kind.STATE) or {}).get("seq") == plies, f"ply {plies}"
    )
    publisher.stop()
    listener.wait_for(lambda heard: heard.said() == "offline", "offline")
    listener.close()
    return [(heard.kind, _without_times(heard.data)) for heard in listener.heard]


def _without_times(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_times(v) for k, v in data.items() if k not in TIMES}
    if isinstance(data, list):
        return [_without_times(value) for value in data]
    return data


def test_the_cookie_roles_and_a_card_laid_face_down_publish_nothing_different(
    broker: Mosquitto, tmp_path: Path
) -> None:
    messages, states = [], []
    for name, roles, card in (
        ("a", ("Strontium", "Blue", "Cookie", "37"), 0),
        ("b", ("37", "Cookie", "Blue", "Strontium"), 1),
    ):
        folder = tmp_path / name
        table = table_in(folder, GameChoice("cookie", {"players": 4}), Sensors(dice=True))
        for role in roles:
            answer(table, role)
        answer(table, table.asking()[0].request.options[card].label)
        StatusWriter(folder, table.status().to_json)(force=True)
        states.append(table.state)
        messages.append(published(broker, folder, name, len(table.state.history)))
    assert states[0].view(0)["role"] != states[1].view(0)["role"]
    assert states[0].view(0)["face_down"] != states[1].view(0)["face_down"]
    assert messages[0] == messages[1]
    kinds = {kind for kind, _ in messages[0]}
    assert kinds == {Kind.EVENT, Kind.STATE, Kind.STATUS}
    assert "P1 laid a card face down" in json.dumps([data for _, data in messages[0]])


def test_a_commissars_hand_publishes_nothing_different(broker: Mosquitto, tmp_path: Path) -> None:
    messages = []
    for which in (0, -1):
        folder = tmp_path / str(which)
        table = table_in(folder, GameChoice("commissars", {"players": 2}), Sensors())
        card = table.asking()[0].request.labels()[which]
        answer(table, card)
        StatusWriter(folder, table.status().to_json)(force=True)
        assert card in table.state.view(0)["hand"]
        messages.append(published(broker, folder, f"c{which + 1}", 1))
    assert messages[0] == messages[1]
    assert "draw for player 1's deck" in json.dumps([data for _, data in messages[0]])
