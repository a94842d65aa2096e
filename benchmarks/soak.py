"""Soak the mock table: many seeded whole games of every game, variant and player count.

Run: ``.venv/bin/python benchmarks/soak.py [--games 400] [--undo-games 100]
[--rendered 0] [--first-seed 1] [--workers 2] [--results DIR]``.

Each game is one ``cogtable sim GAME --seed N --camera truth --quiet`` (and
``--players``, ``--variant``) in its own process under ``nice``, two at a time
by default, so a stall or a crash in one never hides another. The games go
round the configurations (every game, variant and player count), one seed
after another from ``--first-seed``: ``--games`` at the default mistake and
undo rates, ``--undo-games`` more at ``--undo-rate 0.3``, and ``--rendered``
more with the rendered camera (every frame drawn and read: slow). They are
played seed by seed, so a soak cut short (Ctrl-C: the summary of what was
played) has played every kind.

Every game that does not finish is named with the exact command that
reproduces it and what the table waited for (the sim's own words: "no end
after 20000 camera frames (the table waits for ...)"), and its evidence is
kept under the results folder: the command, its output and its state folder
(the journal and the mock table; run the same command with ``--state-dir``
on a copy of it to resume). A finished game's folder is removed unless
``--keep-all``. ``runs.jsonl`` there holds one line per game; run again with
the same ``--results`` and the games already played are not played again.
The last table sums up each configuration; the exit status is 1 when any
game stalled, crashed or hung.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from enum import StrEnum
from pathlib import Path

from cogtable.tables import adapter_for, table_games

UNDO_SOAK_RATE = 0.3
"""The undo rate of the ``--undo-games`` (the default rates are the sim's own)."""
HANG_SECONDS = 1200.0
"""A game still running after this long is killed and counted as hung (the sim gives up
after 20000 camera frames on its own, 20-90 s with the truth camera)."""
STALL = re.compile(r"no end after \d+ camera frames(?: \((?P<why>.*)\))?")
ACTIONS = re.compile(r"after (\d+) (?:actions|moves)")
EXE = Path(sys.executable).with_name("cogtable")


class Outcome(StrEnum):
    """How one game ended."""

    FINISHED = "finished"
    STALL = "stall"
    """The sim gave up: the table waited for something nobody gave it."""
    CRASH = "crash"
    """The sim ended otherwise than 0 without giving up (a traceback, a refusal)."""
    HANG = "hang"
    """The sim never returned (killed after ``--hang-seconds``)."""


@dataclass(frozen=True)
class Config:
    """One way to play: a game, its variant ("" for none) and a player count."""

    game: str
    variant: str
    players: int

    @property
    def label(self) -> str:
        """E.g. ``cookie/big-hunt/3p``."""
        return "/".join(part for part in (self.game, self.variant, f"{self.players}p") if part)


@dataclass(frozen=True)
class Job:
    """One game to play: its configuration, seed, undo rate (None: default) and camera."""

    config: Config
    seed: int
    undo_rate: float | None
    camera: str

    @property
    def name(self) -> str:
        """The folder name of its evidence (unique per job)."""
        label = self.config.label.replace("/", "-")
        undo = "" if self.undo_rate is None else f"-undo{self.undo_rate:g}"
        return f"{label}-seed{self.seed}{undo}-{self.camera}"

    @property
    def rates(self) -> str:
        """``default``, or ``undo 0.3``."""
        return "default" if self.undo_rate is None else f"undo {self.undo_rate:g}"

    def arguments(self) -> list[str]:
        """The ``cogtable`` arguments that play it (without the state folder)."""
        config = self.config
        words = ["sim", config.game, "--players", str(config.players)]
        words += ["--variant", config.variant] if config.variant else []
        words += ["--seed", str(self.seed), "--camera", self.camera, "--quiet"]
        words += [] if self.undo_rate is None else ["--undo-rate", f"{self.undo_rate:g}"]
        return words

    def command(self) -> str:
        """The command a person types to play it again."""
        return shlex.join(["cogtable", *self.arguments()])


@dataclass(frozen=True)
class Result:
    """What one game did."""

    job: str
    label: str
    seed: int
    rates: str
    camera: str
    outcome: Outcome
    seconds: float
    actions: int | None
    command: str
    why: str
    """For a game that did not finish: the table's wait, or the error's last line."""
    evidence: str
    """The folder holding its command, output and state ("" once removed)."""


def configs(only: Sequence[str] = ()) -> list[Config]:
    """Every game, variant and player count the table referees (``only``: those games)."""
    found = []
    for game in table_games():
        if only and game not in only:
            continue
        for variant, counts in adapter_for(game).player_counts.items():
            found += [Config(game, variant, players) for players in counts]
    return found


def jobs(configs: Sequence[Config], args: argparse.Namespace) -> list[Job]:
    """The games to play: round the configurations, seed after seed, per rate and camera."""
    planned: list[Job] = []
    for games, undo, camera in (
        (args.games, None, "truth"),
        (args.undo_games, UNDO_SOAK_RATE, "truth"),
        (args.rendered, None, "render"),
    ):
        seeds = _seeds(args.first_seed)
        left = games
        while left > 0:
            seed = next(seeds)
            planned += [Job(config, seed, undo, camera) for config in configs[:left]]
            left -= len(configs)
    return sorted(planned, key=lambda job: job.seed)  # a soak cut short has played every kind


def _seeds(first: int) -> Iterator[int]:
    seed = first
    while True:
        yield seed
        seed += 1


def play(job: Job, results: Path, args: argparse.Namespace) -> Result:
    """Play one game in a niced process; keep its evidence if it did not finish."""
    folder = results / job.name
    shutil.rmtree(folder, ignore_errors=True)
    state = folder / "state"
    state.mkdir(parents=True)
    (folder / "command.txt").write_text(job.command() + "\n", encoding="utf-8")
    command = ["nice", "-n", str(args.nice), str(EXE), *job.arguments(), "--state-dir", str(state)]
    start = time.monotonic()
    with (folder / "stdout.txt").open("w") as out, (folder / "stderr.txt").open("w") as err:
        process = subprocess.Popen(
            command,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its simulated Pico goes with it when it hangs
        )
        RUNNING.add(process)
        try:
            code: int | None = process.wait(timeout=args.hang_seconds)
        except subprocess.TimeoutExpired:
            _kill(process)
            code = None
        finally:
            RUNNING.discard(process)
    seconds = time.monotonic() - start
    stdout = (folder / "stdout.txt").read_text(encoding="utf-8", errors="replace")
    stderr = (folder / "stderr.txt").read_text(encoding="utf-8", errors="replace")
    outcome, why = _judge(code, stderr, args.hang_seconds)
    counts = [int(n) for n in ACTIONS.findall(stdout)]
    if outcome is Outcome.FINISHED and not args.keep_all:
        shutil.rmtree(folder, ignore_errors=True)
    kept = folder.exists()
    return Result(
        job.name,
        job.config.label,
        job.seed,
        job.rates,
        job.camera,
        outcome,
        round(seconds, 1),
        sum(counts) if counts else None,
        job.command(),
        why,
        str(folder) if kept else "",
    )


RUNNING: set[subprocess.Popen[bytes]] = set()
"""The games being played now (killed, with their simulated Picos, when the soak stops)."""
STOPPING = threading.Event()
"""Set when the soak is stopped: a game killed then is not recorded (it is played again)."""


def _kill(process: subprocess.Popen[bytes]) -> None:
    """End one game we started and everything it started (its process group)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _judge(code: int | None, stderr: str, hang_seconds: float) -> tuple[Outcome, str]:
    """How a game ended, from its exit status and what it said on stderr."""
    if code is None:
        return Outcome.HANG, f"still running after {hang_seconds:g} s: killed"
    if code == 0:
        return Outcome.FINISHED, ""
    stall = STALL.search(stderr)
    if stall is not None:
        return Outcome.STALL, stall.group("why") or "(the sim named no wait)"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return Outcome.CRASH, f"exit {code}: {lines[-1] if lines else 'nothing said'}"


def _done_before(path: Path) -> dict[str, Result]:
    """The games a run with the same results folder already played, by job name."""
    if not path.exists():
        return {}
    done = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            data = json.loads(line)
            data["outcome"] = Outcome(data["outcome"])
            done[data["job"]] = Result(**data)
    return done


def soak(args: argparse.Namespace) -> list[Result]:
    """Play every planned game (those not played before), ``--workers`` at a time."""
    results = args.results
    results.mkdir(parents=True, exist_ok=True)
    log = results / "runs.jsonl"
    before = _done_before(log)
    planned = jobs(configs(args.only), args)
    todo = [job for job in planned if job.name not in before]
    print(
        f"{len(planned)} games planned, {len(todo)} to play, {args.workers} at a time "
        f"(nice {args.nice}); results in {results}",
        flush=True,
    )
    lock = threading.Lock()
    played: list[Result] = [before[job.name] for job in planned if job.name in before]

    def one(job: Job) -> None:
        result = play(job, results, args)
        if STOPPING.is_set():
            return  # killed by the stop, not by itself: the next run plays it again
        with lock:
            played.append(result)
            with log.open("a", encoding="utf-8") as out:
                out.write(json.dumps(asdict(result)) + "\n")
            said = "" if result.outcome is Outcome.FINISHED else f": {result.why}"
            print(
                f"[{len(played)}/{len(planned)}] {result.outcome} {result.seconds:7.1f}s  "
                f"{result.command}{said}",
                flush=True,
            )

    pool = ThreadPoolExecutor(max_workers=args.workers)
    try:
        for future in [pool.submit(one, job) for job in todo]:
            future.result()
    except KeyboardInterrupt:
        STOPPING.set()
        print("soak: stopped; the games played so far are summed up", flush=True)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in list(RUNNING):
            _kill(process)
    pool.shutdown()
    return played


def summary(results: Sequence[Result]) -> str:
    """A table per configuration, rates and camera; then every game that did not finish."""
    groups: dict[tuple[str, str, str], list[Result]] = {}
    for result in results:
        groups.setdefault((result.label, result.rates, result.camera), []).append(result)
    rows = [
        f"{'configuration':<26}{'rates':<10}{'camera':<8}{'games':>6}{'done':>6}"
        f"{'stall':>6}{'crash':>6}{'hang':>6}{'median s':>10}{'actions':>9}"
    ]
    for (label, rates, camera), group in sorted(groups.items()):
        count = {outcome: sum(r.outcome is outcome for r in group) for outcome in Outcome}
        actions = [r.actions for r in group if r.actions is not None]
        mean = f"{statistics.mean(actions):.0f}" if actions else "-"
        rows.append(
            f"{label:<26}{rates:<10}{camera:<8}{len(group):>6}{count[Outcome.FINISHED]:>6}"
            f"{count[Outcome.STALL]:>6}{count[Outcome.CRASH]:>6}{count[Outcome.HANG]:>6}"
            f"{statistics.median(r.seconds for r in group):>10.1f}{mean:>9}"
        )
    for rates in sorted({r.rates for r in results}):
        group = [r for r in results if r.rates == rates]
        bad = [r for r in group if r.outcome is not Outcome.FINISHED]
        rows.append(
            f"total {rates}: {len(group)} games, {len(group) - len(bad)} finished, "
            + ", ".join(f"{sum(r.outcome is o for r in bad)} {o}" for o in list(Outcome)[1:])
        )
    failed = [r for r in results if r.outcome is not Outcome.FINISHED]
    if failed:
        rows.append("")
        rows.append("games that did not finish (command; what the table waited for; evidence):")
    for result in sorted(failed, key=lambda r: (r.label, r.rates, r.seed)):
        rows.append(f"  {result.outcome}: {result.command}")
        rows.append(f"      {result.why}")
        rows.append(f"      evidence: {result.evidence or '(removed)'}")
    return "\n".join(rows)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games at the default rates")
    parser.add_argument(
        "--undo-games", type=int, default=100, help=f"games at --undo-rate {UNDO_SOAK_RATE}"
    )
    parser.add_argument("--rendered", type=int, default=0, help="games with --camera render")
    parser.add_argument("--first-seed", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument(
        "--only", action="append", default=[], metavar="GAME", help="only this game (repeatable)"
    )
    parser.add_argument("--workers", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--nice", type=int, default=10, help="niceness of each game (10)")
    parser.add_argument("--hang-seconds", type=float, default=HANG_SECONDS)
    parser.add_argument(
        "--results",
        type=Path,
        default=Path(tempfile.gettempdir()) / "cogtable-soak" / time.strftime("%Y%m%d-%H%M%S"),
        help="where the evidence and runs.jsonl go (the same folder again: resume)",
    )
    parser.add_argument("--keep-all", action="store_true", help="keep finished games' folders")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Soak, print the summary; 1 if any game did not finish."""
    args = _parser().parse_args(argv)
    unknown = sorted(set(args.only) - set(table_games()))
    if unknown:
        print(f"soak: no game {', '.join(unknown)}; the table knows {', '.join(table_games())}")
        return 2
    results = soak(args)
    text = summary(results)
    (args.results / "summary.txt").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0 if all(r.outcome is Outcome.FINISHED for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
