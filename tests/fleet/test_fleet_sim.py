"""``cogtable sim kogworks --broker ... --venue bar --table-id t1``: the mock table publishes."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

from cogtable.fleet.messages import EventKind
from cogtable.fleet.topics import Kind, TableTopics
from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.web.table_view import TableFolder
from hardware.profile import load_profile
from tests.fleet.listener import Listener
from tests.fleet.mosquitto import Mosquitto

TOPICS = TableTopics("bar", "t1")
RESULT = re.compile(r"^game 1: (Red|Blue) won \(.+\) after \d+ moves")


def sim(state_dir: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "cogtable",
        "sim",
        "kogworks",
        "--camera",
        "truth",
        "--quiet",
        "--seed",
        "3",
        "--state-dir",
        str(state_dir),
        *extra,
    ]


def test_the_sim_publishes_every_ply_and_its_state_at_the_journal_ply(
    broker: Mosquitto, tmp_path: Path
) -> None:
    listener = Listener(broker.port, TOPICS.everything)
    fleet = ("--broker", broker.url, "--venue", "bar", "--table-id", "t1", "--undo-rate", "0")
    done = subprocess.run(
        sim(tmp_path, *fleet), check=False, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert RESULT.match(done.stdout), done.stdout
    assert "Traceback" not in done.stderr
    with Journal(tmp_path / JOURNAL_NAME, read_only=True) as journal:
        [game] = journal.games()
    listener.wait_for(lambda heard: heard.said() == "offline", "offline")
    listener.close()
    events = listener.of(Kind.EVENT)
    assert [event["seq"] for event in events] == list(range(1, game.actions + 1))
    assert {event["kind"] for event in events} == {EventKind.ACTION.value}
    words = [move.words for move in TableFolder(tmp_path, load_profile()).moves(game.id)]
    assert [event["action"] for event in events] == words
    late = Listener(broker.port, TOPICS.everything, client_id="late")
    late.wait_for(
        lambda heard: None not in (heard.latest(Kind.STATE), heard.latest(Kind.STATUS)),
        "the retained state and status",
    )
    state = late.latest(Kind.STATE)
    assert (state["seq"], state["game_id"]) == (game.actions, game.id)
    assert late.latest(Kind.STATUS)["outcome"] == game.outcome
    late.close()
    assert f"after {game.actions} moves" in done.stdout


def test_a_killed_table_is_offline_by_its_last_will(broker: Mosquitto, tmp_path: Path) -> None:
    listener = Listener(broker.port, TOPICS.everything)
    fleet = ("--broker", broker.url, "--venue", "bar", "--table-id", "t1", "--games", "50")
    table = subprocess.Popen(sim(tmp_path, *fleet), stdout=subprocess.DEVNULL)
    try:
        listener.wait_for(
            lambda heard: len(heard.log.plies) >= 2 and heard.latest(Kind.STATUS) is not None,
            "two plies and a status",
        )
        assert listener.latest(Kind.STATUS)["state"] == "online"
    finally:
        table.send_signal(signal.SIGKILL)
        table.wait(timeout=30)
    listener.wait_for(lambda heard: heard.said() == "offline", "its will")
    assert listener.heard[-1].kind is Kind.STATUS
    listener.close()


def test_bad_fleet_flags_are_one_line_and_the_sim_does_not_start(tmp_path: Path) -> None:
    for flags, said in (
        (("--broker", "mqtt:/x"), "argument --broker: 'mqtt:/x': no host"),
        (("--broker", "mqtt://h", "--venue", "bar"), "give --table-id too"),
        (("--venue", "bar", "--table-id", "t"), "give --broker"),
        (("--table-id", "a+b"), "argument --table-id: 'a+b': expected 1-64 letters"),
    ):
        done = subprocess.run(
            sim(tmp_path / "state", *flags), check=False, capture_output=True, text=True, timeout=60
        )
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
        assert not (tmp_path / "state").exists()


def test_a_broker_that_is_away_leaves_the_sim_as_it_was(tmp_path: Path) -> None:
    fleet = ("--broker", "mqtt://127.0.0.1:1", "--venue", "bar", "--table-id", "t1")
    done = subprocess.run(
        sim(tmp_path, *fleet, "--undo-rate", "0"),
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert RESULT.match(done.stdout), done.stdout
    assert "Traceback" not in done.stderr
