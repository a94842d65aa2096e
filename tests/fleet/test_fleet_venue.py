"""The venue: tables needing staff first, garbage refused in one line, --once and the page."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from cogtable.fleet.messages import EventKind, PlyEvent, TableStatus, encode
from cogtable.fleet.publisher import Publisher
from cogtable.fleet.settings import FleetSettings
from cogtable.fleet.topics import Kind, TableTopics
from cogtable.fleet.venue import SILENT_S, Venue
from cogtable.journal import JOURNAL_NAME, Journal
from hardware.broker import parse_broker_url
from hardware.profile import load_profile
from tests.fleet.mosquitto import Mosquitto
from tests.web.chromium import Chromium

NOW = 1_000_000.0


def topic(table: str, kind: Kind) -> str:
    return TableTopics("bar", table).topic(kind)


def status(**fields: object) -> bytes:
    return encode(TableStatus(online=True, updated=NOW, **fields))  # type: ignore[arg-type]


def test_tables_needing_staff_come_first_each_with_its_reason() -> None:
    venue = Venue("bar", clock=lambda: NOW)
    assert venue.take(topic("a1", Kind.STATUS), status(game="kogworks", in_sync=True)) == ""
    venue.take(topic("b2", Kind.STATUS), status(in_sync=False, message="cog lifted"))
    venue.take(topic("c3", Kind.STATUS), encode(TableStatus(online=False, updated=NOW)))
    silent = TableStatus(online=True, updated=NOW - SILENT_S - 5)
    venue.take(topic("d4", Kind.STATUS), encode(silent))
    venue.take(topic("e5", Kind.STATUS), status(stuck="the table has not said a word for 40 s"))
    rows = {row["table"]: row["needs"] for row in venue.rows()}
    assert [row["table"] for row in venue.rows()] == ["b2", "c3", "d4", "e5", "a1"]
    assert rows == {
        "a1": [],
        "b2": ["out of sync: cog lifted"],
        "c3": ["offline"],
        "d4": ["stuck: no word for 35 s"],
        "e5": ["stuck: the table has not said a word for 40 s"],
    }


def test_garbage_on_a_topic_is_one_line_and_changes_nothing_else() -> None:
    venue = Venue("bar", clock=lambda: NOW)
    venue.take(topic("t1", Kind.STATUS), status(game="kogworks", ply=3))
    assert venue.take(topic("t1", Kind.STATE), b"\xff\xfe") == "bar/t1 state: not JSON text"
    refused = venue.take(topic("t1", Kind.EVENT), json.dumps({"seq": "x"}).encode())
    assert refused == "bar/t1 event: not an event: seq is 'x', not a whole number"
    assert venue.take(topic("t1", Kind.STATUS), b"[1, 2]").startswith("bar/t1 status: not a")
    assert (
        venue.take("cogtable/v1/bar/t1/other", b"{}")
        == "cogtable/v1/bar/t1/other: not a table's topic"
    )
    assert (
        venue.take("cogtable/v1/pub/t1/status", status())
        == "cogtable/v1/pub/t1/status: not a table's topic"
    )
    [row] = venue.rows()
    assert (row["game"], row["ply"]) == ("kogworks", 3)
    assert row["needs"] == ["sends garbage: status: not a status: a JSON list, not an object"]
    venue.take(topic("t1", Kind.STATUS), status(game="kogworks", ply=4))
    assert venue.rows()[0]["needs"] == []


def test_a_missing_ply_puts_the_table_out_of_sync_until_it_comes() -> None:
    venue = Venue("bar", clock=lambda: NOW)
    venue.take(topic("t1", Kind.STATUS), status())

    def event(seq: int) -> bytes:
        return encode(
            PlyEvent(seq, 1, "kogworks", seq, EventKind.ACTION, f"m{seq}", "Red", "camera", NOW)
        )

    venue.take(topic("t1", Kind.EVENT), event(1))
    venue.take(topic("t1", Kind.EVENT), event(3))
    assert venue.rows()[0]["needs"] == ["out of sync: ply 2 never arrived"]
    venue.take(topic("t1", Kind.EVENT), event(2))
    venue.take(topic("t1", Kind.EVENT), event(3))
    assert venue.rows()[0]["needs"] == []
    assert venue.rows()[0]["last"] == "m3"


def publish_table(broker: Mosquitto, folder: Path, table: str, plies: int) -> Publisher:
    folder.mkdir()
    journal = Journal(folder / JOURNAL_NAME)
    game = journal.new_game("kogworks")
    rng = random.Random(plies)
    for _ in range(plies):
        state = game.state
        game.apply(rng.choice(list(state.legal_actions(state.to_act()[0]))), "simulation")
    journal.close()
    settings = FleetSettings(parse_broker_url(broker.url), "bar", table)
    return Publisher(settings, folder, load_profile()).start()


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cogtable", *argv]
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=60)


def venue_once(broker: Mosquitto, *extra: str) -> subprocess.CompletedProcess[str]:
    return cli("venue", "--broker", broker.url, "--once", *extra)


def wait_published(publisher: Publisher) -> None:
    deadline = time.monotonic() + 10
    while publisher.sent[Kind.STATUS] == 0:
        assert time.monotonic() < deadline, "the table never published"
        time.sleep(0.05)


def test_venue_once_prints_the_tables_the_offline_one_first(
    broker: Mosquitto, tmp_path: Path
) -> None:
    playing = publish_table(broker, tmp_path / "t1", "t1", 5)
    gone = publish_table(broker, tmp_path / "t2", "t2", 2)
    wait_published(playing)
    wait_published(gone)
    gone.stop()
    garbage = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    garbage.connect("127.0.0.1", broker.port)
    garbage.loop_start()
    garbage.publish(topic("t3", Kind.STATE), b"not json", qos=1, retain=True).wait_for_publish(5)
    garbage.disconnect()
    garbage.loop_stop()
    done = venue_once(broker, "--venue", "bar")
    playing.stop()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("bar/t2  STAFF: offline  kogworks #1 move 2  seats: Red, Blue")
    assert lines[1] == "bar/t3  STAFF: no status yet; sends garbage: state: not JSON text  no game"
    assert lines[2].startswith("bar/t1  ok  kogworks #1 move 5  seats: Red, Blue  turn: ")
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == "cogtable venue: refused bar/t3 state: not JSON text"


def test_venue_once_with_no_broker_or_a_bad_address_is_one_line(broker: Mosquitto) -> None:
    port = broker.port
    broker.stop()
    done = venue_once(broker)
    assert (done.returncode, done.stdout) == (2, "")
    said = f"cogtable venue: --broker mqtt://127.0.0.1:{port}: cannot reach it: Connection refused"
    assert done.stderr == said + "\n"
    bad = cli("venue", "--broker", "mqtt://h:0", "--once")
    assert (bad.returncode, bad.stderr.count("\n")) == (2, 1)
    assert "its port is not a number 1-65535" in bad.stderr


def test_the_venue_page_shows_every_table_live_staff_first(
    broker: Mosquitto, tmp_path: Path
) -> None:
    playing = publish_table(broker, tmp_path / "t1", "t1", 5)
    gone = publish_table(broker, tmp_path / "t2", "t2", 2)
    wait_published(playing)
    wait_published(gone)
    gone.stop()
    page_server = subprocess.Popen(
        [sys.executable, "-m", "cogtable", "venue", "--broker", broker.url, "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert page_server.stdout is not None
        url = page_server.stdout.readline().strip().rsplit(" ", 1)[-1]
        with Chromium(tmp_path / "chromium") as browser:
            page = browser.open(url)
            page.wait_for("document.querySelectorAll('.card').length === 2")
            names = page.evaluate(
                "[...document.querySelectorAll('.card h2 span:first-child')]"
                ".map(e => e.textContent)"
            )
            assert names == ["bar / t2", "bar / t1"]
            assert (
                page.evaluate("document.querySelector('.card.staff .needs').textContent")
                == "offline"
            )
            assert (
                page.evaluate("document.getElementById('summary').textContent")
                == "2 tables, 1 needing staff"
            )
            playing.stop()  # the live page follows: now both are offline
            page.wait_for("document.querySelectorAll('.card.staff').length === 2")
            page.screenshot(tmp_path / "venue.png")
    finally:
        page_server.terminate()
        page_server.wait(timeout=10)
