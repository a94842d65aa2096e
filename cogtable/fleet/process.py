"""The publisher in a process of its own, beside the table's: the table's timing stays its own.

In the table's process the publisher's thread would share the interpreter
lock with the controller, the camera and the Pico threads: each ply it
replays, names and draws would delay the next LED frame, and a busy table
would delay each publication by the lock's switch interval many times over.
So the table starts ``python -m cogtable.fleet.process``: it gets its settings
(the password included, never on a command line) as JSON on its stdin, reads
only the state folder, and publishes. It stops on SIGTERM (publishing what is
left, then ``offline``); it ignores SIGINT (a Ctrl-C at the terminal reaches the
whole process group: the table stops it in order); and when the table's process
vanishes (killed), it vanishes at once too, so that the broker sends its last
will.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Final

from cogtable.fleet.settings import Credentials, FleetSettings
from cogtable.journal import JOURNAL_NAME
from hardware.broker import parse_broker_url
from hardware.profile import Profile, default_profile_path, load_profile

STOP_WAIT_S: Final = 30.0
"""A publisher that has not stopped this long after SIGTERM is killed (it may still be starting:
its imports take seconds on a busy machine; under systemd, TimeoutStopSec ends it sooner)."""
PARENT_CHECK_S: Final = 0.1
NICENESS: Final = 5
"""The publisher yields the CPU to the table: its LEDs come first, the venue hears a bit later.

+10 kept the table's LED latency unchanged (median 4.23 vs 4.05 ms) but on a
saturated machine starved the publisher's start past the table's stop; +5:
4.20 vs 4.44 ms (ratio 1.06, goal 1.10)."""
PR_SET_PDEATHSIG: Final = 1
TIMINGS_ENV: Final = "COGTABLE_FLEET_TIMINGS"
"""A file to append each new ply's timing to, one JSON line each (``benchmarks/bench_fleet.py``
sets it to split the journal-to-subscriber latency; unset, nothing is written)."""


class PublisherProcess:
    """The child process that publishes the table in ``state_dir``."""

    def __init__(
        self, settings: FleetSettings, state_dir: Path, profile: Profile, quiet: bool = False
    ) -> None:
        self.settings = settings
        self.state_dir = state_dir
        self.profile = profile
        self.quiet = quiet
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> PublisherProcess:
        """Start the child and hand it its settings."""
        source = self.profile.source
        message = {
            "broker": str(self.settings.broker),
            "venue": self.settings.venue,
            "table": self.settings.table,
            "ca_file": str(self.settings.ca_file) if self.settings.ca_file else None,
            "credentials": _credentials(self.settings.credentials),
            "state_dir": str(self.state_dir.absolute()),
            "profile": source if Path(source).is_file() else None,
            "quiet": self.quiet,
            "parent": os.getpid(),
            "first_game": newest_game(self.state_dir),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cogtable.fleet.process"],
            stdin=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.process.stdin.write(json.dumps(message))
            self.process.stdin.close()
        return self

    def stop(self) -> None:
        """Ask the child to publish what is left and say offline; kill it if it hangs."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


def newest_game(state_dir: Path) -> int | None:
    """The journal's newest game id, read from the file (the child takes seconds to start:
    the game the table plays now is the first it must publish, even if it ends meanwhile)."""
    path = state_dir / JOURNAL_NAME
    try:
        connection = sqlite3.connect(f"file:{path.absolute()}?mode=ro", uri=True, timeout=2)
        try:
            row = connection.execute("SELECT max(id) FROM games").fetchone()
        finally:
            connection.close()
    except sqlite3.Error:
        return None
    return int(row[0]) if row and row[0] is not None else None


def _credentials(credentials: Credentials | None) -> dict[str, str] | None:
    if credentials is None:
        return None
    return {"username": credentials.username, "password": credentials.password}


def _settings(message: dict[str, Any]) -> FleetSettings:
    credentials = message.get("credentials")
    return FleetSettings(
        parse_broker_url(message["broker"]),
        message["venue"],
        message["table"],
        Path(message["ca_file"]) if message.get("ca_file") else None,
        Credentials(**credentials) if credentials else None,
    )


def _die_with_parent() -> None:
    """Linux: be killed when the table's process dies (else the parent check below does it)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def main() -> int:
    """The child: publish until SIGTERM, or until the table's process is gone.

    SIGTERM is taken before the publisher is imported (a second or more: it
    draws boards as the web view does), so that a table stopped meanwhile is
    still published once, then said offline.
    """
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    message = json.loads(sys.stdin.read())
    logging.basicConfig(
        level=logging.ERROR if message.get("quiet") else logging.WARNING,
        format="cogtable %(message)s",
    )
    from cogtable.fleet.publisher import Publisher

    timings = _timings_file()
    profile = load_profile(message.get("profile") or default_profile_path())
    publisher = Publisher(
        _settings(message),
        Path(message["state_dir"]),
        profile,
        first_game=message.get("first_game"),
        timing=(lambda at: print(json.dumps(at.to_json()), file=timings, flush=True))
        if timings
        else None,
    ).start()
    while not stop.wait(PARENT_CHECK_S):
        if os.getppid() != message["parent"]:
            os._exit(0)  # the table vanished: so do we, and the broker sends the last will
    publisher.stop()
    if timings is not None:
        timings.close()
    return 0


def _timings_file() -> Any:
    """The open file named by :data:`TIMINGS_ENV` (None when unset or it cannot be opened)."""
    path = os.environ.get(TIMINGS_ENV)
    if not path:
        return None
    try:
        return open(path, "a", encoding="utf-8")
    except OSError as error:
        logging.warning("cogtable fleet: timings not written to %s: %s", path, error)
        return None


if __name__ == "__main__":
    sys.exit(main())
