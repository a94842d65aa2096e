"""``cogtable sim GAME``: whole games on the mock table, no hardware needed.

Simulated people play on a simulated table; the synthetic camera films it,
the real firmware runs on a simulated Pico behind a pseudo-terminal, and the
real controller referees: every action is read from the camera, the buttons
or the console, journaled and answered on the LEDs, which the people read to
know whether it counted. They sometimes try something illegal and put it
right, and sometimes hold undo.

One loop plays every game. What differs is the table the game is read on
(:class:`MockTable`): a peg disk (:class:`DiskTable`: the peg-disk people of
:mod:`cogtable.mock.people.kogworks` on a :class:`~cogtable.mock.world.MockWorld`),
or anything else (:class:`KitTable`: a kit's people of
``cogtable.mock.people.<game>`` laying pieces and cards on printed parts or a
card mat, and :mod:`cogtable.mock.people.console` for what no camera sees).

With ``--state-dir`` the journal and the physical table are kept there, so a
run that is killed carries on where the journal stands when started again.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import logging
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from cogtable.board_setup import board_geometry
from cogtable.card_mat_setup import card_mat
from cogtable.commands import _sim_options as options
from cogtable.commands._seats import (
    seat_kinds,
)
from cogtable.commands._sim_options import STRONG_RED_RANDOM_BLUE, readers, seat_rule
from cogtable.commands._sim_remote import WaitForOtherTable, two_tables
from cogtable.errors import UserError, data_fault
from cogtable.files import check_folder
from cogtable.fleet.attach import check_fleet_arguments, publishing, remote_play, remote_seats
from cogtable.fleet.remote import playing_remote
from cogtable.game_choice import GameChoice, choose, players_of
from cogtable.inputs import Shutdown
from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.letter_teach import teach
from cogtable.mock.cards_world import CardsWorld
from cogtable.mock.hands import Hands
from cogtable.mock.parts_world import PartsWorld
from cogtable.mock.people.console import ConsolePeople, ConsoleStyle
from cogtable.mock.people.kogworks import People, Style, position_of
from cogtable.mock.teach_frames import teach_scene_frames
from cogtable.mock.world import CameraMode, MockWorld, save_json
from cogtable.runtime import Runtime
from cogtable.tables import adapter_for
from cogtable.tables.base import PEG_DISK
from games.core import new_game
from hardware.profile import ProfileError, load_profile
from vision.parts.letter_model import LetterModel, TaughtLetterModel

NAME = "sim"
HELP = options.HELP
add_arguments = options.add_arguments
"""The options live in :mod:`cogtable.commands._sim_options` (one place for them all)."""
WORLD_FILE = "mock-world.json"
MAX_FRAMES_PER_GAME = 20_000
"""A game that needs more camera frames than this is stuck: the run stops with an error."""
MIN_READABLE_SIDE = 420
"""The shortest frame side (pixels) at which the reader reads the synthetic board reliably.

The synthetic camera's board fills 78-95% of the shorter side; below this
some camera poses are never read at all, and the game would never end.
``benchmarks/bench_readable_size.py`` measures it.
"""
MIN_CARDS_SIDE = 480
"""The shortest rendered frame side (pixels) at which the card reader reads the mock mat's tags
(every card of six camera poses at 854x480; half of them at 640x360)."""


def run(args: argparse.Namespace) -> int:
    """Play the games; print the result; 0 when every game finished."""
    logging.basicConfig(
        level=logging.ERROR if args.quiet else logging.WARNING, format="%(message)s"
    )
    profile = _profile(args.profile)
    if getattr(args, "tables", 1) == 2:
        return two_tables(args)
    if args.state_dir is not None:
        check_folder(args.state_dir, "the state folder")
        return _play(args, profile, args.state_dir)
    with tempfile.TemporaryDirectory(prefix="cogtable-sim-") as folder:
        return _play(args, profile, Path(folder))


def _play(args: argparse.Namespace, profile: Any, state_dir: Path) -> int:
    played = play(args, profile, state_dir)
    return report(played, state_dir)


@dataclass
class Played:
    """What a mock run left: the people (their games), the stopped runtime, why it stopped."""

    people: People | ConsolePeople
    runtime: Runtime
    reason: str
    line: Callable[[Any, Any], str]
    """One game's result line, as this table's people tell it."""


class MockTable(Protocol):
    """How one kind of table is simulated: its world, its people, what is kept of them."""

    choice: GameChoice
    world: Any

    def seat(self, args: argparse.Namespace, runtime: Runtime) -> Any:
        """The people, sat at the table the runtime referees (resumed where a run stopped)."""
        ...

    def saver(self, people: Any) -> Saver:
        """Keeps the physical table and the people's memory on disk."""
        ...

    def line(self, people: Any) -> Callable[[Any, Any], str]:
        """One game's result line."""
        ...


def play(
    args: argparse.Namespace,
    profile: Any,
    state_dir: Path,
    actors: Sequence[Callable[..., object]] = (),
) -> Played:
    """Run the mock table until the people are done; ``actors`` also act every frame (tests).

    Every input (the game, the seats, the frame size, a kept ``mock-world.json``)
    is checked before anything is created in ``state_dir``.
    """
    check_fleet_arguments(args, profile)
    remote = remote_play(args, profile)
    mock: MockTable
    if readers(args.game) == {PEG_DISK}:
        mock = DiskTable(args, profile, state_dir)
    else:
        mock = KitTable(args, profile, state_dir)
    world = mock.world
    runtime = Runtime(
        profile, state_dir, clock=world.clock.now, quiet=args.quiet, world=world, game=mock.choice
    )
    try:
        _check_resumed(runtime, mock.choice, state_dir)
        people = mock.seat(args, runtime)
        world.actors += [people, mock.saver(people), Watchdog(people, runtime)]
        world.actors += [functools.partial(a, runtime=runtime, people=people) for a in actors]
        if remote is not None:
            world.actors.append(WaitForOtherTable(people, runtime))
        runtime.start()
        here, away = remote_seats(args, 2) if remote is not None else ((), ())
        with (
            publishing(args, profile, state_dir),
            playing_remote(remote, getattr(args, "remote", None), here, away, runtime),
        ):
            reason = runtime.run()
    finally:
        runtime.stop()
    return Played(people, runtime, reason, mock.line(people))


class DiskTable:
    """A game read on the peg disk: two people moving cogs on a :class:`MockWorld`."""

    def __init__(self, args: argparse.Namespace, profile: Any, state_dir: Path) -> None:
        _check_readable(args.camera, args.size)
        _style(args)  # a bad --seat is refused before anything is made
        geometry = board_geometry(profile)
        self.path = state_dir / WORLD_FILE
        self.saved = _saved_board(self.path, args, geometry)
        self.world = MockWorld(
            camera=args.camera, camera_size=args.size, seed=args.seed, geometry=geometry
        )
        self.choice = choose(profile, args.game)

    def seat(self, args: argparse.Namespace, runtime: Runtime) -> People:
        """The two players, on the kept board, or at the journal's game, or afresh."""
        people = _people(args, runtime)
        _set_up(self.path, self.saved, self.world, people, runtime)
        return people

    def saver(self, people: People) -> Saver:
        """Saves the board and the people whenever either changed."""
        world = self.world

        def kept() -> dict[str, Any]:
            return {"world": world.to_json(), "people": people.to_json()}

        return Saver(self.path, kept, lambda: (world.changes, *people.marker()))

    def line(self, people: People) -> Callable[[Any, Any], str]:
        """``game 1: Red won (...) after 17 moves; 1 illegal try put right, 0 undos``."""
        return functools.partial(_result_line, people)


class KitTable:
    """Any other game: its kit's people on printed parts or a card mat, or at the console."""

    def __init__(self, args: argparse.Namespace, profile: Any, state_dir: Path) -> None:
        self.choice = choice = console_choice(args, profile)
        _check_cards_readable(args, choice)
        self.style = _console_style(args, choice)
        self.path = state_dir / WORLD_FILE
        self.remembered = _remembered(self.path, choice.game)
        self.world = _world(args, profile, choice)
        self.profile = profile
        if self.remembered is not None:  # a broken kept table is refused before the journal
            _restore_table(self.world, self.remembered, self.path)

    def seat(self, args: argparse.Namespace, runtime: Runtime) -> ConsolePeople:
        """The kit's people (the mock owner taught the letter reader first), resumed."""
        runtime.letters = _owner_taught(self.world, self.profile)
        people = _console_people(args, runtime, self.choice, self.style, self.world)
        if self.remembered is not None:
            people.restore(self.remembered)
        _resume_console(runtime, self.choice, people, self.remembered is not None)
        if people.finished:
            people.on_finish(people)
        return people

    def saver(self, people: ConsolePeople) -> Saver:
        """Saves what the people remember (and the parts on the table) whenever it changed."""
        world, game = self.world, self.choice.game

        def kept() -> dict[str, Any]:
            data = people.to_json()
            if isinstance(world, PartsWorld | CardsWorld):
                data = {**data, "table": world.to_json()}
            return {"game": game, "people": data}

        return Saver(self.path, kept)

    def line(self, people: ConsolePeople) -> Callable[[Any, Any], str]:
        """``game 1: cog Red won (...) after 189 actions; 3 mistakes refused, 4 undos``."""
        return functools.partial(_console_line, people)


def _check_readable(camera: CameraMode, size: tuple[int, int]) -> None:
    """Refuse at once a rendered frame too small to read (the game would never end)."""
    if camera is CameraMode.RENDER and min(size) < MIN_READABLE_SIDE:
        width, height = size
        raise UserError(
            f"--size {width}x{height}: the board is too small to read at that size; the camera "
            f"reads it reliably from {MIN_READABLE_SIDE} pixels on the shorter side "
            f"(e.g. 560x420), or use --camera truth"
        )


def _check_cards_readable(args: argparse.Namespace, choice: GameChoice) -> None:
    """Refuse at once a rendered card mat too small to read its tags (the game would never end)."""
    size = getattr(args, "size", None)
    if (
        getattr(args, "camera", None) is not CameraMode.RENDER
        or readers(choice.game) != {"cards"}
        or not size
    ):
        return
    if min(size) < MIN_CARDS_SIDE:
        width, height = size
        raise UserError(
            f"--size {width}x{height}: the card tags are too small to read at that size; the "
            f"camera reads them from {MIN_CARDS_SIDE} pixels on the shorter side (e.g. 854x480), "
            "or use --camera truth"
        )


def _saved_board(path: Path, args: argparse.Namespace, geometry: Any) -> dict[str, Any] | None:
    """What a killed run kept in ``path`` (None: nothing, or another game's); UserError if garbage.

    Checked by restoring it into a scratch world and scratch people, so a
    broken file is refused before the journal is created.
    """
    data = _load(path)
    if data is None or (isinstance(data, dict) and data.get("game") not in (None, args.game)):
        return None
    try:
        MockWorld(geometry=geometry).restore(data["world"])
        People(lambda: None, None, args.seed, _style(args), args.games).restore(data["people"], 0)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise UserError(f"cannot read the mock board {path}: {data_fault(error)}") from error
    return data


def _check_resumed(runtime: Runtime, choice: GameChoice, state_dir: Path) -> None:
    """An unfinished game of another game, or with other options, is refused, never lost.

    A finished game of another game only gives way to a new game of this one.
    """
    table = runtime.table
    state = table.state
    if state.is_over() and table.game_name != choice.game:
        table.new_game(choice)
        return
    wanted = new_game(choice.game, choice.options, 0).options
    if table.game_name != choice.game or state.options != wanted:
        differing = sorted(k for k in wanted if state.options.get(k) != wanted[k])
        shown = ", ".join(f"{k}={state.options.get(k)!r}" for k in differing)
        raise UserError(
            f"{state_dir} holds an unfinished {table.game_name} game"
            + (f" ({shown})" if shown and table.game_name == choice.game else "")
            + ": run it with the same game and options, or use another --state-dir"
        )


def console_choice(args: argparse.Namespace, profile: Any) -> GameChoice:
    """The game ``args`` ask for, fitted to the profile's seats."""
    options: dict[str, Any] = dict(args.option)
    if getattr(args, "variant", None):
        options["variant"] = args.variant
    if args.players is not None:
        options["players"] = args.players
    return choose(profile, args.game, options)


def _resume_console(
    runtime: Runtime, choice: GameChoice, people: ConsolePeople, remembers: bool
) -> None:
    """The people take the table's game as theirs; a game they already logged gives way.

    A game the journal ended before the people saw it end (the program stopped
    right after the last action) is theirs to log; one they logged and were
    about to press new game after, or one an earlier run left behind without
    their memory, makes way for a new game.
    """
    table = runtime.table
    over = table.state.is_over()
    if people.finished or not table.state.history:
        return
    if not over or (remembers and not people.next_game):
        people.adopt(table.state.record(), table.game.id)
        people.say(f"resuming: {len(people.history)} actions so far")
    else:
        table.new_game(choice)  # a game left finished by an earlier run: start afresh


def _console_style(args: argparse.Namespace, choice: GameChoice) -> ConsoleStyle:
    """The people's seats and habits; a wrong ``--seat`` is a UserError naming the choices."""
    players = players_of(adapter_for(choice.game), choice.options)
    seats = seat_kinds(args, players, seat_rule(choice.game))
    return ConsoleStyle(seats, args.mistake_rate, args.undo_rate)


def _remembered(path: Path, game: str) -> dict[str, Any] | None:
    """What the people of an earlier run of ``game`` kept (None: nothing); UserError if garbage.

    What a run of another game left there is not theirs to remember.
    """
    saved = _load(path)
    if not isinstance(saved, dict) or saved.get("game") != game:
        return None
    try:
        data = saved["people"]
        ConsolePeople.check_saved(data)
    except (KeyError, TypeError, ValueError) as error:
        raise UserError(f"cannot read the mock table {path}: {data_fault(error)}") from error
    return data  # type: ignore[no-any-return]


def _world(args: argparse.Namespace, profile: Any, choice: GameChoice) -> Any:
    """The physical table: printed parts or the profile's card mat for a game read on them,
    else an idle disk world (the console)."""
    reads = readers(choice.game)
    if reads == {"cards"} and profile.cards is not None:
        mat = card_mat(profile)
        return CardsWorld(mat, camera=args.camera, camera_size=args.size, seed=args.seed)
    if reads != {"parts"}:
        return MockWorld(camera=CameraMode.TRUTH, seed=args.seed, geometry=board_geometry(profile))
    state = new_game(choice.game, choice.options, 0)
    regions = adapter_for(choice.game).regions_for(state)
    layouts = [region.layout for region in regions if region.layout is not None]
    return PartsWorld(layouts, camera=args.camera, camera_size=args.size, seed=args.seed)


def _owner_taught(world: MockWorld | PartsWorld, profile: Any) -> TaughtLetterModel | None:
    """The mock owner teaches the letter reader their tiles first, as a table owner does.

    Only where the camera renders letter tiles and the profile names no taught
    letters: the owner's tiles are drawn in a font the reader was not trained
    on; their 26 letters are taught from two frames of the teach layout.
    Nothing is written: the runtime reads with the taught classifier.
    """
    if not isinstance(world, PartsWorld) or world.camera is not CameraMode.RENDER:
        return None
    if profile.camera.letters is not None:
        return None
    layouts = list(world.layouts.values())
    frames = teach_scene_frames(layouts, world.camera_size or (1920, 1080), 2, world.seed)
    return teach(frames, layouts, LetterModel.default()).classifier


def _restore_table(world: MockWorld | PartsWorld, remembered: dict[str, Any], path: Path) -> None:
    """Lay the parts out as a killed run left them (what the people had put where)."""
    if not isinstance(world, PartsWorld | CardsWorld) or "table" not in remembered:
        return
    try:
        world.restore(remembered["table"])
    except ValueError as error:
        raise UserError(f"cannot read the mock table {path}: {error}") from error


def _console_people(
    args: argparse.Namespace,
    runtime: Runtime,
    choice: GameChoice,
    style: ConsoleStyle,
    world: MockWorld | PartsWorld,
) -> ConsolePeople:

    def say(text: str) -> None:
        if not args.quiet and runtime.screen is not None:
            runtime.screen.note(text)

    def finish(done: ConsolePeople) -> None:
        runtime.put(Shutdown("the mock games are over"))

    hands = Hands(runtime)
    try:
        if isinstance(world, PartsWorld | CardsWorld):  # the game's own people, who lay pieces
            people = importlib.import_module(f"cogtable.mock.people.{choice.game}").TablePeople
            return people(hands, choice, args.seed, style, args.games, say, finish, world=world)
        return ConsolePeople(hands, choice, args.seed, style, args.games, say, finish)
    except ValueError as error:
        raise UserError(str(error)) from error


def _console_line(people: ConsolePeople, game: Any, log: Any) -> str:
    outcome = game.outcome or {}
    names = [people.memory.player_name(w) for w in outcome.get("winners") or []]
    return (
        f"game {game.id}: {game.game} {' and '.join(names) or 'nobody'} won "
        f"({outcome.get('reason', '')}) after {game.actions} actions; "
        f"{log.mistakes} mistake{'' if log.mistakes == 1 else 's'} refused, "
        f"{log.undos} undo{'' if log.undos == 1 else 's'}"
    )


def _style(args: argparse.Namespace) -> Style:
    red, blue = seat_kinds(args, 2, seat_rule(args.game, STRONG_RED_RANDOM_BLUE))
    here = remote_seats(args, 2)[0] if getattr(args, "remote", None) else (0, 1)
    return Style((red, blue), args.illegal_rate, args.undo_rate, here=here)


def _people(args: argparse.Namespace, runtime: Runtime) -> People:
    style = _style(args)

    def say(text: str) -> None:
        if not args.quiet and runtime.screen is not None:
            runtime.screen.note(text)  # the table's screen already draws the board

    def finish(done: People) -> None:
        runtime.put(Shutdown("the mock games are over"))

    hands = Hands(runtime)
    people = People(hands.visible_frame, hands, args.seed, style, args.games, say, finish)
    return people


def _set_up(
    saved: Path, data: dict[str, Any] | None, world: MockWorld, people: People, runtime: Runtime
) -> None:
    """Carry on from a kept board (``data``, checked); or lay out the journal's game; or afresh."""
    if data is not None:
        try:
            _carry_on(data, world, people)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise UserError(f"cannot read the mock board {saved}: {data_fault(error)}") from error
        return
    history = list(runtime.table.state.history)
    if history:
        people.restore({**people.to_json(), "history": [a.to_json() for a in history]}, 0)
        world.arrange(position_of(people.memory))
        people.say(f"laying out the journal's game: {len(history)} moves")


def _carry_on(data: dict[str, Any], world: MockWorld, people: People) -> None:
    """Restore the kept board and people; stop at once if their games were all played.

    What the table did that the people had no time to see (a move accepted,
    an undo, a new game) they learn from the LEDs, as at a real table.
    """
    world.restore(data["world"])
    people.restore(data["people"], world.frames)
    if people.finished:
        people.say("these games were all played already")
        people.on_finish(people)
        return
    people.say(f"resuming: {len(people.history)} moves made so far")


def _load(saved: Path) -> dict[str, Any] | None:
    try:
        return json.loads(saved.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise UserError(f"cannot read the mock board {saved}: {error}") from error


class Saver:
    """Keeps what a run must remember (the table, the people) on disk whenever it changes.

    ``marker`` says cheaply when it changed (default: what is kept itself).
    """

    def __init__(
        self,
        path: Path,
        kept: Callable[[], dict[str, Any]],
        marker: Callable[[], Any] | None = None,
    ) -> None:
        self.path = path
        self.kept = kept
        self.marker = marker
        self.last: Any = None

    def __call__(self, world: Any) -> None:
        """Save if anything changed since the last frame."""
        data = self.kept() if self.marker is None else None
        marker = data if self.marker is None else self.marker()
        if marker != self.last:
            self.last = marker
            save_json(self.path, data if data is not None else self.kept())


class Watchdog:
    """Stops a run whose game does not end (a bug, or a part that never came back)."""

    def __init__(self, people: People, runtime: Runtime) -> None:
        self.people = people
        self.runtime = runtime
        self.fired = False

    def __call__(self, world: MockWorld) -> None:
        """Give up after too many frames for the games asked for."""
        limit = MAX_FRAMES_PER_GAME * self.people.games
        waited = sum(getattr(actor, "idle_frames", 0) for actor in world.actors)
        if world.frames - waited > limit and not self.fired:
            self.fired = True
            why = self.runtime.stuck_words()
            self.runtime.put(
                Shutdown(f"no end after {limit} camera frames{f' ({why})' if why else ''}")
            )


def report(played: Played, state_dir: Path) -> int:
    """One line per game the people played; 1 if the run stopped before they were done."""
    people = played.people
    with Journal(state_dir / JOURNAL_NAME) as journal:
        games = journal.games()
    finished = [game for game in games if game.status == "finished"]
    for log, game in zip(people.played, finished[-len(people.played) :], strict=False):
        print(played.line(game, log))
    if not people.finished:
        print(f"cogtable sim: stopped before the end: {played.reason}", file=sys.stderr)
        return 1
    return 0


def _result_line(people: People, game: Any, log: Any) -> str:
    outcome = game.outcome or {}
    winners = outcome.get("winners") or []
    who = " and ".join(people.memory.player_name(w) for w in winners) or "nobody"
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
