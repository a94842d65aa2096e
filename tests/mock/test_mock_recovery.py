"""Power cuts at the mock table: SIGKILL at every kind of journal commit and at random moments.

For every game the mock table plays, ``cogtable sim GAME --games 3`` is started
again and again on one state folder, with undos on, and every run is killed:

- right after the journal commits an undo, a move, the move that ends a game,
  and a new game (``tests/mock/killed_sim.py``: the process kills itself the
  moment the commit returns, so nothing after it runs, not the LEDs, not the
  people's saving; the worst moment, as a power cut would choose it);
- at random moments of play.

A last run, with undos off (so that nothing journaled before it is taken
back), plays on to the end. It must finish the games: a resumed table whose
people never do what the LEDs ask (the bug of issue 17: an undone cog never
lifted) stops at the frame watchdog and fails. Then the journal holds the three
games, all finished and replaying to their outcome, with everything
journaled at the last kill kept in order, and the people remember the same
games.

The four chains run two at a time (one per core); the whole file takes about
a minute.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cogtable.cli import build_parser
from cogtable.commands.sim import WORLD_FILE
from cogtable.journal import JOURNAL_NAME, Journal
from games.core import replay

ROOT = Path(__file__).resolve().parents[2]


def truth_camera(game: str) -> list[str]:
    """``--camera truth`` for a game the mock camera reads (no pixels drawn: fast), else none."""
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            build_parser().parse_args(["sim", game, "--camera", "truth"])
        except SystemExit:
            return []
    return ["--camera", "truth"]


OPTIONS: dict[str, list[str]] = {
    "kogworks": ["--seed", "3"],
    "cog": ["--players", "2", "--seed", "11"],
    "commissars": ["--players", "3", "--option", "max_turns=3", "--seed", "12"],
    "cookie": ["--variant", "hunt", "--players", "6", "--seed", "13"],
}
"""Each game's options (small games, so that a chain of runs takes seconds)."""
GAMES = {game: [*truth_camera(game), *options] for game, options in OPTIONS.items()}
RANDOM = "random"
KILLS: tuple[tuple[str, int, str], ...] = (
    (RANDOM, 0, "0.05"),
    ("undo", 1, "0.3"),
    ("move", 3, "0.05"),
    ("end", 1, "0.02"),
    ("new_game", 1, "0.05"),
    ("undo", 1, "0.3"),
    (RANDOM, 0, "0.05"),
    (RANDOM, 0, "0.05"),
)
"""The runs of one chain: killed at (kind, the n-th commit of it in that run), and the undo rate.

The first undo of a run comes early at a rate of 0.3; the end and the new
game after it fall in an early game, so that the next game starts with an
undo kill and the last is still to come for the random ones."""
GAMES_PER_CHAIN = 3
"""Enough that the end, the new game and the undo kill after it fall before the last game ends."""
GIVE_UP_S = 300.0
"""A run still going after this long is stuck (the test fails; it is not a timing test)."""


def command(game: str, state_dir: Path, undo_rate: str, kill: tuple[str, int] | None) -> list[str]:
    """``cogtable sim GAME ...`` on ``state_dir``, under the commit killer when ``kill`` says."""
    argv = ["sim", game, "--quiet", "--games", str(GAMES_PER_CHAIN), *GAMES[game]]
    argv += ["--undo-rate", undo_rate]
    argv += ["--state-dir", str(state_dir)]
    if kill is None:
        return [sys.executable, "-m", "cogtable", *argv]
    kind, number = kill
    return [sys.executable, "-m", "tests.mock.killed_sim", kind, str(number), *argv]


def journaled(state_dir: Path) -> dict[int, list[str]]:
    """Every game's actions as JSON text (read once the run is dead)."""
    if not (state_dir / JOURNAL_NAME).exists():
        return {}
    with Journal(state_dir / JOURNAL_NAME) as journal:
        return {
            game.id: [json.dumps(a.to_json()) for a in journal.record(game.id).actions]
            for game in journal.games()
        }


def saved_people(state_dir: Path) -> dict[str, object]:
    """What the people remember, as the mock table last saved it."""
    saved = state_dir / WORLD_FILE
    return json.loads(saved.read_text(encoding="utf-8"))["people"] if saved.exists() else {}


@dataclass
class Chain:
    """One game's runs on one folder: how each ended, the journal at each kill, the last run."""

    game: str
    state_dir: Path
    ended: list[str] = field(default_factory=list)
    """Per killed run: ``killed`` or, for a run that ended before its kill, ``ended``."""
    at_kills: list[dict[int, list[str]]] = field(default_factory=list)
    intent_at_last_kill: object = None
    """What the people had saved they were about to do (``undo``: the next run holds it)."""
    status: int | None = None
    out: str = ""
    err: str = ""
    problem: str = ""
    """Why the chain could not be played to its end (a run that failed or hung), if so."""


def run_killed_at_commit(chain: Chain, kind: str, number: int, undo_rate: str) -> None:
    """One run that kills itself right after its ``number``-th commit of ``kind``."""
    argv = command(chain.game, chain.state_dir, undo_rate, (kind, number))
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, timeout=GIVE_UP_S, check=False)
    assert done.returncode in (0, -signal.SIGKILL), done.stderr.decode()[-2000:]
    chain.ended.append("killed" if done.returncode == -signal.SIGKILL else "ended")


def run_killed_at_random(chain: Chain, rng: random.Random, undo_rate: str) -> None:
    """One run killed at a random moment once its people have begun to play."""
    argv = command(chain.game, chain.state_dir, undo_rate, None)
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    saved = chain.state_dir / WORLD_FILE
    before = saved.stat().st_mtime_ns if saved.exists() else 0
    deadline = time.monotonic() + GIVE_UP_S
    while process.poll() is None and (saved.stat().st_mtime_ns if saved.exists() else 0) == before:
        assert time.monotonic() < deadline, f"{chain.game}: the people never began to play"
        time.sleep(0.01)
    try:
        _, err = process.communicate(timeout=rng.uniform(0.0, 0.6))
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.communicate()
        chain.ended.append("killed")
    else:
        assert process.returncode == 0, err.decode()[-2000:]
        chain.ended.append("ended")


def play_chain(game: str, state_dir: Path) -> Chain:
    """Every kill of :data:`KILLS` in turn, then a last run (undos off) to the end.

    A run that fails or hangs ends the chain with its ``problem`` (each game's
    tests fail on their own chain only).
    """
    chain = Chain(game, state_dir)
    try:
        _play(chain)
    except (AssertionError, subprocess.TimeoutExpired) as error:
        chain.problem = f"{game}: {error}"
    return chain


def _play(chain: Chain) -> None:
    game, state_dir, rng = chain.game, chain.state_dir, random.Random(chain.game)
    for kind, number, undo_rate in KILLS:
        if kind == RANDOM:
            run_killed_at_random(chain, rng, undo_rate)
        else:
            run_killed_at_commit(chain, kind, number, undo_rate)
        chain.at_kills.append(journaled(state_dir))
    chain.intent_at_last_kill = saved_people(state_dir).get("intent")
    argv = command(game, state_dir, "0", None)
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, timeout=GIVE_UP_S, check=False)
    chain.status, chain.out, chain.err = done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.fixture(scope="module")
def chains(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Chain]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            game: pool.submit(play_chain, game, tmp_path_factory.mktemp(f"killed-{game}"))
            for game in GAMES
        }
        return {game: future.result() for game, future in futures.items()}


def chain_of(chains: dict[str, Chain], game: str) -> Chain:
    """The game's chain, failing the test with its problem if it could not be played."""
    chain = chains[game]
    assert not chain.problem, chain.problem
    return chain


@pytest.mark.parametrize("game", list(GAMES))
def test_every_planned_commit_kill_landed(chains: dict[str, Chain], game: str) -> None:
    chain = chain_of(chains, game)
    planned = [i for i, (kind, _, _) in enumerate(KILLS) if kind != RANDOM]
    assert [chain.ended[i] for i in planned] == ["killed"] * len(planned), chain.ended
    assert "killed" in [chain.ended[i] for i, k in enumerate(KILLS) if k[0] == RANDOM]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_last_run_finishes_every_game(chains: dict[str, Chain], game: str) -> None:
    chain = chain_of(chains, game)
    assert chain.status == 0, chain.err[-2000:]
    with Journal(chain.state_dir / JOURNAL_NAME) as journal:
        games = journal.games()
        assert [summary.status for summary in games] == ["finished"] * GAMES_PER_CHAIN, games
        for summary in games:
            outcome = replay(journal.record(summary.id)).outcome()
            assert outcome is not None and summary.outcome == outcome.to_json()
    assert f"game {GAMES_PER_CHAIN}:" in chain.out, chain.out


@pytest.mark.parametrize("game", list(GAMES))
def test_nothing_journaled_at_the_last_kill_is_lost_or_changed(
    chains: dict[str, Chain], game: str
) -> None:
    chain = chain_of(chains, game)
    final, last_kill = journaled(chain.state_dir), dict(chain.at_kills[-1])
    assert last_kill, "the last kill came after the journal had games"
    if chain.intent_at_last_kill == "undo":  # the people were about to take the last one back
        newest = max(last_kill)
        last_kill[newest] = last_kill[newest][:-1]
    for game_id, actions in last_kill.items():
        assert final[game_id][: len(actions)] == actions, f"game {game_id} lost or changed"


@pytest.mark.parametrize("game", list(GAMES))
def test_the_people_remember_the_games_the_journal_holds(
    chains: dict[str, Chain], game: str
) -> None:
    chain = chain_of(chains, game)
    people, final = saved_people(chain.state_dir), list(journaled(chain.state_dir).values())
    assert people["finished"] is True
    played = people["played"]
    assert isinstance(played, list)
    counts = [log["count"] if isinstance(log, dict) else log[0] for log in played]
    assert counts == [len(actions) for actions in final]
    if game == "kogworks":
        assert [json.dumps(move) for move in people["history"]] == final[-1]  # type: ignore[attr-defined]
