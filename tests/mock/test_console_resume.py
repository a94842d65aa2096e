"""Recovery of the console games: ``cogtable sim GAME`` killed with SIGKILL mid-game resumes.

The run is killed once the journal holds some actions (watched through a
read-only connection, as another process may read it), then started again on
the same folder. The game carries on where the journal stands: it ends with
every action journaled before the kill kept, in order, none doubled, and it
replays to its outcome.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from cogtable.commands.sim import WORLD_FILE
from cogtable.journal import Journal
from cogtable.runtime import JOURNAL_NAME
from games.core import replay

ROOT = Path(__file__).resolve().parents[2]
GAMES: dict[str, tuple[list[str], int]] = {
    "cog": (["--players", "2", "--seed", "11"], 25),
    "commissars": (["--players", "3", "--option", "max_turns=3", "--seed", "12"], 25),
    "cookie": (["--variant", "hunt", "--players", "6", "--seed", "13"], 20),
}
"""Each game's options, and how many actions the journal holds before the kill."""
GIVE_UP_S = 120.0
"""A run that has not got there by now is stuck (the test fails; it is not a timing test)."""


def start(game: str, state_dir: Path) -> subprocess.Popen[bytes]:
    options, _ = GAMES[game]
    command = [sys.executable, "-m", "cogtable", "sim", game, "--quiet", "--undo-rate", "0"]
    command += [*options, "--state-dir", str(state_dir)]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def journaled_read_only(state_dir: Path) -> list[str]:
    """The last game's actions as JSON text, read as another process would (read-only)."""
    path = state_dir / JOURNAL_NAME
    if not path.exists():
        return []
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.OperationalError:
        return []
    try:
        rows = connection.execute(
            "SELECT action FROM actions WHERE game_id = (SELECT max(id) FROM games) ORDER BY ply"
        ).fetchall()
    except sqlite3.OperationalError:  # not created yet, or busy: look again
        return []
    finally:
        connection.close()
    return [row[0] for row in rows]


def kill_mid_game(game: str, state_dir: Path) -> list[str]:
    """Start a run and SIGKILL it once enough is journaled; the actions journaled then."""
    _, enough = GAMES[game]
    process = start(game, state_dir)
    deadline = time.monotonic() + GIVE_UP_S
    try:
        while len(journaled_read_only(state_dir)) < enough:
            if process.poll() is not None:
                out, err = process.communicate()
                pytest.fail(f"{game} ended before the kill: {out.decode()} {err.decode()}")
            if time.monotonic() > deadline:
                pytest.fail(f"{game}: fewer than {enough} actions journaled in {GIVE_UP_S} s")
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    assert process.returncode == -signal.SIGKILL
    with Journal(state_dir / JOURNAL_NAME) as journal:  # the killed run's journal, read back
        (game_id,) = [summary.id for summary in journal.games()]
        return [json.dumps(action.to_json()) for action in journal.record(game_id).actions]


@dataclass
class Resumed:
    """One campaign: the actions journaled at the kill, the final game, the second run's output."""

    state_dir: Path
    before: list[str]
    final: list[str]
    out: str
    status: int
    err: str


def campaign(game: str, state_dir: Path) -> Resumed:
    """Kill once mid-game, then run again on the same folder to the end."""
    before = kill_mid_game(game, state_dir)
    process = start(game, state_dir)
    try:
        out, err = process.communicate(timeout=GIVE_UP_S)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    with Journal(state_dir / JOURNAL_NAME) as journal:
        games = journal.games()
        assert [summary.status for summary in games] == ["finished"], games
        record = journal.record(games[0].id)
        assert replay(record).outcome() is not None, "the resumed game replays to its end"
        assert games[0].outcome == replay(record).outcome().to_json()  # type: ignore[union-attr]
        final = [json.dumps(action.to_json()) for action in record.actions]
    return Resumed(state_dir, before, final, out.decode(), process.returncode, err.decode())


@pytest.fixture(scope="module")
def resumed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Resumed]:
    with ThreadPoolExecutor(max_workers=len(GAMES)) as pool:
        futures = {
            game: pool.submit(campaign, game, tmp_path_factory.mktemp(f"resume-{game}"))
            for game in GAMES
        }
        return {game: future.result() for game, future in futures.items()}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_killed_console_game_resumes_with_no_action_lost_or_doubled(
    resumed: dict[str, Resumed], game: str
) -> None:
    run = resumed[game]
    assert run.status == 0, run.err
    assert len(run.before) >= GAMES[game][1]
    assert len(run.final) >= len(run.before)
    assert run.final[: len(run.before)] == run.before, "a journaled action was lost or changed"
    assert f"game 1: {game}" in run.out, run.out
    assert f"after {len(run.final)} actions" in run.out, run.out


@pytest.mark.parametrize("game", list(GAMES))
def test_the_people_remember_the_game_they_finished(resumed: dict[str, Resumed], game: str) -> None:
    run = resumed[game]
    saved = json.loads((run.state_dir / WORLD_FILE).read_text(encoding="utf-8"))["people"]
    assert saved["finished"] is True
    assert [log[0] for log in saved["played"]] == [len(run.final)]
