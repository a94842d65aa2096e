"""C.O.G. printed parts' rows of ``benchmarks/bench_perception.py`` (issues 25 and 26).

Each table is a position of a seeded C.O.G. game (2-4 players; chance from the seed,
players greedy or random), the table committed to it, and the next move made on the
parts as the people at a table make it (a letter drawn and laid, a die laid, a cog
placed, a word laid, letters moved; a move typed at the console leaves the parts as
they were). Every part (the board, each mat) is a "board" of the table: the camera path
is the table's (the parts reader, one settling filter per part with the commit decision
weighing every still frame against the C.O.G. kit's explanations,
:mod:`cogtable.tables.cog.explain`, restricted to the part as
:class:`cogtable.sights.parts.PartsSight` does), every frame drawn afresh with its own
sensor noise. Every table is first taught as its owner does (``cogtable calibrate cog
--teach``: :func:`cogtable.letter_teach.teach` on three frames of the teach layout on the
first mat, drawn by the same source, camera and light); a table whose teach step is refused
counts its parts as never committed. ``PERCEPTION_PARTS_UNTAUGHT=1`` reads with the shipped
letter model untaught.

- Even tables: every part still from its first frame (the time to commit each).
- Odd tables: the position before the move, still (the table commits it), then a hand
  over the part the move changes for three frames while it changes, then still: commits of
  that part under the hand, and the time from the hand leaving to the part's commit.
- Every fourth table in Phase II also shows an illegal cog (the mover's, or another
  colour, on a space no legal placement puts it): the board must never be committed as
  a legal position.

The issue's goal for parts is a commit within 2 s of stillness (:data:`PARTS_LIMIT_S`): each
row also prints that share (the table's column is bench_perception's 1.5 s).

Tuning frames: our renderer (:mod:`vision.parts.renderer`) in the conditions below, the
tiles' typeface alternating between a training face and a development face.
Held-out frames: :mod:`benchmarks.held_out.parts` through its README's API only
(``render_still`` with ``view``: the table laid out as the game says), its conditions.

``PERCEPTION_WITHOUT_DECISION=1`` runs the same parts through the settling filter without
a judge (every place of one frame must be certain), for comparison.
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace

import numpy as np

from benchmarks.bench_perception import (
    FPS,
    GIVE_UP_S,
    HELD_OUT,
    TUNING,
    WINDOW_S,
    Options,
    Row,
    SimClock,
    cpu_seconds,
)
from cogtable.commit_decision import ExplanationKind, Explanations, StillBoardJudge
from cogtable.errors import UserError
from cogtable.letter_teach import TEACH_LAYOUT, TEACH_PART, teach
from cogtable.sights.part_evidence import PartEvidence
from cogtable.sights.parts import part_explanations
from cogtable.tables.cog.explain import PLACEMENTS, explanations, read_places
from cogtable.tables.cog.parts import laid_out, part_layouts
from cogtable.tables.cog.words import MAT_CHANGES
from games.cog.actions import Deconstruct, DrawLetter, PlaceWord, RollDie, TakeCentre
from games.cog.edition import load_edition
from games.cog.players import greedy_player, random_player
from games.cog.state import CogState
from games.core import CHANCE, new_game
from vision.layout import EMPTY, PartLayout
from vision.parts.letter_model import LetterModel
from vision.parts.look import REFERENCE
from vision.parts.reader import PartsReader
from vision.parts.renderer import PartPose, TableRenderer, TableScene, part_to_table
from vision.parts.table_scenes import random_table_scene
from vision.parts.tiles import DEVELOPMENT_FONTS, TRAINING_FONTS
from vision.peg_disk.renderer import Hand, Lighting, Sensor
from vision.peg_disk.settle import SettlingFilter

PARTS_LIMIT_S = 2.0
"""Issue 26: every still part committed within 2 s of stillness."""
HAND_FRAMES = 3
BEFORE_FRAMES = 9
WITHOUT_DECISION = os.environ.get("PERCEPTION_WITHOUT_DECISION") == "1"
UNTAUGHT = os.environ.get("PERCEPTION_PARTS_UNTAUGHT") == "1"
TEACH_FRAMES = 3
CAMERA_MOVES = (DrawLetter, RollDie, *PLACEMENTS, *MAT_CHANGES, TakeCentre, PlaceWord, Deconstruct)
"""The moves people make with their hands on the parts (the rest they type)."""

View = dict[str, dict[str, str]]
Make = Callable[[np.random.Generator, TableScene], TableScene]


def _plain(rng: np.random.Generator, scene: TableScene) -> TableScene:
    return scene


def _tilted(rng, scene: TableScene) -> TableScene:
    return replace(scene, camera=replace(scene.camera, tilt_deg=float(rng.uniform(10, 20))))


def _dim(rng, scene: TableScene) -> TableScene:
    return replace(
        scene, lighting=replace(scene.lighting, brightness=float(rng.uniform(0.4, 0.55)))
    )


def _noisy(rng, scene: TableScene) -> TableScene:
    sensor = Sensor(
        noise=float(rng.uniform(7, 12)),
        blur=float(rng.uniform(0.4, 1.2)),
        jpeg=int(rng.integers(40, 71)),
    )
    return replace(scene, sensor=sensor)


def _relit(rng, scene: TableScene) -> TableScene:
    lighting = Lighting(
        brightness=float(rng.uniform(0.6, 1.0)),
        gradient=float(rng.uniform(0.2, 0.45)),
        gradient_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0.1, 0.3)),
        cast=tuple(float(g) for g in rng.uniform(0.85, 1.15, 3)),
    )
    return replace(scene, lighting=lighting)


def _far(rng, scene: TableScene) -> TableScene:
    """The table far from the camera (markers of 10-14 px at 720p), tilted, warm, JPEG."""
    camera = replace(
        scene.camera, fill=float(rng.uniform(0.6, 0.75)), tilt_deg=float(rng.uniform(10, 20))
    )
    sensor = Sensor(
        noise=float(rng.uniform(2, 6)),
        blur=float(rng.uniform(0.3, 0.8)),
        jpeg=int(rng.integers(45, 76)),
    )
    lighting = replace(scene.lighting, cast=(0.75, 0.93, 1.12))
    return replace(scene, camera=camera, sensor=sensor, lighting=lighting)


TUNING_CONDITIONS: dict[str, Make] = {
    "plain": _plain,
    "tilted 10-20": _tilted,
    "dim": _dim,
    "noisy webcam": _noisy,
    "relit": _relit,
    "far warm jpeg": _far,
}
"""Our renderer's conditions (never the held-out renderer's)."""
TUNING_FONTS = (TRAINING_FONTS[0], DEVELOPMENT_FONTS[1], TRAINING_FONTS[4], DEVELOPMENT_FONTS[3])


@dataclass(frozen=True)
class Board:
    """One table: the game's explanations, the table before the move and after it."""

    players: int
    explained: Explanations
    before: View
    shown: View
    changed: str | None
    """The part the move changes (None: the move leaves the parts as they were)."""
    legal: tuple[View, ...] = ()
    """For an illegal table: every position a legal explanation stands for."""


def full_view(view: Mapping[str, Mapping[str, str]], players: int) -> View:
    """Every read place of the table and its label (empty where the view says nothing)."""
    full: View = {}
    for part, place in read_places(players):
        full.setdefault(part, {})[place] = view.get(part, {}).get(place, EMPTY)
    return full


def game_board(seed: int, illegal: bool = False) -> Board | None:
    """A position of a seeded game and its next move made on the parts (or an illegal cog;
    None: the position has no illegal cog to show)."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    state = new_game("cog", {"players": players}, seed)
    assert isinstance(state, CogState)
    before_state = None
    for _ in range(rng.randrange(0, 160)):
        if state.is_over():
            break
        before_state = state.clone()
        state.apply(_next(state, rng))
    if state.is_over() and before_state is not None:
        state = before_state
        before_state = None
    layout = state.ed.layout
    assert layout is not None
    explained = explanations(state, before_state)
    before = full_view(laid_out(state, layout), players)
    if illegal:
        return _illegal_board(players, explained, before, rng)
    move = _next(state, rng)
    after = state.clone()
    after.apply(move)
    shown = (
        full_view(laid_out(after, layout), players) if isinstance(move, CAMERA_MOVES) else before
    )
    changed = next((part for part in shown if shown[part] != before[part]), None)
    return Board(players, explained, before, shown, changed)


def _next(state: CogState, rng: random.Random):
    if state.to_act() == (CHANCE,):
        return state.sample_chance()
    player = state.to_act()[0]
    chooser = random_player if rng.random() < 0.3 else greedy_player
    return chooser(state.clone(), player, rng)


def _illegal_board(players: int, explained: Explanations, before: View, rng) -> Board | None:
    """A cog where no legal placement puts it; the legal positions it must not be taken for."""
    stray = [o for o in explained.options if o.kind is ExplanationKind.ILLEGAL]
    if not stray:
        return None

    def view_of(changes) -> View:
        view = {part: dict(places) for part, places in before.items()}
        for (part, place), label in changes.items():
            view[part][place] = label
        return view

    legal = tuple(view_of(o.changes) for o in explained.options if o.kind.legal)
    shown = view_of(rng.choice(stray).changes)
    return Board(players, explained, before, shown, "board", legal)


def teach_view(players: int) -> View:
    """The table with the teach layout on the first mat and nothing else."""
    view = full_view({}, players)
    for cell, label in TEACH_LAYOUT:
        view[TEACH_PART][cell] = label
    return view


# -- frame sources ---------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    condition: str
    seed: int
    index: int
    size: tuple[int, int]


class Source:
    """Frames of one source: still tables, and a hand changing a part."""

    name: str
    conditions: tuple[str, ...]

    def still(self, table: Table, board: Board, view: View) -> Iterator[np.ndarray]:
        raise NotImplementedError

    def teach_frames(self, table: Table, players: int) -> list[np.ndarray]:
        """Frames of the teach layout on this table (its camera, light and tiles)."""
        raise NotImplementedError

    def hand(self, table: Table, board: Board) -> Iterator[tuple[np.ndarray, bool, View]]:
        """The table before, a hand over the changed part while it changes, then still after:
        (frame, hand over the part, what the parts show)."""
        raise NotImplementedError


class TuningSource(Source):
    name = TUNING
    conditions = tuple(TUNING_CONDITIONS)

    def __init__(self) -> None:
        self.renderer = TableRenderer()
        self.edition = load_edition()

    def _scene(self, table: Table, board: Board) -> TableScene:
        return self._table_scene(table, board.players)

    def _table_scene(self, table: Table, players: int) -> TableScene:
        rng = np.random.default_rng(table.seed)
        layouts = part_layouts(self.edition, players)
        font = TUNING_FONTS[table.index % len(TUNING_FONTS)]
        scene = random_table_scene(rng, layouts, {}, font=font)
        return TUNING_CONDITIONS[table.condition](rng, scene)

    def teach_frames(self, table, players):
        scene = replace(self._table_scene(table, players), contents=teach_view(players))
        return [
            self.renderer.render(scene, table.size, table.seed * 64 + 90 + k)
            for k in range(TEACH_FRAMES)
        ]

    def still(self, table, board, view):
        scene = replace(self._scene(table, board), contents=view)
        for k in itertools.count():
            yield self.renderer.render(scene, table.size, table.seed * 64 + k)

    def hand(self, table, board):
        scene = self._scene(table, board)
        before = replace(scene, contents=board.before)
        for k in range(BEFORE_FRAMES):
            yield (
                self.renderer.render(before, table.size, table.seed * 64 + 50 + k),
                False,
                board.before,
            )
        assert board.changed is not None
        hand = _hand_over(scene, board.changed, np.random.default_rng(table.seed + 7))
        covered = replace(scene, contents=board.shown, hands=(hand,))
        for k in range(HAND_FRAMES):
            yield (
                self.renderer.render(covered, table.size, table.seed * 64 + 40 + k),
                True,
                board.shown,
            )
        for image in self.still(table, board, board.shown):
            yield image, False, board.shown


def _hand_over(scene: TableScene, part: str, rng: np.random.Generator) -> Hand:
    """A hand over the middle of a part, the arm from a random side."""
    layout, pose = next((lay, pose) for lay, pose in scene.parts if lay.name == part)
    return _hand_at(layout, pose, rng)


def _hand_at(layout: PartLayout, pose: PartPose, rng: np.random.Generator) -> Hand:
    point = np.array(
        [layout.width * rng.uniform(0.3, 0.7), layout.height * rng.uniform(0.3, 0.7), 1]
    )
    x, y, _ = part_to_table(layout, pose) @ point
    return Hand((float(x), float(y)), float(rng.uniform(0, 360)), float(rng.uniform(0.9, 1.15)))


class HeldOutSource(Source):
    """The held-out renderer through its README's API: still frames of a view (no hands:
    the README says it draws none over the parts)."""

    name = HELD_OUT

    def __init__(self) -> None:
        from benchmarks.held_out import parts as held

        self.held = held
        self.conditions = (
            "plain",
            "tilted",
            "faces",
            "wild",
            "glare",
            "warm",
            "cool",
            "jpeg",
            "turned",
            "raised",
        )

    def teach_frames(self, table, players):
        return [
            self.held.render_still(
                table.condition,
                table.seed,
                90 + k,
                table.size,
                players=players,
                view=teach_view(players),
            )[0]
            for k in range(TEACH_FRAMES)
        ]

    def still(self, table, board, view):
        for k in itertools.count():
            frame, _truth = self.held.render_still(
                table.condition, table.seed, k, table.size, players=board.players, view=view
            )
            yield frame


# -- the camera path -------------------------------------------------------------------


class Path:
    """The table's camera path for one table: a reader, a filter and a judge per part."""

    def __init__(self, reader: PartsReader, board: Board) -> None:
        self.reader = reader
        self.clock = SimClock()
        self.filters: dict[str, SettlingFilter] = {}
        for layout in reader.layouts:
            judge = None
            if not WITHOUT_DECISION:
                explained = part_explanations(board.explained, layout.name)
                judge = StillBoardJudge(lambda e=explained: e, PartEvidence(layout))
            self.filters[layout.name] = SettlingFilter(
                window=WINDOW_S, clock=self.clock, judge=judge
            )

    def step(self, image: np.ndarray) -> dict[str, dict]:
        """One frame: the parts that committed a changed position in it, and what."""
        reading = self.reader.read(image)
        commits = {}
        for name, settle in self.filters.items():
            status = settle.update(reading.parts[name])
            if status.new_commit:
                commits[name] = dict(status.committed or {})
        self.clock.tick()
        return commits


class Readers:
    """A parts reader per table, taught on that table's teach frames (the shipped letter model
    shared as the base); None when the teach step refuses the frames."""

    def __init__(self) -> None:
        self.edition = load_edition()
        self.base = LetterModel.default()
        self.untaught: dict[int, PartsReader] = {}

    def reader(self, source: Source, table: Table, players: int) -> PartsReader | None:
        layouts = part_layouts(self.edition, players)
        if UNTAUGHT:
            reader = self.untaught.setdefault(players, PartsReader(layouts, classifier=self.base))
            reader.forget()
            return reader
        try:
            taught = teach(source.teach_frames(table, players), layouts, self.base)
        except UserError as error:
            print(f"  teach refused ({source.name} {table}): {error}", flush=True)
            return None
        look = replace(REFERENCE, tiles=taught.tiles)
        return PartsReader(layouts, look, classifier=taught.classifier)


def rows(options: Options) -> Iterator[Row]:
    """Every condition of every source at every size."""
    readers = Readers()
    for source_name in options.sources:
        source = TuningSource() if source_name == TUNING else HeldOutSource()
        for number, condition in enumerate(source.conditions):
            if not options.wants(condition):
                continue
            for size in options.sizes:
                first = options.first_seed(source_name) + number * 100_000 + size[0] * 10
                row = _row(source, condition, size, options.boards(4), first, readers)
                within = [t for t in row.times if t is not None and t <= PARTS_LIMIT_S + 1e-9]
                print(
                    f"  parts {source_name} {condition} {size[0]}x{size[1]}: {len(within)}/"
                    f"{len(row.times)} parts within {PARTS_LIMIT_S:g} s",
                    flush=True,
                )
                yield row


def _row(  # noqa: PLR0917
    source: Source, condition: str, size, boards: int, first: int, readers: Readers
) -> Row:
    surface = "parts" + (" (no decision)" if WITHOUT_DECISION else "")
    row = Row(surface, source.name, condition, size)
    started = cpu_seconds()
    for index in range(boards):
        table = Table(condition, first + index, index, size)
        board = game_board(table.seed)
        assert board is not None
        reader = readers.reader(source, table, board.players)
        if reader is None:
            for _part in read_parts(board):
                row.refuse()
            continue
        if index % 2 and board.changed is not None and isinstance(source, TuningSource):
            _after_hand(row, Path(reader, board), board, source.hand(table, board))
        else:
            _still(row, Path(reader, board), board, source.still(table, board, board.shown))
        if index % 4 == 3:
            bad = game_board(table.seed, illegal=True)
            if bad is not None and bad.players == board.players:
                reader.forget()
                _illegal(row, Path(reader, bad), bad, source.still(table, bad, bad.shown))
    row.seconds = cpu_seconds() - started
    return row


def read_parts(board: Board) -> list[str]:
    """The parts a table's board shows (the board and each player's mat)."""
    return list(board.shown)


def _still(row: Row, path: Path, board: Board, images: Iterator[np.ndarray]) -> None:
    """Every part still from its first frame: when each is committed, and whether rightly."""
    first: dict[str, tuple[int, bool]] = {}
    for index in range(math.ceil(GIVE_UP_S * FPS)):
        for part, committed in path.step(next(images)).items():
            wrong = committed != board.shown[part]
            if part not in first:
                first[part] = (index, wrong)
            elif wrong:
                first[part] = (first[part][0], True)
        if len(first) == len(path.filters):
            break
    for part in path.filters:
        index, wrong = first.get(part, (None, False))
        row.still(None if index is None else index / FPS, wrong)


def _after_hand(row: Row, path: Path, board: Board, frames) -> None:
    """The changed part: commits under the hand, wrong commits, time from the hand leaving."""
    part = board.changed
    assert part is not None
    under = wrong = 0
    came = False
    left: int | None = None
    current = None
    for count, (image, busy, view) in enumerate(frames):
        commits = path.step(image)
        committed = commits.get(part)
        current = committed if committed is not None else current
        if busy:
            under += committed is not None
            came, left = True, None
            continue
        wrong += committed is not None and committed != view[part]
        if not came:
            continue
        left = count if left is None else left
        if current == board.shown[part]:
            seconds = (count - left) / FPS
            row.still(seconds, bool(wrong))
            row.hand_left(seconds, under)
            return
        if count - left >= GIVE_UP_S * FPS:
            break
    row.still(None, bool(wrong))
    row.hand_left(None, under)


def _illegal(row: Row, path: Path, board: Board, images: Iterator[np.ndarray]) -> None:
    """A board with an illegal cog: never committed as a legal position."""
    as_legal = wrong = False
    for _ in range(math.ceil(PARTS_LIMIT_S * FPS)):
        committed = path.step(next(images)).get("board")
        if committed is not None:
            as_legal |= any(committed == legal["board"] for legal in board.legal)
            wrong |= committed != board.shown["board"]
    row.illegal_move(as_legal, wrong)
