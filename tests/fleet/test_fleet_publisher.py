"""The publisher against a real Mosquitto: an event per ply, a retained state, outages, restarts."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogtable.fleet.messages import EventKind
from cogtable.fleet.publisher import Publisher
from cogtable.fleet.settings import FleetSettings
from cogtable.fleet.topics import Kind, TableTopics
from cogtable.journal import JOURNAL_NAME, Journal, JournaledGame
from cogtable.web.table_view import TableFolder
from hardware.broker import parse_broker_url
from hardware.profile import load_profile
from tests.fleet.listener import Listener
from tests.fleet.mosquitto import Mosquitto

TOPICS = TableTopics("bar", "t1")


def settings(broker: Mosquitto) -> FleetSettings:
    return FleetSettings(parse_broker_url(broker.url), "bar", "t1")


@pytest.fixture
def lasting_broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """A Mosquitto that keeps sessions and retained messages across a restart."""
    folder = tmp_path / "lasting"
    folder.mkdir()
    running = Mosquitto(folder, persistence=True).start()
    try:
        yield running
    finally:
        running.stop()


def play(game: JournaledGame, plies: int, rng: random.Random) -> None:
    """``plies`` random legal Kogworks moves, journaled as a simulation's."""
    for _ in range(plies):
        state = game.state
        game.apply(rng.choice(list(state.legal_actions(state.to_act()[0]))), "simulation")


def journal_words(folder: Path, game_id: int) -> list[str]:
    """The game's plies in the web view's words."""
    return [move.words for move in TableFolder(folder, load_profile()).moves(game_id)]


def test_one_event_per_ply_a_take_back_too_and_the_state_retained_at_the_journal_ply(
    broker: Mosquitto, tmp_path: Path
) -> None:
    listener = Listener(broker.port, TOPICS.everything)
    journal = Journal(tmp_path / JOURNAL_NAME)
    game = journal.new_game("kogworks")
    publisher = Publisher(settings(broker), tmp_path, load_profile()).start()
    try:
        play(game, 6, random.Random(1))
        listener.wait_for(lambda heard: len(heard.log.plies) == 6, "6 plies")
        game.undo()
        play(game, 2, random.Random(2))
        listener.wait_for(lambda heard: len(heard.log.plies) == 7, "7 plies")
        listener.wait_for(lambda heard: heard.latest(Kind.STATE)["seq"] == 7, "the state at 7")
        late = Listener(broker.port, TOPICS.everything, client_id="late")
        late.wait_for(lambda heard: heard.latest(Kind.STATE) is not None, "a retained state")
    finally:
        publisher.stop()
        journal.close()
    events = listener.of(Kind.EVENT)
    assert [event["kind"] for event in events].count(EventKind.TAKE_BACK.value) == 1
    assert len(events) == 6 + 1 + 2
    assert [ply.action for ply in listener.log.plies] == journal_words(tmp_path, game.id)
    state = late.of(Kind.STATE)[0]
    assert (state["seq"], state["game_id"], state["game"]) == (7, game.id, "kogworks")
    assert state["board"]["players"] == ["Red", "Blue"]
    assert late.of(Kind.STATUS)[0]["state"] == "online"
    assert late.heard[0].retained
    listener.wait_for(lambda heard: heard.said() == "offline", "offline")
    assert listener.latest(Kind.STATUS)["ply"] == 7
    listener.close()
    late.close()


def test_the_table_plays_on_without_the_broker_and_republishes_what_it_missed(
    lasting_broker: Mosquitto, tmp_path: Path
) -> None:
    """Every ply reaches the subscriber exactly once, in order, across a broker restart."""
    listener = Listener(lasting_broker.port, TOPICS.everything)
    journal = Journal(tmp_path / JOURNAL_NAME)
    game = journal.new_game("kogworks")
    rng = random.Random(3)
    publisher = Publisher(settings(lasting_broker), tmp_path, load_profile()).start()
    try:
        play(game, 3, rng)
        listener.wait_for(lambda heard: len(heard.log.plies) == 3, "3 plies")
        lasting_broker.stop()
        play(game, 4, rng)
        game.undo()  # taken back while the broker is away: the broker never held it
        play(game, 2, rng)
        assert len(game.state.history) == 8
        sent = publisher.sent[Kind.EVENT]
        listener.wait_for(lambda heard: not publisher.connection, "the publisher seeing it")
        assert (publisher.sent[Kind.EVENT], len(publisher.held)) == (sent, 3)  # nothing queued
        lasting_broker.start()
        listener.wait_for(lambda heard: len(heard.log.plies) == 8, "8 plies after the outage")
    finally:
        publisher.stop()
        journal.close()
    assert [ply.action for ply in listener.log.plies] == journal_words(tmp_path, game.id)
    assert [ply.seq for ply in listener.log.plies] == list(range(1, 9))
    assert set(listener.outcomes) <= {"new", "repeat"}
    assert listener.outcomes.count("new") == 8
    listener.close()


def test_a_restarted_table_republishes_its_game_and_the_subscriber_drops_the_repeats(
    broker: Mosquitto, tmp_path: Path
) -> None:
    listener = Listener(broker.port, TOPICS.everything)
    journal = Journal(tmp_path / JOURNAL_NAME)
    game = journal.new_game("kogworks")
    rng = random.Random(4)
    try:
        for plies in (3, 2):
            publisher = Publisher(settings(broker), tmp_path, load_profile()).start()
            play(game, plies, rng)
            total = len(game.state.history)
            listener.wait_for(lambda heard, n=total: len(heard.log.plies) == n, f"{total} plies")
            publisher.stop()
    finally:
        journal.close()
    assert listener.outcomes.count("repeat") == 3
    assert [ply.action for ply in listener.log.plies] == journal_words(tmp_path, game.id)
    listener.close()


def test_a_broker_that_is_not_there_is_said_once_and_the_table_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = Journal(tmp_path / JOURNAL_NAME)
    game = journal.new_game("kogworks")
    nowhere = FleetSettings(parse_broker_url("mqtt://127.0.0.1:1"), "bar", "t1")
    with caplog.at_level(logging.WARNING, logger="cogtable.fleet"):
        publisher = Publisher(nowhere, tmp_path, load_profile()).start()
        play(game, 5, random.Random(5))
        time.sleep(1.5)  # three attempts to connect
        publisher.stop()
    journal.close()
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 1, lines
    assert "broker mqtt://127.0.0.1:1 is away (connection refused)" in lines[0]
    assert "Traceback" not in caplog.text
    assert publisher.sent[Kind.EVENT] == 0
