"""Recovery: the mock table killed with SIGKILL at random points resumes as journaled."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from cogtable.commands.sim import WORLD_FILE
from tests.mock.helpers import journal_games

KILLS = 20


def start(state_dir: Path, seed: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "cogtable", "sim", "kogworks", "--quiet", "--camera"]
    command += ["truth", "--undo-rate", "0", "--seed", str(seed), "--state-dir", str(state_dir)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def journaled_now(state_dir: Path) -> list[object]:
    """The running game's actions in the journal (none if killed before it existed)."""
    if not (state_dir / "journal.sqlite3").exists():
        return []
    games = journal_games(state_dir)
    return games[-1][1] if games else []


def people_saved(state_dir: Path) -> dict[str, Any]:
    """What the people remember, as the mock table last saved it."""
    saved = state_dir / WORLD_FILE
    return json.loads(saved.read_text())["people"] if saved.exists() else {}


def wait_for_play(state_dir: Path, process: subprocess.Popen[bytes]) -> None:
    """Wait until the people of this run have touched the board (so a kill lands in play)."""
    saved = state_dir / WORLD_FILE
    before = saved.stat().st_mtime_ns if saved.exists() else 0
    while process.poll() is None and (saved.stat().st_mtime_ns if saved.exists() else 0) == before:
        time.sleep(0.02)


def run_until_done(state_dir: Path, seed: int, rng: random.Random) -> list[list[object]]:
    """Start, kill at a random moment, start again ... until a run ends by itself.

    Returns the journal's action list at every kill.
    """
    seen_at_kills = []
    while True:
        process = start(state_dir, seed)
        try:
            wait_for_play(state_dir, process)
            out, err = process.communicate(timeout=rng.uniform(0.0, 0.6))
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
            process.communicate()
            if people_saved(state_dir).get("finished"):
                return seen_at_kills  # killed while closing down after the end: done
            seen_at_kills.append(journaled_now(state_dir))
            continue
        assert process.returncode == 0, err.decode()
        assert b"Red won" in out or b"Blue won" in out, out.decode()
        return seen_at_kills


def campaign(state_dir: Path, seed: int) -> list[list[object]]:
    """One game killed again and again until it ends; checks it and returns the kill records."""
    prefixes = run_until_done(state_dir, seed=seed, rng=random.Random(seed))
    games = journal_games(state_dir)
    finished = [actions for status, actions in games if status == "finished"]
    assert len(finished) == 1, "one game, resumed, finished"
    assert all(not actions for status, actions in games if status != "finished")
    final = finished[0]
    for prefix in prefixes:
        assert final[: len(prefix)] == prefix, "a journaled move was lost or changed"
    people = people_saved(state_dir)
    assert people["finished"] and people["played"][0]["count"] == len(final)
    assert [action.to_json() for action in final] == people["history"]
    return prefixes


def test_sigkill_at_random_points_resumes_at_the_journaled_position(tmp_path: Path) -> None:
    journaled_at_kills: list[list[object]] = []
    seeds = iter(range(1000))
    with ThreadPoolExecutor(max_workers=2) as pool:  # two games at once: starts are slow
        while len(journaled_at_kills) < KILLS:
            runs = [
                pool.submit(campaign, tmp_path / f"run{seed}", seed)
                for seed in (next(seeds), next(seeds))
            ]
            for run in runs:
                journaled_at_kills += run.result()
    print(f"{len(journaled_at_kills)} kills in {next(seeds)} games")
    assert sum(1 for actions in journaled_at_kills if actions) >= KILLS // 2, "kills in mid-game"
