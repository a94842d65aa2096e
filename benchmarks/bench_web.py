"""How soon a move on the mock table shows on the web page, and what drawing the view costs.

Runs the real pieces as separate processes, as a Pi would: ``cogtable service
run`` (the mock table's profile without a camera, a Cookie game whose deals
are answered at the console), ``cogtable web`` on a free localhost port, and
Debian's Chromium (headless, driven over its DevTools pipe) showing the page.
Each move is made with ``cogtable answer``; its latency runs from the moment
the journal committed the move (the action's ``time`` in the journal) to the
moment the page drew it (the page's ``data-updated``, set by its script when
an event-stream update is drawn; both on this machine's wall clock). It
includes the status file write (at the controller's next look), the web
process's poll of the state folder, the view's JSON, the event stream and the
page's drawing. Goal: within 1000 ms (issue #18), judged on the worst move.

Then, without a browser: the milliseconds :meth:`TableFolder.live` takes per
game (the journal replayed, the adapter's screen and LED frame drawn), median
of a few calls, for a fresh game and one 200 seeded moves in.

    .venv/bin/python benchmarks/bench_web.py [--moves 6]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogtable.journal import Journal  # noqa: E402
from cogtable.service.runner import STATUS_FILE  # noqa: E402
from cogtable.web.table_view import TableFolder  # noqa: E402
from games.core import CHANCE, new_game, replay  # noqa: E402
from hardware.profile import load_profile  # noqa: E402
from tests.service.conftest import camera_less_profile  # noqa: E402
from tests.web.chromium import Chromium, Page  # noqa: E402

GOAL_MS = 1000.0
START_TIMEOUT_S = 60.0
SERVING = re.compile(r"on (http://\S+)/")


def main() -> int:
    """Measure, print the figures, exit 1 if the goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=6, help="Cookie deals to time (1-6)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        latencies = page_latencies(Path(folder), min(max(args.moves, 1), 6))
    for ply, latency in enumerate(latencies, start=1):
        print(f"move {ply}: on the page {latency:6.0f} ms after the journal took it")
    worst = max(latencies)
    print(
        f"move -> page: median {statistics.median(latencies):.0f} ms, max {worst:.0f} ms "
        f"over {len(latencies)} moves (goal <= {GOAL_MS:.0f} ms: "
        f"{'PASS' if worst <= GOAL_MS else 'FAIL'})"
    )
    with tempfile.TemporaryDirectory() as folder:
        for line in view_costs(Path(folder)):
            print(line)
    return 0 if worst <= GOAL_MS else 1


def page_latencies(folder: Path, moves: int) -> list[float]:
    """Deal ``moves`` Cookie role cards with ``cogtable answer``; each one's move -> page ms."""
    state_dir = folder / "state"
    profile = camera_less_profile(folder)
    service = _start(["service", "run", "--profile", str(profile), "--state-dir", str(state_dir),
                      "--game", "cookie"])  # fmt: skip
    web = None
    try:
        _wait_for((state_dir / STATUS_FILE).is_file, "the service's status file")
        web = _start(["web", "--state-dir", str(state_dir), "--profile", str(profile),
                      "--port", "0"], stdout=subprocess.PIPE)  # fmt: skip
        assert web.stdout is not None
        url = SERVING.search(web.stdout.readline())
        assert url, "cogtable web did not say where it serves"
        with Chromium(folder / "chromium") as browser:
            page = browser.open(url.group(1) + "/")
            page.wait_for("document.body && document.body.dataset.ply === '0'", START_TIMEOUT_S)
            return [_one_move(page, state_dir, ply) for ply in range(1, moves + 1)]
    finally:
        for process in (web, service):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)


def _one_move(page: Page, state_dir: Path, ply: int) -> float:
    """Deal the next role card at the console; the ms from the journal's commit to the page."""
    role = _next_role(state_dir)
    done = subprocess.run(
        [sys.executable, "-m", "cogtable", "answer", role, "--state-dir", str(state_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"bench_web: cogtable answer {role} failed: {done.stdout}{done.stderr}")
    page.wait_for(f"document.body.dataset.ply === '{ply}'", 10.0)
    drawn_ms = float(page.evaluate("document.body.dataset.updated"))
    return drawn_ms - _journal_time(state_dir, ply) * 1000


def _next_role(state_dir: Path) -> str:
    with Journal(state_dir / "journal.sqlite3", read_only=True) as journal:
        state = replay(journal.record(1))
    return state.chance_request().labels()[0]


def _journal_time(state_dir: Path, ply: int) -> float:
    with Journal(state_dir / "journal.sqlite3", read_only=True) as journal:
        row = journal.connection.execute(
            "SELECT time FROM actions WHERE game_id = 1 AND ply = ?", (ply,)
        ).fetchone()
    return float(row[0])


def view_costs(folder: Path) -> list[str]:
    """``TableFolder.live`` per game, fresh and 200 seeded moves in (median of 5 calls)."""
    lines = []
    for game in ("kogworks", "cog", "commissars", "cookie"):
        for moves in (0, 200):
            state_dir = folder / f"{game}-{moves}"
            state_dir.mkdir()
            played = _journal_game(state_dir, game, moves)
            view = TableFolder(state_dir, load_profile())
            times = []
            for _ in range(5):
                started = time.perf_counter()
                view.live()
                times.append((time.perf_counter() - started) * 1000)
            lines.append(
                f"view {game:<10} at ply {played:>3}: {statistics.median(times):6.1f} ms a draw"
            )
    return lines


def _journal_game(state_dir: Path, game: str, moves: int) -> int:
    """A seeded random game of up to ``moves`` actions in a journal, and a status naming it."""
    state = new_game(game, {}, seed=3)
    rng = random.Random(3)
    with Journal(state_dir / "journal.sqlite3") as journal:
        recorded = journal.new_game(game, {}, seed=3)
        for _ in range(moves):
            if state.is_over():
                break
            acting = state.to_act()
            if acting == (CHANCE,):
                action = state.sample_chance()
            else:
                action = rng.choice(list(state.legal_actions(acting[0])))
            recorded.apply(action, "simulation")
            state = recorded.state
    status = f'{{"game": "{game}", "game_id": 1, "ply": {len(state.history)}, "updated": 0}}'
    (state_dir / STATUS_FILE).write_text(status, encoding="utf-8")
    return len(state.history)


def _start(argv: list[str], stdout: int = subprocess.DEVNULL) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cogtable", *argv],
        cwd=ROOT,
        stdout=stdout,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def _wait_for(ready: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while not ready():
        if time.monotonic() > deadline:
            raise SystemExit(f"bench_web: no {what} in {START_TIMEOUT_S:.0f} s")
        time.sleep(0.05)


if __name__ == "__main__":
    sys.exit(main())
