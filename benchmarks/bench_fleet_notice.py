"""How soon the fleet's publisher notices a journaled ply: file stamps alone vs with data_version.

A writer process journals a recorded Kogworks game at a steady pace (one ply
every ``--pace`` seconds, as a table does); the publisher (this process,
niced as the publisher's own process is, publishing to a real Mosquitto)
follows the state folder. Reported per variant, runs interleaved in one invocation:
journal-to-acknowledged latency (the ply's journal time to the broker's ack of
its event), median, p99, max and how many plies took over 100 ms.

- ``files``: the publisher notices a change by the journal's and its WAL's
  times and sizes only (what it did before): a reader that looks between the
  table's WAL write and its commit in the WAL index reads the old snapshot,
  and the files do not change again until the next ply: that ply goes out one
  ply late.
- ``data_version``: the follower as it is (files and SQLite's ``PRAGMA
  data_version``, which changes with each commit).

    nice -n 10 .venv/bin/python benchmarks/bench_fleet_notice.py [--plies 21] [--pace 0.3]
        [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogtable.fleet.follower import TableFollower  # noqa: E402
from cogtable.fleet.process import NICENESS, newest_game  # noqa: E402
from cogtable.fleet.publisher import Publisher  # noqa: E402
from cogtable.fleet.settings import FleetSettings  # noqa: E402
from cogtable.journal import JOURNAL_NAME, Journal  # noqa: E402
from games.kogworks import new_game  # noqa: E402
from games.kogworks.players import PLAYERS  # noqa: E402
from hardware.broker import parse_broker_url  # noqa: E402
from hardware.profile import load_profile  # noqa: E402
from tests.fleet.mosquitto import Mosquitto  # noqa: E402

VARIANTS = ("files", "data_version")


class FilesOnly(TableFollower):
    """The follower noticing changes by the files' times and sizes only (the old way)."""

    def version(self) -> tuple[int, ...]:
        return self.folder.version()[:3]


def game_actions(seed: int, plies: int) -> list[dict[str, Any]]:
    """A random game's first ``plies`` actions as JSON (fewer if it ends sooner)."""
    import random

    state, rng, actions = new_game(), random.Random(seed), []
    while not state.is_over() and len(actions) < plies:
        action = PLAYERS["random"](state.clone(), rng)
        state.apply(action)
        actions.append(action.to_json())
    return actions


def writer(folder: str, pace: float, start_in: float, actions: str) -> None:
    """The table's side: journal each action, ``pace`` seconds apart."""
    from games.core import decode
    from games.kogworks import ACTIONS

    journal = Journal(Path(folder) / JOURNAL_NAME)
    played = journal.new_game("kogworks", {}, seed=0)
    time.sleep(start_in)
    for data in json.loads(actions):
        played.apply(decode(data, ACTIONS), "camera")
        time.sleep(pace)
    journal.close()


def one_run(variant: str, broker: Mosquitto, args: argparse.Namespace, root: Path) -> list[float]:
    """Milliseconds from each ply's journal time to its event's ack."""
    folder = Path(tempfile.mkdtemp(dir=root))
    actions = json.dumps(game_actions(args.seed, args.plies))
    settings = FleetSettings(parse_broker_url(broker.url), "notice", variant.replace("_", "-"))
    command = [sys.executable, __file__, "--writer", str(folder), str(args.pace), "2.0", actions]
    table = subprocess.Popen(command)
    while newest_game(folder) is None and table.poll() is None:
        time.sleep(0.05)  # the table's journal and its game exist (the writer waits 2 s more)
    publisher = Publisher(settings, folder, load_profile())
    if variant == "files":
        publisher.follower = FilesOnly(folder, load_profile())
    acked: list[float] = []
    original = publisher.connect

    def connect(*given: Any, **named: Any) -> Any:
        connection = original(*given, **named)
        send = connection.publish

        def timed(topic: str, payload: bytes, retain: bool = False) -> None:
            send(topic, payload, retain)
            message = json.loads(payload)
            if topic.endswith("/event") and message.get("kind") == "action":
                acked.append(1000 * (time.time() - float(message["time"])))

        connection.publish = timed  # type: ignore[method-assign]
        return connection

    publisher.connect = connect  # type: ignore[method-assign]
    publisher.start()
    table.wait()
    time.sleep(1.0)
    publisher.stop()
    return acked


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--writer":
        writer(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=21)
    parser.add_argument("--pace", type=float, default=0.3, help="seconds between plies")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each variant")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.nice(NICENESS)  # the publisher's niceness (the writer, a child, gets it too)
    samples: dict[str, list[float]] = {variant: [] for variant in VARIANTS}
    with tempfile.TemporaryDirectory(prefix="bench-notice-") as folder:
        root = Path(folder)
        (root / "broker").mkdir()
        broker = Mosquitto(root / "broker").start()
        try:
            for _ in range(args.rounds):
                for variant in VARIANTS:
                    samples[variant] += one_run(variant, broker, args, root)
        finally:
            broker.stop()
    load = os.getloadavg()[0]
    print(f"{args.rounds} runs each of {args.plies} plies every {args.pace} s, load ~{load:.0f}")
    for variant, values in samples.items():
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        slow = sum(value > 100 for value in ordered)
        print(
            f"{variant:13s} journal-to-ack: median {statistics.median(ordered):.1f} ms, "
            f"p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms, over 100 ms {slow}/{len(ordered)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
