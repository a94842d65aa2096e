"""Two tables, one game, over a real Mosquitto: the other table's events as inputs.

Each table here is a :class:`GameTable` with its journal, fed by its own
:class:`RemoteSeats` through a queue that the test drains into the table, as the
controller thread does; the settled boards are handed in by the test. The
two-table sim runs as a user runs it.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from cogtable.fleet.remote import RemoteSeats, play_topic, remote_flag
from cogtable.fleet.settings import FleetSettings
from cogtable.inputs import BoardSettled, Input
from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.table import GameTable
from cogtable.table_status import TableStatus
from cogtable.tables.kogworks import adapter
from games.kogworks import Place, new_game, peg_at
from games.kogworks.board import ROW_COL
from hardware.broker import parse_broker_url
from hardware.leds import Frame
from hardware.profile import load_profile
from tests.fleet.mosquitto import Mosquitto
from tests.runtime.neutral_helpers import FrameLog

VENUE = "club"
WAIT_S = 20.0


class Table:
    """One table: its journal and game, the queue its remote seats put on, drained by hand."""

    def __init__(self, folder: Path, name: str) -> None:
        folder.mkdir()
        self.state_dir = folder
        self.name = name
        self.inputs: queue.SimpleQueue[Input] = queue.SimpleQueue()
        profile = load_profile()
        self.table = GameTable(
            Journal(folder / JOURNAL_NAME),
            FrameLog(),
            Frame.for_profile(profile),
            ((224, 32, 32), (32, 80, 240)),
            game="kogworks",
            clock=time.monotonic,
        )
        self.source: RemoteSeats | None = None

    def put(self, item: Input) -> None:
        self.inputs.put(item)

    def shown_status(self) -> TableStatus:
        return self.table.published

    def connect(self, broker: Mosquitto, other: str, here: int) -> None:
        """Play seat ``here`` (0-based) with table ``other`` over ``broker``."""
        settings = FleetSettings(parse_broker_url(broker.url), VENUE, self.name)
        self.source = RemoteSeats(settings, other, (here,), (1 - here,), self).start()

    def disconnect(self) -> None:
        if self.source is not None:
            self.source.stop()
            self.source = None

    def drain(self) -> None:
        while True:
            try:
                item = self.inputs.get_nowait()
            except queue.Empty:
                return
            self.table.handle(item, time.monotonic())

    def board(self, pieces: dict[int, str]) -> None:
        self.table.handle(
            BoardSettled({ROW_COL[p]: c for p, c in pieces.items()}), time.monotonic()
        )

    def actions(self) -> tuple[Any, ...]:
        return self.table.game.record().actions


def until(tables: list[Table], check: Callable[[], bool], what: str) -> None:
    """Drain every table's inputs until ``check`` holds (the tables' controllers, by hand)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        for table in tables:
            table.drain()
        if check():
            return
        time.sleep(0.02)
    raise AssertionError(f"not within {WAIT_S} s: {what}")


def published(table: Table) -> list[Any]:
    """The actions of the record the broker last acknowledged from ``table``."""
    sent = table.source.sent if table.source is not None else None
    return json.loads(sent)["actions"] if sent else []


@pytest.fixture
def tables(tmp_path: Path) -> Any:
    made = [Table(tmp_path / "t1", "t1"), Table(tmp_path / "t2", "t2")]
    yield made
    for table in made:
        table.disconnect()
        table.table.journal.close()


START = adapter.pieces_of(new_game())
ONE = {**START, peg_at(8, 0): "red"}


def red_moved_first(broker: Mosquitto, tables: list[Table]) -> tuple[Table, Table]:
    """Red at t1 and Blue at t2 share a game; Red's first move is journaled at both."""
    red, blue = tables
    red.connect(broker, "t2", 0)
    blue.connect(broker, "t1", 1)
    for table in tables:
        table.board(START)
    red.board(ONE)
    until(tables, lambda: len(blue.actions()) == 1, "blue journals red's move")
    return red, blue


def test_the_opponents_move_arrives_and_must_be_carried_out(
    broker: Mosquitto, tables: list[Table]
) -> None:
    red, blue = red_moved_first(broker, tables)
    assert blue.actions() == red.actions()
    assert blue.table.view.verdict.kind == "carry-out"
    blue.board({**START, peg_at(8, 1): "red"})  # another legal placement
    assert blue.table.status().message.startswith("not your opponent's move")
    blue.board({**ONE, peg_at(5, 2): "blue"})
    assert len(blue.actions()) == 1, "no move before the board matches"
    blue.board(ONE)
    assert blue.table.status().in_sync is True
    blue.board({**ONE, peg_at(5, 2): "blue"})
    until(tables, lambda: len(red.actions()) == 2, "red journals blue's reply")
    assert red.actions() == blue.actions()


def test_a_table_offline_for_a_while_catches_up(broker: Mosquitto, tables: list[Table]) -> None:
    red, blue = tables
    red.connect(broker, "t2", 0)
    red.board(START)
    red.board(ONE)
    until(tables, lambda: len(published(red)) == 1, "red's move published")
    blue.board(START)
    time.sleep(0.5)
    blue.drain()
    assert blue.actions() == (), "blue is offline: it heard nothing"
    broker.restart(down_seconds=0.5)  # and the broker went away meanwhile (no persistence)
    blue.connect(broker, "t1", 1)
    until(tables, lambda: blue.actions() == red.actions(), "blue catches up with red's record")
    assert blue.table.view.verdict.action == Place(peg_at(8, 0), player=0)


def test_a_disagreement_stops_both_tables_with_the_reason(
    broker: Mosquitto, tables: list[Table]
) -> None:
    red, blue = tables
    blue.connect(broker, "t1", 1)
    wrong = {"seats": [0], "game": "kogworks", "actions": [Place(peg_at(8, 1), player=0).to_json()]}
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="impostor")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish(play_topic(VENUE, "t1"), json.dumps(wrong), qos=1, retain=True).wait_for_publish(
        5
    )
    client.disconnect()
    client.loop_stop()
    until(tables, lambda: len(blue.actions()) == 1, "blue journals the impostor's move")
    red.board(START)
    red.board(ONE)
    red.connect(broker, "t2", 0)
    until(
        tables,
        lambda: bool(red.table.status().stopped and blue.table.status().stopped),
        "both tables stop",
    )
    for table in tables:  # each finds it, or hears it from the other: the same reason
        assert "the tables disagree at move 1: " in table.table.status().stopped
    before = len(blue.actions())
    blue.board({**START, peg_at(8, 1): "red", peg_at(5, 2): "blue"})
    assert len(blue.actions()) == before, "a stopped table takes no move"


def test_the_two_table_sim_ends_with_both_records_equal(broker: Mosquitto, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "cogtable", "sim", "kogworks", "--broker", broker.url]
    command += ["--tables", "2", "--seed", "1", "--camera", "truth", "--quiet"]
    command += ["--state-dir", str(tmp_path)]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("table t1: game 1:") for line in lines), done.stdout
    assert any(line.startswith("table t2: game 1:") for line in lines), done.stdout
    records = []
    for name in ("t1", "t2"):
        with Journal(tmp_path / name / JOURNAL_NAME, read_only=True) as journal:
            [game] = journal.games()
            assert game.status == "finished"
            records.append(journal.record(game.id).actions)
    assert records[0] == records[1] and records[0]
    assert lines[-1] == f"both tables' records are equal: {len(records[0])} moves"


def test_a_remote_address_must_name_a_venue_and_a_table() -> None:
    assert remote_flag("mqtt://127.0.0.1:1883/club/t2").table == "t2"
    for bad in ("mqtt://127.0.0.1:1883", "mqtt://host/club", "http://host/club/t2"):
        with pytest.raises(Exception, match="--remote"):
            remote_flag(bad)
