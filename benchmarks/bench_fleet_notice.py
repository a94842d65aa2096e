"""How soon the fleet's publisher gets a journaled ply to a subscriber, by variant.

A writer process journals a recorded Kogworks game at a steady pace (one ply
every ``--pace`` seconds, as a table does); the publisher (this process,
niced as the publisher's own process is, publishing to a real Mosquitto)
follows the state folder; a subscriber (a process of its own) notes when each
event arrives. Reported per variant, runs interleaved in one invocation:
journal-to-subscriber latency (the ply's journal time to its event's arrival),
median, p99, max and how many plies took over 100 ms.

- ``files``: the publisher notices a change by the journal's and its WAL's
  times and sizes only (before cc25e82): a reader that looks between the
  table's WAL write and its commit in the WAL index reads the old snapshot,
  and the files do not change again until the next ply: that ply goes out one
  ply late.
- ``one-by-one``: the follower as it is, each message (event, state, status)
  waited for in turn, a round trip each (before the messages of one look
  went out together).
- ``together``: the publisher as it is: a look's messages sent together, their
  acks waited for at the end.

    nice -n 10 .venv/bin/python benchmarks/bench_fleet_notice.py [--plies 21] [--pace 0.3]
        [--rounds 2] [--variants files,one-by-one,together]
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

VARIANTS = ("files", "one-by-one", "together")


class FilesOnly(TableFollower):
    """The follower noticing changes by the files' times and sizes only (the old way)."""

    def version(self) -> tuple[int, ...]:
        return self.folder.version()[:3]


class OneByOne(Publisher):
    """The publisher waiting for each message's ack before it sends the next (the old way)."""

    def _publish(self, kind: Any, message: dict[str, Any], acked: Any = None) -> None:
        super()._publish(kind, message, acked)
        self._settle()


def subscriber(port: str, topic: str) -> None:
    """A venue's side: print each event's arrival time and payload, one line each."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
    client.on_subscribe = lambda *_: print("subscribed", flush=True)

    def arrived(client: Any, userdata: Any, message: Any) -> None:
        print(f"{time.time():.6f} {message.payload.decode()}", flush=True)

    client.on_message = arrived
    client.connect("127.0.0.1", int(port))
    client.loop_forever()


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
    """Milliseconds from each ply's journal time to its event's arrival at the subscriber."""
    folder = Path(tempfile.mkdtemp(dir=root))
    actions = json.dumps(game_actions(args.seed, args.plies))
    settings = FleetSettings(parse_broker_url(broker.url), "notice", variant)
    topic = f"cogtable/v1/notice/{variant}/event"
    listen = [sys.executable, __file__, "--subscriber", str(broker.port), topic]
    heard = subprocess.Popen(listen, stdout=subprocess.PIPE, text=True)
    assert heard.stdout is not None
    heard.stdout.readline()  # subscribed
    command = [sys.executable, __file__, "--writer", str(folder), str(args.pace), "2.0", actions]
    table = subprocess.Popen(command)
    while newest_game(folder) is None and table.poll() is None:
        time.sleep(0.05)  # the table's journal and its game exist (the writer waits 2 s more)
    kind = OneByOne if variant == "one-by-one" else Publisher
    publisher = kind(settings, folder, load_profile())
    if variant == "files":
        publisher.follower = FilesOnly(folder, load_profile())
    publisher.start()
    table.wait()
    time.sleep(1.0)
    publisher.stop()
    heard.terminate()
    out, _ = heard.communicate()
    latencies = []
    for line in out.splitlines():
        arrived, payload = line.split(" ", 1)
        message = json.loads(payload)
        if message.get("kind") == "action":
            latencies.append(1000 * (float(arrived) - float(message["time"])))
    return latencies


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--writer":
        writer(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5])
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--subscriber":
        subscriber(sys.argv[2], sys.argv[3])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=21)
    parser.add_argument("--pace", type=float, default=0.3, help="seconds between plies")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each variant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    variants = [name for name in args.variants.split(",") if name in VARIANTS]
    os.nice(NICENESS)  # the publisher's niceness (the writer, a child, gets it too)
    samples: dict[str, list[float]] = {variant: [] for variant in variants}
    with tempfile.TemporaryDirectory(prefix="bench-notice-") as folder:
        root = Path(folder)
        (root / "broker").mkdir()
        broker = Mosquitto(root / "broker").start()
        try:
            for _ in range(args.rounds):
                for variant in variants:
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
            f"{variant:11s} journal-to-subscriber: median {statistics.median(ordered):.1f} ms, "
            f"p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms, over 100 ms {slow}/{len(ordered)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
