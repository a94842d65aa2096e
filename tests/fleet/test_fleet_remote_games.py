"""Which games one game across two tables may be: Kogworks (every move public, no draw or
roll); every other game is refused in one line naming why, and its record, which would carry
its secrets, is never published to the other table (real Mosquitto)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cogtable.fleet.remote import RemoteSeats, play_topic, remote_input
from cogtable.fleet.settings import FleetSettings
from cogtable.inputs import Input, RemotePartner, RemoteStopped
from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.table import GameTable
from cogtable.table_remote import NOT_SHARED, SHARED_GAMES, shared_refusal
from cogtable.table_status import TableStatus
from cogtable.tables import table_games
from hardware.broker import parse_broker_url
from hardware.leds import Frame
from hardware.profile import load_profile
from tests.fleet.listener import Listener
from tests.fleet.mosquitto import Mosquitto
from tests.journal.test_journal import next_action
from tests.runtime.neutral_helpers import FrameLog

VENUE = "club"
COLOURS = ((224, 32, 32), (32, 80, 240), (32, 200, 32), (240, 200, 32))


def test_every_game_is_either_shared_or_refused_with_its_reason() -> None:
    for game in table_games():
        refusal = shared_refusal(game)
        assert (refusal == "") == (game in SHARED_GAMES), game
        if refusal:
            assert refusal.startswith(f"{game} cannot be played across two tables: ")
            assert NOT_SHARED[game] in refusal and "\n" not in refusal
    assert "not checked" in shared_refusal("a game added later")


@pytest.mark.parametrize("game", sorted(set(table_games()) - SHARED_GAMES))
def test_a_table_of_a_game_with_secrets_stops_at_once_with_the_reason(
    tmp_path: Path, game: str
) -> None:
    profile = load_profile()
    table = GameTable(
        Journal(tmp_path / JOURNAL_NAME),
        FrameLog(),
        Frame.for_profile(profile),
        COLOURS,
        game=game,
        clock=lambda: 0.0,
    )
    table.handle(RemotePartner("far", (1,)), 0.0)
    assert table.status().stopped == shared_refusal(game)
    assert table.view.paused is True
    table.journal.close()


class SecretTable:
    """A Cogs and Commissars table's state folder and shown status (all the remote seats read):
    its journal holds the deal of the hands."""

    def __init__(self, folder: Path) -> None:
        self.state_dir = folder
        with Journal(folder / JOURNAL_NAME) as journal:
            game = journal.new_game("commissars", {"players": 2}, seed=5)
            rng = random.Random(0)
            for _ in range(3):
                game.apply(next_action(game, rng), "console")
            self.status = TableStatus(game="commissars", game_id=game.id, ply=3)
        self.inputs: list[Input] = []

    def put(self, item: Input) -> None:
        self.inputs.append(item)

    def shown_status(self) -> TableStatus:
        return self.status


def test_the_record_of_a_game_with_secrets_is_not_published_only_why(
    broker: Mosquitto, tmp_path: Path
) -> None:
    table = SecretTable(tmp_path)
    listener = Listener(broker.port, play_topic(VENUE, "t1"))
    settings = FleetSettings(parse_broker_url(broker.url), VENUE, "t1")
    seats = RemoteSeats(settings, "t2", (0,), (1,), table).start()
    try:
        listener.wait_for(lambda heard: bool(heard.heard), "the table's record")
    finally:
        seats.stop()
        listener.close()
    record = listener.heard[-1].data
    assert record["actions"] == [] and record["taken_back"] is None
    assert record["stopped"] == shared_refusal("commissars")
    heard_there = remote_input("t1", json.dumps(record).encode(), (1,))
    assert heard_there == RemoteStopped("t1", shared_refusal("commissars"))
