"""The fleet on one broker: 20 mock tables publishing, a venue subscriber, a broker restart.

Part 1, the venue: ``--tables`` mock Kogworks tables (``cogtable sim kogworks
--camera truth``, each its own process with its own journal, simulated people
and simulated Pico) publish to one real Mosquitto (persistence on, as a venue
would run it); one subscriber (a persistent session, as ``cogtable venue``)
takes every table's events. Part way through, the broker is stopped for
``--down`` seconds and started again. Reported:

- events/s: every event the subscriber received, over the time from the first
  to the last; and the catch-up rate (the plies republished after the outage);
- journal-to-subscriber latency: from the journal's commit time of a ply (the
  event's ``time``, the table's clock) to its arrival at the subscriber (the
  same machine's clock), median and p99, for plies journaled while the broker
  was up; the plies journaled during the outage are reported apart (they wait
  for the broker by design);
- exactly once, in order: per table and game, the subscriber's plies (repeats
  dropped by ``seq``) must equal the journal's plies in the web view's words,
  with no ply missing (a gap) and none replaced.

Part 2, the table's own latency: ``--rounds`` pairs of in-process Kogworks
games (``cogtable sim kogworks --camera truth``), publishing off then on, with
the runtime's own figure (``Runtime.latencies``: a settled camera frame to its
LED frame leaving the host). Goal: publishing changes its median by at most 10%.

    nice -n 10 .venv/bin/python benchmarks/bench_fleet.py [--tables 20] [--games 2]
        [--down 2] [--rounds 3] [--seed 0] [--strict]

Exit status: 0 when every table finished and every ply arrived exactly once in
order; 1 otherwise; with ``--strict`` also 2 when a goal is missed (p99 over
100 ms, or the table's median LED latency more than 10% slower with publishing).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogtable.cli import build_parser  # noqa: E402
from cogtable.commands import sim  # noqa: E402
from cogtable.fleet.messages import (  # noqa: E402
    EventKind,
    MessageError,
    PlyEvent,
    PlyLog,
    decode_json,
)
from cogtable.fleet.process import TIMINGS_ENV  # noqa: E402
from cogtable.fleet.topics import Kind, parse_topic  # noqa: E402
from cogtable.journal import JOURNAL_NAME, Journal  # noqa: E402
from cogtable.web.table_view import TableFolder  # noqa: E402
from hardware.profile import load_profile  # noqa: E402
from tests.fleet.mosquitto import Mosquitto  # noqa: E402

VENUE = "bench"
P99_GOAL_MS = 100.0
LED_GOAL = 1.10
"""The table's median LED latency with publishing, at most this times the one without."""
RUN_LIMIT_S = 900.0
RECONNECT_S = 5.0
"""A table tries the broker again this long after an attempt failed, at most (RETRY_S)."""


@dataclass
class Heard:
    """What the venue subscriber received: events by table and game, arrival times, outcomes."""

    logs: dict[tuple[str, int], PlyLog] = field(default_factory=dict)
    outcomes: Counter[str] = field(default_factory=Counter)
    arrivals: list[tuple[float, PlyEvent, str]] = field(default_factory=list)
    """(arrival time, event, table) of every event, in arrival order."""
    offline: set[str] = field(default_factory=set)
    first_status: dict[str, float] = field(default_factory=dict)
    """When each table's first status arrived: its publisher was up (imports take seconds)."""
    garbage: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, topic: str, payload: bytes) -> None:
        now = time.time()
        address = parse_topic(topic)
        if address is None:
            return
        try:
            data = decode_json(payload)
            if address.kind is Kind.STATUS:
                with self.lock:
                    self.first_status.setdefault(address.table, now)
                    if isinstance(data, dict) and data.get("state") == "offline":
                        self.offline.add(address.table)
                    else:
                        self.offline.discard(address.table)
                return
            if address.kind is not Kind.EVENT:
                return
            event = PlyEvent.from_json(data)
        except MessageError:
            with self.lock:
                self.garbage += 1
            return
        with self.lock:
            log = self.logs.setdefault((address.table, event.game_id), PlyLog())
            outcome = log.accept(event)
            self.outcomes[outcome] += 1
            self.arrivals.append((now, event, address.table))


def subscribe(broker: Mosquitto, heard: Heard) -> Any:
    """The venue's subscriber: a persistent session that reconnects by itself."""
    client = mqtt.Client(
        mqtt.CallbackAPIVersion.VERSION2, client_id="bench-venue", clean_session=False
    )
    subscribed = threading.Event()
    client.on_connect = lambda c, *_: c.subscribe(f"cogtable/v1/{VENUE}/+/+", qos=1)
    client.on_subscribe = lambda *_: subscribed.set()
    client.on_message = lambda c, u, message: heard.take(message.topic, bytes(message.payload))
    client.reconnect_delay_set(0.1, 1)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    if not subscribed.wait(10):
        raise SystemExit("the venue subscriber could not subscribe")
    return client


def start_tables(
    broker: Mosquitto, root: Path, count: int, games: int, seed: int, *, loud: bool = False
) -> list[Any]:
    processes = []
    for number in range(count):
        folder = root / f"t{number:02d}"
        folder.mkdir()
        argv = [sys.executable, "-m", "cogtable", "sim", "kogworks", "--camera", "truth"]
        argv += ["--seed", str(seed + number), "--games", str(games)]
        argv += [] if loud else ["--quiet"]
        argv += ["--state-dir", str(folder), "--broker", broker.url, "--venue", VENUE]
        argv += ["--table-id", folder.name]
        env = {**os.environ, TIMINGS_ENV: str(folder / "timings.jsonl")}
        processes.append(
            subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
            )
        )
    return processes


def journal_plies(folder: Path) -> dict[int, list[str]]:
    """Every game of the table's journal: its plies in the web view's words."""
    with Journal(folder / JOURNAL_NAME, read_only=True) as journal:
        ids = [game.id for game in journal.games()]
    view = TableFolder(folder, load_profile())
    return {game_id: [move.words for move in view.moves(game_id)] for game_id in ids}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def venue_run(args: argparse.Namespace, root: Path) -> tuple[bool, bool]:
    """Part 1; returns (everything arrived exactly once and in order, the p99 goal met)."""
    (root / "broker").mkdir()
    broker = Mosquitto(root / "broker", persistence=True).start()
    cpu_before = _children_cpu()
    heard = Heard()
    subscriber = subscribe(broker, heard)
    started = time.time()
    tables = start_tables(broker, root, args.tables, args.games, args.seed, loud=args.loud)
    wanted: float | None = None  # events to hear before the restart, once every table publishes
    while wanted is None or len(heard.arrivals) < wanted:
        if time.time() - started > RUN_LIMIT_S or all(t.poll() is not None for t in tables):
            break
        if wanted is None and len(heard.first_status) == args.tables:
            wanted = len(heard.arrivals) + args.restart_after * args.tables
        time.sleep(0.05)
    down_at = time.time()
    broker.stop()
    time.sleep(args.down)
    broker.start()
    back_at = time.time()
    print(f"broker restarted after {down_at - started:.1f} s, away {back_at - down_at:.1f} s")
    results = [table.communicate(timeout=RUN_LIMIT_S) for table in tables]
    finished = all(table.returncode == 0 for table in tables)
    played = time.time() - started
    cpu = _children_cpu() - cpu_before
    print(
        f"the tables (sims, their simulated Picos and publishers) used {cpu:.0f} s CPU in "
        f"{played:.0f} s: {cpu / played:.2f} of the 2 cores; load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    deadline = time.time() + 20
    while len(heard.offline) < args.tables and time.time() < deadline:
        time.sleep(0.1)
    subscriber.disconnect()
    subscriber.loop_stop()
    broker.stop()
    for table, (out, err) in zip(tables, results, strict=True):
        if table.returncode != 0 or err.strip():
            warnings = [line for line in err.splitlines() if "fleet" in line]
            print(f"table exited {table.returncode}: {out[-200:]} {warnings[-8:]}")
    outage = Outage(down_at, back_at)
    exact = _report(args, root, heard, outage)
    _stages(args, root, heard, outage)
    return exact and finished, _p99_met(heard, outage)


def _children_cpu() -> float:
    """CPU seconds (user + system) of every finished child and their children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _stages(args: argparse.Namespace, root: Path, heard: Heard, outage: Outage) -> None:
    """Where the live plies' latency goes, from the publishers' timings (COGTABLE_FLEET_TIMINGS):
    journal to the read that found it (the poll's period plus the scheduler's delay: how late
    the look was is shown apart), the read to the broker's ack (and the CPU the publisher
    used meanwhile), the ack to the subscriber (negative: the subscriber had it first)."""
    timings: dict[tuple[str, int, int], dict[str, float]] = {}
    for number in range(args.tables):
        table = f"t{number:02d}"
        path = root / table / "timings.jsonl"
        if path.is_file():
            for line in path.read_text().splitlines():
                at = json.loads(line)
                timings[(table, int(at["game_id"]), int(at["seq"]))] = at
    stages: dict[str, list[float]] = defaultdict(list)
    for arrived, event, table in heard.arrivals:
        at = timings.get((table, event.game_id, event.seq))
        if at is None or at["due"] <= 0 or event.kind is not EventKind.ACTION:
            continue
        if outage.caught(event, arrived) or event.time <= heard.first_status.get(table, 1e18):
            continue
        stages["journal to the read that found it"].append(at["read"] - at["journaled"])
        stages["  of which the look came late"].append(max(0.0, at["woke"] - at["due"]))
        stages["the read to the broker's ack"].append(at["acked"] - at["read"])
        stages["  CPU the publisher used, its look to the ack"].append(at["cpu"])
        stages["the ack to the subscriber"].append(arrived - at["acked"])
        stages["total"].append(arrived - at["journaled"])
    for name, values in stages.items():
        ms = [value * 1000 for value in values]
        print(
            f"  {name}: median {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms"
            f" ({len(ms)} plies)"
        )


@dataclass(frozen=True)
class Outage:
    """When the broker was stopped and when it listened again."""

    down: float
    back: float

    def caught(self, event: PlyEvent, arrived: float) -> bool:
        """A ply the outage held up: journaled before the broker was back, received after it left.

        A ply journaled within a second after the broker came back is counted
        here too: the table may not have reconnected yet (it retries every few seconds).
        """
        return arrived >= self.down and event.time <= self.back + RECONNECT_S


def _report(args: argparse.Namespace, root: Path, heard: Heard, outage: Outage) -> bool:
    exact = True
    plies = 0
    for number in range(args.tables):
        table = f"t{number:02d}"
        for game_id, words in journal_plies(root / table).items():
            log = heard.logs.get((table, game_id), PlyLog())
            got = [ply.action for ply in log.plies]
            plies += len(words)
            if got != words:
                exact = False
                if args.loud:
                    heard_here = [
                        (round(at - outage.down, 2), e.game_id, e.seq, e.kind.value)
                        for at, e, t in heard.arrivals
                        if t == table
                    ]
                    print(f"{table} heard (time from the outage, game, seq, kind): {heard_here}")
                print(f"{table} game {game_id}: {len(got)} plies received, journal {len(words)}")
    arrivals = [(at, event) for at, event, _ in heard.arrivals]
    span = arrivals[-1][0] - arrivals[0][0] if len(arrivals) > 1 else float("nan")
    live = _live_latencies(heard, outage)
    caught = [at for at, event in arrivals if outage.caught(event, at)]
    print(f"tables: {args.tables} x {args.games} games, {plies} plies journaled")
    print(
        f"events received: {len(arrivals)} in {span:.1f} s = {len(arrivals) / span:.0f} events/s; "
        f"outcomes {dict(heard.outcomes)}; refused {heard.garbage}"
    )
    if live:
        print(
            f"journal-to-subscriber latency, broker up: median {statistics.median(live):.1f} ms, "
            f"p99 {percentile(live, 0.99):.1f} ms, max {max(live):.1f} ms ({len(live)} plies)"
        )
    waited = _startup(heard)
    if waited:
        print(
            f"plies journaled before their table's publisher was up (it imports for seconds): "
            f"{len(waited)}, waited up to {max(waited):.1f} s"
        )
    if caught:
        late = max(caught) - outage.back
        rate = len(caught) / max(1e-3, late)
        print(
            f"plies caught by the outage: {len(caught)}, all received {late:.2f} s "
            f"after the broker was back ({rate:.0f} events/s catching up)"
        )
    gaps = heard.outcomes.get("gap", 0) + heard.outcomes.get("replaced", 0)
    print(f"every ply exactly once and in order: {'yes' if exact and not gaps else 'NO'}")
    return exact and not gaps


def _live_latencies(heard: Heard, outage: Outage) -> list[float]:
    """Milliseconds from journal to subscriber of the plies journaled while the table's
    publisher was up and the broker there (not held up by the outage or the start)."""
    return [
        (at - event.time) * 1000
        for at, event, table in heard.arrivals
        if event.kind is EventKind.ACTION
        and not outage.caught(event, at)
        and event.time > heard.first_status.get(table, float("inf"))
    ]


def _startup(heard: Heard) -> list[float]:
    """Seconds each table's plies journaled before its publisher was up waited."""
    return [
        at - event.time
        for at, event, table in heard.arrivals
        if event.time <= heard.first_status.get(table, float("inf"))
    ]


def _p99_met(heard: Heard, outage: Outage) -> bool:
    live = _live_latencies(heard, outage)
    return bool(live) and percentile(live, 0.99) <= P99_GOAL_MS


def led_latencies(args: argparse.Namespace, root: Path) -> bool:
    """Part 2: the runtime's settled-frame-to-LED latency, publishing off and on."""
    (root / "led-broker").mkdir()
    broker = Mosquitto(root / "led-broker").start()
    heard = Heard()
    subscriber = subscribe(broker, heard)
    profile = load_profile()
    samples: dict[str, list[float]] = defaultdict(list)
    loads: dict[str, list[float]] = defaultdict(list)
    try:
        for round_number in range(args.rounds):
            for mode in ("off", "on"):
                argv = ["sim", "kogworks", "--camera", "truth", "--quiet"]
                argv += ["--seed", str(args.seed + round_number), "--games", str(args.led_games)]
                if mode == "on":
                    argv += ["--broker", broker.url, "--venue", VENUE, "--table-id", "led"]
                parsed = build_parser().parse_args(argv)
                with tempfile.TemporaryDirectory(prefix="bench-fleet-led-") as folder:
                    played = sim.play(parsed, profile, Path(folder))
                loads[mode].append(os.getloadavg()[0])
                samples[mode] += [seconds * 1000 for seconds in played.runtime.latencies]
    finally:
        subscriber.disconnect()
        subscriber.loop_stop()
        broker.stop()
    medians = {mode: statistics.median(values) for mode, values in samples.items()}
    for mode, values in samples.items():
        print(
            f"table LED latency, publishing {mode}: median {medians[mode]:.2f} ms, "
            f"p99 {percentile(values, 0.99):.2f} ms ({len(values)} settled frames; load average "
            f"after each run {', '.join(f'{load:.0f}' for load in loads[mode])})"
        )
    ratio = medians["on"] / medians["off"]
    print(f"publishing on / off, median: {ratio:.3f} (goal <= {LED_GOAL})")
    return ratio <= LED_GOAL


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--games", type=int, default=3, help="games per table")
    parser.add_argument("--down", type=float, default=2.0, help="seconds the broker is away")
    parser.add_argument(
        "--restart-after", type=float, default=5.0, help="events per table before the restart"
    )
    parser.add_argument("--rounds", type=int, default=3, help="LED latency: off/on pairs")
    parser.add_argument(
        "--led-games",
        type=int,
        default=3,
        help="LED latency: games per run (the publisher's start, its imports, is in the first)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strict", action="store_true")
    parser.add_argument("--loud", action="store_true", help="tables say what they log")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fleet-") as folder:
        exact, p99 = venue_run(args, Path(folder)) if args.tables else (True, True)
        led = led_latencies(args, Path(folder)) if args.rounds else True
    if not exact:
        return 1
    return 2 if args.strict and not (p99 and led) else 0


if __name__ == "__main__":
    sys.exit(main())
