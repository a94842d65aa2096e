"""``cogtable sim kogworks --tables 2``: one game across two mock tables over a broker.

Each table is a ``cogtable sim kogworks --remote ...`` of its own, in a
process of its own, with its own state folder and journal, one simulated
person at each (Red at ``t1``, Blue at ``t2``): the opponent's move comes
over the broker (:mod:`cogtable.fleet.remote`) and the local person carries
it out as the LEDs show. When both are done, their journals must hold the
same record. While a person waits for the other table, their table's
simulated time goes on slowly (:class:`WaitForOtherTable`), not at full speed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

from cogtable.commands._seats import seat_kinds
from cogtable.commands._sim_options import STRONG_RED_RANDOM_BLUE, seat_rule
from cogtable.errors import UserError
from cogtable.fleet.remote import RemoteTable, play_topic
from cogtable.fleet.settings import FleetSettings, broker_flag
from cogtable.inputs import Shutdown
from cogtable.journal import JOURNAL_NAME, Journal

TABLE_IDS: Final = ("t1", "t2")
"""The two tables' ids (``--table-id X`` makes them ``X-1``, ``X-2``)."""
DEFAULT_VENUE: Final = "sim"
IDLE_FRAME_S: Final = 0.01
"""Real seconds a frame lasts while the people wait for the other table (not a busy loop)."""
OTHER_TABLE_LIMIT_S: Final = 300.0
"""Real seconds the people wait for the other table's move before the run gives up."""


class WaitForOtherTable:
    """An actor of a two-table sim: slows the frames while the people wait for the other table,
    and stops the run when the shared game stopped (with the reason) or the other table is
    silent too long. Counts the frames it waited (the watchdog does not count them)."""

    def __init__(self, people: Any, runtime: Any) -> None:
        self.people = people
        self.runtime = runtime
        self.idle_frames = 0
        self.since: float | None = None
        self.fired = False

    def __call__(self, world: Any) -> None:
        """Once a frame."""
        if self.fired:
            return
        stopped = self.runtime.shown_status().stopped
        if stopped:
            self._stop(f"the shared game stopped: {stopped}")
            return
        if not self.people.awaiting_other_table():
            self.since = None
            return
        self.idle_frames += 1
        now = time.monotonic()
        self.since = self.since or now
        if now - self.since > OTHER_TABLE_LIMIT_S:
            self._stop(f"no move from the other table for {OTHER_TABLE_LIMIT_S:.0f} s")
            return
        time.sleep(IDLE_FRAME_S)

    def _stop(self, reason: str) -> None:
        self.fired = True
        self.runtime.put(Shutdown(reason))


def two_tables(args: argparse.Namespace) -> int:
    """Run the two tables, print each one's result lines, then whether the records agree."""
    if args.broker is None:
        raise UserError("--tables 2 plays over a broker: give --broker mqtt://host[:port]")
    if args.remote is not None:
        raise UserError("--tables 2 runs both tables: --remote names one other table")
    broker = broker_flag(args.broker)
    venue = args.venue or DEFAULT_VENUE
    ids = tuple(f"{args.table_id}-{n}" for n in (1, 2)) if args.table_id else TABLE_IDS
    clear_records(FleetSettings(broker, venue, "sim-clear"), ids)
    if args.state_dir is not None:
        return _run_both(args, broker, venue, ids, args.state_dir)
    with tempfile.TemporaryDirectory(prefix="cogtable-sim2-") as folder:
        return _run_both(args, broker, venue, ids, Path(folder))


def _run_both(
    args: argparse.Namespace, broker: Any, venue: str, ids: tuple[str, ...], folder: Path
) -> int:
    children = []
    for seat, (here, other) in enumerate(zip(ids, reversed(ids), strict=True), 1):
        state_dir = folder / here
        state_dir.mkdir(parents=True, exist_ok=True)
        remote = RemoteTable(broker, venue, other)
        command = _child_command(args, here, seat, str(remote), state_dir)
        children.append(
            (here, state_dir, subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
        )
    codes = []
    for here, _, child in children:
        out, _ = child.communicate()
        codes.append(child.returncode)
        for line in out.splitlines():
            print(f"table {here}: {line}")
    records = [_newest_record(state_dir) for _, state_dir, _ in children]
    if records[0] == records[1] and records[0] is not None:
        print(f"both tables' records are equal: {len(records[0])} moves")
        return max(codes)
    counts = [
        f"{here} {len(r or ())} moves" for (here, _, _), r in zip(children, records, strict=True)
    ]
    print("the tables' records differ: " + "; ".join(counts))
    return 1


def _child_command(
    args: argparse.Namespace, here: str, seat: int, remote: str, state_dir: Path
) -> list[str]:
    red, blue = seat_kinds(args, 2, seat_rule(args.game, STRONG_RED_RANDOM_BLUE))
    command = [sys.executable, "-m", "cogtable", "sim", args.game]
    command += ["--remote", remote, "--table-id", here, "--local-seat", str(seat)]
    command += ["--state-dir", str(state_dir), "--seed", str(args.seed)]
    command += ["--games", str(args.games), "--camera", args.camera]
    command += ["--size", f"{args.size[0]}x{args.size[1]}", "--seat", f"1={red}"]
    command += ["--seat", f"2={blue}", "--illegal-rate", str(args.illegal_rate)]
    command += ["--undo-rate", str(args.undo_rate)]
    command += ["--profile", str(args.profile)] if args.profile is not None else []
    return command + (["--quiet"] if args.quiet else [])


def _newest_record(state_dir: Path) -> tuple[Any, ...] | None:
    """The newest game's actions in a table's journal (None: no game)."""
    path = state_dir / JOURNAL_NAME
    if not path.is_file():
        return None
    with Journal(path, read_only=True) as journal:
        games = journal.games()
        if not games:
            return None
        return tuple(action.to_json() for action in journal.record(games[-1].id).actions)


def clear_records(settings: FleetSettings, tables: tuple[str, ...]) -> None:
    """Clear the tables' retained records (an earlier run's game must not be taken for ours)."""
    from cogtable.fleet.connection import BrokerConnection, BrokerUnavailable

    try:
        connection = BrokerConnection(settings, f"cogtable-clear-{settings.venue}")
    except BrokerUnavailable as error:
        raise UserError(f"--broker {settings.broker}: {error}") from None
    try:
        for table in tables:
            connection.publish(play_topic(settings.venue, table), b"", retain=True)
    except BrokerUnavailable as error:
        raise UserError(f"--broker {settings.broker}: {error}") from None
    finally:
        connection.close()
