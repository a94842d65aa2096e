"""``cogtable sim kogworks``: a whole game on the mock table, no hardware needed.

Two simulated people play on a simulated board. The synthetic camera films
it, the real firmware runs on a simulated Pico behind a pseudo-terminal, and
the real controller referees: every move is read from the camera, journaled
and answered on the LEDs, which the people read to know whether a move
counted. They sometimes try an illegal move and put it right when the LEDs
blink red, and sometimes hold undo.

With ``--state-dir`` the journal and the physical board are kept there, so a
run that is killed carries on where the journal stands when started again.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cogtable.board_setup import board_geometry
from cogtable.errors import UserError
from cogtable.inputs import Shutdown
from cogtable.journal import Journal
from cogtable.mock.players import People, Style, pieces_of
from cogtable.mock.world import CAMERA_MODES, MockWorld, save_json
from cogtable.runtime import JOURNAL_NAME, Runtime
from cogtable.terminal.kogworks import render, wants_colour
from games.kogworks.board import ROW_COL
from hardware.profile import ProfileError, load_profile

NAME = "sim"
HELP = "Play whole games on the mock table: simulated people, camera, Pico and LEDs."
WORLD_FILE = "mock-world.json"
MAX_FRAMES_PER_GAME = 20_000
"""A game that needs more camera frames than this is stuck: the run stops with an error."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``kogworks`` and its options."""
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True, title="games")
    sub = games.add_parser("kogworks", help="Kogworks on the mock table", description=HELP)
    sub.add_argument("--seed", type=int, default=0, help="seed: the same seed, the same game")
    sub.add_argument("--quiet", action="store_true", help="print only the summary")
    sub.add_argument("--games", type=_positive, default=1, help="games to play (default 1)")
    sub.add_argument("--state-dir", type=Path, help="keep journal and board here (resumable)")
    sub.add_argument("--profile", type=Path, help="table profile (default: the mock table)")
    sub.add_argument(
        "--camera",
        choices=CAMERA_MODES,
        default="render",
        help="render: draw and read every frame; truth: skip the pixels (fast)",
    )
    sub.add_argument("--size", type=_size, default=(640, 480), help="frame size WxH (640x480)")
    sub.add_argument("--red", choices=("greedy", "random"), default="greedy", help="Red's player")
    sub.add_argument("--blue", choices=("greedy", "random"), default="random", help="Blue's player")
    sub.add_argument("--illegal-rate", type=_rate, default=0.08, help="chance of an illegal try")
    sub.add_argument("--undo-rate", type=_rate, default=0.03, help="chance of holding undo")


def run(args: argparse.Namespace) -> int:
    """Play the games; print the result; 0 when every game finished."""
    logging.basicConfig(
        level=logging.ERROR if args.quiet else logging.WARNING, format="%(message)s"
    )
    profile = _profile(args.profile)
    if args.state_dir is not None:
        return _play(args, profile, args.state_dir)
    with tempfile.TemporaryDirectory(prefix="cogtable-sim-") as folder:
        return _play(args, profile, Path(folder))


def _play(args: argparse.Namespace, profile: Any, state_dir: Path) -> int:
    played = play(args, profile, state_dir)
    return _report(played.people, state_dir, played.reason)


@dataclass
class Played:
    """What a mock run left: the people (their games), the stopped runtime, why it stopped."""

    people: People
    runtime: Runtime
    reason: str


def play(
    args: argparse.Namespace,
    profile: Any,
    state_dir: Path,
    actors: Sequence[Callable[[MockWorld, Runtime, People], object]] = (),
) -> Played:
    """Run the mock table until the people are done; ``actors`` also act every frame (tests)."""
    world = MockWorld(
        camera=args.camera, camera_size=args.size, seed=args.seed, geometry=board_geometry(profile)
    )
    runtime = Runtime(profile, state_dir, clock=world.clock.now, quiet=args.quiet, world=world)
    try:
        people = _people(args, runtime)
        _set_up(state_dir / WORLD_FILE, world, people, runtime)
        world.actors += [people, Saver(state_dir / WORLD_FILE, people), Watchdog(people, runtime)]
        world.actors += [
            functools.partial(actor, runtime=runtime, people=people) for actor in actors
        ]
        runtime.start()
        reason = runtime.run()
    finally:
        runtime.stop()
    return Played(people, runtime, reason)


def _people(args: argparse.Namespace, runtime: Runtime) -> People:
    style = Style((args.red, args.blue), args.illegal_rate, args.undo_rate)
    colour = wants_colour(sys.stdout)

    def say(text: str) -> None:
        if not args.quiet:
            print(text, flush=True)
            if text.endswith("accepted"):
                print(render(people.memory, colour), flush=True)

    def finish(done: People) -> None:
        runtime.put(Shutdown("the mock games are over"))

    people = People(runtime.visible_frame, runtime, args.seed, style, args.games, say, finish)
    return people


def _set_up(saved: Path, world: MockWorld, people: People, runtime: Runtime) -> None:
    """Carry on from a kept board; or lay out the journal's game; or start afresh."""
    data = _load(saved)
    if data is not None:
        try:
            _carry_on(data, world, people, runtime)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise UserError(f"cannot read the mock board {saved}: {error!r}") from error
        return
    history = list(runtime.table.state.history)
    if history:
        people.restore({**people.to_json(), "history": [a.to_json() for a in history]}, 0)
        world.arrange(_position(people))
        people.say(f"laying out the journal's game: {len(history)} moves")


def _carry_on(data: dict[str, Any], world: MockWorld, people: People, runtime: Runtime) -> None:
    """Restore the kept board and people; stop at once if their games were all played."""
    world.restore(data["world"])
    people.restore(data["people"], world.frames)
    if people.finished:
        people.say("these games were all played already")
        people.on_finish(people)
        return
    people.say(f"resuming: {len(people.history)} moves made so far")
    table_state = runtime.table.state
    ended = not table_state.history or table_state.is_over()
    if ended and people.ended_meanwhile(_last_ended(runtime), world):
        people.say("the table had ended that game before the restart")
        if people.finished:
            people.on_finish(people)


def _last_ended(runtime: Runtime) -> list[Any]:
    """The actions of the journal's last finished game ([] if none)."""
    ended = [game for game in runtime.journal.games() if game.status == "finished"]
    return list(runtime.journal.record(ended[-1].id).actions) if ended else []


def _load(saved: Path) -> dict[str, Any] | None:
    try:
        return json.loads(saved.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise UserError(f"cannot read the mock board {saved}: {error}") from error


def _position(people: People) -> dict[tuple[int, int], str | None]:
    pieces = pieces_of(people.memory)
    return {peg: pieces.get(peg) for peg in ROW_COL}


class Saver:
    """Keeps the physical board and the people's memory on disk whenever either changes."""

    def __init__(self, path: Path, people: People) -> None:
        self.path = path
        self.people = people
        self.last: tuple[Any, ...] = ()

    def __call__(self, world: MockWorld) -> None:
        """Save if anything changed since the last frame."""
        marker = (world.changes, *self.people.marker())
        if marker != self.last:
            self.last = marker
            save_json(self.path, {"world": world.to_json(), "people": self.people.to_json()})


class Watchdog:
    """Stops a run whose game does not end (a bug, or a part that never came back)."""

    def __init__(self, people: People, runtime: Runtime) -> None:
        self.people = people
        self.runtime = runtime
        self.fired = False

    def __call__(self, world: MockWorld) -> None:
        """Give up after too many frames for the games asked for."""
        limit = MAX_FRAMES_PER_GAME * self.people.games
        if world.frames > limit and not self.fired:
            self.fired = True
            self.runtime.put(Shutdown(f"no end after {limit} camera frames"))


def _report(people: People, state_dir: Path, reason: str) -> int:
    with Journal(state_dir / JOURNAL_NAME) as journal:
        games = journal.games()
    finished = [game for game in games if game.status == "finished"]
    for log, game in zip(people.played, finished[-len(people.played) :], strict=False):
        print(_result_line(game, log))
    if not people.finished:
        print(f"cogtable sim: stopped before the end: {reason}", file=sys.stderr)
        return 1
    return 0


def _result_line(game: Any, log: Any) -> str:
    outcome = game.outcome or {}
    winners = outcome.get("winners") or []
    who = " and ".join(("Red", "Blue")[w] for w in winners) or "nobody"
    how = outcome.get("reason", "")
    return (
        f"game {game.id}: {who} won{f' ({how})' if how else ''} after {game.actions} moves; "
        f"{log.illegal} illegal tr{'y' if log.illegal == 1 else 'ies'} put right, "
        f"{log.undos} undo{'' if log.undos == 1 else 's'}"
    )


def _profile(path: Path | None) -> Any:
    try:
        return load_profile(path)
    except ProfileError as error:
        raise UserError(str(error)) from error


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a chance is 0 to 1, not {value}")
    return value


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a size is WIDTHxHEIGHT like 640x480, not {text!r}"
        ) from None
    if not (64 <= width <= 4096 and 64 <= height <= 4096):
        raise argparse.ArgumentTypeError(f"{text} is outside 64..4096 pixels")
    return width, height
